"""Rate limits of the pages (playground.ratelimit): 429 with a clear message, per address."""

from django.core.cache import cache
from django.db import connection
from django.test import override_settings

from playground.apps import create_cache_tables
from playground.models import Share
from playground.tests.base import BaseTestCase
from playground.tests.helpers import HTMX, freeze_mid_minute


@override_settings(PAGE_ANALYSES_PER_MINUTE=3, PAGE_SHARES_PER_MINUTE=2, NUM_PROXIES=0)
class RateLimitTestCase(BaseTestCase):
    def setUp(self):
        cache.clear()
        self.addCleanup(cache.clear)
        freeze_mid_minute(self)

    def test_it_limits_live_analyses(self):
        for _ in range(3):
            self.assertEqual(self.client.post("/", self.form_data(), headers=HTMX).status_code, 200)
        r = self.client.post("/", self.form_data(), headers=HTMX)
        self.assertEqual(r.status_code, 429)
        self.assertEqual(r["Retry-After"], "31")
        self.assertContains(r, 'id="too-many"', status_code=429)
        self.assertContains(r, 'role="alert"', status_code=429)
        self.assertContains(r, "more than 3 in a minute", status_code=429)
        # The htmx answer is a fragment, not a page.
        self.assertNotContains(r, "<html", status_code=429)

    def test_it_answers_a_page_to_a_plain_post(self):
        for _ in range(3):
            self.client.post("/", self.form_data())
        r = self.client.post("/", self.form_data())
        self.assertEqual(r.status_code, 429)
        self.assertContains(r, "<h1>Too many requests</h1>", status_code=429)
        self.assertIn("script-src 'self'", r["Content-Security-Policy"])

    def test_export_and_import_count_as_analyses(self):
        self.client.post("/", self.form_data())
        self.client.post("/export", self.form_data())
        self.client.post("/import", {})
        self.assertEqual(self.client.post("/export", self.form_data()).status_code, 429)

    def test_reading_a_page_with_results_counts_as_an_analysis(self):
        share, _ = Share.objects.get_or_create_for(self.example.state())
        for path in ("/", f"/examples/{self.example.slug}", f"/s/{share.id}"):
            self.assertEqual(self.client.get(path).status_code, 200, path)
        for path in ("/", f"/examples/{self.example.slug}", f"/s/{share.id}"):
            r = self.client.get(path)
            self.assertEqual(r.status_code, 429, path)
            self.assertContains(r, "<h1>Too many requests</h1>", status_code=429)

    def test_it_does_not_limit_pages_without_results(self):
        for _ in range(5):
            self.assertEqual(self.client.get("/examples/").status_code, 200)
            self.assertEqual(self.client.get("/healthz").status_code, 200)
        self.assertEqual(self.client.post("/", self.form_data()).status_code, 200)

    def test_it_limits_shares_separately(self):
        for _ in range(3):
            self.client.post("/", self.form_data())
        for _ in range(2):
            self.assertEqual(self.client.post("/share", self.form_data(), headers=HTMX).status_code, 200)
        r = self.client.post("/share", self.form_data(), headers={"HX-Request": "true"})
        self.assertEqual(r.status_code, 429)
        self.assertContains(r, "Too many requests", status_code=429)

    def test_it_limits_embeds(self):
        share, _ = Share.objects.get_or_create_for(self.example.state())
        for _ in range(3):
            self.assertEqual(self.client.get(f"/s/{share.id}/embed").status_code, 200)
        self.assertEqual(self.client.get(f"/s/{share.id}/embed").status_code, 429)

    def test_it_counts_per_address(self):
        for _ in range(3):
            self.client.post("/", self.form_data(), REMOTE_ADDR="192.0.2.1")
        self.assertEqual(self.client.post("/", self.form_data(), REMOTE_ADDR="192.0.2.1").status_code, 429)
        self.assertEqual(self.client.post("/", self.form_data(), REMOTE_ADDR="192.0.2.2").status_code, 200)

    def test_clients_cannot_pick_their_address_without_proxies(self):
        for i in range(3):
            self.client.post("/", self.form_data(), HTTP_X_FORWARDED_FOR=f"198.51.100.{i}")
        r = self.client.post("/", self.form_data(), HTTP_X_FORWARDED_FOR="198.51.100.9")
        self.assertEqual(r.status_code, 429)

    @override_settings(NUM_PROXIES=1)
    def test_it_reads_the_address_our_proxy_saw(self):
        for _ in range(3):
            self.client.post("/", self.form_data(), HTTP_X_FORWARDED_FOR="spoofed, 203.0.113.5")
        r = self.client.post("/", self.form_data(), HTTP_X_FORWARDED_FOR="other, 203.0.113.5")
        self.assertEqual(r.status_code, 429)
        r = self.client.post("/", self.form_data(), HTTP_X_FORWARDED_FOR="203.0.113.6")
        self.assertEqual(r.status_code, 200)

    @override_settings(PAGE_ANALYSES_PER_MINUTE=0)
    def test_zero_turns_it_off(self):
        for _ in range(6):
            self.assertEqual(self.client.post("/", self.form_data(), headers=HTMX).status_code, 200)


DATABASE_CACHE = {"default": {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "playground_cache"}}


@override_settings(PAGE_ANALYSES_PER_MINUTE=2, NUM_PROXIES=0, CACHES=DATABASE_CACHE)
class DatabaseCacheRateLimitTestCase(BaseTestCase):
    """CACHE=database: the counts live in a table of the site's database, which
    every worker and app server reads (e2e/test_deployment.py runs two servers)."""

    def setUp(self):
        # What `migrate` does after the apps' migrations with CACHE=database.
        create_cache_tables(using="default")
        freeze_mid_minute(self)

    def test_it_counts_in_the_database(self):
        for _ in range(2):
            self.assertEqual(self.client.post("/", self.form_data(), headers=HTMX).status_code, 200)
        with connection.cursor() as cursor:
            cursor.execute("SELECT cache_key FROM playground_cache")
            keys = [row[0] for row in cursor.fetchall()]
        self.assertEqual(keys, [":1:ratelimit:PAGE_ANALYSES_PER_MINUTE:127.0.0.1:30000000"])
        self.assertEqual(self.client.post("/", self.form_data(), headers=HTMX).status_code, 429)
