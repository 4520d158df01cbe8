from django.contrib.auth.models import User

from playground.models import Share
from playground.tests.base import BaseTestCase


class AdminTestCase(BaseTestCase):
    def setUp(self):
        super().setUp()
        self.admin = User.objects.create_superuser("admin", "admin@example.org", "password")
        self.client.force_login(self.admin)

    def test_it_edits_sample_inventories(self):
        r = self.client.get(f"/admin/playground/sampleinventory/{self.inventory.pk}/change/")
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, 'name="objects_yaml"')

    def test_it_edits_examples(self):
        r = self.client.get(f"/admin/playground/example/{self.example.pk}/change/")
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, 'name="documents"')

    def test_it_shows_shares_read_only(self):
        share, _ = Share.objects.get_or_create_for(self.example.state())
        r = self.client.get(f"/admin/playground/share/{share.pk}/change/")
        self.assertEqual(r.status_code, 200)
        self.assertNotContains(r, 'name="documents"')
        self.assertEqual(self.client.get("/admin/playground/share/add/").status_code, 403)

    def test_it_requires_login(self):
        self.client.logout()
        r = self.client.get("/admin/playground/sampleinventory/")
        self.assertEqual(r.status_code, 302)
