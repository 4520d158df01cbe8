"""A keystroke renders only what the page shows (issue 37, item 5): a live update from a page whose picture
is out of view (``picture_in_view=0``) sends the picture as an outline that fetches its drawing
(``POST /picture``) once in view; the drawing is the one the whole page has. In view, or not said, the live
update draws the picture itself: one request a keystroke."""

from __future__ import annotations

import re

from allocator.tests.helpers.samples import sample
from playground.models import Example, SampleInventory
from playground.tests.base import BaseTestCase
from playground.tests.helpers import HTMX, PICTURE


class DeferredPictureTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        # Partitionable devices: counter groups, bars and tiles that need and exclude others.
        SampleInventory.objects.update_or_create_from_sample(sample("inventories", "nvidia-mig"))
        cls.mig, _ = Example.objects.update_or_create_from_sample(sample("examples", "mig-same-parent"))

    def mig_form(self, **overrides) -> dict:
        state = self.mig.state()
        gates = {f"gate_{gate}": "on" if on else "off" for gate, on in state.feature_gates.items()}
        return {"inventory_slug": state.inventory_slug, "inventory": state.inventory, "documents": state.documents,
                "node": state.node, "kubernetes_version": state.kubernetes_version, **gates, **overrides}

    def test_a_live_update_with_the_picture_out_of_view_sends_an_outline_that_fetches_the_drawing(self):
        r = self.client.post("/", self.mig_form(picture_in_view="0"), headers=HTMX)
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, '<section id="picture" aria-labelledby="picture-heading" data-outline '
                               'data-loads-when-shown="the drawing of the devices" hx-post="/picture" '
                               'hx-include="#playground-form" hx-trigger="intersect once, load-again" '
                               'hx-swap="outerHTML">', html=False)
        self.assertContains(r, 'id="picture-loading"')
        self.assertNotContains(r, 'class="tile')
        self.assertNotContains(r, "counter-group")
        # What the rest of the page takes from the picture is still there: the node names, the grants' colours.
        self.assertTrue(r.context["picture"].deferred)
        self.assertContains(r, '<datalist id="node-names" hx-swap-oob="true"><option value="', html=False)
        self.assertContains(r, '<span class="swatch grant-0" aria-hidden="true"></span>', html=False)

    def test_a_live_update_with_the_picture_in_view_or_not_said_draws_it(self):
        drawn = self.client.post("/picture", self.mig_form(), headers=PICTURE).content.decode().strip()
        for said in ({"picture_in_view": "1"}, {}):
            with self.subTest(said=said):
                r = self.client.post("/", self.mig_form(**said), headers=HTMX)
                self.assertEqual(r.status_code, 200)
                self.assertFalse(r.context["picture"].deferred)
                self.assertNotContains(r, 'id="picture-loading"')
                self.assertNotContains(r, 'hx-post="/picture"')
                self.assertContains(r, "counter-group")
                self.assertIn(drawn, r.content.decode())  # the same drawing the picture's own request makes

    def test_only_a_live_update_leaves_the_drawing_out(self):
        # A post without script (the whole page) draws the picture, whatever the field says.
        r = self.client.post("/", self.mig_form(picture_in_view="0"))
        self.assertContains(r, "<!doctype html>", html=False)
        self.assertFalse(r.context["picture"].deferred)
        self.assertContains(r, "counter-group")

    def test_the_drawing_is_the_whole_pages_picture(self):
        for form, counters in ((self.mig_form(), True), (self.form_data(), False)):
            page = self.client.post("/", form).content.decode()  # without script: the whole page, drawn
            drawn = self.client.post("/picture", form, headers=PICTURE)
            self.assertEqual(drawn.status_code, 200)
            html = drawn.content.decode().strip()
            self.assertTrue(html.startswith('<section id="picture"'), html[:80])
            self.assertIn("class=\"tile", html)
            self.assertIn(html, page)
            self.assertEqual("counter-group" in html, counters)

    def test_the_outline_names_the_nodes_the_drawing_names(self):
        outline = self.client.post("/", self.mig_form(picture_in_view="0"), headers=HTMX).context["picture"]
        drawn = self.client.post("/picture", self.mig_form(), headers=PICTURE).context["picture"]
        self.assertEqual(outline.node_names, drawn.node_names)
        self.assertEqual(outline.legend, drawn.legend)

    def test_a_post_without_script_gets_the_page_drawn(self):
        r = self.client.post("/picture", self.mig_form())
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "<!doctype html>", html=False)
        self.assertFalse(r.context["picture"].deferred)
        self.assertTrue(re.search(r'<li class="tile[^>]*data-consumes=', r.content.decode()))

    def test_a_refused_form_draws_nothing(self):
        r = self.client.post("/picture", self.mig_form(kubernetes_version="0.1"), headers=PICTURE)
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "Not drawn: the form has a problem.")
        self.assertNotContains(r, 'class="tile')
