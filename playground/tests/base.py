"""Shared fixtures: two real sample inventories and a few examples from playground/samples/."""

from django.test import TestCase

from allocator.tests.helpers.samples import sample
from playground.models import Example, SampleInventory


class BaseTestCase(TestCase):
    @classmethod
    def setUpTestData(cls):
        for position, slug in enumerate(["gpu-node", "mixed-cluster"]):
            SampleInventory.objects.update_or_create_from_sample(sample("inventories", slug), position)
        for position, slug in enumerate(["count-two-gpus", "per-container-requests", "prioritized-list"]):
            Example.objects.update_or_create_from_sample(sample("examples", slug), position)
        cls.inventory = SampleInventory.objects.get(slug="gpu-node")
        cls.example = Example.objects.get(slug="count-two-gpus")

    def form_data(self, **overrides) -> dict:
        """What the editor form posts for an example's state."""
        state = self.example.state()
        data = {
            "inventory_slug": state.inventory_slug,
            "inventory": state.inventory,
            "documents": state.documents,
            "node": state.node,
            "kubernetes_version": state.kubernetes_version,
        }
        data.update(overrides)
        return data
