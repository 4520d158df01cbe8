"""The editor under each release: locked gates disabled, DRA off said first, refusals listed."""

import re

from playground.tests.base import BaseTestCase
from playground.tests.helpers import HTMX


class ReleasesTestCase(BaseTestCase):
    def test_a_gate_locked_in_the_release_is_disabled_with_the_reason(self):
        r = self.client.get("/")
        self.assertContains(r, '<select name="gate_DynamicResourceAllocation" id="id_gate_DynamicResourceAllocation" '
                               'disabled title="GA and locked to on in Kubernetes 1.37">', html=False)
        self.assertContains(r, '<select name="gate_DRADeviceTaints" id="id_gate_DRADeviceTaints">', html=False)

    def test_the_gate_list_follows_the_release_in_the_live_response(self):
        r = self.client.post("/", self.form_data(kubernetes_version="1.34"), headers=HTMX)
        html = r.content.decode()
        self.assertIn('id="gate-list" hx-swap-oob="true"', html)
        self.assertIn('<select name="gate_DynamicResourceAllocation" id="id_gate_DynamicResourceAllocation">', html)
        self.assertIn('id="id_gate_DRAAdminAccess">', html)  # beta in 1.34, locked from 1.36

    def test_a_live_update_sends_a_gate_list_only_when_the_page_s_differs(self):
        """The page posts back the key of the gate lists it shows; the same lists are not sent again, a
        release switch or a refused gate sends them, and the right column's is judged on its own."""
        shown = re.compile(r'name="(?:compare_)?gates_shown" value="([^"]*)"')
        first = self.client.post("/", self.form_data(compare="on"), headers=HTMX).content.decode()
        main, right = shown.findall(first)
        self.assertTrue(main.startswith("1.37:") and right.startswith("1.37:"))
        again = self.client.post("/", self.form_data(compare="on", gates_shown=main, compare_gates_shown=right),
                                 headers=HTMX).content.decode()
        self.assertIn('id="result-summary"', again)
        self.assertNotIn('id="gate-list"', again)
        self.assertNotIn('id="compare-gate-list"', again)
        switched = self.client.post("/", self.form_data(kubernetes_version="1.34", compare="on", gates_shown=main,
                                                        compare_gates_shown=right), headers=HTMX).content.decode()
        self.assertIn('id="gate-list" hx-swap-oob="true"', switched)
        self.assertNotIn('id="compare-gate-list"', switched)
        refused = self.client.post("/", self.form_data(gate_DRAPrioritizedList="off", gates_shown=main),
                                   headers=HTMX).content.decode()
        self.assertIn('id="gate-list" hx-swap-oob="true"', refused)
        self.assertIn('name="gates_shown" value=""', refused)  # a list with an error is replaced next time

    def test_the_right_columns_gates_follow_the_right_columns_release(self):
        locked = ('<select name="compare_gate_DynamicResourceAllocation" id="id_compare_gate_DynamicResourceAllocation" '
                  'disabled title="GA and locked to on in Kubernetes 1.37">')
        free = '<select name="compare_gate_DynamicResourceAllocation" id="id_compare_gate_DynamicResourceAllocation">'
        r = self.client.post("/", self.form_data(kubernetes_version="1.34", compare="on",
                                                 compare_kubernetes_version="1.37"), headers=HTMX)
        html = r.content.decode()
        self.assertIn('id="compare-gate-list" hx-swap-oob="true"', html)
        self.assertTrue(locked in html)
        self.assertTrue('<select name="gate_DynamicResourceAllocation" id="id_gate_DynamicResourceAllocation">' in html)
        r = self.client.post("/", self.form_data(kubernetes_version="1.37", compare="on",
                                                 compare_kubernetes_version="1.34"), headers=HTMX)
        html = r.content.decode()
        self.assertTrue(free in html and "Right: Kubernetes 1.34" in html)
        r = self.client.post("/", self.form_data(kubernetes_version="1.34"), headers=HTMX)
        self.assertNotIn("compare-gate-list", r.content.decode())

    def test_dra_off_heads_the_results_and_the_objects_are_not_served(self):
        r = self.client.post("/", self.form_data(kubernetes_version="1.33"), headers=HTMX)
        self.assertContains(r, "DRA is off in Kubernetes 1.33.")
        self.assertContains(r, "Not served")
        self.assertContains(r, "with it on, served versions: resource.k8s.io/v1beta2, resource.k8s.io/v1beta1, "
                               "resource.k8s.io/v1alpha3")
        self.assertNotContains(r, 'id="allocated-node"')

    def test_setting_a_locked_gate_is_refused_with_featuregates_words(self):
        r = self.client.post("/", self.form_data(gate_DRAPrioritizedList="off"), headers=HTMX)
        self.assertContains(r, "cannot set feature gate DRAPrioritizedList to false, feature is locked to true")
        r = self.client.post("/", self.form_data(kubernetes_version="1.36", gate_DRAPrioritizedList="off"), headers=HTMX)
        self.assertContains(r, "DRAPrioritizedList=false")

    def test_a_share_stored_before_a_gate_was_locked_says_so_instead_of_failing(self):
        from playground.models import Share

        state = self.example.state()
        share, _ = Share.objects.get_or_create_for({**state.to_dict(), "kubernetesVersion": "1.35",
                                                   "featureGates": {"DRAAdminAccess": False}})
        # As stored by an earlier version of the site, before DRAAdminAccess was known to be locked in 1.37.
        Share.objects.filter(pk=share.pk).update(kubernetes_version="1.37")
        for url in (f"/s/{share.id}", f"/s/{share.id}/embed"):
            with self.subTest(url=url):
                r = self.client.get(url)
                self.assertEqual(r.status_code, 200)
                self.assertContains(r, "cannot set feature gate DRAAdminAccess to false, feature is locked to true.")

    def test_a_field_the_release_does_not_have_is_listed_as_an_unknown_field(self):
        claim = ("apiVersion: resource.k8s.io/v1beta1\nkind: ResourceClaim\nmetadata:\n  name: big-or-any\nspec:\n"
                 "  devices:\n    requests:\n    - name: gpu\n      firstAvailable:\n      - name: any\n"
                 "        deviceClassName: gpu.example.com\n")
        r = self.client.post("/", self.form_data(kubernetes_version="1.32", gate_DynamicResourceAllocation="on",
                                                 documents=claim, inventory="", inventory_slug=""), headers=HTMX)
        self.assertContains(r, "resource.k8s.io/v1beta1 in Kubernetes 1.32 has no such field (added in 1.33)")
        self.assertNotContains(r, "dropped by the apiserver")
        self.assertNotContains(r, 'id="allocated-node"')


class GatesOfTheReleaseTestCase(BaseTestCase):
    """Only the gates the chosen release has are offered (issue 24: DRAControlPlaneController in 1.37)."""

    @staticmethod
    def offered(html: str, gate: str) -> bool:
        row = html.split(f'<label for="id_gate_{gate}">')[0].rsplit('<div class="gate', 1)[1]
        return "hidden" not in row

    def test_a_gate_the_release_lacks_is_not_offered(self):
        html = self.client.get("/").content.decode()  # 1.37
        self.assertFalse(self.offered(html, "DRAControlPlaneController"))
        self.assertIn('id="id_gate_DRAControlPlaneController" disabled>', html)
        self.assertTrue(self.offered(html, "DRAListTypeAttributes"))

    def test_changing_the_release_changes_the_offered_gates(self):
        html = self.client.post("/", self.form_data(kubernetes_version="1.31"), headers=HTMX).content.decode()
        self.assertTrue(self.offered(html, "DRAControlPlaneController"))
        self.assertFalse(self.offered(html, "DRAListTypeAttributes"))  # from 1.36
        self.assertFalse(self.offered(html, "DRAAdminAccess"))  # from 1.32
        html = self.client.post("/", self.form_data(kubernetes_version="1.36"), headers=HTMX).content.decode()
        self.assertFalse(self.offered(html, "DRAControlPlaneController"))
        self.assertTrue(self.offered(html, "DRAListTypeAttributes"))

    def test_an_override_of_a_gate_the_new_release_lacks_is_dropped_not_refused(self):
        # Set on 1.31, then the release changed to 1.37: the panel no longer offers it, and it does not apply.
        r = self.client.post("/", self.form_data(kubernetes_version="1.37", gate_DRAControlPlaneController="on",
                                                 gate_DynamicResourceAllocation=""), headers=HTMX)
        self.assertNotContains(r, "unrecognized feature gate")
        self.assertContains(r, "the release's default feature gates")
        r = self.client.post("/", self.form_data(kubernetes_version="1.31", gate_DynamicResourceAllocation="on",
                                                 gate_DRAControlPlaneController="on"), headers=HTMX)
        self.assertContains(r, "DRAControlPlaneController=true")

    def test_a_gate_whose_dependency_is_off_is_refused_beside_the_gate(self):
        words = "DRADeviceTaintRules is enabled, but depends on features that are disabled: [DRADeviceTaints]."
        r = self.client.post("/", self.form_data(gate_DRADeviceTaints="off"), headers=HTMX)
        self.assertContains(r, f'<p class="error-text gate-error" id="id_gate_DRADeviceTaintRules_error" '
                               f'role="alert">{words}</p>', html=True)
        self.assertContains(r, "Nothing was analyzed")
        # Both off is a valid combination; on 1.36 the rules are off by default.
        for data in ({"gate_DRADeviceTaints": "off", "gate_DRADeviceTaintRules": "off"},
                     {"gate_DRADeviceTaints": "off", "kubernetes_version": "1.36"}):
            with self.subTest(data=data):
                r = self.client.post("/", self.form_data(**data), headers=HTMX)
                self.assertNotContains(r, "gate-error")
                self.assertNotContains(r, "Nothing was analyzed")
        # A full page (no htmx) opens the gate picker to show it.
        r = self.client.post("/", self.form_data(gate_DRADeviceTaints="off"))
        self.assertContains(r, '<details id="gate-picker" open>')


    def test_a_field_of_a_feature_not_simulated_is_a_warning_naming_the_gate(self):
        from allocator.tests.helpers.not_simulated import CLASS, NODE, SLICE_1_37

        r = self.client.post("/", self.form_data(inventory=NODE + SLICE_1_37 + CLASS), headers=HTMX)
        self.assertContains(r, "Not simulated")
        self.assertContains(r, "DRANodeAllocatableResources (node allocatable resources (cpu, memory) backed by "
                               "devices) is not simulated")
        self.assertNotContains(r, "Parse error")
