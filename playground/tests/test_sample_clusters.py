"""load_sample_clusters: generated sample clusters, stored once, with their gallery examples."""

from __future__ import annotations

import tempfile
from io import StringIO
from pathlib import Path

import yaml
from django.core.management import CommandError, call_command
from django.test import TestCase

from playground import clusters
from playground.management.commands.load_sample_clusters import generate
from playground.models import Example, SampleInventory, StoredInventory
from playground.services.analyze import analyze

SMALL = {
    "slug": "tiny-cluster", "title": "Tiny", "description": "Six nodes.", "kubernetesVersion": "1.37",
    "starter": "tiny-h200", "features": ["multi-node"], "generator": {"nodes": 6, "gpusPerNode": 4, "seed": 1},
    "examples": [{
        "slug": "tiny-h200", "title": "Any GPU", "inventory": "ignored", "node": None, "featureGates": {},
        "kubernetesVersion": "1.37", "features": ["count"],
        "documents": "apiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata:\n  name: one\nspec:\n"
                     "  devices:\n    requests:\n    - name: gpu\n      exactly:\n        deviceClassName: gpu.nvidia.com\n",
        "expect": {"allocated": True},
    }],
}


def load(folder: Path) -> str:
    out = StringIO()
    call_command("load_sample_clusters", "--dir", str(folder), stdout=out)
    return out.getvalue()


class LoadSampleClustersTestCase(TestCase):
    def setUp(self):
        clusters._texts.clear()
        self.folder = Path(tempfile.mkdtemp())
        (self.folder / "tiny-cluster.yaml").write_text(yaml.safe_dump(SMALL))

    def test_it_stores_the_generated_cluster_and_its_examples(self):
        output = load(self.folder)
        sample = SampleInventory.objects.get(slug="tiny-cluster")
        self.assertEqual((sample.cluster.nodes, sample.cluster.devices), (6, 24))
        self.assertIn("tiny-cluster: 6 nodes, 24 devices", output)
        self.assertEqual(sample.as_yaml(), generate(SMALL["generator"]).rstrip() + "\n")
        example = Example.objects.get(slug="tiny-h200")
        state = example.state()
        self.assertEqual((state.inventory, state.inventory_id, state.inventory_slug), ("", sample.cluster_id, "tiny-cluster"))
        self.assertEqual(analyze(state).to_dict()["allocation"]["status"], "allocated")

    def test_the_same_seed_gives_the_same_snapshot(self):
        load(self.folder)
        first = SampleInventory.objects.get(slug="tiny-cluster").cluster_id
        output = load(self.folder)
        self.assertNotIn("(new)", output)
        self.assertEqual(SampleInventory.objects.get(slug="tiny-cluster").cluster_id, first)
        self.assertEqual(StoredInventory.objects.count(), 1)

    def test_a_bad_file_is_refused(self):
        (self.folder / "bad.yaml").write_text("slug: bad\ntitle: Bad\n")
        with self.assertRaisesRegex(CommandError, "bad.yaml: missing generator, examples"):
            load(self.folder)

    def test_the_page_and_the_api_open_a_sample_cluster_by_its_slug(self):
        load(self.folder)
        sample = SampleInventory.objects.get(slug="tiny-cluster")
        page = self.client.get("/examples/tiny-h200")
        self.assertContains(page, f'name="inventory_id" id="id_inventory_id" value="{sample.cluster_id}"')
        self.assertContains(page, '<option value="tiny-cluster" selected>')
        self.assertContains(page, "6 nodes, 24 devices in 6 pools")
        r = self.client.post("/api/v1/allocate", {"documents": SMALL["examples"][0]["documents"],
                                                  "inventory": "tiny-cluster"}, content_type="application/json")
        self.assertEqual((r.status_code, r.json()["allocated"]), (200, True))
        # Picking it in the editor's picker uses the stored cluster, not text.
        r = self.client.post("/", {"inventory_slug": "tiny-cluster", "action": "load", "documents": "",
                                   "kubernetes_version": "1.37"})
        self.assertEqual((r.context["state"].inventory_id, r.context["state"].inventory), (sample.cluster_id, ""))

