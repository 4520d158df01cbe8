"""The API and the command line explain a counter failure that depends on a choice between devices
(``allocator.allocation.counter_choices``), with the same data as the engine."""

from __future__ import annotations

from allocator.tests.helpers.samples import inventory_text, sample
from api.tests.base import APITestCase, run_cli

CHOICE = sample("examples", "mig-counters-choice")["documents"]
OPENING = ("claim default/mixed: the requests fit without shared counters (request whole gets gpu-0, request big "
           "gets gpu-0-mig-4g40gb-5-0, request more gets gpu-0-mig-3g40gb-9-0 and gpu-0-mig-3g40gb-9-4), but not "
           "with them: whatever request whole takes (2 choices), request more runs out of shared counters")
BRANCH = ("if it takes gpu-1: request more needs 2 devices, but of the 4 devices that match it only 1 fits the shared "
          "counters left once request whole takes gpu-1 and request big takes gpu-0-mig-4g40gb-5-0: "
          "gpu-0-counter-set/memory-slice-0: 0 of 1 left (taken by gpu-0-mig-4g40gb-5-0 of request big), "
          "gpu-0-mig-3g40gb-9-0 needs 1; gpu-1-counter-set/copy-engines: 0 of 8 left (taken by gpu-1 of request "
          "whole), 2 devices need 3 each")


class CounterChoicesTestCase(APITestCase):
    documents = inventory_text("nvidia-mig") + "---\n" + CHOICE

    def test_allocate_gives_every_choice_in_the_reason_and_as_data(self):
        r = self.post_json("/api/v1/allocate", {"documents": self.documents})
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertFalse(body["allocated"])
        [reason] = body["reasons"]
        self.assertTrue(reason.startswith(f"dgx-h100-01: {OPENING}"), reason)
        self.assertIn(BRANCH, reason)
        [entry] = body["counters"]
        self.assertEqual((entry["kind"], entry["claim"], entry["request"]), ("choices", "default/mixed", "more"))
        self.assertEqual(entry["choice"], {"claim": "default/mixed", "request": "whole", "choices": 2, "refused": 0})
        self.assertEqual([b["takes"][0]["device"] for b in entry["branches"]], ["gpu-0", "gpu-1"])
        second = entry["branches"][1]
        why = next(d["why"] for d in second["devices"] if d["device"] == "gpu-0-mig-3g40gb-9-0")
        self.assertEqual(why[0]["summary"], "gpu-0-counter-set/memory-slice-0: 0 of 1 left, needs 1; taken by "
                                            "gpu-0-mig-4g40gb-5-0 of request big")
        self.assertEqual(len(entry["withoutCounters"]), 3)

    def test_analyze_gives_the_same_in_the_node_reason_and_the_allocation(self):
        r = self.post_json("/api/v1/analyze", {"documents": self.documents})
        self.assertEqual(r.status_code, 200, r.content)
        report = r.json()
        self.assertTrue(report["nodes"][0]["reason"].startswith(OPENING))
        self.assertIn(BRANCH, report["nodes"][0]["reason"])
        [entry] = report["allocation"]["counters"]
        self.assertEqual(entry["kind"], "choices")
        allocate = self.post_json("/api/v1/allocate", {"documents": self.documents}).json()
        self.assertEqual(allocate["counters"], report["allocation"]["counters"])

    def test_the_command_line_says_the_same(self):
        code, printed = run_cli("allocate", self.documents)
        self.assertEqual(code, 1)
        reason = printed["nodes"][0]["reason"]
        self.assertTrue(reason.startswith(OPENING), reason)
        self.assertIn(BRANCH, reason)

    def test_the_schema_documents_the_choices(self):
        r = self.client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
        schemas = r.json()["components"]["schemas"]
        request = schemas["CounterRequest"]["properties"]
        for name in ("kind", "choice", "withoutCounters", "branches", "steps"):
            self.assertIn(name, request)
        self.assertIn("takes", schemas["CounterChoice"]["properties"])
