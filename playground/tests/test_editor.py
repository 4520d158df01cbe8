"""The editor's JSON helpers: language data, an inventory's names, Format."""

import json

from django.test import override_settings

from playground.state import MAX_TEXT  # the default of TEXT_MAX_CHARS
from playground.tests.base import BaseTestCase


class LanguageTestCase(BaseTestCase):
    def test_it_serves_field_names_per_version_and_cel_functions(self):
        r = self.client.get("/editor/language")
        self.assertEqual(r.status_code, 200)
        self.assertIn("max-age=86400", r["Cache-Control"])
        data = r.json()
        self.assertIn("exactly", data["schemas"]["resource.k8s.io/v1"]["types"]["DeviceRequest"])
        self.assertIn("deviceClassName", data["schemas"]["resource.k8s.io/v1beta1"]["types"]["DeviceRequest"])
        self.assertIn("compareTo", [f["name"] for f in data["cel"]["functions"]])
        self.assertTrue(data["fieldDocs"]["deviceClassName"])

    def test_it_takes_no_posts(self):
        self.assertEqual(self.client.post("/editor/language").status_code, 405)


class NamesTestCase(BaseTestCase):
    def test_it_lists_the_names_of_the_posted_inventory(self):
        r = self.client.post("/editor/names", {"inventory": self.inventory.as_yaml()})
        self.assertEqual(r.status_code, 200)
        data = r.json()
        self.assertEqual(data["classes"], ["gpu.example.com"])
        self.assertEqual(data["drivers"], ["gpu.example.com"])
        self.assertEqual(data["nodes"], ["dra-example-driver-cluster-worker"])
        self.assertEqual(data["attributes"]["gpu.example.com"], ["driverVersion", "index", "model", "uuid"])
        self.assertEqual(data["capacity"], {"gpu.example.com": ["memory"]})

    def test_it_says_what_each_class_selects_and_what_devices_publish(self):
        data = self.client.post("/editor/names", {"inventory": self.inventory.as_yaml()}).json()
        self.assertEqual(data["devices"], 8)
        info = data["classInfo"]["gpu.example.com"]
        self.assertEqual((info["drivers"], info["domains"], info["devices"]),
                         (["gpu.example.com"], ["gpu.example.com"], 8))
        model = info["stats"]["attributes"]["gpu.example.com"]["model"]
        self.assertEqual(model["text"], 'string; the 8 devices of class gpu.example.com all publish it: '
                                        '"LATEST-GPU-MODEL" ×8.')
        self.assertEqual(data["stats"]["capacity"]["gpu.example.com"]["memory"]["values"], [["80Gi", 8]])

    def test_unreadable_inventories_give_empty_lists(self):
        r = self.client.post("/editor/names", {"inventory": "spec: [\n\x01"})
        self.assertEqual(r.status_code, 200)
        self.assertEqual(r.json()["classes"], [])

    def test_it_refuses_text_over_the_limit(self):
        r = self.client.post("/editor/names", {"inventory": "#" * (MAX_TEXT + 1)})
        self.assertEqual(r.status_code, 400)
        self.assertIn("too long", r.json()["error"])

    def test_it_needs_a_post_with_the_csrf_token(self):
        self.assertEqual(self.client.get("/editor/names").status_code, 405)
        from django.test import Client

        strict = Client(enforce_csrf_checks=True)
        self.assertEqual(strict.post("/editor/names", {"inventory": ""}).status_code, 403)

    @override_settings(PAGE_ANALYSES_PER_MINUTE=1)
    def test_it_counts_against_the_analysis_rate_limit(self):
        self.assertEqual(self.client.post("/editor/names", {"inventory": ""}).status_code, 200)
        self.assertEqual(self.client.post("/editor/names", {"inventory": ""}).status_code, 429)


class FormatTestCase(BaseTestCase):
    def test_it_formats(self):
        r = self.client.post("/editor/format", {"text": "a: {b: [1, 2]}\r\n"})
        self.assertEqual(r.status_code, 200)
        self.assertEqual(r.json(), {"text": "a:\n  b:\n  - 1\n  - 2\n"})

    def test_it_refuses_unreadable_text_with_the_location(self):
        r = self.client.post("/editor/format", {"text": "a: 1\nb: [\n"})
        self.assertEqual(r.status_code, 400)
        data = r.json()
        self.assertTrue(data["error"].startswith("Not formatted: line 3, column 1: YAML syntax error"), data)
        self.assertEqual((data["line"], data["column"]), (3, 1))

    def test_hostile_text_gets_a_message_not_a_500(self):
        for text in ("a: &a [*a, *a]\n", "[" * 5000, "\x00", "a: !!python/object:os.system x\n", "a: 1\na: 2\n"):
            r = self.client.post("/editor/format", {"text": text})
            self.assertEqual(r.status_code, 400, text[:20])
            self.assertIn("Not formatted", json.loads(r.content)["error"])


class LanguageFollowsTheGatesTestCase(BaseTestCase):
    """Completion offers what the editor's release and gates compile (issue 24: includes() without its gate)."""

    def includes(self, query: str = "") -> dict | None:
        r = self.client.get("/editor/language" + query)
        self.assertEqual(r.status_code, 200)
        return next((f for f in r.json()["cel"]["functions"] if f["name"] == "includes"), None)

    def test_includes_says_it_needs_its_gate_when_it_is_off(self):
        found = self.includes()  # 1.37: DRAListTypeAttributes exists, off by default
        self.assertTrue(found["gateOff"])
        self.assertTrue(found["doc"].startswith("Needs the feature gate DRAListTypeAttributes, off here "
                                                "(Kubernetes 1.37)"))

    def test_includes_is_plain_with_its_gate_on(self):
        found = self.includes("?kubernetes_version=1.36&gate_DRAListTypeAttributes=on")
        self.assertNotIn("gateOff", found)
        self.assertFalse(found["doc"].startswith("Needs"))

    def test_a_release_without_the_gate_does_not_offer_it(self):
        self.assertIsNone(self.includes("?kubernetes_version=1.35"))

    def test_refused_or_unknown_settings_fall_back_to_defaults(self):
        self.assertTrue(self.includes("?kubernetes_version=9.99&gate_DRAListTypeAttributes=maybe")["gateOff"])
        # A locked gate set away from its default would be refused: the release's defaults answer.
        self.assertTrue(self.includes("?gate_DRAPrioritizedList=off")["gateOff"])
