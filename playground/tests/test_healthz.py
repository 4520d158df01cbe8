from unittest.mock import patch

from django.db import OperationalError
from django.test import TestCase


class HealthzTestCase(TestCase):
    def test_it_works(self):
        r = self.client.get("/healthz")
        self.assertEqual(r.status_code, 200)
        self.assertEqual(r.json(), {"status": "ok"})
        self.assertIn("no-cache", r["Cache-Control"])

    def test_it_handles_head(self):
        r = self.client.head("/healthz")
        self.assertEqual(r.status_code, 200)

    def test_it_reports_database_failure(self):
        with patch("playground.views.connection.cursor", side_effect=OperationalError("down")):
            with self.assertLogs("playground.views", "ERROR"):
                r = self.client.get("/healthz")
        self.assertEqual(r.status_code, 503)
        self.assertEqual(r.json()["status"], "error")
