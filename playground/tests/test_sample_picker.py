"""The editor's sample picker lists the samples without their objects: a keystroke lists them on every
live update, and only loading one (or comparing with one) reads its objects."""

from django.db import connection
from django.test.utils import CaptureQueriesContext

from playground.models import SampleInventory
from playground.tests.base import BaseTestCase
from playground.tests.helpers import HTMX


class SamplePickerTestCase(BaseTestCase):
    def test_a_keystroke_lists_the_samples_without_reading_their_objects(self):
        data = self.form_data(documents=self.example.documents + "#")
        with CaptureQueriesContext(connection) as queries:
            r = self.client.post("/", data, headers=HTMX)
        self.assertEqual(r.status_code, 200)
        self.assertEqual(r.context["report"].allocation.status, "allocated")
        listed = [q["sql"] for q in queries.captured_queries if "playground_sampleinventory" in q["sql"]]
        self.assertTrue(listed)
        self.assertFalse([sql for sql in listed if "objects_yaml" in sql], listed)

    def test_loading_a_sample_reads_its_objects(self):
        r = self.client.post("/", {**self.form_data(), "inventory_slug": "mixed-cluster", "action": "load",
                                   "inventory": ""})
        self.assertEqual(r.status_code, 200)
        self.assertEqual(r.context["state"].inventory, SampleInventory.objects.get(slug="mixed-cluster").objects_yaml)
