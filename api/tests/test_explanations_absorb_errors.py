"""The API's ``why`` data and the page follow CEL's evaluation (issue 24): a has()-guarded read that
the guard made unnecessary is not shown as an error, and no has() hint is given for it."""

from __future__ import annotations

from api.tests.base import APITestCase
from playground.models import SampleInventory
from playground.tests.base import sample

SELECTOR = 'has(device.attributes["dra.net"].ifName) && device.attributes["dra.net"].ifName.startsWith("ens")'
CLAIM = f"""\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: nic
spec:
  devices:
    requests:
    - name: nic
      exactly:
        deviceClassName: dra.net
        selectors:
        - cel:
            expression: '{SELECTOR}'
"""
HTMX = {"HX-Request": "true", "HX-Target": "results"}


class GuardedSelectorTestCase(APITestCase):
    def setUp(self):
        super().setUp()
        SampleInventory.objects.update_or_create_from_sample(sample("inventories", "gpu-rdma-pcie"), 5)

    def test_the_why_of_a_nic_without_ifname_is_the_false_guard_and_nothing_else(self):
        r = self.post_json("/api/v1/analyze", {"documents": CLAIM, "inventory": "gpu-rdma-pcie"})
        self.assertEqual(r.status_code, 200, r.content[:2000])
        body = r.json()
        self.assertEqual(body["allocation"]["status"], "allocated")
        self.assertEqual(body["diagnostics"], [])
        [request] = body["requests"]
        nics = [d for d in request["devices"] if d["reasonCode"] == "request-selector"]
        self.assertEqual(len(nics), 4)
        for device in nics:
            self.assertEqual([(p["text"], p["verdict"], p["error"], p["hint"]) for p in device["why"]],
                             [('has(device.attributes["dra.net"].ifName)', "false", None, None)])
        parts = [p for d in request["devices"] for p in d["why"] or []]
        self.assertFalse([p for p in parts if p["verdict"] == "error" or p["hint"]])

    def test_the_page_shows_the_guard_as_the_reason_without_an_error_or_a_has_hint(self):
        inventory = SampleInventory.objects.get(slug="gpu-rdma-pcie").state_fields()["inventory"]
        r = self.client.post("/", {"inventory_slug": "gpu-rdma-pcie", "inventory": inventory, "documents": CLAIM,
                                   "node": "", "kubernetes_version": "1.37"}, headers=HTMX)
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "request selector #0 is false")
        self.assertContains(r, 'class="why-part verdict-false"')
        self.assertNotContains(r, "verdict-error")
        self.assertNotContains(r, "guard optional attributes with has(")
        self.assertNotContains(r, "no such key")
