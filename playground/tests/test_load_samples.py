import tempfile
from io import StringIO
from pathlib import Path

from django.core.management import CommandError, call_command
from django.test import TestCase

from playground.models import Example, SampleInventory
from playground.state import State
from playground.tests.helpers import SAMPLES


def load(*args) -> str:
    out = StringIO()
    call_command("load_samples", *args, "--no-clusters", stdout=out)
    return out.getvalue()


class LoadSamplesTestCase(TestCase):
    def test_it_loads_every_file(self):
        output = load()
        inventories = len(list((SAMPLES / "inventories").glob("*.yaml")))
        examples = len(list((SAMPLES / "examples").glob("*.yaml")))
        self.assertEqual(SampleInventory.objects.count(), inventories)
        self.assertEqual(Example.objects.count(), examples)
        self.assertIn(f"Loaded {inventories} inventories ({inventories} new)", output)

    def test_it_is_idempotent(self):
        load()
        SampleInventory.objects.filter(slug="gpu-node").update(title="Edited")
        output = load()
        self.assertIn("(0 new)", output)
        self.assertEqual(SampleInventory.objects.get(slug="gpu-node").title, "One GPU node (dra-example-driver)")

    def test_it_stores_objects_as_yaml(self):
        load()
        inventory = SampleInventory.objects.get(slug="gpu-node")
        self.assertIn("kind: ResourceSlice", inventory.as_yaml())
        self.assertIn("node-local", inventory.tags)
        self.assertEqual(inventory.kubernetes_version, "1.37")

    def test_it_links_examples_to_inventories(self):
        load()
        example = Example.objects.with_inventory().get(slug="taints-gate-off")
        self.assertEqual(example.inventory.slug, "tainted-gpus")
        self.assertEqual(example.feature_gates, {"DRADeviceTaints": False, "DRADeviceTaintRules": False})
        self.assertIn("allocated", example.expected)
        self.assertIsInstance(example.state(), State)

    def test_it_prunes_only_when_asked(self):
        load()
        SampleInventory.objects.create(slug="gone", title="Gone", objects_yaml="")
        load()
        self.assertTrue(SampleInventory.objects.filter(slug="gone").exists())
        load("--prune")
        self.assertFalse(SampleInventory.objects.filter(slug="gone").exists())

    def test_it_reports_bad_files(self):
        folder = Path(self.enterContext(tempfile.TemporaryDirectory()))
        (folder / "inventories").mkdir()
        (folder / "examples").mkdir()
        (folder / "inventories" / "bad.yaml").write_text("slug: bad\ntitle: Bad\n")
        with self.assertRaisesRegex(CommandError, "bad.yaml: missing objects"):
            load("--dir", str(folder))

    def test_it_reports_unknown_inventory(self):
        folder = Path(self.enterContext(tempfile.TemporaryDirectory()))
        (folder / "inventories").mkdir()
        (folder / "examples").mkdir()
        (folder / "examples" / "x.yaml").write_text("slug: x\ntitle: X\ninventory: nope\ndocuments: ''\n")
        with self.assertRaisesRegex(CommandError, "unknown inventory 'nope'"):
            load("--dir", str(folder))
