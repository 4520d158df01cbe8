"""Compare on the page: the state's second column, its form, results, share links, exports, embed, rate limit;
and "Show other grants"."""

from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings

from playground.models import Example, SampleInventory, Share
from playground.state import Column, State, StateError
from playground.tests.base import BaseTestCase, sample
from playground.tests.helpers import HTMX, freeze_mid_minute

# DRAPrioritizedList is locked on from 1.37: the right column turns it off on 1.36.
GATE_OFF = {"compare": "on", "compare_inventory_slug": "=", "compare_kubernetes_version": "1.36",
            "compare_gate_DRAPrioritizedList": "off"}


class StateCompareTestCase(BaseTestCase):
    def test_a_state_without_compare_keeps_its_id_and_form(self):
        state = self.example.state()
        self.assertIsNone(state.compare)
        self.assertNotIn("compare", state.to_dict())
        self.assertNotIn(b"compare", state.canonical())

    def test_compare_round_trips_through_dict_and_yaml(self):
        state = State.from_dict({**self.example.state().to_dict(), "compare": {
            "kubernetesVersion": "1.34", "featureGates": {"DRADeviceTaints": True}, "node": "n1",
            "inventory": "x: 1\n", "inventorySlug": ""}})
        self.assertEqual(state.compare, Column(inventory="x: 1\n", node="n1", kubernetes_version="1.34",
                                             feature_gates={"DRADeviceTaints": True}))
        self.assertEqual(State.from_yaml(state.to_yaml()), state)
        self.assertNotEqual(state.content_id(), self.example.state().content_id())
        right = state.compared()
        self.assertEqual((right.kubernetes_version, right.node, right.documents, right.compare),
                         ("1.34", "n1", state.documents, None))

    def test_bad_compare_is_a_clear_error(self):
        base = self.example.state().to_dict()
        for compare, message in [("1.34", "compare must be a mapping"),
                                 ({"documents": "x"}, "both columns share the documents"),
                                 ({"kubernetesVersion": "0.1"}, "compare: Unsupported Kubernetes version"),
                                 ({"featureGates": {"DRANoSuchGate": True}}, "compare: ")]:
            with self.subTest(compare=compare), self.assertRaisesMessage(StateError, message):
                State.from_dict({**base, "compare": compare})


class ComparePageTestCase(BaseTestCase):
    def setUp(self):
        self.example = self.prioritized = Example.objects.get(slug="prioritized-list")

    def test_compare_splits_the_results_and_marks_differences(self):
        r = self.client.post("/", self.form_data(**GATE_OFF), headers=HTMX)
        self.assertEqual(r.status_code, 200)
        html = r.content.decode()
        self.assertIn('id="compare-left"', html)
        self.assertIn('id="compare-right"', html)
        self.assertIn('<code>DRAPrioritizedList=false</code>', html)
        self.assertIn('compare-summary differs', html)
        self.assertIn('id="differences"', html)
        self.assertIn("<code>valid</code>", html)

    def test_equal_columns_say_so(self):
        r = self.client.post("/", self.form_data(compare="on", compare_inventory_slug="=",
                                                 compare_kubernetes_version="1.37"), headers=HTMX)
        self.assertContains(r, "No difference: both columns give the same outcome.")
        self.assertNotContains(r, 'class="differs"')

    def test_compare_off_shows_one_column(self):
        r = self.client.post("/", self.form_data(compare_gate_DRAPrioritizedList="off"), headers=HTMX)
        self.assertNotContains(r, 'id="compare"')

    def test_the_right_column_can_use_another_sample_inventory(self):
        r = self.client.post("/", self.form_data(compare="on", compare_inventory_slug="mixed-cluster",
                                                 compare_kubernetes_version="1.37"), headers=HTMX)
        self.assertContains(r, "inventory <code>mixed-cluster</code>")

    def test_share_export_and_embed_keep_both_columns(self):
        r = self.client.post("/share", self.form_data(**GATE_OFF))
        share = Share.objects.get()
        self.assertRedirects(r, share.get_absolute_url(), fetch_redirect_response=False)
        self.assertEqual(share.compare["featureGates"], {"DRAPrioritizedList": False})
        page = self.client.get(share.get_absolute_url())
        self.assertContains(page, 'id="compare-right"')
        self.assertContains(page, 'name="compare" id="id_compare" aria-controls="compare-settings" checked')
        self.assertContains(page, '<option value="off" selected>off</option>')
        embed = self.client.get(share.get_absolute_url() + "/embed")
        self.assertContains(embed, 'id="compare-right"')
        self.assertNotContains(embed, 'id="show-grants"')
        exported = self.client.post("/export", self.form_data(**GATE_OFF)).content.decode()
        self.assertIn("compare:", exported)
        self.assertEqual(State.from_yaml(exported), share.state())
        # The same state shared again is the same link.
        self.client.post("/share", self.form_data(**GATE_OFF))
        self.assertEqual(Share.objects.count(), 1)

    def test_an_imported_comparison_restores_the_form(self):
        state = State.from_dict({**self.prioritized.state().to_dict(), "compare": {
            "kubernetesVersion": "1.36", "inventory": "", "inventorySlug": ""}})
        r = self.client.post("/import", {"state_file": SimpleUploadedFile("s.yaml", state.to_yaml().encode())})
        self.assertContains(r, 'id="compare-right"')
        self.assertContains(r, "Right: Kubernetes 1.36")


@override_settings(PAGE_ANALYSES_PER_MINUTE=3)
class CompareRateLimitTestCase(BaseTestCase):
    def setUp(self):
        cache.clear()
        self.addCleanup(cache.clear)

    def test_a_comparison_counts_as_two_analyses(self):
        freeze_mid_minute(self)
        self.assertEqual(self.client.post("/", self.form_data(**GATE_OFF), headers=HTMX).status_code, 200)
        self.assertEqual(self.client.post("/", self.form_data(), headers=HTMX).status_code, 200)
        self.assertEqual(self.client.post("/", self.form_data(), headers=HTMX).status_code, 429)


class OtherGrantsPageTestCase(BaseTestCase):
    def test_show_other_grants_lists_them_in_search_order(self):
        r = self.client.post("/", self.form_data(alternatives="3"), headers=HTMX)
        html = r.content.decode()
        self.assertIn('id="grant-list"', html)
        self.assertEqual(html.count('class="grant"'), 3)
        self.assertIn('<span class="badge">the scheduler\'s</span> <span class="grant-claim">two-gpus:</span> gpu', html)
        self.assertIn("there may be more", html)
        self.assertIn('id="hide-grants"', html)

    def test_without_alternatives_there_is_the_button(self):
        r = self.client.post("/", self.form_data(), headers=HTMX)
        self.assertContains(r, 'id="show-grants"')
        self.assertNotContains(r, 'id="grant-list"')

    def test_too_many_is_a_form_error(self):
        r = self.client.post("/", self.form_data(alternatives="101"), headers=HTMX)
        self.assertContains(r, "Nothing was analyzed")


class ComparisonGalleryTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        SampleInventory.objects.update_or_create_from_sample(sample("inventories", "gpu-rdma-pcie"), 5)
        for slug in ("prioritized-list-off-on", "pcie-root-other-grants"):
            Example.objects.update_or_create_from_sample(sample("examples", slug), 9)

    def test_a_comparison_example_opens_with_both_columns(self):
        r = self.client.get("/examples/prioritized-list-off-on")
        self.assertContains(r, 'name="compare" id="id_compare" aria-controls="compare-settings" checked')
        self.assertContains(r, 'id="compare-right"')
        self.assertContains(r, "<code>DRAPrioritizedList=false</code>")

    def test_the_pcie_example_opens_with_its_four_grants(self):
        r = self.client.get("/examples/pcie-root-other-grants")
        self.assertEqual(r.content.decode().count('class="grant"'), 4)
        self.assertContains(r, "4 grants in all: there are no others.")
        self.assertContains(r, 'name="alternatives" value="10"')  # later edits keep the list

    def test_the_api_shows_a_shared_comparison(self):
        self.client.post("/share", self.form_data(**GATE_OFF))
        share = Share.objects.get()
        body = self.client.get(f"/api/v1/shares/{share.id}").json()
        self.assertEqual(body["compare"]["featureGates"], {"DRAPrioritizedList": False})
