"""Gate dependencies (1.35 on) in the API: 400, located on featureGates, with the components' words."""

from api.tests.base import CLAIM_YAML, APITestCase

WORDS = "DRADeviceTaintRules is enabled, but depends on features that are disabled: [DRADeviceTaints]"


class GateDependenciesTestCase(APITestCase):
    def test_taint_rules_without_device_taints_are_refused_on_every_endpoint(self):
        for path in ("/api/v1/analyze", "/api/v1/allocate", "/api/v1/validate"):
            with self.subTest(path=path):
                r = self.post_json(path, {"documents": CLAIM_YAML, "inventory": "two-gpus",
                                          "featureGates": {"DRADeviceTaints": False}})
                (error,) = self.assertErrors(r, 400, field="featureGates")
                self.assertEqual(error["detail"], WORDS)

    def test_the_same_as_query_parameters_and_on_1_36_with_the_rules_turned_on(self):
        r = self.post_yaml("/api/v1/analyze?kubernetesVersion=1.36"
                           "&featureGates=DRADeviceTaintRules=true,DRADeviceTaints=false", CLAIM_YAML)
        (error,) = self.assertErrors(r, 400, field="featureGates")
        self.assertEqual(error["detail"], WORDS)

    def test_a_valid_combination_and_an_older_release_are_accepted(self):
        for version, gates in (("1.37", {"DRADeviceTaints": False, "DRADeviceTaintRules": False}),
                               ("1.36", {"DRADeviceTaints": False}),
                               ("1.34", {"DRADeviceBindingConditions": True, "DRAResourceClaimDeviceStatus": False})):
            with self.subTest(version=version, gates=gates):
                r = self.post_json("/api/v1/analyze", {"documents": CLAIM_YAML, "inventory": "two-gpus",
                                                       "kubernetesVersion": version, "featureGates": gates})
                self.assertEqual(r.status_code, 200, r.content[:500])
                self.assertEqual(r.json()["gateOverrides"], gates)
