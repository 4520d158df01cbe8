"""The API accepts the fields of DRA features the engine does not simulate and names them in a warning."""

from allocator.tests.helpers.not_simulated import CLAIM, CLASS, NODE, POD_GROUP, SLICE_1_37
from api.tests.base import APITestCase

ALL = NODE + SLICE_1_37 + CLASS + "---" + CLAIM  # the API takes the objects as documents


class NotSimulatedTestCase(APITestCase):
    def test_analyze_lists_the_warnings_located_and_allocates(self):
        r = self.post_json("/api/v1/analyze", {"documents": ALL})
        self.assertEqual(r.status_code, 200, r.content[:500])
        body = r.json()
        self.assertTrue(body["valid"])
        self.assertEqual(body["allocation"]["status"], "allocated")
        found = [(d["severity"], d["type"], d["field"], d["line"]) for d in body["diagnostics"]]
        self.assertEqual(found, [("warning", "Not simulated", "spec.skipNodeOperations", 13),
                                 ("warning", "Not simulated", "spec.devices[0].nodeAllocatableResources", 16)])

    def test_the_same_fields_are_unknown_in_1_35(self):
        r = self.post_json("/api/v1/analyze", {"documents": ALL, "kubernetesVersion": "1.35"})
        body = r.json()
        self.assertFalse(body["valid"])
        self.assertEqual({d["type"] for d in body["diagnostics"]}, {"Parse error"})

    def test_a_pod_group_is_named(self):
        r = self.post_json("/api/v1/analyze", {"documents": POD_GROUP})
        details = [d["detail"] for d in r.json()["diagnostics"]]
        self.assertEqual(len(details), 2)
        self.assertTrue(all(d.startswith("DRAWorkloadResourceClaims (claims reserved for a whole PodGroup) is not "
                                         "simulated") for d in details), details)

    def test_validate_lists_them_as_warnings(self):
        r = self.post_json("/api/v1/validate", {"documents": ALL})
        self.assertEqual(r.status_code, 200, r.content[:500])
        body = r.json()
        self.assertTrue(body["valid"])
        self.assertEqual([(w["type"], w["field"]) for w in body["warnings"]],
                         [("Not simulated", "spec.skipNodeOperations"),
                          ("Not simulated", "spec.devices[0].nodeAllocatableResources")])
