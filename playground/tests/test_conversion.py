"""Convert on the page (playground.conversion): POST /editor/convert, and the "Rewrite in VERSION" buttons
beside a "not served" error."""

import yaml

from playground.tests.base import BaseTestCase

V1 = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: two-gpus
spec:
  devices:
    requests:
    - name: gpus
      exactly:
        deviceClassName: gpu.example.com
        count: 2
    constraints:
    - distinctAttribute: gpu.example.com/uuid
      requests: [gpus]
"""
V1ALPHA3 = """\
apiVersion: resource.k8s.io/v1alpha3
kind: ResourceClaim
metadata:
  name: one-gpu
spec:
  devices:
    requests:
    - name: gpu
      deviceClassName: gpu.example.com
"""


class ConvertViewTestCase(BaseTestCase):
    def convert(self, documents: str, to: str, **more):
        return self.client.post("/editor/convert", {"documents": documents, "to": to, **more})

    def test_every_object_in_the_target_version(self):
        r = self.convert(V1ALPHA3 + "---\n" + V1, "v1")
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertEqual(body["apiVersion"], "resource.k8s.io/v1")
        self.assertEqual(body["dropped"], [])
        first, second = yaml.safe_load_all(body["text"])
        self.assertEqual(first["apiVersion"], "resource.k8s.io/v1")
        request = first["spec"]["devices"]["requests"][0]
        self.assertEqual(request["name"], "gpu")
        self.assertEqual(request["exactly"]["deviceClassName"], "gpu.example.com")
        self.assertNotIn("deviceClassName", request)
        self.assertEqual(second["spec"]["devices"]["constraints"][0]["distinctAttribute"], "gpu.example.com/uuid")

    def test_fields_the_target_lacks_are_named(self):
        r = self.convert(V1, "resource.k8s.io/v1alpha3", kubernetes_version="1.33",
                         gate_DynamicResourceAllocation="on")
        self.assertEqual(r.status_code, 200, r.content)
        self.assertEqual(r.json()["dropped"], [{
            "kind": "ResourceClaim", "name": "two-gpus", "field": "spec.devices.constraints[0].distinctAttribute",
            "detail": "resource.k8s.io/v1alpha3 has no such field; its value is not in the output"}])

    def test_refusals_are_a_400_with_the_reason(self):
        r = self.convert(V1, "v1alpha3")  # 1.37 does not serve it
        self.assertEqual(r.status_code, 400)
        self.assertIn("Not served", r.json()["error"])
        r = self.convert(V1, "v2")
        self.assertEqual(r.status_code, 400)
        self.assertIn("unknown target version 'v2'", r.json()["error"])
        r = self.convert("kind: [\n", "v1")
        self.assertEqual(r.status_code, 400)
        self.assertIn("line 2", r.json()["error"])
        r = self.convert(V1, "v1", kubernetes_version="0.1")
        self.assertEqual(r.status_code, 400)
        self.assertIn("unsupported Kubernetes version", r.json()["error"])
        self.assertEqual(self.client.get("/editor/convert").status_code, 405)

    def test_a_not_served_error_offers_the_served_versions(self):
        r = self.client.post("/", self.form_data(documents=V1ALPHA3))
        self.assertContains(r, 'data-rewrite="v1"')
        self.assertContains(r, ">Rewrite in v1beta2</button>", html=False)
        r = self.client.post("/", self.form_data(documents=V1, kubernetes_version="1.31",
                                                 gate_DynamicResourceAllocation="on"))
        self.assertContains(r, ">Rewrite in v1alpha3</button>", html=False)
        self.assertNotContains(r, 'data-rewrite="v1"')
        r = self.client.post("/", self.form_data(documents=V1))
        self.assertNotContains(r, "data-rewrite=")


LONG_SELECTOR = ("device.attributes['gpu.example.com'].model == 'A100' && "
                 "device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) >= 0")


class ConvertKeepsLinesTestCase(BaseTestCase):
    def test_a_long_expression_stays_on_its_line(self):
        """Convert puts its answer in the editor: a long selector is not folded onto a continuation line."""
        documents = V1.replace("        count: 2\n", "        count: 2\n        selectors:\n        - cel:\n"
                               f"            expression: {LONG_SELECTOR}\n")
        r = self.client.post("/editor/convert", {"documents": documents, "to": "v1beta2"})
        self.assertEqual(r.status_code, 200, r.content)
        self.assertIn(f"expression: {LONG_SELECTOR}\n", r.json()["text"])
