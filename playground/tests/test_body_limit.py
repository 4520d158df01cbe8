from django.test import TestCase, override_settings


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=100)
class BodySizeLimitTestCase(TestCase):
    def test_it_refuses_large_body(self):
        r = self.client.post("/api/schema/", data=b"x" * 101, content_type="application/json")
        self.assertEqual(r.status_code, 413)
        self.assertEqual(r.json()["detail"], "Request body too large: 101 bytes, the limit is 100 bytes (the site's DATA_UPLOAD_MAX_MEMORY_SIZE setting).")

    def test_it_refuses_large_form(self):
        r = self.client.post("/", data={"yaml": "x" * 200})
        self.assertEqual(r.status_code, 413)

    def test_it_passes_body_at_limit(self):
        # The view does not accept POST, so reaching it proves the body got through.
        r = self.client.post("/api/schema/", data=b"x" * 100, content_type="application/json")
        self.assertEqual(r.status_code, 405)

    def test_it_rejects_bad_content_length(self):
        r = self.client.generic("POST", "/", data=b"", CONTENT_LENGTH="lots")
        self.assertEqual(r.status_code, 400)


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=100)
class BodySizeLimitPageTestCase(TestCase):
    def test_it_answers_a_browser_with_a_page(self):
        r = self.client.post("/", data={"documents": "x" * 200}, HTTP_ACCEPT="text/html,*/*")
        self.assertEqual(r.status_code, 413)
        self.assertTemplateUsed(r, "playground/too_large.html")
        self.assertContains(r, "<h1>Too large</h1>", status_code=413, html=True)
        self.assertContains(r, "the limit is 100 bytes", status_code=413)

    def test_it_answers_htmx_with_a_fragment(self):
        r = self.client.post("/", data={"documents": "x" * 200}, HTTP_HX_REQUEST="true")
        self.assertEqual(r.status_code, 413)
        self.assertContains(r, 'id="too-large"', status_code=413)
        self.assertNotContains(r, "<html", status_code=413)

    def test_it_keeps_json_for_the_api(self):
        r = self.client.post("/api/v1/analyze", data=b"x" * 200, content_type="application/json",
                             HTTP_ACCEPT="text/html")
        self.assertEqual(r.status_code, 413)
        self.assertEqual(r["Content-Type"], "application/json")
