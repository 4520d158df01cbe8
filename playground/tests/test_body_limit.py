from django.test import TestCase, override_settings


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=100)
class BodySizeLimitTestCase(TestCase):
    def test_it_refuses_large_body(self):
        r = self.client.post("/api/schema/", data=b"x" * 101, content_type="application/json")
        self.assertEqual(r.status_code, 413)
        self.assertEqual(r.json()["detail"], "Request body too large: 101 bytes, the limit is 100 bytes.")

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
