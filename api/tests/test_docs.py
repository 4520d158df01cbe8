from django.test import TestCase


class DocsTestCase(TestCase):
    def test_it_loads_swagger_ui_from_static_files(self):
        r = self.client.get("/api/docs/")
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")
        self.assertNotContains(r, "cdn.jsdelivr.net")
        self.assertNotContains(r, "unpkg.com")

    def test_it_serves_the_start_up_script_as_a_file(self):
        # No inline <script>: the Content-Security-Policy allows only our own script files.
        r = self.client.get("/api/docs/")
        self.assertContains(r, '<script src="/api/docs/?script="></script>', html=True)
        self.assertNotRegex(r.content.decode(), r"<script>\s*\S")
        script = self.client.get("/api/docs/?script=")
        self.assertEqual(script["Content-Type"], "application/javascript")
        self.assertContains(script, "/api/schema/")

    def test_it_links_back_to_the_site(self):
        r = self.client.get("/api/docs/")
        self.assertContains(r, '<a href="/" style="color: #fff; font-weight: 600;">← DRA Playground</a>', html=True)
        self.assertContains(r, 'href="/examples/"')
