from api.tests.base import CLAIM_YAML, INVALID_CLAIM_YAML, INVENTORY_YAML, APITestCase, run_cli


class ValidateTestCase(APITestCase):
    def test_it_accepts_valid_claim_as_json(self):
        r = self.post_json("/api/v1/validate", {"documents": CLAIM_YAML, "inventory": "two-gpus"})
        self.assertEqual(r.status_code, 200, r.content)
        self.assertEqual(r.json(), {"valid": True, "errors": [], "warnings": []})

    def test_it_accepts_valid_claim_as_yaml(self):
        r = self.post_yaml("/api/v1/validate?inventory=two-gpus", CLAIM_YAML)
        self.assertEqual(r.status_code, 200, r.content)
        self.assertEqual(r.json(), {"valid": True, "errors": [], "warnings": []})

    def test_it_accepts_other_yaml_media_types(self):
        for content_type in ("application/x-yaml", "text/yaml", "application/yaml; charset=utf-8"):
            r = self.post_yaml("/api/v1/validate", CLAIM_YAML, content_type=content_type)
            self.assertEqual(r.status_code, 200, content_type)

    def test_it_locates_invalid_field(self):
        r = self.post_json("/api/v1/validate", {"documents": INVALID_CLAIM_YAML})
        self.assertEqual(r.status_code, 200)
        body = r.json()
        self.assertFalse(body["valid"])
        [error] = body["errors"]
        self.assertEqual(error["kind"], "ResourceClaim")
        self.assertEqual(error["name"], "one-gpu")
        self.assertEqual(error["field"], "spec.devices.requests[0].name")
        self.assertEqual(error["type"], "Invalid value")
        self.assertEqual((error["line"], error["column"]), (8, 13))

    def test_it_warns_about_missing_device_class(self):
        documents = CLAIM_YAML.replace("deviceClassName: gpu.example.com", "deviceClassName: tpu.example.com")
        r = self.post_json("/api/v1/validate", {"documents": documents, "inventory": "two-gpus"})
        body = r.json()
        self.assertTrue(body["valid"])
        [warning] = body["warnings"]
        self.assertEqual(warning["field"], "spec.devices.requests[0].exactly.deviceClassName")
        self.assertIn("DeviceClass 'tpu.example.com' is not in the inventory", warning["detail"])

    def test_it_agrees_with_cli(self):
        for documents in (CLAIM_YAML, INVALID_CLAIM_YAML, CLAIM_YAML.replace("one-gpu", "x" * 300)):
            r = self.post_json("/api/v1/validate", {"documents": documents, "inventory": "two-gpus"})
            self.assertEqual(r.status_code, 200)
            # The CLI sees the inventory as a file of its own; positions are per text either way.
            code, printed = run_cli("validate", documents, INVENTORY_YAML)
            self.assertEqual(code, 0 if printed["valid"] else 1)
            self.assertEqual(r.json(), printed)

    def test_it_refuses_yaml_syntax_error_with_location(self):
        r = self.post_yaml("/api/v1/validate", "apiVersion: v1\nkind: Pod\nmetadata: name: x\n")
        [error] = self.assertErrors(r, 400, type="Parse error")
        self.assertEqual((error["line"], error["column"]), (3, 15))
        self.assertIn("YAML syntax error", error["detail"])

    def test_it_refuses_document_that_is_not_a_mapping(self):
        self.assertErrors(self.post_json("/api/v1/validate", {"documents": "- just\n- a list\n"}), 400,
                          type="Parse error")

    def test_it_reports_unknown_field_as_invalid_not_unreadable(self):
        r = self.post_json("/api/v1/validate", {"documents": CLAIM_YAML + "  colour: red\n"})
        self.assertEqual(r.status_code, 200)
        self.assertFalse(r.json()["valid"])

    def test_it_accepts_empty_documents(self):
        # (Django's test client drops the Content-Type of an empty body; curl sends it.)
        empty_yaml = self.client.generic("POST", "/api/v1/validate", b"", CONTENT_TYPE="application/yaml")
        for r in (self.post_json("/api/v1/validate", {"documents": ""}), empty_yaml):
            self.assertEqual(r.status_code, 200)
            self.assertEqual(r.json(), {"valid": True, "errors": [], "warnings": []})

    def test_it_requires_documents(self):
        self.assertErrors(self.post_json("/api/v1/validate", {"inventory": "two-gpus"}), 400,
                          type="Required value", field="documents")

    def test_it_refuses_get(self):
        self.assertErrors(self.client.get("/api/v1/validate"), 405, type="Method not allowed")
