"""`/s/ID.yaml`: a share's documents and inventory as plain YAML, under a header naming its settings."""

import yaml

from playground import clusters
from playground.models import Share
from playground.tests.base import BaseTestCase


class ShareTextTestCase(BaseTestCase):
    def share(self, **changes) -> Share:
        snapshot, _ = Share.objects.get_or_create_for({**self.example.state().to_dict(), **changes})
        return snapshot

    def test_it_serves_the_documents_then_the_inventory_as_plain_yaml(self):
        snapshot = self.share(kubernetesVersion="1.34", featureGates={"DRAAdminAccess": False},
                              node="dra-example-driver-cluster-worker")
        r = self.client.get(f"/s/{snapshot.id}.yaml")
        self.assertEqual(r.status_code, 200)
        self.assertEqual(r["Content-Type"], "text/plain; charset=utf-8")
        text = r.content.decode()
        header = text.split("\n")[:3]
        self.assertEqual(header[0], f"# DRA Playground share: http://testserver/s/{snapshot.id}")
        self.assertEqual(header[1], "# Kubernetes 1.34 with feature gates DRAAdminAccess=false "
                                    "(the release's defaults for the rest).")
        self.assertIn("# Node: dra-example-driver-cluster-worker.", header[2])
        objects = [doc for doc in yaml.safe_load_all(text) if doc]
        kinds = [doc["kind"] for doc in objects]
        # The claims first, as shared; then the inventory's slices.
        documents = [doc for doc in yaml.safe_load_all(snapshot.state().documents) if doc]
        self.assertEqual(objects[:len(documents)], documents)
        self.assertIn("ResourceSlice", kinds[len(documents):])
        self.assertIn("name: two-gpus", text)

    def test_it_names_the_release_defaults_when_no_gate_is_set(self):
        r = self.client.get(f"/s/{self.share().id}.yaml")
        self.assertIn("with the release's default feature gates.", r.content.decode())

    def test_a_stored_cluster_is_served_as_stored(self):
        stored, _ = clusters.store(self.inventory.objects_yaml, "127.0.0.1")
        snapshot = self.share(inventory="", inventorySlug="", inventoryId=stored.id)
        text = self.client.get(f"/s/{snapshot.id}.yaml").content.decode()
        self.assertIn(f"Inventory: the stored cluster {stored.id}.", text)
        self.assertIn(self.inventory.objects_yaml.strip(), text)

    def test_the_share_page_links_to_it(self):
        snapshot = self.share()
        r = self.client.get(f"/s/{snapshot.id}")
        self.assertContains(r, f'<a id="share-text-link" href="/s/{snapshot.id}.yaml">', html=False)

    def test_it_404s_for_an_unknown_id(self):
        self.assertEqual(self.client.get("/s/doesnotexist.yaml").status_code, 404)
