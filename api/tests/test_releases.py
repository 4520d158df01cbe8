"""The API simulates the release named by kubernetesVersion: served versions, DRA off, locked gates."""

from api.tests.base import CLAIM_YAML, APITestCase, run_cli


class ReleasesTestCase(APITestCase):
    def test_validate_refuses_v1_on_1_31_with_the_served_version_named(self):
        r = self.post_json("/api/v1/validate", {"documents": CLAIM_YAML, "kubernetesVersion": "1.31",
                                                "featureGates": {"DynamicResourceAllocation": True}})
        (error,) = self.assertErrors(r, 400, type="Not served", field="apiVersion")
        self.assertEqual((error["kind"], error["line"], error["column"]), ("ResourceClaim", 1, 1))
        self.assertIn("not served by Kubernetes 1.31, which serves ResourceClaim in resource.k8s.io/v1alpha3",
                      error["detail"])

    def test_allocate_with_dra_off_by_default_says_which_gate_to_turn_on(self):
        r = self.post_json("/api/v1/allocate", {"documents": CLAIM_YAML, "inventory": "two-gpus",
                                                "kubernetesVersion": "1.33"})
        errors = self.assertErrors(r, 400, type="Not served")
        self.assertTrue(all("while DynamicResourceAllocation is off" in e["detail"] for e in errors), errors)
        body = self.post_json("/api/v1/analyze", {"documents": "", "kubernetesVersion": "1.33"}).json()
        self.assertIn("DynamicResourceAllocation is beta and off by default in Kubernetes 1.33", body["draOff"])
        self.assertEqual(body["allocation"]["reasons"], [body["draOff"]])

    def test_a_locked_gate_cannot_be_changed(self):
        for query in ("kubernetesVersion=1.37&featureGates=DRAPrioritizedList=false",
                      "kubernetesVersion=1.35&featureGates=DynamicResourceAllocation=false"):
            with self.subTest(query=query):
                r = self.post_yaml(f"/api/v1/analyze?{query}", CLAIM_YAML)
                (error,) = self.assertErrors(r, 400, field="featureGates")
                self.assertRegex(error["detail"], r"^cannot set feature gate \w+ to false, feature is locked to true$")
        r = self.post_yaml("/api/v1/allocate?kubernetesVersion=1.36&featureGates=DRAPrioritizedList=false&inventory=two-gpus",
                           CLAIM_YAML)
        self.assertEqual(r.status_code, 200, r.content)
        self.assertTrue(r.json()["allocated"])

    def test_1_37_no_longer_serves_v1alpha3(self):
        alpha = CLAIM_YAML.replace("resource.k8s.io/v1", "resource.k8s.io/v1alpha3").replace("  exactly:\n        deviceClassName", "  deviceClassName")
        r = self.post_json("/api/v1/validate", {"documents": alpha})
        (error,) = self.assertErrors(r, 400, type="Not served")
        self.assertIn("resource.k8s.io/v1, resource.k8s.io/v1beta2, resource.k8s.io/v1beta1", error["detail"])

    def test_validate_refuses_a_field_the_release_does_not_have_as_an_unknown_field(self):
        claim = ("apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata:\n  name: big-or-any\nspec:\n"
                 "  devices:\n    requests:\n    - name: gpu\n      firstAvailable:\n      - name: any\n"
                 "        deviceClassName: gpu.example.com\n")
        r = self.post_json("/api/v1/validate", {"documents": claim, "kubernetesVersion": "1.32",
                                                "featureGates": {"DynamicResourceAllocation": True}})
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertFalse(body["valid"])
        (error,) = body["errors"]
        self.assertEqual((error["field"], error["type"], error["line"], error["column"]),
                         ("spec.devices.requests[0].firstAvailable", "Parse error", 9, 7))
        self.assertEqual(error["detail"], 'unknown field "spec.devices.requests[0].firstAvailable": '
                                          "resource.k8s.io/v1beta1 in Kubernetes 1.32 has no such field (added in 1.33)")
        code, printed = run_cli("validate", claim, options=("--kubernetes-version", "1.32", "--feature-gates",
                                                            "DynamicResourceAllocation=true"))
        self.assertEqual((code, printed), (1, body))
        r = self.post_json("/api/v1/validate", {"documents": claim, "kubernetesVersion": "1.34"})
        self.assertEqual(r.json(), {"valid": True, "errors": [], "warnings": []})
