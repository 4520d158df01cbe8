"""Hints on the page and in the API that fit the mistake (issue 24): the summary's hint for a typo is the
did-you-mean, and a matchAttribute name no device publishes is warned where the constraint is."""

import json
import re

from django.test import override_settings

from api.tests.base import NO_THROTTLING
from playground.models import SampleInventory
from playground.tests.base import BaseTestCase, sample
from playground.tests.helpers import HTMX

NODE = "ip-192-168-153-160.ec2.internal"
TYPO_CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: a100
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.nvidia.com
        selectors:
        - cel:
            expression: device.attributes["gpu.nvidia.com"].productname == "NVIDIA A100-SXM4-40GB"
"""


def summary_hint(html: str) -> str:
    found = re.search(r'id="allocation-hint">(.*?)</p>', html, re.S)
    return re.sub(r"<[^>]+>", "", found.group(1)).strip() if found else ""


class FittedHintsTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        SampleInventory.objects.update_or_create_from_sample(sample("inventories", "gpu-rdma-pcie"), 5)
        cls.rdma = SampleInventory.objects.get(slug="gpu-rdma-pcie")

    def post_page(self, documents: str):
        return self.client.post("/", self.form_data(inventory_slug="gpu-rdma-pcie", inventory=self.rdma.objects_yaml,
                                                    documents=documents, node=NODE), headers=HTMX)

    def test_the_summary_hint_of_a_typo_is_did_you_mean_not_has(self):
        r = self.post_page(TYPO_CLAIM)
        self.assertContains(r, "The scheduler would give up")
        hint = summary_hint(r.content.decode())
        self.assertTrue(hint.startswith('Hint: did you mean &quot;productName&quot;?')
                        or hint.startswith('Hint: did you mean "productName"?'), hint)
        self.assertNotIn("has(", hint)

    def test_a_guarded_read_gets_no_has_hint_on_the_page(self):
        docs = TYPO_CLAIM.replace("gpu.nvidia.com", "dra.net").replace(
            'device.attributes["dra.net"].productname == "NVIDIA A100-SXM4-40GB"',
            "has(device.attributes['dra.net'].ifName) && device.attributes['dra.net'].ifName.startsWith('ens')")
        r = self.post_page(docs)
        self.assertContains(r, 'id="allocated-node"')
        self.assertNotContains(r, "guard the read with has")
        self.assertNotContains(r, "guard optional attributes with has")

    def test_a_match_attribute_typo_is_warned_at_the_constraint(self):
        docs = sample("examples", "pcie-root-alignment")["documents"].replace(
            "matchAttribute: resource.kubernetes.io/pcieRoot", "matchAttribute: resource.kubernetes.io/pcieroot")
        r = self.post_page(docs)
        html = r.content.decode()
        self.assertIn("no device in the inventory publishes attribute resource.kubernetes.io/pcieroot", html)
        self.assertIn("resource.kubernetes.io/pcieRoot", html)
        line = docs.split("\n").index("      matchAttribute: resource.kubernetes.io/pcieroot") + 1
        self.assertIn(f'data-line="{line}"', html)

    def test_a_typo_gets_apply_buttons_with_its_edit(self):
        r = self.post_page(TYPO_CLAIM)
        html = r.content.decode()
        line = TYPO_CLAIM.split("\n").index(
            '            expression: device.attributes["gpu.nvidia.com"].productname == "NVIDIA A100-SXM4-40GB"') + 1
        column = len('            expression: device.attributes["gpu.nvidia.com"].') + 1
        button = (f'<button type="button" class="apply-fix" data-fix-document="documents" data-fix-start-line="{line}" '
                  f'data-fix-start-column="{column}" data-fix-end-line="{line}" '
                  f'data-fix-end-column="{column + len("productname")}" data-fix-replacement="productName" '
                  'data-fix-title="Use productName" aria-label="Apply: Use productName"')
        # beside the diagnostic's hint and beside the explanation's
        self.assertGreaterEqual(html.count(button), 2, html)

    def test_a_match_attribute_typo_gets_an_apply_button(self):
        docs = sample("examples", "pcie-root-alignment")["documents"].replace(
            "matchAttribute: resource.kubernetes.io/pcieRoot", "matchAttribute: resource.kubernetes.io/pcieroot")
        r = self.post_page(docs)
        self.assertContains(r, 'aria-label="Apply: Use resource.kubernetes.io/pcieRoot"')


@override_settings(REST_FRAMEWORK=NO_THROTTLING)
class FittedHintsAPITestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        SampleInventory.objects.update_or_create_from_sample(sample("inventories", "gpu-rdma-pcie"), 5)

    def analyze(self, documents: str) -> dict:
        r = self.client.post("/api/v1/analyze", data=json.dumps(
            {"documents": documents, "inventory": "gpu-rdma-pcie", "node": NODE}), content_type="application/json")
        self.assertEqual(r.status_code, 200, r.content[:2000])
        return r.json()

    def test_the_failing_devices_hints_put_did_you_mean_first(self):
        body = self.analyze(TYPO_CLAIM)
        self.assertEqual(body["allocation"]["status"], "error")
        failing = [p["hint"] for req in body["requests"] for d in req["devices"] if d["reasonCode"] == "cel-error"
                   for p in d["why"] or [] if p.get("hint")]
        self.assertTrue(failing and all(h.startswith('did you mean "productName"?') for h in failing), failing)
        warnings = [d for d in body["diagnostics"] if d["severity"] == "warning"]
        self.assertTrue(warnings and all(d["hint"].startswith('did you mean "productName"?') for d in warnings))

    def test_a_match_attribute_typo_is_a_located_warning_with_did_you_mean(self):
        docs = sample("examples", "pcie-root-alignment")["documents"].replace(
            "matchAttribute: resource.kubernetes.io/pcieRoot", "matchAttribute: resource.kubernetes.io/pcieroot")
        body = self.analyze(docs)
        [warning] = [d for d in body["diagnostics"] if d["field"] == "spec.devices.constraints[0].matchAttribute"]
        self.assertEqual(warning["severity"], "warning")
        self.assertEqual(warning["line"], docs.split("\n").index(
            "      matchAttribute: resource.kubernetes.io/pcieroot") + 1)
        self.assertTrue(warning["hint"].startswith('did you mean "resource.kubernetes.io/pcieRoot"?'), warning)

