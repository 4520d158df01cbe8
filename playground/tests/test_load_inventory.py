"""Picking a sample inventory: its objects replace the inventory, its starter claims replace unedited documents."""

from playground.forms import text_digest
from playground.models import Example, SampleInventory
from playground.tests.base import BaseTestCase, sample


class LoadInventoryTestCase(BaseTestCase):
    @classmethod
    def setUpTestData(cls):
        super().setUpTestData()
        Example.objects.update_or_create_from_sample(sample("examples", "quantity-selector"), 10)
        cls.mixed = SampleInventory.objects.get(slug="mixed-cluster")
        cls.starter = Example.objects.get(slug="quantity-selector")

    def load(self, **overrides):
        data = self.form_data(inventory_slug="mixed-cluster", action="load", **overrides)
        return self.client.post("/", data)

    def test_the_starter_is_stored_from_the_sample_file(self):
        self.assertEqual(self.mixed.starter, "quantity-selector")
        self.assertEqual(self.mixed.starter_documents(), self.starter.documents)
        self.assertEqual(self.inventory.starter, "per-container-requests")

    def test_unedited_documents_become_the_inventorys_starter_claims(self):
        documents = self.example.documents
        r = self.load(documents_origin=text_digest(documents))
        self.assertEqual(r.status_code, 200)
        form = r.context["form"]
        self.assertEqual(form["documents"].value(), self.starter.documents)
        self.assertEqual(form["inventory"].value(), self.mixed.as_yaml())
        self.assertContains(r, "Allocated</strong> on node")
        # The new page remembers the new documents as unedited.
        self.assertContains(r, f'name="documents_origin" value="{text_digest(self.starter.documents)}"')

    def test_edited_documents_are_kept(self):
        edited = self.example.documents + "# mine\n"
        r = self.load(documents=edited, documents_origin=text_digest(self.example.documents))
        self.assertEqual(r.context["form"]["documents"].value(), edited)
        self.assertEqual(r.context["form"]["inventory"].value(), self.mixed.as_yaml())

    def test_without_an_origin_the_documents_are_kept(self):
        r = self.load()
        self.assertEqual(r.context["form"]["documents"].value(), self.example.documents)

    def test_the_page_carries_the_origin_of_its_documents(self):
        r = self.client.get("/examples/count-two-gpus")
        self.assertContains(r, f'name="documents_origin" value="{text_digest(self.example.documents)}"')
