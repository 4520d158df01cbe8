"""A device blocked by a DeviceTaintRule's taint: the API names the rule (``allocator.allocation.taint_rules``)."""

from __future__ import annotations

from allocator.tests.helpers.samples import inventory_text, sample
from api.tests.base import APITestCase

EXAMPLE = sample("examples", "taint-rule-maintenance")
REASON = "taint example.com/maintenance=true:NoSchedule from DeviceTaintRule gpu-maintenance is not tolerated"


class DeviceTaintRuleTestCase(APITestCase):
    def documents(self, claims: str) -> str:
        return inventory_text("gpu-node-maintenance") + "---\n" + claims

    def test_analyze_gives_the_rule_in_the_device_reason(self):
        r = self.post_json("/api/v1/analyze", {"documents": self.documents(EXAMPLE["documents"])})
        self.assertEqual(r.status_code, 200, r.content)
        report = r.json()
        [request] = report["requests"]
        devices = {d["device"]: d for d in request["devices"]}
        self.assertEqual((devices["gpu-0"]["reasonCode"], devices["gpu-0"]["reason"]), ("tainted", REASON))
        self.assertTrue(devices["gpu-1"]["chosen"])

    def test_allocate_names_the_rule_when_it_leaves_too_few_devices(self):
        claims = EXAMPLE["documents"].replace("deviceClassName: gpu.example.com",
                                              "deviceClassName: gpu.example.com\n        count: 8")
        r = self.post_json("/api/v1/allocate", {"documents": self.documents(claims)})
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertFalse(body["allocated"])
        self.assertIn(REASON, body["reasons"][0])

    def test_a_toleration_lets_the_device_be_granted(self):
        claims = EXAMPLE["documents"].replace("# tolerations:", "tolerations:").replace(
            "# - key", "- key").replace("#   operator", "  operator").replace("#   effect", "  effect")
        r = self.post_json("/api/v1/allocate", {"documents": self.documents(claims)})
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertTrue(body["allocated"], body)
