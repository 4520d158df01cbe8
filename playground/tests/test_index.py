from django.test import TestCase


class IndexTestCase(TestCase):
    def test_it_renders(self):
        r = self.client.get("/")
        self.assertEqual(r.status_code, 200)
        self.assertContains(r, "<title>DRA Playground</title>", html=False)
        self.assertContains(r, "<h1>DRA Playground</h1>", html=True)

    def test_it_has_one_element_per_region(self):
        r = self.client.get("/")
        html = r.content.decode()
        for region in ("intro", "editor", "results"):
            self.assertEqual(html.count(f'id="{region}"'), 1, region)

    def test_it_sends_csrf_token_once_in_hx_headers(self):
        r = self.client.get("/")
        self.assertContains(r, 'hx-headers=\'{"x-csrftoken": "', count=1)
        self.assertIn("csrftoken", r.cookies)

    def test_it_loads_vendored_htmx(self):
        r = self.client.get("/")
        self.assertContains(r, "/static/vendor/htmx-2.0.11.min.js")

    def test_it_rejects_post(self):
        r = self.client.post("/")
        self.assertEqual(r.status_code, 405)
