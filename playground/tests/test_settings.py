"""Start-up checks, run in a fresh interpreter because settings load once."""

import os
import subprocess
import sys
from unittest import TestCase

from playground.tests.helpers import ROOT

READ_SETTINGS = (
    "from django.conf import settings; "
    "print(settings.DEBUG, settings.ALLOWED_HOSTS, settings.DATA_UPLOAD_MAX_MEMORY_SIZE)"
)


def load_settings(code=READ_SETTINGS, **env):
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATA_UPLOAD_MAX_MEMORY_SIZE", "CACHE"}
    }
    clean.update(env, DJANGO_SETTINGS_MODULE="playground.settings")
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60
    )


class SettingsTestCase(TestCase):
    def test_it_refuses_debug_maybe(self):
        p = load_settings(DEBUG="maybe", SECRET_KEY="x")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("DEBUG='maybe' is not a boolean", p.stderr)

    def test_it_requires_secret_key_without_debug(self):
        p = load_settings()
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("SECRET_KEY must be set", p.stderr)

    def test_it_runs_in_debug_without_secret_key(self):
        p = load_settings(DEBUG="1")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip(), "True ['localhost', '127.0.0.1', '[::1]'] 1048576")

    def test_it_has_no_default_hosts_in_production(self):
        p = load_settings(SECRET_KEY="x")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip(), "False [] 1048576")

    def test_it_reads_hosts_and_body_limit(self):
        p = load_settings(
            SECRET_KEY="x", ALLOWED_HOSTS="dra.example,www.dra.example", DATA_UPLOAD_MAX_MEMORY_SIZE="4096"
        )
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip(), "False ['dra.example', 'www.dra.example'] 4096")

    def test_it_refuses_bad_body_limit(self):
        p = load_settings(SECRET_KEY="x", DATA_UPLOAD_MAX_MEMORY_SIZE="1MiB")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("DATA_UPLOAD_MAX_MEMORY_SIZE='1MiB' is not an integer", p.stderr)

    def test_it_counts_in_local_memory_or_the_database(self):
        code = "from django.conf import settings; print(settings.CACHES['default']['BACKEND'])"
        p = load_settings(code, SECRET_KEY="x")
        self.assertEqual(p.stdout.strip(), "django.core.cache.backends.locmem.LocMemCache", p.stderr)
        p = load_settings(code, SECRET_KEY="x", CACHE="database")
        self.assertEqual(p.stdout.strip(), "django.core.cache.backends.db.DatabaseCache", p.stderr)
        p = load_settings(code, SECRET_KEY="x", CACHE="memcached")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("CACHE='memcached' is not one of: local, database", p.stderr)
