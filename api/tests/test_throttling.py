import os
import subprocess
import sys
from unittest import TestCase as PlainTestCase

from allocator.tests.helpers import ROOT
from api.tests.base import CLAIM_YAML, ThrottledAPITestCase


class ThrottlingTestCase(ThrottledAPITestCase):
    def test_it_answers_429_after_the_rate(self):
        for _ in range(3):
            self.assertEqual(self.post_json("/api/v1/validate", {"documents": CLAIM_YAML}).status_code, 200)
        r = self.post_json("/api/v1/validate", {"documents": CLAIM_YAML})
        [error] = self.assertErrors(r, 429, type="Too many requests")
        self.assertIn("Request was throttled", error["detail"])
        self.assertGreater(int(r["Retry-After"]), 0)
        # Every endpoint shares the budget of the address.
        self.assertErrors(self.client.get("/api/v1/inventories"), 429)

    def test_it_counts_per_address_ignoring_forwarded_for(self):
        for _ in range(3):
            self.client.get("/api/v1/inventories", REMOTE_ADDR="192.0.2.1")
        r = self.client.get("/api/v1/inventories", REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR="198.51.100.7")
        self.assertEqual(r.status_code, 429)  # no proxy is trusted by default
        self.assertEqual(self.client.get("/api/v1/inventories", REMOTE_ADDR="192.0.2.2").status_code, 200)


def load_rates(**env) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if not k.startswith("API_")}
    clean.update(env, DJANGO_SETTINGS_MODULE="playground.settings", SECRET_KEY="x")
    code = ("from django.conf import settings; r = settings.REST_FRAMEWORK; "
            "print(r['DEFAULT_THROTTLE_RATES']['anon'], r['NUM_PROXIES'])")
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True,
                          timeout=60)


class ThrottleSettingsTestCase(PlainTestCase):
    def test_it_has_a_default_rate(self):
        p = load_rates()
        self.assertEqual(p.stdout.strip(), "120/min 0", p.stderr)

    def test_it_reads_rate_and_proxies_from_environment(self):
        self.assertEqual(load_rates(API_REQUESTS_PER_MINUTE="30", API_NUM_PROXIES="1").stdout.strip(), "30/min 1")
        self.assertEqual(load_rates(API_REQUESTS_PER_MINUTE="0").stdout.strip(), "None 0")

    def test_it_refuses_bad_rate(self):
        p = load_rates(API_REQUESTS_PER_MINUTE="lots")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("API_REQUESTS_PER_MINUTE='lots' is not an integer", p.stderr)
