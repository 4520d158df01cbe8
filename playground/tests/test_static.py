from django.test import TestCase


class StaticFilesTestCase(TestCase):
    def test_it_serves_vendored_htmx_without_collectstatic(self):
        r = self.client.get("/static/vendor/htmx-2.0.11.min.js")
        self.assertEqual(r.status_code, 200)
        self.assertIn("javascript", r["Content-Type"])
        self.assertTrue(b"".join(r.streaming_content).startswith(b"var htmx="))

    def test_it_serves_swagger_ui_bundle(self):
        r = self.client.get("/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
        self.assertEqual(r.status_code, 200)
