"""The API shows which proof decided that claims cannot fit (``allocator.allocation.proofs``)."""

from __future__ import annotations

from allocator.tests.helpers.proofs import ISSUE, MESSAGE
from api.tests.base import APITestCase


class ProofTestCase(APITestCase):
    def test_analyze_gives_the_proof_as_data(self):
        r = self.post_json("/api/v1/analyze", {"documents": ISSUE, "node": "node-0"})
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertEqual(body["allocation"]["status"], "unsatisfiable")
        [node] = body["nodes"]
        self.assertEqual(node["name"], "node-0")
        self.assertFalse(node["fits"])
        proof = node["proof"]
        self.assertEqual(proof["code"], "missing-attribute")
        self.assertEqual(proof["message"], MESSAGE)
        self.assertEqual((proof["claim"], proof["request"], proof["needed"], proof["available"], proof["attribute"]),
                         ("default/gpu-nic", "nic", 1, 0, "gpu.example.com/fwVersion"))

    def test_allocate_says_it_in_the_reasons(self):
        r = self.post_json("/api/v1/allocate", {"documents": ISSUE})
        self.assertEqual(r.status_code, 200, r.content)
        body = r.json()
        self.assertFalse(body["allocated"])
        self.assertIsNone(body["error"])
        self.assertTrue(body["reasons"][0].startswith(f"node-0: {MESSAGE}"), body["reasons"])

    def test_the_schema_documents_the_proof(self):
        r = self.client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
        schemas = r.json()["components"]["schemas"]
        self.assertIn("proof", schemas["NodeFit"]["properties"])
        self.assertNotIn("proof", schemas["NodeFit"].get("required", []))
        self.assertIn("missing-attribute", schemas["Proof"]["properties"]["code"]["description"])
