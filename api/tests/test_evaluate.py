"""POST /api/v1/evaluate: a CEL expression on one device of an inventory."""

from api.tests.base import APITestCase

# The base's sample inventory "two-gpus": gpu-0 (A100, 40Gi) and gpu-1 of pool worker-1.
GPU_0 = {"driver": "gpu.example.com", "pool": "worker-1", "device": "gpu-0"}

SLICE = """\
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: node-1-gpus}
spec:
  driver: gpu.example.com
  nodeName: node-1
  pool: {name: node-1, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes:
      model: {string: H100}
      driverVersion: {version: 1.2.3}
"""


class EvaluateTestCase(APITestCase):
    def evaluate(self, **body):
        return self.post_json("/api/v1/evaluate", body)

    def test_it_answers_the_value_type_parts_and_cost_on_a_samples_device(self):
        r = self.evaluate(expression='device.capacity["gpu.example.com"].memory', inventory="two-gpus", device=GPU_0)
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertEqual((body["value"], body["type"]), ("40Gi", "kubernetes.Quantity"))
        self.assertEqual(body["device"], GPU_0)
        self.assertEqual(body["cost"]["limit"], 1_000_000)
        self.assertIsInstance(body["cost"]["estimated"], int)
        [root] = body["parts"]
        self.assertEqual(root["text"], body["expression"])
        self.assertEqual([c["text"] for c in root["children"]], ['device.capacity["gpu.example.com"]'])

    def test_it_reads_the_inventory_from_documents(self):
        r = self.evaluate(expression='device.attributes["gpu.example.com"].driverVersion.isGreaterThan(semver("1.0.0"))',
                          documents=SLICE, device={"driver": "gpu.example.com", "pool": "node-1", "device": "gpu-0"})
        self.assertEqual(r.status_code, 200, r.content)
        self.assertEqual((r.json()["value"], r.json()["type"]), ("true", "bool"))

    def test_a_runtime_error_is_an_answer_with_diagnostics(self):
        r = self.evaluate(expression='device.attributes["gpu.example.com"].nope', inventory="two-gpus", device=GPU_0)
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertIsNone(body["value"])
        self.assertEqual(body["diagnostics"][0]["phase"], "runtime")
        self.assertIn("no such key: nope", body["diagnostics"][0]["message"])

    def test_a_compile_error_has_the_caret_diagram(self):
        r = self.evaluate(expression="device.driver ==", inventory="two-gpus", device=GPU_0)
        self.assertEqual(r.status_code, 200, r.content)
        self.assertIn("\n | device.driver ==\n", r.json()["diagnostics"][0]["message"])

    def test_the_gates_decide_the_environment(self):
        expression = '["a"].includes("a")'
        off = self.evaluate(expression=expression, inventory="two-gpus", device=GPU_0).json()
        self.assertEqual(off["diagnostics"][0]["phase"], "compile")
        on = self.evaluate(expression=expression, inventory="two-gpus", device=GPU_0,
                           featureGates={"DRAListTypeAttributes": True}).json()
        self.assertEqual(on["value"], "true")

    def test_an_unknown_device_is_a_400_saying_what_the_pool_holds(self):
        r = self.evaluate(expression="true", inventory="two-gpus", device={**GPU_0, "device": "gpu-9"})
        [error] = self.assertErrors(r, 400, type="Not found", field="device")
        self.assertIn("has no device 'gpu-9'; it has gpu-0, gpu-1", error["detail"])

    def test_without_an_inventory_it_is_a_400(self):
        r = self.evaluate(expression="true", device=GPU_0)
        self.assertErrors(r, 400, field="inventory")

    def test_unreadable_documents_are_a_located_400(self):
        r = self.evaluate(expression="true", documents="kind: [\n", device=GPU_0)
        [error] = self.assertErrors(r, 400, type="Parse error")
        self.assertEqual(error["line"], 2)


SCRATCH = "driver: gpu.example.com\nattributes:\n  model: {string: H200}\ncapacity:\n  memory: {value: 141Gi}\n"


class ScratchEvaluateTestCase(APITestCase):
    def evaluate(self, **body):
        return self.post_json("/api/v1/evaluate", body)

    def test_it_evaluates_on_a_scratch_device_without_an_inventory(self):
        r = self.evaluate(expression='device.attributes["gpu.example.com"].model', scratch=SCRATCH)
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertEqual((body["value"], body["type"]), ('"H200"', "string"))
        self.assertEqual(body["device"], {"driver": "gpu.example.com", "pool": "scratch", "device": "scratch"})

    def test_an_invalid_scratch_device_is_a_located_400(self):
        r = self.evaluate(expression="device.driver", scratch="attributes:\n  model: {string: A, int: 3}\n")
        self.assertEqual(r.status_code, 400, r.content)
        (error,) = r.json()["errors"]
        self.assertEqual((error["field"], error["line"], error["column"]), ("scratch.attributes[model]", 2, 10))
        self.assertIn("exactly one value must be specified", error["detail"])

    def test_a_device_or_a_scratch_device_one_of_the_two(self):
        r = self.evaluate(expression="device.driver", scratch=SCRATCH, inventory="two-gpus", device=GPU_0)
        self.assertEqual(r.status_code, 400)
        self.assertEqual(r.json()["errors"][0]["field"], "device")
        r = self.evaluate(expression="device.driver", inventory="two-gpus")
        self.assertEqual(r.status_code, 400)
        self.assertIn("scratch", r.json()["errors"][0]["detail"])
