"""POST /api/v1/capacity: how many copies of a workload fit, one after another."""

from django.test import override_settings

from api.tests.base import APITestCase

# The base's sample inventory "two-gpus" has one node, worker-1, with gpu-0 (A100) and gpu-1 (H100).
POD = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu}
spec:
  spec:
    devices:
      requests: [{name: gpu, exactly: {deviceClassName: gpu.example.com}}]
---
apiVersion: v1
kind: Pod
metadata: {name: trainer}
spec:
  containers: [{name: c, image: x}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
"""


class CapacityTestCase(APITestCase):
    def capacity(self, **body):
        return self.post_json("/api/v1/capacity", {"documents": POD, "inventory": "two-gpus", **body})

    def test_it_places_copies_until_the_gpus_run_out(self):
        r = self.capacity()
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertEqual((body["placed"], body["stoppedBy"], body["strategy"]), (2, "no node fits", "first"))
        self.assertEqual([s["pods"] for s in body["steps"]], [["trainer-1"], ["trainer-2"]])
        self.assertEqual([s["claims"][0]["devices"] for s in body["steps"]],
                         [["gpu.example.com/worker-1/gpu-0"], ["gpu.example.com/worker-1/gpu-1"]])
        self.assertEqual(body["byNode"], [{"name": "worker-1", "copies": 2, "used": 2, "total": 2}])
        [row] = body["next"]["nodes"]
        self.assertEqual(row["name"], "worker-1")
        self.assertIn("already allocated", row["reason"])

    def test_max_stops_early(self):
        body = self.capacity(max=1, strategy="pack").json()
        self.assertEqual((body["placed"], body["stoppedBy"], body["next"]), (1, "max", None))

    @override_settings(CAPACITY_MAX_COPIES=5)
    def test_max_is_capped_by_the_site(self):
        self.assertErrors(self.capacity(max=6), 400, field="max")

    def test_an_unknown_strategy_is_a_400(self):
        self.assertErrors(self.capacity(strategy="random"), 400, type="Unsupported value", field="strategy")

    def test_invalid_documents_are_a_400(self):
        r = self.capacity(documents=POD.replace("name: gpu,", "name: Not_A_Label,"))
        self.assertErrors(r, 400)

    def test_an_unknown_class_is_a_400(self):
        r = self.capacity(documents=POD.replace("deviceClassName: gpu.example.com", "deviceClassName: nope"))
        [error] = self.assertErrors(r, 400)
        self.assertIn('deviceclass.resource.k8s.io "nope" not found', error["detail"])

    def test_a_pod_naming_a_missing_template_is_a_400(self):
        r = self.capacity(documents=POD.replace("resourceClaimTemplateName: one-gpu", "resourceClaimTemplateName: x"))
        [error] = self.assertErrors(r, 400)
        self.assertIn('resource claim template "x" not found', error["detail"])


DEPLOYMENT = POD[: POD.index("---\n")] + """\
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: x}]
      resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
---
apiVersion: batch/v1
kind: Job
metadata: {name: train}
spec:
  parallelism: 3
  template:
    spec:
      restartPolicy: Never
      containers: [{name: c, image: x}]
      resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
"""


class WorkloadsTestCase(APITestCase):
    def capacity(self, documents: str, **body):
        return self.post_json("/api/v1/capacity", {"documents": documents, "inventory": "two-gpus", **body})

    def test_each_workload_has_its_count_and_next_names_the_one_that_ran_out(self):
        r = self.capacity(DEPLOYMENT)
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertEqual(body["workloads"], [{"kind": "Deployment", "name": "web", "asked": 1, "placed": 1},
                                             {"kind": "Job", "name": "train", "asked": 3, "placed": 1}])
        self.assertEqual([s["workload"] for s in body["steps"]], ["Deployment/web", "Job/train"])
        self.assertTrue(body["steps"][1]["pods"][0].startswith("train-"))
        self.assertEqual((body["stoppedBy"], body["next"]["workload"]), ("no node fits", "Job/train"))

    def test_every_count_placed(self):
        body = self.capacity(DEPLOYMENT.replace("parallelism: 3", "parallelism: 1")).json()
        self.assertEqual((body["placed"], body["stoppedBy"], body["next"]), (2, "all placed", None))

    def test_a_pod_alone_is_repeated_with_no_count(self):
        body = self.capacity(POD).json()
        self.assertEqual(body["workloads"], [{"kind": "Pod", "name": "trainer", "asked": None, "placed": 2}])

    def test_a_bad_count_is_a_located_400(self):
        r = self.capacity(DEPLOYMENT.replace("replicas: 1", "replicas: -3"))
        [error] = self.assertErrors(r, 400, type="Invalid value", field="spec.replicas")
        self.assertEqual((error["kind"], error["name"], error["line"]), ("Deployment", "web", 13))

    def test_the_consumers_in_reservedfor_count_toward_the_256(self):
        consumers = "".join(f"\n  - {{resource: pods, name: p{i}, uid: u{i}}}" for i in range(255))
        documents = f"""\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {{name: shared}}
spec:
  devices:
    requests: [{{name: gpu, exactly: {{deviceClassName: gpu.example.com}}}}]
status:
  allocation:
    devices:
      results: [{{request: gpu, driver: gpu.example.com, pool: worker-1, device: gpu-0}}]
  reservedFor:{consumers}
---
apiVersion: v1
kind: Pod
metadata: {{name: user}}
spec:
  containers: [{{name: c, image: x}}]
  resourceClaims: [{{name: gpu, resourceClaimName: shared}}]
"""
        body = self.capacity(documents, max=5).json()
        self.assertEqual((body["placed"], body["stoppedBy"]), (1, "no node fits"))
        self.assertIn("256 consumers (255 of them in its status.reservedFor", body["next"]["reason"])
