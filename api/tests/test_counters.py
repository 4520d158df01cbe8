"""The API and the command line give the numbers where shared counters decide (``allocator.allocation.counters``)."""

from __future__ import annotations

from allocator.tests.helpers.samples import MIG_HELD, inventory_text, sample
from api.tests.base import APITestCase, run_cli

EXHAUSTED = sample("examples", "mig-counters-exhausted")["documents"]
COUNTER_LINE = "gpu-0-counter-set/copy-engines: 0 of 8 left (taken by gpu-0 of request full), 7 devices need 1 each"


class CounterNumbersTestCase(APITestCase):
    def documents(self, claims: str) -> str:
        return inventory_text("nvidia-mig") + "---\n" + claims

    def test_analyze_gives_each_short_counter_in_why(self):
        documents = self.documents(MIG_HELD.replace(
            """selectors: [{cel: {expression: "device.attributes['gpu.nvidia.com'].parentUUID == ''"}}]""",
            "count: 8"))
        r = self.post_json("/api/v1/analyze", {"documents": documents, "node": "dgx-h100-01"})
        self.assertEqual(r.status_code, 200, r.content)
        [request] = r.json()["requests"]
        device = next(d for d in request["devices"] if d["device"] == "gpu-0-mig-3g40gb-9-4")
        self.assertEqual(device["reasonCode"], "counters")
        slices = {w["counter"]: w for w in device["why"] if w["counter"].startswith("memory-slice-")}
        self.assertEqual(sorted(slices), ["memory-slice-4", "memory-slice-5", "memory-slice-6", "memory-slice-7"])
        part = slices["memory-slice-4"]
        self.assertEqual((part["kind"], part["counterSet"], part["left"], part["total"], part["needs"]),
                         ("counter", "gpu-0-counter-set", "0", "1", "1"))
        self.assertEqual(part["takenBy"], [{"device": "gpu-0", "holder": "allocated claim default/held",
                                            "amount": "1", "allocated": True}])
        self.assertEqual(part["summary"], "gpu-0-counter-set/memory-slice-4: 0 of 1 left, needs 1; "
                                          "taken by gpu-0 of allocated claim default/held")

    def test_a_combination_out_of_counters_is_in_the_reasons_and_as_data(self):
        r = self.post_json("/api/v1/allocate", {"documents": self.documents(EXHAUSTED)})
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertFalse(body["allocated"])
        [reason] = body["reasons"]
        self.assertTrue(reason.startswith("dgx-h100-01: claim default/gpus-and-a-slice, request slice: needs 1 "
                                          "device"), reason)
        self.assertIn(COUNTER_LINE, reason)
        [entry] = body["counters"]
        self.assertEqual((entry["request"], entry["matching"], entry["fitting"]), ("slice", 14, 0))
        r = self.post_json("/api/v1/analyze", {"documents": self.documents(EXHAUSTED)})
        report = r.json()
        self.assertIn(COUNTER_LINE, report["nodes"][0]["reason"])
        self.assertEqual(report["allocation"]["counters"], body["counters"])

    def test_the_command_line_says_the_same(self):
        code, printed = run_cli("allocate", self.documents(EXHAUSTED))
        self.assertEqual(code, 1)
        self.assertIn(COUNTER_LINE, printed["nodes"][0]["reason"])

    def test_the_schema_documents_counter_parts(self):
        r = self.client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
        schemas = r.json()["components"]["schemas"]
        self.assertIn("takenBy", schemas["CounterPart"]["properties"])
        self.assertIn("counters", schemas["Allocation"]["properties"])
        self.assertIn("counters", schemas["AllocateResponse"]["properties"])
