from io import StringIO

import yaml
from django.core.management import call_command
from django.test import TestCase
from drf_spectacular.validation import validate_schema

ENDPOINTS = {
    "/api/v1/validate": {"post": {"200", "400", "413", "415", "429", "503"}},
    "/api/v1/allocate": {"post": {"200", "400", "413", "415", "429", "503"}},
    "/api/v1/analyze": {"post": {"200", "400", "413", "415", "429", "503"}},
    "/api/v1/compare": {"post": {"200", "400", "413", "415", "429", "503"}},
    "/api/v1/convert": {"post": {"200", "400", "413", "415", "429"}},
    "/api/v1/evaluate": {"post": {"200", "400", "413", "415", "429", "503"}},
    "/api/v1/capacity": {"post": {"200", "400", "413", "415", "429", "503"}},
    "/api/v1/inventories": {"get": {"200", "429"}},
    "/api/v1/inventories/{slug}": {"get": {"200", "404", "429"}},
    "/api/v1/examples": {"get": {"200", "429"}},
    "/api/v1/examples/{slug}": {"get": {"200", "404", "429"}},
    "/api/v1/shares": {"post": {"200", "201", "400", "413", "415", "429"}},
    "/api/v1/shares/{id}": {"get": {"200", "404", "429"}},
}


class SchemaTestCase(TestCase):
    def schema(self) -> dict:
        r = self.client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
        self.assertEqual(r.status_code, 200)
        return r.json()

    def test_it_serves_valid_openapi_json(self):
        schema = self.schema()
        validate_schema(schema)  # raises on an invalid OpenAPI 3 document
        self.assertTrue(schema["openapi"].startswith("3."))
        self.assertEqual(schema["info"]["title"], "DRA Playground API")

    def test_it_serves_yaml_by_default(self):
        r = self.client.get("/api/schema/")
        self.assertEqual(r.status_code, 200)
        self.assertTrue(r["Content-Type"].startswith("application/vnd.oai.openapi"))
        self.assertContains(r, "title: DRA Playground API")

    def test_it_generates_without_warnings(self):
        # What `./manage.py spectacular --validate --fail-on-warn` checks: any warning is an error.
        out = StringIO()
        call_command("spectacular", "--validate", "--fail-on-warn", stdout=out)
        self.assertIn("/api/v1/allocate", yaml.safe_load(out.getvalue())["paths"])

    def test_it_documents_every_endpoint_and_error(self):
        paths = self.schema()["paths"]
        self.assertEqual(set(paths) - {"/api/schema/"}, set(ENDPOINTS))
        for path, methods in ENDPOINTS.items():
            for method, statuses in methods.items():
                with self.subTest(path=path, method=method):
                    operation = paths[path][method]
                    self.assertEqual(set(operation["responses"]), statuses)
                    self.assertTrue(operation.get("summary"))
                    for status in statuses - {"200", "201"}:
                        content = operation["responses"][status]["content"]["application/json"]
                        self.assertEqual(content["schema"], {"$ref": "#/components/schemas/Errors"})

    def test_it_has_request_and_response_examples(self):
        paths = self.schema()["paths"]
        for path in ("/api/v1/validate", "/api/v1/allocate", "/api/v1/shares"):
            with self.subTest(path):
                operation = paths[path]["post"]
                content = operation["requestBody"]["content"]
                self.assertEqual(set(content), {"application/json", "application/yaml"})
                self.assertTrue(content["application/json"]["examples"])
                self.assertTrue(content["application/yaml"]["examples"])
                for status in ("400", "413", "415", "429"):
                    self.assertTrue(operation["responses"][status]["content"]["application/json"]["examples"])
        for path in ("/api/v1/validate", "/api/v1/allocate"):
            self.assertTrue(paths[path]["post"]["responses"]["200"]["content"]["application/json"]["examples"])

    def test_it_documents_query_parameters_of_yaml_bodies(self):
        parameters = {p["name"] for p in self.schema()["paths"]["/api/v1/allocate"]["post"]["parameters"]}
        self.assertEqual(parameters, {"inventory", "node", "featureGates", "kubernetesVersion"})

    def test_it_documents_alternatives_and_compare(self):
        schema = self.schema()
        paths, components = schema["paths"], schema["components"]["schemas"]
        analyze = paths["/api/v1/analyze"]["post"]
        self.assertIn("alternatives", {p["name"] for p in analyze["parameters"]})
        request = components["AnalyzeRequest"]["properties"]["alternatives"]
        self.assertEqual((request["minimum"], request["maximum"]), (0, 100))
        allocation = components["Allocation"]["properties"]
        self.assertEqual(allocation["alternatives"]["items"], {"$ref": "#/components/schemas/Alternative"})
        self.assertIn("stopped", components["AlternativesSearch"]["properties"])
        compare = paths["/api/v1/compare"]["post"]
        self.assertEqual(set(compare["requestBody"]["content"]), {"application/json"})
        self.assertTrue(compare["requestBody"]["content"]["application/json"]["examples"])
        body = components["CompareRequest"]["properties"]
        self.assertEqual(body["left"]["allOf"][0], {"$ref": "#/components/schemas/CompareSide"})
        self.assertEqual(set(components["CompareSide"]["properties"]),
                         {"kubernetesVersion", "featureGates", "node", "inventory"})
        answer = compare["responses"]["200"]["content"]["application/json"]["schema"]
        self.assertEqual(answer, {"$ref": "#/components/schemas/CompareResponse"})
        self.assertEqual(set(components["CompareResponse"]["properties"]), {"left", "right", "differences"})
        self.assertEqual(set(components["Difference"]["properties"]), {"path", "left", "right"})
