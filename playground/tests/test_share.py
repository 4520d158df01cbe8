from playground.models import Share
from playground.tests.base import BaseTestCase


class CreateShareTestCase(BaseTestCase):
    def test_it_redirects_a_plain_post_to_the_link(self):
        r = self.client.post("/share", self.form_data())
        share = Share.objects.get()
        self.assertRedirects(r, f"/s/{share.id}")
        self.assertEqual(share.state(), self.example.state())

    def test_it_returns_the_link_to_htmx(self):
        r = self.client.post("/share", self.form_data(), HTTP_HX_REQUEST="true", HTTP_HX_TARGET="share")
        share = Share.objects.get()
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, 'id="share-url"')
        self.assertContains(r, f"http://testserver/s/{share.id}")
        self.assertEqual(r["HX-Push-Url"], f"/s/{share.id}")

    def test_it_gives_the_same_link_for_the_same_state(self):
        self.client.post("/share", self.form_data())
        self.client.post("/share", self.form_data())
        self.assertEqual(Share.objects.count(), 1)

    def test_it_forks_on_edit(self):
        self.client.post("/share", self.form_data())
        self.client.post("/share", self.form_data(node="dra-example-driver-cluster-worker"))
        self.assertEqual(Share.objects.count(), 2)

    def test_it_rejects_bad_state(self):
        r = self.client.post("/share", self.form_data(kubernetes_version="0.1"), HTTP_HX_REQUEST="true")
        self.assertEqual(r.status_code, 400)
        self.assertContains(r, 'id="share-error"', status_code=400)
        self.assertEqual(Share.objects.count(), 0)

    def test_it_rejects_get(self):
        r = self.client.get("/share")
        self.assertEqual(r.status_code, 405)


class ShareTestCase(BaseTestCase):
    def setUp(self):
        super().setUp()
        state = self.example.state()
        self.share, _ = Share.objects.get_or_create_for(
            {**state.to_dict(), "node": "dra-example-driver-cluster-worker", "kubernetesVersion": "1.34",
             "featureGates": {"DRAAdminAccess": False}}
        )

    def test_it_restores_the_state(self):
        r = self.client.get(f"/s/{self.share.id}")
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, 'id="share-banner"')
        self.assertContains(r, "name: two-gpus")
        self.assertContains(r, 'id="id_node" maxlength="253" list="node-names" value="dra-example-driver-cluster-worker"', html=False)
        self.assertContains(r, '<option value="1.34" selected>', html=False)
        self.assertContains(r, "<code>DRAAdminAccess=false</code>", html=True)
        self.assertContains(r, "<strong>Allocated</strong>", html=False)

    def test_it_keeps_its_inventory_when_the_sample_changes(self):
        self.inventory.objects_yaml = "apiVersion: v1\nkind: Node\nmetadata:\n  name: other\n"
        self.inventory.save()
        r = self.client.get(f"/s/{self.share.id}")
        self.assertContains(r, "<strong>Allocated</strong>", html=False)
        self.assertContains(r, "gpu-7")

    def test_it_404s_for_unknown_id(self):
        r = self.client.get("/s/doesnotexist")
        self.assertEqual(r.status_code, 404)
