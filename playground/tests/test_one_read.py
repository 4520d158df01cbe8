"""One read of the inventory per request: the analysis reads it, and the picture and the console show that
read (``Report.inventory``, ``allocator.authoring.inventory``) rather than reading the text again; and they
say where a device is in the same words."""

from contextlib import ExitStack
from unittest import mock

from allocator.authoring.inventory import ALL_NODES, SELECTED_NODES
from allocator.kube import objects
from allocator.tests.helpers.samples import inventory_text
from playground.tests.base import BaseTestCase
from playground.tests.helpers import GPU3, PICTURE

# Every module of the page's path that imports the engine's reader.
READERS = ("allocator.engine", "allocator.authoring.completion", "allocator.authoring.conversion",
           "playground.services.evaluate")


class OneReadTestCase(BaseTestCase):
    def reads_of(self, text: str, *posts: tuple[str, dict, dict]) -> int:
        """How many times the posts read ``text`` (whatever the engine's reading cache holds)."""
        calls = []

        def counted(read, *args, **kwargs):
            calls.append(args[0] if args else kwargs.get("text"))
            return read(*args, **kwargs)

        with ExitStack() as stack:
            for module in READERS:
                stack.enter_context(mock.patch(f"{module}.read_documents",
                                               side_effect=lambda *a, **k: counted(objects.read_documents, *a, **k)))
            for url, data, headers in posts:
                self.assertEqual(self.client.post(url, data, headers=headers).status_code, 200)
        return calls.count(text)

    def test_the_editor_reads_the_inventory_once_for_the_analysis_the_picture_and_the_console(self):
        data = self.form_data(console_expression="device.driver", console_device=GPU3)
        # A plain post: the live update (htmx) leaves the console's evaluation to a request of its own.
        r = self.client.post("/", data)
        self.assertContains(r, 'id="picture"')
        self.assertContains(r, '<code id="console-value-text">&quot;gpu.example.com&quot;</code>', html=False)
        self.assertContains(r, f'value="{GPU3}" selected', html=False)
        self.assertIn("kind: ResourceSlice", data["inventory"])
        posted = (("/", data, {}),)
        self.assertEqual(self.reads_of(data["inventory"], *posted), 1)

    def test_a_comparison_reads_the_texts_once_for_both_columns(self):
        data = self.form_data(compare="on", compare_inventory_slug="=", compare_kubernetes_version="1.36")
        headers = {"HX-Request": "true", "HX-Target": "results"}
        self.assertContains(self.client.post("/", data, headers=headers), 'id="compare-right"')
        self.assertEqual(self.reads_of(data["inventory"], ("/", data, headers)), 1)
        self.assertEqual(self.reads_of(data["documents"], ("/", data, headers)), 1)

    def test_the_console_alone_reads_the_inventory_once(self):
        data = self.form_data(console_expression="device.driver", console_device=GPU3)
        posted = (("/console", data, {"HX-Request": "true", "HX-Target": "console-result"}),)
        self.assertEqual(self.reads_of(data["inventory"], *posted), 1)


class OneWordingTestCase(BaseTestCase):
    def test_the_picture_and_the_console_say_where_a_device_is_in_the_same_words(self):
        data = self.form_data(inventory_slug="", inventory=inventory_text("network-attached"), documents="")
        r = self.client.post("/", data, headers={"HX-Request": "true", "HX-Target": "results"})
        self.assertEqual(r.status_code, 200)
        drawn = self.client.post("/picture", data, headers=PICTURE)  # the picture, once in view
        places = [n.name for n in drawn.context["picture"].nodes if n.shared]
        self.assertEqual(places, [ALL_NODES, SELECTED_NODES])
        for place in places:
            self.assertContains(drawn, f"<h4>{place} ", html=False)  # the picture's heading
            self.assertContains(r, f'<optgroup label="{place} · ', html=False)  # the console's picker
