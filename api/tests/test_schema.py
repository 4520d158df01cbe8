from django.test import TestCase
from drf_spectacular.validation import validate_schema


class SchemaTestCase(TestCase):
    def test_it_serves_valid_openapi_json(self):
        r = self.client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
        self.assertEqual(r.status_code, 200)
        schema = r.json()
        validate_schema(schema)  # raises on an invalid OpenAPI 3 document
        self.assertTrue(schema["openapi"].startswith("3."))
        self.assertEqual(schema["info"]["title"], "DRA Playground API")

    def test_it_serves_yaml_by_default(self):
        r = self.client.get("/api/schema/")
        self.assertEqual(r.status_code, 200)
        self.assertTrue(r["Content-Type"].startswith("application/vnd.oai.openapi"))
        self.assertContains(r, "title: DRA Playground API")
