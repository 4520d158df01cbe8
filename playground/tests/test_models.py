from django.test import TestCase

from playground.models import Example, SampleInventory, Share
from playground.state import State, StateError

INVENTORY = """apiVersion: v1
kind: Node
metadata:
  name: node-1
"""


class BaseTestCase(TestCase):
    def setUp(self):
        super().setUp()
        self.inventory = SampleInventory.objects.create(
            slug="gpu-node", title="GPU node", objects_yaml=INVENTORY, tags=["basic"]
        )
        self.example = Example.objects.create(
            slug="one-gpu",
            title="One GPU",
            inventory=self.inventory,
            documents="kind: ResourceClaim\n",
            feature_gates={"DRAConsumableCapacity": False},
            tags=["basic", "taints"],
        )


class SampleInventoryTestCase(BaseTestCase):
    def test_it_returns_yaml(self):
        self.assertEqual(self.inventory.as_yaml(), INVENTORY)

    def test_it_prefers_gpu_node_as_default(self):
        SampleInventory.objects.create(slug="aaa", title="AAA", objects_yaml="", position=0)
        self.assertEqual(SampleInventory.objects.default(), self.inventory)

    def test_it_falls_back_to_first_listed(self):
        self.inventory.slug = "other"
        self.inventory.position = 5
        self.inventory.save()
        first = SampleInventory.objects.create(slug="aaa", title="AAA", objects_yaml="", position=1)
        self.assertEqual(SampleInventory.objects.default(), first)


class ExampleTestCase(BaseTestCase):
    def test_it_builds_state(self):
        state = self.example.state()
        self.assertEqual(state.inventory, INVENTORY)
        self.assertEqual(state.inventory_slug, "gpu-node")
        self.assertEqual(state.feature_gates, {"DRAConsumableCapacity": False})
        self.assertEqual(state.node, "")

    def test_it_filters_by_tag(self):
        self.assertEqual(list(Example.objects.tagged("taints")), [self.example])
        self.assertEqual(list(Example.objects.tagged("nope")), [])
        self.assertEqual(Example.objects.all_tags(), ["basic", "taints"])

    def test_it_joins_inventory(self):
        with self.assertNumQueries(1):
            titles = [e.inventory.title for e in Example.objects.with_inventory()]
        self.assertEqual(titles, ["GPU node"])


class ShareTestCase(BaseTestCase):
    def test_it_derives_id_from_content(self):
        a, created_a = Share.objects.get_or_create_for(self.example.state())
        b, created_b = Share.objects.get_or_create_for(self.example.state())
        self.assertTrue(created_a)
        self.assertFalse(created_b)
        self.assertEqual(a.pk, b.pk)
        self.assertEqual(len(a.pk), 11)
        self.assertRegex(a.pk, r"^[0-9A-Za-z]+$")
        self.assertEqual(Share.objects.count(), 1)

    def test_it_gives_new_id_for_new_content(self):
        a, _ = Share.objects.get_or_create_for(self.example.state())
        b, _ = Share.objects.get_or_create_for({**self.example.state().to_dict(), "node": "node-1"})
        self.assertNotEqual(a.pk, b.pk)

    def test_it_keeps_inventory_snapshot(self):
        share, _ = Share.objects.get_or_create_for(self.example.state())
        self.inventory.objects_yaml = "changed: true\n"
        self.inventory.save()
        share.refresh_from_db()
        self.assertEqual(share.state().inventory, INVENTORY)

    def test_it_accepts_dict_and_normalizes_gates(self):
        share, _ = Share.objects.get_or_create_for(
            {"documents": "x", "kubernetesVersion": "1.37", "featureGates": {"DRAPrioritizedList": True}}
        )
        self.assertEqual(share.feature_gates, {})  # on by default in 1.37

    def test_it_rejects_bad_state(self):
        with self.assertRaisesRegex(StateError, "Unsupported Kubernetes version"):
            Share.objects.get_or_create_for({"kubernetesVersion": "1.2"})
        with self.assertRaisesRegex(StateError, "unrecognized feature gate"):
            Share.objects.get_or_create_for({"featureGates": {"Nope": True}})
        with self.assertRaisesRegex(StateError, "unrecognized feature gate: DRAPrioritizedList"):
            Share.objects.get_or_create_for({"kubernetesVersion": "1.32", "featureGates": {"DRAPrioritizedList": True}})


class StateYamlTestCase(TestCase):
    def test_it_round_trips(self):
        state = State.from_dict(
            {"inventory": INVENTORY, "documents": "a: 1\nb:  \n", "node": "node-1", "kubernetesVersion": "1.33",
             "featureGates": {"DRAPrioritizedList": True}, "inventorySlug": "gpu-node"}
        )
        text = state.to_yaml()
        self.assertIn("kind: DRAPlaygroundState", text)
        self.assertIn("inventory: |", text)
        self.assertEqual(State.from_yaml(text), state)

    def test_it_rejects_other_yaml(self):
        with self.assertRaisesRegex(StateError, "not a DRA Playground export"):
            State.from_yaml("kind: ResourceClaim\n")
        with self.assertRaisesRegex(StateError, "not YAML"):
            State.from_yaml("a: [")
