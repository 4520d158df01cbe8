from django.test import TestCase


class DocsTestCase(TestCase):
    def test_it_loads_swagger_ui_from_static_files(self):
        r = self.client.get("/api/docs/")
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
        self.assertContains(r, "/api/schema/")
        self.assertNotContains(r, "cdn.jsdelivr.net")
        self.assertNotContains(r, "unpkg.com")
