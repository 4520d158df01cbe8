from unittest.mock import patch

from django.test import override_settings

from api.tests.base import CLAIM_YAML, APITestCase


class BodyTooLargeTestCase(APITestCase):
    @override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=100)
    def test_it_answers_413_in_the_error_shape(self):
        for content_type in ("application/json", "application/yaml"):
            r = self.client.post("/api/v1/validate", data=b"x" * 101, content_type=content_type)
            self.assertEqual(r.status_code, 413)
            error = r.json()["errors"][0]
            self.assertEqual(error["type"], "Request entity too large")
            self.assertEqual(error["detail"], "Request body too large: 101 bytes, the limit is 100 bytes (the site's DATA_UPLOAD_MAX_MEMORY_SIZE setting).")
            self.assertEqual(set(error), {"kind", "name", "field", "type", "detail", "line", "column"})

    def test_it_lets_documented_limit_through(self):
        # The default limit is 1 MiB: a claim is far below it.
        r = self.post_yaml("/api/v1/validate", CLAIM_YAML)
        self.assertNotEqual(r.status_code, 413)


ENGINE_ENDPOINTS = ("/api/v1/validate", "/api/v1/allocate", "/api/v1/analyze", "/api/v1/shares")


class RoutingErrorsTestCase(APITestCase):
    def test_it_answers_404_for_unknown_api_path(self):
        for path in ("/api/v1/nope", "/api/v1/", "/api/v1", "/api/v1/inventories/a/b"):
            with self.subTest(path):
                self.assertErrors(self.client.get(path), 404, type="Not found")
        self.assertErrors(self.post_json("/api/v1/nope", {}), 404, type="Not found")

    def test_it_answers_405_for_wrong_method(self):
        for path in ENGINE_ENDPOINTS:
            self.assertErrors(self.client.get(path), 405, type="Method not allowed")
        self.assertErrors(self.client.delete("/api/v1/inventories/two-gpus"), 405)

    def test_it_answers_415_for_unsupported_media_type(self):
        for content_type in ("application/x-www-form-urlencoded", "text/plain", "multipart/form-data; boundary=x",
                             "application/octet-stream"):
            with self.subTest(content_type):
                r = self.client.post("/api/v1/validate", data=b"documents=x", content_type=content_type)
                [error] = self.assertErrors(r, 415, type="Unsupported media type")
                self.assertTrue(error["detail"].endswith(
                    "Send one of: application/json, application/yaml, application/x-yaml, text/yaml."), error)

    def test_it_reads_declared_charset(self):
        r = self.client.generic("POST", "/api/v1/validate", b'{"documents": ""}',
                                CONTENT_TYPE="application/json; charset=klingon")
        # Django ignores a charset it does not know and reads UTF-8.
        self.assertEqual(r.status_code, 200, r.content)
        r = self.client.generic("POST", "/api/v1/validate", '{"documents": ""}'.encode("utf-16"),
                                CONTENT_TYPE="application/json; charset=utf-16")
        self.assertEqual(r.status_code, 200, r.content)

    def test_it_answers_json_500_for_bugs(self):
        with patch("playground.services.analyze.engine_analyze", side_effect=RuntimeError("boom")):
            with self.assertLogs("api.errors", "ERROR"):
                r = self.post_json("/api/v1/analyze", {"documents": CLAIM_YAML})
        self.assertErrors(r, 500, type="Internal error")
        self.assertNotIn("boom", r.content.decode())


class GarbageTestCase(APITestCase):
    """Whatever a client sends, the answer is a 2xx or a 4xx in the error shape, never a 500."""

    def assertNot500(self, r):
        self.assertLess(r.status_code, 500, r.content[:500])
        if r.status_code >= 400:
            self.assertErrors(r, r.status_code)

    def test_it_locates_json_syntax_errors(self):
        r = self.client.post("/api/v1/validate", data=b'{\n  "documents": "x",\n  oops\n}',
                             content_type="application/json")
        [error] = self.assertErrors(r, 400, type="Parse error")
        self.assertEqual((error["line"], error["column"]), (3, 3))

    def test_it_locates_bytes_that_are_not_utf8(self):
        for content_type in ("application/json", "application/yaml"):
            r = self.client.post("/api/v1/validate", data=b'kind: x\nname: "\xff\xfe"', content_type=content_type)
            [error] = self.assertErrors(r, 400, type="Parse error")
            self.assertEqual((error["line"], error["column"]), (2, 8))

    def test_it_survives_binary_bodies(self):
        blobs = [bytes(range(256)) * 4, b"\x00" * 1000, b"\x89PNG\r\n\x1a\n" + bytes(500), b"\xef\xbb\xbf" + b"\x00"]
        for path in ENGINE_ENDPOINTS:
            for blob in blobs:
                for content_type in ("application/json", "application/yaml"):
                    with self.subTest(path=path, content_type=content_type, blob=blob[:8]):
                        self.assertNot500(self.client.post(path, data=blob, content_type=content_type))

    def test_it_survives_wrong_json_types(self):
        bodies = [
            [], "documents", 42, None, True, 1.5, {"documents": None}, {"documents": 42}, {"documents": ["a"]},
            {"documents": {"kind": "Pod"}}, {"documents": "", "featureGates": []}, {"documents": "", "featureGates": 1},
            {"documents": "", "featureGates": {"DRAAdminAccess": None}}, {"documents": "", "featureGates": {"": True}},
            {"documents": "", "kubernetesVersion": 1.34}, {"documents": "", "kubernetesVersion": None},
            {"documents": "", "node": {"name": "x"}}, {"documents": "", "inventory": 1}, {"documents": "", "inventory": {}},
            {"documents": "", "inventory": "x" * 10000}, {"documents": "", "node": "x" * 10000},
        ]
        for path in ENGINE_ENDPOINTS:
            for body in bodies:
                with self.subTest(path=path, body=str(body)[:60]):
                    self.assertNot500(self.post_json(path, body))

    def test_it_refuses_non_object_json(self):
        [error] = self.assertErrors(self.post_json("/api/v1/validate", ["documents"]), 400)
        self.assertEqual(error["field"], "")
        self.assertIn("Expected a dictionary", error["detail"])

    def test_it_survives_nested_junk(self):
        deep_json = b"[" * 100_000 + b"]" * 100_000
        deep_object = b'{"documents": ' + b'{"a": ' * 50_000 + b"1" + b"}" * 50_000 + b"}"
        deep_yaml = "a:\n" + "".join(" " * i + "- \n" for i in range(1, 1000))
        flow_yaml = "[" * 100_000 + "]" * 100_000
        aliases = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
            f"{chr(98 + i)}: &{chr(98 + i)} [*{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}, *{chr(97 + i)}]\n"
            for i in range(20))
        for path in ("/api/v1/validate", "/api/v1/analyze"):
            for data, content_type in ((deep_json, "application/json"), (deep_object, "application/json"),
                                       (deep_yaml, "application/yaml"), (flow_yaml, "application/yaml"),
                                       (aliases, "application/yaml")):
                with self.subTest(path=path, content_type=content_type, data=data[:10]):
                    self.assertNot500(self.client.post(path, data=data, content_type=content_type))
                    self.assertNot500(self.post_json(path, {"documents": data if isinstance(data, str) else ""}))

    def test_it_survives_huge_strings(self):
        big = "x" * (1024 * 1024 - 100)
        r = self.post_yaml("/api/v1/validate", big)
        self.assertNot500(r)
        r = self.post_json("/api/v1/allocate", {"documents": "a" * 600_000})
        [error] = self.assertErrors(r, 400, type="Too long", field="documents")
        self.assertNot500(self.client.post("/api/v1/validate", data=b'{"documents": 1' + b"0" * 10_000 + b"}",
                                           content_type="application/json"))
        self.assertNot500(self.client.post("/api/v1/validate", data=b'{"documents": NaN}',
                                           content_type="application/json"))

    def test_it_survives_odd_query_parameters(self):
        for query in ("featureGates=%00", "kubernetesVersion=%ff", "inventory=../../etc", "node=%0a",
                      "featureGates=,,,=,", "featureGates=DRAAdminAccess=true&featureGates=x"):
            with self.subTest(query):
                self.assertNot500(self.post_yaml(f"/api/v1/allocate?{query}", CLAIM_YAML))
