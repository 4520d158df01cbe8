"""A keystroke (the page's live update: ``POST /`` with htmx for ``#results``) computes only what the page
shows at once (issue 37, item 5): the expression console's evaluation waits for a request of its own, made
when the console comes into view; a page without script still gets it in full."""

from playground.tests.base import BaseTestCase

LIVE = {"HX-Request": "true", "HX-Target": "results"}
PANEL = {"HX-Request": "true", "HX-Target": "console-result"}
GPU3 = "gpu.example.com/dra-example-driver-cluster-worker/gpu-3"
EXPRESSION = 'device.attributes["gpu.example.com"].index'
ANSWER = '<code id="console-value-text">3</code>'


class KeystrokeDefersTheConsoleTestCase(BaseTestCase):
    def data(self, **more):
        return self.form_data(console_expression=EXPRESSION, console_device=GPU3, **more)

    def test_the_live_update_has_a_loader_not_the_answer(self):
        r = self.client.post("/", self.data(), headers=LIVE)
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, 'id="result-summary"')
        self.assertNotContains(r, ANSWER, html=False)
        self.assertNotIn("console", r.context)
        self.assertTrue(r.context["console_deferred"])
        # The loader posts the form to the console's own view when it comes into view.
        self.assertContains(r, 'hx-post="/console"')
        self.assertContains(r, 'hx-include="#playground-form"')
        self.assertContains(r, 'hx-trigger="intersect once"')
        self.assertContains(r, 'id="console-loading"')
        # The console's fields stay, with what was typed, so the next keystroke posts them again.
        self.assertContains(r, 'id="id_console_expression"')
        self.assertContains(r, f'<option value="{GPU3}" selected>', html=False)

    def test_the_loader_s_request_answers_with_the_evaluation(self):
        r = self.client.post("/console", self.data(), headers=PANEL)
        self.assertEqual(r.status_code, 200)
        self.assertNotContains(r, "<html")
        self.assertContains(r, ANSWER, html=False)

    def test_a_page_without_script_evaluates_in_full(self):
        r = self.client.post("/", self.data())
        self.assertContains(r, "<html")
        self.assertContains(r, ANSWER, html=False)
        self.assertNotContains(r, 'id="console-loading"')

    def test_answers_that_cost_nothing_stay_in_the_live_update(self):
        r = self.client.post("/", self.form_data(console_expression=EXPRESSION, console_device=""), headers=LIVE)
        self.assertContains(r, "Pick a device to evaluate the expression on")
        self.assertNotContains(r, 'id="console-loading"')
        r = self.client.post("/", self.form_data(), headers=LIVE)
        self.assertNotContains(r, 'id="console-loading"')


class FoldedToolsDeferTheComparisonTestCase(BaseTestCase):
    """With the tools folded (results-pane.js sends ``tools_folded``), a live update leaves the comparison, a
    second analysis, to a request of its own made when the tools are opened."""

    def data(self, **more):
        return self.form_data(compare="on", compare_kubernetes_version="1.36", compare_inventory_slug="=", **more)

    def test_folded_tools_get_a_loader_instead_of_the_comparison(self):
        r = self.client.post("/", self.data(tools_folded="1"), headers=LIVE)
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, 'id="result-summary"')
        self.assertIsNone(r.context["comparison"])
        self.assertNotContains(r, 'id="compare-left"')
        self.assertContains(r, 'id="compare-loading"')
        self.assertContains(r, 'hx-post="/compare"')
        self.assertContains(r, 'hx-trigger="toggle once from:#result-tools, load-again"')  # Try again: load-again
        self.assertContains(r, '<details id="result-tools" class="result-tools">', html=False)  # folded, as it was
        self.assertContains(r, "Tools: the comparison, How many fit?")

    def test_open_tools_and_pages_without_script_compare_at_once(self):
        r = self.client.post("/", self.data(), headers=LIVE)
        self.assertContains(r, 'id="compare-left"')
        self.assertContains(r, '<details id="result-tools" class="result-tools" open>', html=False)
        r = self.client.post("/", self.data(tools_folded="1"))  # only a live update defers
        self.assertContains(r, 'id="compare-left"')
        self.assertNotContains(r, 'id="compare-loading"')

    def test_the_loader_s_request_answers_with_both_columns(self):
        r = self.client.post("/compare", self.data(), headers={"HX-Request": "true", "HX-Target": "compare"})
        self.assertEqual(r.status_code, 200)
        self.assertNotContains(r, "<html")
        self.assertContains(r, 'id="compare-left"')
        self.assertContains(r, 'id="compare-right"')
        self.assertContains(r, "Right: Kubernetes 1.36")
        # A post without script gets the whole page, with the comparison.
        r = self.client.post("/compare", self.data())
        self.assertContains(r, "<html")
        self.assertContains(r, 'id="compare-right"')
        # Compare turned off meanwhile: nothing to show, the loader goes.
        r = self.client.post("/compare", self.form_data(), headers={"HX-Request": "true", "HX-Target": "compare"})
        self.assertEqual(r.status_code, 200)
        self.assertNotContains(r, "compare-left")
