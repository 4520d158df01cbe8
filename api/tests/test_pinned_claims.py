"""A pod's allocated claims pin its node; PostFilter frees them and the scheduler retries (issue 28, item 3)."""

from allocator.tests.helpers import pinning
from api.tests.base import APITestCase

PIN_REASON = "claim default/a is allocated on devices this node cannot use (resourceclaim not available on the node)"


class PinnedClaimsTestCase(APITestCase):
    # The inventory goes with the documents: the API's `inventory` names a sample or a stored inventory.

    def test_allocate_reports_the_retry(self):
        r = self.post_json("/api/v1/allocate", {"documents": pinning.everything()})
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertEqual(list(body), ["allocated", "node", "claims", "reasons", "error", "attempts", "deallocated"])
        self.assertTrue(body["allocated"])
        self.assertEqual(body["node"], "n2")
        self.assertEqual([c["metadata"]["name"] for c in body["claims"]], ["a", "b"])
        self.assertEqual(body["deallocated"], ["a"])
        [first] = body["attempts"]
        self.assertEqual((first["attempt"], first["status"], first["deallocated"]), (1, "unsatisfiable", "a"))
        self.assertIn(f"n2: {PIN_REASON}", first["reasons"])

    def test_analyze_marks_the_pinned_node_and_keeps_a_claim_of_another_pod(self):
        documents = pinning.everything(reserved_for="22222222-2222-2222-2222-222222222222")
        r = self.post_json("/api/v1/analyze", {"documents": documents, "node": "n2"})
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        alloc = body["allocation"]
        self.assertEqual(alloc["status"], "unsatisfiable")
        self.assertNotIn("attempts", alloc)
        self.assertEqual(alloc["notFreed"], ["a"])
        self.assertEqual(alloc["reasons"][-1],
                         "PostFilter frees no claim (still not schedulable): claim a is reserved for another pod")
        [n2] = body["nodes"]
        self.assertEqual((n2["name"], n2["fits"], n2["reason"], n2["pinnedBy"]), ("n2", False, PIN_REASON, ["a"]))

    def test_allocate_without_a_pod_pins_nothing(self):
        r = self.post_json("/api/v1/allocate", {"documents": pinning.everything(pod=False)})
        self.assertEqual(r.status_code, 200, r.content)
        self.assertEqual(list(r.json()), ["allocated", "node", "claims", "reasons", "error"])
        self.assertEqual(r.json()["node"], "n2")
