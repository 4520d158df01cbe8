"""Production settings: `check --deploy`, security headers, gunicorn + WhiteNoise.

Settings load once per interpreter, so the environment-driven ones are
checked in a fresh process with a production-like environment.
"""

import os
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from unittest import TestCase
from unittest.mock import patch

from django.core.exceptions import ImproperlyConfigured
from django.test import TestCase as DjangoTestCase
from django.test import override_settings

from playground.env import envheader
from playground.tests.helpers import ROOT, free_port

# What the settings read, cleared so the developer's own environment does not
# leak in; DJANGO_ALLOW_ASYNC_UNSAFE is set by the e2e harness and fails check --deploy.
SETTINGS_VARS = {
    "DJANGO_ALLOW_ASYNC_UNSAFE", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "HTTPS", "SECURE_SSL_REDIRECT", "SECURE_HSTS_SECONDS",
    "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD", "SECURE_PROXY_SSL_HEADER", "CSRF_TRUSTED_ORIGINS",
}
PRODUCTION = {
    # 50+ characters, many distinct ones: what check --deploy asks of a key.
    "SECRET_KEY": "k3Yp9-Qz7vWm2xRt8LsNa4Bc6Dh0Fj5Gu1Ie-OoPy9ZrXwVqTs",
    "ALLOWED_HOSTS": "dra.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://dra.example.org",
    "HTTPS": "1",
}


def run(args: list[str], **env) -> subprocess.CompletedProcess:
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARS}
    clean.update(env, DJANGO_SETTINGS_MODULE="playground.settings")
    return subprocess.run(args, cwd=ROOT, env=clean, capture_output=True, text=True, timeout=120)


def check_deploy(**env) -> subprocess.CompletedProcess:
    return run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], **env)


def read_setting(expression: str, **env) -> subprocess.CompletedProcess:
    return run([sys.executable, "-c", f"from django.conf import settings; print({expression})"], **env)


class CheckDeployTestCase(TestCase):
    def test_it_is_clean_in_production(self):
        p = check_deploy(**PRODUCTION)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("System check identified no issues", p.stdout)
        self.assertNotIn("WARNING", p.stdout + p.stderr)

    def test_it_names_what_https_turns_on(self):
        p = check_deploy(**{**PRODUCTION, "HTTPS": "0"})
        self.assertNotEqual(p.returncode, 0)
        for warning in ("security.W004", "security.W008", "security.W012", "security.W016"):
            self.assertIn(warning, p.stderr)

    def test_it_flags_a_weak_key_and_debug(self):
        p = check_deploy(**{**PRODUCTION, "SECRET_KEY": "short", "DEBUG": "1"})
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("security.W009", p.stderr)
        self.assertIn("security.W018", p.stderr)

    def test_it_reports_hsts_preload_when_asked(self):
        p = read_setting(
            "settings.SECURE_HSTS_SECONDS, settings.SECURE_HSTS_PRELOAD, settings.SILENCED_SYSTEM_CHECKS",
            **PRODUCTION, SECURE_HSTS_PRELOAD="1", SECURE_HSTS_SECONDS="600",
        )
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip(), "600 True []")


class SecuritySettingsTestCase(TestCase):
    def test_it_is_plain_http_by_default(self):
        p = read_setting(
            "settings.SECURE_SSL_REDIRECT, settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE, "
            "settings.SECURE_HSTS_SECONDS, settings.SECURE_PROXY_SSL_HEADER",
            SECRET_KEY="x",
        )
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip(), "False False False 0 None")

    def test_it_secures_everything_with_https(self):
        p = read_setting(
            "settings.SECURE_SSL_REDIRECT, settings.SESSION_COOKIE_SECURE, settings.CSRF_COOKIE_SECURE, "
            "settings.SECURE_HSTS_SECONDS, settings.SECURE_HSTS_INCLUDE_SUBDOMAINS",
            SECRET_KEY="x", HTTPS="1",
        )
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip(), "True True True 31536000 True")

    def test_it_lets_a_proxy_redirect(self):
        p = read_setting("settings.SECURE_SSL_REDIRECT", SECRET_KEY="x", HTTPS="1", SECURE_SSL_REDIRECT="0")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip(), "False")

    def test_it_trusts_a_proxy_header_only_when_named(self):
        p = read_setting("settings.SECURE_PROXY_SSL_HEADER", SECRET_KEY="x", SECURE_PROXY_SSL_HEADER="X-Forwarded-Proto")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(p.stdout.strip(), "('HTTP_X_FORWARDED_PROTO', 'https')")

    def test_it_refuses_a_bad_header_name(self):
        p = read_setting("settings.SECURE_PROXY_SSL_HEADER", SECRET_KEY="x", SECURE_PROXY_SSL_HEADER="yes please")
        self.assertNotEqual(p.returncode, 0)
        self.assertIn("is not an HTTP header name", p.stderr)


class EnvHeaderTestCase(TestCase):
    def test_it_maps_to_meta_key(self):
        with patch.dict("os.environ", {"H": "X-Forwarded-Proto"}):
            self.assertEqual(envheader("H"), "HTTP_X_FORWARDED_PROTO")

    def test_it_is_none_when_unset(self):
        with patch.dict("os.environ", clear=True):
            self.assertIsNone(envheader("H"))

    def test_it_rejects_non_tokens(self):
        for raw in ("X_Forwarded_Proto", "X-Forwarded-Proto: https", "-x"):
            with patch.dict("os.environ", {"H": raw}):
                with self.assertRaises(ImproperlyConfigured):
                    envheader("H")


class SecurityHeadersTestCase(DjangoTestCase):
    def test_it_sends_security_headers(self):
        r = self.client.get("/healthz")
        self.assertEqual(r["X-Frame-Options"], "DENY")
        self.assertEqual(r["X-Content-Type-Options"], "nosniff")
        self.assertEqual(r["Referrer-Policy"], "same-origin")
        self.assertEqual(r["Cross-Origin-Opener-Policy"], "same-origin")

    @override_settings(SECURE_SSL_REDIRECT=True, SECURE_HSTS_SECONDS=3600)
    def test_it_redirects_to_https_but_not_health_checks(self):
        r = self.client.get("/api/schema/")
        self.assertEqual(r.status_code, 301)
        self.assertTrue(r["Location"].startswith("https://"))
        r = self.client.get("/healthz")
        self.assertEqual(r.status_code, 200)
        r = self.client.get("/healthz", secure=True)
        self.assertEqual(r["Strict-Transport-Security"], "max-age=3600")


def get(url: str) -> tuple[int, dict, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


class GunicornTestCase(TestCase):
    """gunicorn.conf.py serves the WSGI app, with static files from WhiteNoise, DEBUG off."""

    def test_it_serves_health_and_static_files(self):
        port = free_port()
        gunicorn = Path(sys.executable).with_name("gunicorn")
        with tempfile.TemporaryDirectory() as tmp:
            clean = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARS}
            env = {
                **clean, **PRODUCTION, "HTTPS": "0", "ALLOWED_HOSTS": "127.0.0.1",
                "BIND": f"127.0.0.1:{port}", "WEB_CONCURRENCY": "1",
                # /healthz only runs SELECT 1: an empty SQLite file is enough.
                "DATABASE_URL": f"sqlite:///{tmp}/db.sqlite3",
            }
            server = subprocess.Popen([str(gunicorn)], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True)
            try:
                base = f"http://127.0.0.1:{port}"
                deadline = time.monotonic() + 30
                while True:
                    try:
                        status, _, body = get(f"{base}/healthz")
                        break
                    except OSError:
                        if server.poll() is not None or time.monotonic() > deadline:
                            self.fail("gunicorn did not start")
                        time.sleep(0.2)
                self.assertEqual((status, body), (200, b'{"status": "ok"}'))
                status, headers, body = get(f"{base}/static/playground.css")
                self.assertEqual(status, 200)
                self.assertEqual(headers["Content-Type"].split(";")[0], "text/css")
                self.assertEqual(body, (ROOT / "static" / "playground.css").read_bytes())
                status, _, body = get(f"{base}/no-such-page")
                self.assertEqual(status, 404)
                self.assertNotIn(b"Traceback", body)  # DEBUG is off
            finally:
                server.terminate()
                output, _ = server.communicate(timeout=30)
        self.assertIn("Listening at: http://127.0.0.1", output)


class DatabaseTestCase(DjangoTestCase):
    def test_it_uses_database_url(self):
        from django.db import connection

        url = os.environ.get("DATABASE_URL", "sqlite:")
        expected = "postgresql" if url.startswith(("postgres", "pgsql", "postgis")) else url.split(":")[0]
        self.assertEqual(connection.vendor, expected)
