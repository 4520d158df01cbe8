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
        self.assertContains(r, "over the site&#x27;s limit of 100\xa0bytes for the editor&#x27;s text", status_code=413)
        # The way that works, never the name of a setting.
        self.assertContains(r, "open “Use my cluster” above the editor", status_code=413)
        self.assertContains(r, "/api/v1/inventories", status_code=413)
        self.assertNotContains(r, "DATA_UPLOAD_MAX_MEMORY_SIZE", status_code=413)

    def test_it_answers_htmx_with_a_fragment(self):
        r = self.client.post("/", data={"documents": "x" * 200}, HTTP_HX_REQUEST="true")
        self.assertEqual(r.status_code, 413)
        self.assertContains(r, 'id="too-large"', status_code=413)
        self.assertContains(r, "Use my cluster", status_code=413)
        self.assertNotContains(r, "DATA_UPLOAD_MAX_MEMORY_SIZE", status_code=413)
        self.assertNotContains(r, "<html", status_code=413)

    def test_a_cluster_over_the_store_limit_is_told_what_to_store(self):
        with self.settings(STORED_INVENTORY_MAX_BYTES=10):
            r = self.client.post("/cluster", data={"cluster_text": "x" * 100_000}, HTTP_HX_REQUEST="true")
        self.assertContains(r, "for a stored cluster", status_code=413)
        self.assertContains(r, "kubectl get nodes,resourceslices,deviceclasses -o yaml", status_code=413)
        self.assertNotContains(r, "STORED_INVENTORY_MAX_BYTES", status_code=413)

    def test_it_keeps_json_for_the_api(self):
        r = self.client.post("/api/v1/analyze", data=b"x" * 200, content_type="application/json",
                             HTTP_ACCEPT="text/html")
        self.assertEqual(r.status_code, 413)
        self.assertEqual(r["Content-Type"], "application/json")
