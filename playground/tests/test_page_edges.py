"""The editor page's rough edges (issue 24): what the server renders for them."""

from __future__ import annotations

import re
from pathlib import Path

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings

from allocator.synthetic import cluster_yaml
from playground import clusters
from playground.results import LIST_LIMIT
from playground.tests.base import BaseTestCase
from playground.tests.helpers import H200_PAIR, HTMX

TEMPLATES = Path(__file__).resolve().parents[1] / "templates"


class TemplateCommentsTestCase(BaseTestCase):
    def test_no_template_has_a_multi_line_hash_comment(self):
        # Django's {# #} is one line only: over two lines it is printed as text.
        for path in TEMPLATES.rglob("*.html"):
            for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
                opened = line.count("{#") - line.count("#}")
                self.assertLessEqual(opened, 0, f"{path.name}:{n}: a {{# comment #}} must close on its line")

    def test_no_comment_shows_on_the_page_or_in_an_update(self):
        for r in (self.client.get("/"), self.client.post("/", self.form_data(compare="on"), headers=HTMX)):
            html = r.content.decode()
            self.assertNotIn("{#", html)
            self.assertNotIn("Gate overrides", html)


class NodeFieldTestCase(BaseTestCase):
    def test_the_node_is_a_text_field_the_inventory_names_complete(self):
        r = self.client.get("/")
        self.assertContains(r, '<input type="search" name="node" id="id_node"', html=False)
        self.assertContains(r, 'list="node-names"', html=False)
        self.assertContains(r, '<datalist id="node-names"><option value="dra-example-driver-cluster-worker"></datalist>',
                            html=False)
        self.assertNotContains(r, "<select name=\"node\"", html=False)

    def test_an_update_replaces_the_names_not_the_field(self):
        r = self.client.post("/", self.form_data(node="dra-example-driver-cluster-worker"), headers=HTMX)
        self.assertContains(r, '<datalist id="node-names" hx-swap-oob="true">', html=False)
        self.assertNotContains(r, 'id="id_node"')

    def test_a_posted_node_stays_in_the_field(self):
        r = self.client.post("/", self.form_data(node="dra-example-driver-cluster-worker"))
        self.assertContains(r, 'value="dra-example-driver-cluster-worker"', html=False)

    def test_the_sample_picker_loads_on_a_pick_not_on_every_change(self):
        # sample-picker.js sends the pick; htmx's own trigger for a select (every change) must stay off.
        r = self.client.get("/")
        self.assertRegex(r.content.decode(), r'<select name="inventory_slug"[^>]*hx-trigger="never"')


class RefusedPasteTestCase(BaseTestCase):
    def setUp(self):
        clusters._texts.clear()

    def post(self, **data):
        return self.client.post("/cluster", self.form_data(**data), HTTP_HX_REQUEST="true",
                                HTTP_HX_TARGET="playground")

    def test_a_refused_paste_comes_back_with_the_error(self):
        broken = cluster_yaml(2, seed=11).replace("driver: gpu.nvidia.com", "driver: Not A Driver", 1)
        # The page's script sends a paste as a file, flagged as pasted.
        r = self.post(cluster_file=SimpleUploadedFile("pasted.yaml", broken.encode()), cluster_pasted="1")
        self.assertContains(r, 'id="cluster-error"')
        textarea = re.search(r'<textarea name="cluster_text"[^>]*>(.*?)</textarea>', r.content.decode(), re.S)
        self.assertIn("driver: Not A Driver", textarea.group(1))
        self.assertContains(r, '<details id="my-cluster" open>', html=False)

    def test_a_refused_paste_without_script_comes_back_too(self):
        broken = cluster_yaml(2, seed=11).replace("driver: gpu.nvidia.com", "driver: Not A Driver", 1)
        r = self.client.post("/cluster", self.form_data(cluster_text=broken))
        self.assertContains(r, "driver: Not A Driver", status_code=400)

    def test_a_refused_file_is_not_pasted_into_the_textarea(self):
        broken = cluster_yaml(2, seed=11).replace("driver: gpu.nvidia.com", "driver: Not A Driver", 1)
        r = self.post(cluster_file=SimpleUploadedFile("cluster.yaml", broken.encode()))
        self.assertContains(r, 'id="cluster-error"')
        self.assertNotContains(r, "driver: Not A Driver")


@override_settings(STORED_INVENTORIES_PER_DAY=0)
class ManyNodesTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        clusters._texts.clear()
        cls.stored, _ = clusters.store(cluster_yaml(120, seed=3), "192.0.2.1")

    def post(self, documents: str = H200_PAIR, **data):
        return self.client.post("/", {"inventory_id": self.stored.id, "documents": documents,
                                      "kubernetes_version": "1.35", **data}, headers=HTMX)

    def test_the_matching_summary_names_the_node_it_looks_from(self):
        r = self.post()
        node = r.context["report"].explained_node
        self.assertTrue(node)
        self.assertRegex(r.content.decode(),
                         rf"\d+ of \d+ devices match on node <code class=\"explained-node\">{node}</code>")

    def test_every_name_past_the_first_ones_is_behind_a_disclosure(self):
        r = self.post()
        nodes = r.context["nodes"]
        big = max(nodes["groups"], key=lambda g: g["count"])
        self.assertGreater(big["count"], LIST_LIMIT)
        self.assertEqual((len(big["names"]), len(big["rest"])), (LIST_LIMIT, big["count"] - LIST_LIMIT))
        self.assertEqual(len(big["rest"]), big["more"])
        html = r.content.decode()
        self.assertIn(f"and {big['more']} more", html)
        self.assertIn(f"<summary>Show the other {big['more']}</summary>", html)
        for name in big["rest"]:
            self.assertIn(f"<code>{name}</code>", html)


class DefaultButtonTestCase(BaseTestCase):
    def test_enter_in_a_field_without_script_analyzes_rather_than_loads_the_sample(self):
        # Implicit submission uses the form's first submit button: it must not be "Load".
        html = self.client.get("/").content.decode()
        form = html[html.index('<form id="playground-form"'):]
        first = re.search(r"<button[^>]*type=\"submit\"[^>]*>", form).group(0)
        self.assertNotIn("name=", first)
        self.assertIn('class="default-submit"', first)
