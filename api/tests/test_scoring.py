"""Node scores and binding conditions through the API (issue 28, items 4 and 8)."""

from allocator.tests.helpers import ROOT
from api.tests.base import APITestCase

DATA = ROOT / "allocator/tests/data/scoring"
TWO_NODES = (DATA / "two-nodes.yaml").read_text()
FABRIC = (DATA / "fabric.yaml").read_text()
PRIORITIZED = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: gpu}
spec:
  devices:
    requests:
    - name: gpu
      firstAvailable:
      - {name: big, deviceClassName: gpu, selectors: [{cel: {expression: "device.attributes['gpu.example.com'].size == 'big'"}}]}
      - {name: small, deviceClassName: gpu, selectors: [{cel: {expression: "device.attributes['gpu.example.com'].size == 'small'"}}]}
"""
TWO_ACCELERATORS = """
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: two}
spec:
  devices:
    requests: [{name: accel, exactly: {deviceClassName: accel, count: 2}}]
"""


class ScoringTestCase(APITestCase):
    def test_analyze_scores_the_nodes_that_fit(self):
        r = self.post_json("/api/v1/analyze", {"documents": TWO_NODES + "---" + PRIORITIZED})
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertEqual(body["allocation"]["node"], "node-b")
        self.assertEqual({n["name"]: (n["score"], n["rawScore"]) for n in body["nodes"]},
                         {"node-a": (87, 7), "node-b": (100, 8), "node-c": (87, 7)})
        self.assertEqual(body["allocation"]["scoring"]["scored"], True)

    def test_analyze_on_1_34_scores_nothing(self):
        r = self.post_json("/api/v1/analyze", {"documents": TWO_NODES + "---" + PRIORITIZED,
                                               "kubernetesVersion": "1.34"})
        body = r.json()
        self.assertEqual(body["allocation"]["node"], "node-a")
        self.assertTrue(all("score" not in n for n in body["nodes"]))
        self.assertFalse(body["allocation"]["scoring"]["scored"])

    def test_allocate_adds_scoring_when_scores_chose(self):
        r = self.post_json("/api/v1/allocate", {"documents": TWO_NODES + "---" + PRIORITIZED})
        body = r.json()
        self.assertEqual(list(body), ["allocated", "node", "claims", "reasons", "error", "scoring"])
        self.assertEqual(body["node"], "node-b")
        self.assertIn("node-b has the best DRA score (100)", body["scoring"]["note"])
        r = self.post_json("/api/v1/allocate", {"documents": TWO_NODES + "---" + PRIORITIZED, "node": "node-a"})
        self.assertEqual(list(r.json()), ["allocated", "node", "claims", "reasons", "error"])

    def test_binding_conditions_on_the_grant(self):
        for path in ("/api/v1/allocate", "/api/v1/analyze"):
            r = self.post_json(path, {"documents": FABRIC + "---" + TWO_ACCELERATORS, "kubernetesVersion": "1.36"})
            self.assertEqual(r.status_code, 200, r.content)
            body = r.json()
            binding = (body["allocation"] if path.endswith("analyze") else body)["binding"]
            self.assertEqual([d["device"] for d in binding["devices"]], ["fabric-0"])
            self.assertEqual(binding["timeoutSeconds"], 600)
            self.assertTrue(binding["message"].startswith("The allocation is not final"))

    def test_binding_conditions_gate_off_in_1_35(self):
        r = self.post_json("/api/v1/allocate", {"documents": FABRIC + "---" + TWO_ACCELERATORS,
                                                "kubernetesVersion": "1.35"})
        body = r.json()
        self.assertFalse(body["allocated"])
        self.assertNotIn("binding", body)

    def test_the_schema_describes_the_new_fields(self):
        schema = self.client.get("/api/schema/?format=json").json()
        components = schema["components"]["schemas"]
        self.assertIn("score", components["NodeFit"]["properties"])
        self.assertIn("rawScore", components["NodeFit"]["properties"])
        self.assertIn("scoring", components["Allocation"]["properties"])
        self.assertIn("binding", components["Allocation"]["properties"])
        self.assertIn("binding", components["AllocateResponse"]["properties"])
