"""The page's "Use my cluster": store a cluster, then edit claims against its id."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import override_settings

from allocator.synthetic import cluster_yaml
from playground import clusters
from playground.models import Share, StoredInventory
from playground.state import Inputs, State
from playground.tests.base import BaseTestCase

GPU_CLAIM = """\
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: one-gpu
spec:
  devices:
    requests:
    - name: gpu
      exactly:
        deviceClassName: gpu.nvidia.com
"""


class StoreClusterTestCase(BaseTestCase):
    def setUp(self):
        clusters._texts.clear()
        self.cluster = cluster_yaml(12, gpus_per_node=4)

    def store(self, **data):
        return self.client.post("/cluster", self.form_data(documents=GPU_CLAIM, inventory="", inventory_slug="",
                                                           **data))

    def test_pasting_stores_and_shows_a_summary_not_the_text(self):
        r = self.store(cluster_text=self.cluster)
        self.assertEqual(r.status_code, 200)
        stored = StoredInventory.objects.get()
        self.assertContains(r, f'name="inventory_id" id="id_inventory_id" value="{stored.id}"')
        self.assertContains(r, "12 nodes, 48 devices in 12 pools")
        self.assertContains(r, "<code>gpu.nvidia.com</code>")
        self.assertEqual(r.context["form"]["inventory"].value(), "")  # no text in the inventory editor
        self.assertNotContains(r, "kind: ResourceSlice")
        self.assertEqual(r.context["state"].inventory_id, stored.id)
        self.assertEqual(r.context["state"].documents, GPU_CLAIM)  # the claims being edited are kept

    def test_uploading_a_file_stores_it(self):
        upload = SimpleUploadedFile("cluster.yaml", self.cluster.encode(), content_type="application/yaml")
        r = self.store(cluster_file=upload)
        self.assertEqual(r.status_code, 200)
        self.assertEqual(StoredInventory.objects.get().nodes, 12)

    @override_settings(TEXT_MAX_CHARS=1000, DATA_UPLOAD_MAX_MEMORY_SIZE=5000)
    def test_a_cluster_may_be_far_larger_than_the_text_limit(self):
        upload = SimpleUploadedFile("cluster.yaml", self.cluster.encode(), content_type="application/yaml")
        self.assertGreater(len(self.cluster), 5000)
        r = self.client.post("/cluster", {"documents": GPU_CLAIM, "kubernetes_version": "1.35", "cluster_file": upload})
        self.assertEqual(r.status_code, 200)
        [stored] = StoredInventory.objects.all()
        # Then the live edits carry only the claims and the id.
        r = self.client.post("/", {"inventory_id": stored.id, "documents": GPU_CLAIM, "inventory": "",
                                   "kubernetes_version": "1.35"}, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="results")
        self.assertEqual(r.status_code, 200)
        self.assertEqual(r.context["report"].allocation.status, "allocated")

    def test_invalid_objects_are_shown_located_and_nothing_is_stored(self):
        broken = self.cluster.replace("driver: gpu.nvidia.com", "driver: Not A Driver", 1)
        r = self.store(cluster_text=broken)
        self.assertContains(r, 'id="cluster-error"', status_code=400)
        self.assertContains(r, "spec.driver", status_code=400)
        self.assertEqual(StoredInventory.objects.count(), 0)
        # htmx swaps only 2xx answers: it gets the same page with 200.
        r = self.client.post(
            "/cluster", self.form_data(cluster_text=broken), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="playground")
        self.assertContains(r, 'id="cluster-error"')

    @override_settings(STORED_INVENTORY_MAX_BYTES=1000)
    def test_the_size_limit_is_named(self):
        r = self.store(cluster_text=self.cluster)
        self.assertContains(r, "STORED_INVENTORY_MAX_BYTES", status_code=413)

    @override_settings(STORED_INVENTORIES_PER_DAY=1)
    def test_the_quota_is_named(self):
        self.store(cluster_text=self.cluster)
        r = self.store(cluster_text=cluster_yaml(3))
        self.assertContains(r, "STORED_INVENTORIES_PER_DAY", status_code=429)

    def test_the_share_holds_the_id_and_opens_with_the_summary(self):
        self.store(cluster_text=self.cluster)
        stored = StoredInventory.objects.get()
        r = self.client.post("/share", self.form_data(inventory="", inventory_slug="", inventory_id=stored.id,
                                                      documents=GPU_CLAIM))
        share = Share.objects.get()
        self.assertEqual((share.inventory_id, share.inventory), (stored.id, ""))
        page = self.client.get(r["Location"])
        self.assertContains(page, "the stored cluster")
        self.assertContains(page, f'value="{stored.id}"')
        self.assertEqual(page.context["report"].allocation.status, "allocated")

    def test_the_export_refers_to_the_id_and_imports_again(self):
        self.store(cluster_text=self.cluster)
        stored = StoredInventory.objects.get()
        exported = self.client.post("/export", self.form_data(inventory="", inventory_slug="",
                                                              inventory_id=stored.id, documents=GPU_CLAIM))
        text = exported.content.decode()
        self.assertIn(f"inventoryId: {stored.id}", text)
        self.assertNotIn("gpu-node-00001", text)
        upload = SimpleUploadedFile("state.yaml", exported.content)
        r = self.client.post("/import", {"state_file": upload})
        self.assertEqual(r.context["state"].inventory_id, stored.id)
        bogus = SimpleUploadedFile("state.yaml", text.replace(stored.id, "NoSuchCluster").encode())
        r = self.client.post("/import", {"state_file": bogus})
        self.assertContains(r, "No stored inventory has the id", status_code=200)

    def test_loading_a_sample_stops_using_the_cluster(self):
        self.store(cluster_text=self.cluster)
        stored = StoredInventory.objects.get()
        r = self.client.post("/", self.form_data(inventory="", inventory_slug="gpu-node", inventory_id=stored.id,
                                                 action="load"))
        self.assertEqual((r.context["state"].inventory_id, r.context["state"].inventory_slug), ("", "gpu-node"))

    def test_an_unknown_id_is_a_form_error(self):
        r = self.client.post("/", self.form_data(inventory="", inventory_slug="", inventory_id="NoSuchCluster"))
        self.assertContains(r, "No stored inventory has the id")

    def test_completion_names_come_from_the_stored_cluster(self):
        self.store(cluster_text=self.cluster)
        stored = StoredInventory.objects.get()
        names = self.client.post("/editor/names", {"inventory_id": stored.id}).json()
        self.assertIn("gpu.nvidia.com", str(names))
        self.assertEqual(self.client.post("/editor/names", {"inventory_id": "Nope"}).status_code, 404)

    def test_state_keeps_old_share_ids_without_a_cluster(self):
        # A state without a stored cluster hashes as before stored clusters existed.
        self.assertNotIn(b"inventory_id", State(Inputs(documents="x")).canonical())

    def test_a_share_of_a_deleted_cluster_says_so(self):
        self.store(cluster_text=self.cluster)
        stored = StoredInventory.objects.get()
        self.client.post("/share", self.form_data(inventory="", inventory_slug="", inventory_id=stored.id,
                                                  documents=GPU_CLAIM))
        share = Share.objects.get()
        stored.delete()
        clusters._texts.clear()
        page = self.client.get(f"/s/{share.id}")
        self.assertContains(page, 'id="cluster-missing"')
        self.assertEqual(self.client.get(f"/s/{share.id}/embed").status_code, 404)


class SiteLimitsPageTestCase(BaseTestCase):
    @override_settings(TEXT_MAX_CHARS=1000)
    def test_an_inventory_over_the_text_limit_names_the_setting_and_the_way_around(self):
        r = self.client.post("/", {"inventory": "#" * 1001, "documents": "", "kubernetes_version": "1.37"})
        self.assertContains(r, "inventory is too long: 1001 characters, the limit is 1000 "
                               "(the site&#x27;s TEXT_MAX_CHARS setting)")
        self.assertContains(r, "Use my cluster, or POST /api/v1/inventories")

    @override_settings(TEXT_MAX_CHARS=1000)
    def test_an_uploaded_inventory_over_the_limit_names_the_setting(self):
        upload = SimpleUploadedFile("big.yaml", b"#" * 1001)
        r = self.client.post("/", {"inventory_file": upload, "documents": "", "kubernetes_version": "1.37"})
        self.assertContains(r, "big.yaml is too large: 1001 bytes, the limit is 1000 bytes "
                               "(the site&#x27;s TEXT_MAX_CHARS setting)")

    @override_settings(TEXT_MAX_VALUES=50)
    def test_an_inventory_over_the_values_limit_names_the_setting(self):
        r = self.client.post("/", {"inventory": cluster_yaml(1), "documents": "", "kubernetes_version": "1.37"})
        self.assertContains(r, "more than 50 values")
        self.assertContains(r, "TEXT_MAX_VALUES")


class StoredClusterInComparisonTestCase(BaseTestCase):
    """A compared column may name a stored cluster of its own; the page keeps it through shares and edits."""

    def setUp(self):
        clusters._texts.clear()
        self.stored, _ = clusters.store(cluster_yaml(3, gpus_per_node=2), "192.0.2.1")
        self.state = State.from_dict({"documents": GPU_CLAIM, "inventory": "", "inventorySlug": "",
                                      "compare": {"inventoryId": self.stored.id, "inventory": "",
                                                  "inventorySlug": ""}})

    def test_a_shared_comparison_analyzes_the_stored_cluster_and_keeps_its_id_in_the_form(self):
        share, _ = Share.objects.get_or_create_for(self.state)
        r = self.client.get(share.get_absolute_url())
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, 'id="compare-right"')
        self.assertContains(r, f'name="compare_inventory_id" value="{self.stored.id}"')
        right = r.context["comparison"]["right"]["report"].allocation
        self.assertEqual(right.status, "allocated")
        # Posting the form back (as a live edit does) keeps the compared column's stored cluster.
        form = r.context["form"]
        data = {name: value for name, value in form.initial.items() if value is not None}
        data["compare"] = "on"
        posted = self.client.post("/", data, headers={"HX-Request": "true", "HX-Target": "results"})
        self.assertEqual(posted.status_code, 200)
        self.assertEqual(posted.context["state"].compare.inventory_id, self.stored.id)
        self.assertEqual(posted.context["comparison"]["right"]["report"].allocation.status, "allocated")
