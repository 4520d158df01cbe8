from api.tests.base import CLAIM_YAML, INVALID_CLAIM_YAML, UNSATISFIABLE_CLAIM_YAML, APITestCase

REPORT_KEYS = ["kubernetesVersion", "draOff", "featureGates", "gateOverrides", "objects", "ignored", "valid", "diagnostics",
               "requests", "explainedNode", "allocation", "nodes", "containers"]

POD_YAML = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata:
  name: gpu-template
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
---
apiVersion: v1
kind: Pod
metadata:
  name: trainer
spec:
  containers:
  - name: main
    image: busybox
    resources:
      claims:
      - name: gpu
  resourceClaims:
  - name: gpu
    resourceClaimTemplateName: gpu-template
"""


class AnalyzeTestCase(APITestCase):
    def test_it_returns_the_whole_report(self):
        r = self.post_json("/api/v1/analyze", {"documents": CLAIM_YAML, "inventory": "two-gpus"})
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertEqual(list(body), REPORT_KEYS)
        self.assertTrue(body["valid"])
        self.assertEqual(body["kubernetesVersion"], "1.37")
        self.assertEqual(body["gateOverrides"], {})
        self.assertEqual(body["allocation"]["status"], "allocated")
        self.assertEqual([(o["kind"], o["source"]) for o in body["objects"]], [
            ("ResourceClaim", "documents"), ("Node", "inventory"), ("DeviceClass", "inventory"),
            ("ResourceSlice", "inventory"),
        ])
        self.assertEqual(body["nodes"], [{"name": "worker-1", "fits": True, "reason": None, "error": False,
                                          "schedulerReason": None}])

    def test_it_maps_devices_to_containers(self):
        r = self.post_yaml("/api/v1/analyze?inventory=two-gpus", POD_YAML)
        self.assertEqual(r.status_code, 200)
        [container] = r.json()["containers"]
        self.assertEqual((container["pod"], container["container"], container["podClaim"]), ("trainer", "main", "gpu"))
        self.assertEqual([d["device"] for d in container["devices"]], ["gpu-0"])

    def test_it_applies_version_and_gates(self):
        r = self.post_yaml("/api/v1/analyze?kubernetesVersion=1.34&featureGates=DRAAdminAccess=false", CLAIM_YAML)
        body = r.json()
        self.assertEqual(body["kubernetesVersion"], "1.34")
        self.assertEqual(body["gateOverrides"], {"DRAAdminAccess": False})
        self.assertFalse(body["featureGates"]["DRADeviceTaints"])  # off by default before 1.36

    def test_it_reports_unreadable_input_as_diagnostics(self):
        r = self.post_yaml("/api/v1/analyze", "kind: [unclosed\n")
        self.assertEqual(r.status_code, 200)
        body = r.json()
        self.assertFalse(body["valid"])
        self.assertEqual(body["diagnostics"][0]["type"], "Parse error")
        self.assertEqual(body["allocation"]["status"], "skipped")

    def test_it_reports_invalid_and_unsatisfiable_claims(self):
        invalid = self.post_json("/api/v1/analyze", {"documents": INVALID_CLAIM_YAML}).json()
        self.assertEqual(invalid["diagnostics"][0]["field"], "spec.devices.requests[0].name")
        unsatisfiable = self.post_json("/api/v1/analyze", {"documents": UNSATISFIABLE_CLAIM_YAML,
                                                           "inventory": "two-gpus"}).json()
        self.assertEqual(unsatisfiable["allocation"]["status"], "unsatisfiable")

    def test_it_refuses_bad_options(self):
        r = self.post_json("/api/v1/analyze", {"documents": CLAIM_YAML, "kubernetesVersion": "1.30"})
        self.assertErrors(r, 400, type="Unsupported value", field="kubernetesVersion")


class QuickFixesTestCase(APITestCase):
    def test_a_did_you_mean_carries_its_edit(self):
        from allocator.tests.helpers.fixes import INVENTORY, apply, claim

        # The inventory's objects follow the claim in the same text (no stored inventory needed).
        documents = claim("device.attributes['dra.example.com'].productNme == 'a100'", "double") + "---\n" + INVENTORY
        r = self.post_json("/api/v1/analyze", {"documents": documents})
        self.assertEqual(r.status_code, 200, r.content)
        fixes = [f for d in r.json()["diagnostics"] for f in d["fixes"]]
        self.assertIn({"title": "Use productName", "document": "documents", "start": {"line": 14, "column": 63},
                       "end": {"line": 14, "column": 73}, "replacement": "productName"}, fixes)
        fixed = apply(documents, fixes[0])
        r = self.post_json("/api/v1/analyze", {"documents": fixed})
        # The typo is gone; what is left is the next step: dev-1 publishes no productName (guard it).
        titles = [f["title"] for d in r.json()["diagnostics"] for f in d["fixes"]]
        self.assertEqual(titles, ["Guard with has(device.attributes['dra.example.com'].productName)"])

    def test_the_schema_documents_fixes(self):
        r = self.client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
        self.assertEqual(r.status_code, 200)
        schema = r.json()["components"]["schemas"]
        self.assertIn("fixes", schema["Diagnostic"]["properties"])
        self.assertEqual(set(schema["Fix"]["properties"]), {"title", "document", "start", "end", "replacement"})
