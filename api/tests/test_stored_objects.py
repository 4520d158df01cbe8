"""The API says which objects it read as stored (issue 33 item 4): ``storedObjects``, only when there are any."""

from allocator.tests.helpers.stored_objects import CREATED, STORED, claim, first_available, inventory
from api.tests.base import APITestCase

STORED_DOCUMENTS = inventory("v1") + "---\n" + claim("v1", STORED, first_available("v1"))
CREATED_DOCUMENTS = inventory("v1") + "---\n" + claim("v1", CREATED, first_available("v1"))
LISTED = [{"kind": "ResourceClaim", "namespace": "default", "name": "c"}]


class StoredObjectsTestCase(APITestCase):
    def _post(self, endpoint: str, documents: str, gates: dict | None = None) -> dict:
        r = self.post_json(f"/api/v1/{endpoint}", {"documents": documents, "kubernetesVersion": "1.34",
                                                   "featureGates": gates or {}, "node": "n1"})
        self.assertEqual(r.status_code, 200, r.content[:2000])
        return r.json()

    def test_validate_allocate_and_analyze_list_the_stored_claim(self):
        self.assertEqual(self._post("validate", STORED_DOCUMENTS)["storedObjects"], LISTED)
        allocated = self._post("allocate", STORED_DOCUMENTS)
        self.assertTrue(allocated["allocated"])
        self.assertEqual(allocated["storedObjects"], LISTED)
        self.assertEqual(self._post("analyze", STORED_DOCUMENTS)["storedObjects"], LISTED)

    def test_the_allocator_refuses_the_stored_claim_with_the_gate_off(self):
        allocated = self._post("allocate", STORED_DOCUMENTS, {"DRAPrioritizedList": False})
        self.assertFalse(allocated["allocated"])
        self.assertEqual(allocated["error"], "claim default/c, request r: has subrequests, "
                                             "but the DRAPrioritizedList feature is disabled")
        self.assertEqual(allocated["storedObjects"], LISTED)

    def test_no_key_without_stored_objects(self):
        for endpoint in ("validate", "allocate", "analyze"):
            with self.subTest(endpoint=endpoint):
                self.assertNotIn("storedObjects", self._post(endpoint, CREATED_DOCUMENTS))

    def test_the_schema_documents_the_key(self):
        r = self.client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
        schemas = r.json()["components"]["schemas"]
        self.assertEqual(set(schemas["StoredObject"]["properties"]), {"kind", "namespace", "name"})
        for name in ("ValidateResponse", "AllocateResponse", "AnalyzeResponse"):
            with self.subTest(schema=name):
                self.assertIn("storedObjects", schemas[name]["properties"])
                self.assertNotIn("storedObjects", schemas[name].get("required", []))
