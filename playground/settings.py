"""Settings for DRA Playground, read from the environment.

Every variable is optional for local use; see docs/configuration.md ("Configuration").
Values are read with the strict helpers in playground.env, which refuse
anything they cannot parse.
"""

import os
from pathlib import Path

import dj_database_url
from csp.constants import NONE, SELF
from django.core.exceptions import ImproperlyConfigured

from playground.env import envbool, envchoice, envheader, envint, envlist

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = envbool("DEBUG", False)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured(
            "SECRET_KEY must be set when DEBUG is off (use DEBUG=1 for local development)"
        )
    SECRET_KEY = "django-insecure-local-development-only"

ALLOWED_HOSTS = envlist("ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = envlist("CSRF_TRUSTED_ORIGINS", [])

# The largest request body accepted, in bytes (1 MiB by default). Django applies
# it to form data; playground.middleware.BodySizeLimitMiddleware applies it to
# every body, JSON included, before any view reads it.
DATA_UPLOAD_MAX_MEMORY_SIZE = envint("DATA_UPLOAD_MAX_MEMORY_SIZE", 1024 * 1024, minimum=1)

# --- Site limits on what the engine reads (docs/configuration.md: "Configuration") ---
# The largest inventory or documents text sent with a request (the editor's
# form, the API's validate/allocate/analyze/shares), in characters.
TEXT_MAX_CHARS = envint("TEXT_MAX_CHARS", 512 * 1024, minimum=1)
# Values (scalars, mappings, sequences) the engine reads of one such text.
TEXT_MAX_VALUES = envint("TEXT_MAX_VALUES", 200_000, minimum=1)
# A stored cluster snapshot (POST /api/v1/inventories, the page's "Use my
# cluster") may be larger: it is sent and read once, then referred to by id.
# Requests to those two endpoints may carry bodies up to twice this size
# (JSON escapes) regardless of DATA_UPLOAD_MAX_MEMORY_SIZE.
STORED_INVENTORY_MAX_BYTES = envint("STORED_INVENTORY_MAX_BYTES", 16 * 1024 * 1024, minimum=1)
# Values the engine reads of a stored cluster (a 1,000-node dump has about 400,000).
STORED_INVENTORY_MAX_VALUES = envint("STORED_INVENTORY_MAX_VALUES", 5_000_000, minimum=1)
# New snapshots each client address may store in 24 hours, by count and by
# bytes (storing content that exists already is free); 0 turns a quota off.
STORED_INVENTORIES_PER_DAY = envint("STORED_INVENTORIES_PER_DAY", 50, minimum=0)
STORED_INVENTORY_BYTES_PER_DAY = envint("STORED_INVENTORY_BYTES_PER_DAY", 256 * 1024 * 1024, minimum=0)
# Copies one "how many fit" request (POST /api/v1/capacity) may place: each is a
# scheduling pass. The command line has no such cap (its --max defaults to 100). 1,000 copies of a
# two-GPU pod on a stored 1,000-node cluster cost about 0.5-0.8 s of CPU (docs/performance.md).
CAPACITY_MAX_COPIES = envint("CAPACITY_MAX_COPIES", 1000, minimum=1)
# Seconds one analysis may run (the page's results, How many fit?, the console and
# the API's engine endpoints), in the spirit of the scheduler's DRA filter timeout:
# past it the engine stops and the answer says where (allocator.reading.deadline). Below
# gunicorn's worker timeout (GUNICORN_TIMEOUT, 30 s), and above the scheduler's own 10 s filter timeout,
# so a search the scheduler would stop ends in its words ("timed out trying to allocate devices") first.
# 0 turns it off.
ANALYSIS_TIME_BUDGET = envint("ANALYSIS_TIME_BUDGET", 20, minimum=0)

# --- Deployment and security (docs/configuration.md: "Running in production") ---
# HTTPS=1 says the site is only served over TLS (directly or by a proxy in
# front of it): HTTP is redirected to HTTPS, cookies are secure-only and HSTS
# is sent. Off by default so the site also runs on plain http://localhost.
HTTPS = envbool("HTTPS", False)
SECURE_SSL_REDIRECT = envbool("SECURE_SSL_REDIRECT", HTTPS)
# Load balancers probe /healthz over plain HTTP; it answers instead of redirecting.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = HTTPS
CSRF_COOKIE_SECURE = HTTPS
SECURE_HSTS_SECONDS = envint("SECURE_HSTS_SECONDS", 365 * 24 * 3600 if HTTPS else 0, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = envbool("SECURE_HSTS_INCLUDE_SUBDOMAINS", HTTPS)
# Asking browsers to preload HSTS for the domain is hard to undo, so it is the
# operator's explicit choice; without it, `check --deploy` would nag (W021).
SECURE_HSTS_PRELOAD = envbool("SECURE_HSTS_PRELOAD", False)
SILENCED_SYSTEM_CHECKS = [] if SECURE_HSTS_PRELOAD else ["security.W021"]
# Trust a TLS-terminating proxy's header (e.g. SECURE_PROXY_SSL_HEADER=X-Forwarded-Proto)
# to say the request came over HTTPS. Only set it when the proxy always sets
# or strips that header: otherwise clients could claim HTTPS themselves.
_proxy_ssl_header = envheader("SECURE_PROXY_SSL_HEADER")
SECURE_PROXY_SSL_HEADER = (_proxy_ssl_header, "https") if _proxy_ssl_header else None
X_FRAME_OPTIONS = "DENY"
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"

# Content-Security-Policy (django-csp): only our own scripts, styles and
# connections; no inline script, no eval (htmx runs with allowEval off, see
# base.html). Swagger UI (/api/docs/) and the embeddable result view
# (/s/<id>/embed) widen it for themselves only, with django-csp's decorators.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF],
        "style-src": [SELF],
        # data: for the blank favicon and CSS-embedded icons.
        "img-src": [SELF, "data:"],
        "connect-src": [SELF],
        "font-src": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
        "base-uri": [NONE],
        "object-src": [NONE],
    },
}

# Page rate limits (playground.ratelimit), per client address and minute,
# counted in Django's cache: pages that run an analysis (the editor, examples
# and shares, read or posted, embeds, Import, Export) and shares (which
# write to the database).
# 0 turns a limit off.
PAGE_ANALYSES_PER_MINUTE = envint("PAGE_ANALYSES_PER_MINUTE", 240, minimum=0)
PAGE_SHARES_PER_MINUTE = envint("PAGE_SHARES_PER_MINUTE", 30, minimum=0)
# Django's default cache holds the rate-limit counts (the pages' and the
# API's). "local": each process's memory, so every gunicorn worker and app
# server counts alone. "database": a table in the site's database, shared by
# all of them; `migrate` creates it (playground.apps).
CACHE = envchoice("CACHE", "local", ("local", "database"))
CACHES = {
    "default": (
        {"BACKEND": "django.core.cache.backends.db.DatabaseCache", "LOCATION": "playground_cache"}
        if CACHE == "database"
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}
# Proxies in front of the site that append to X-Forwarded-For (also the API's
# throttle); with 0 the client is REMOTE_ADDR, so a client cannot pick its own identity.
NUM_PROXIES = envint("API_NUM_PROXIES", 0, minimum=0)
# --- end of deployment and security ---

INSTALLED_APPS = [
    # The admin (and what it needs) edits sample inventories and examples.
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_htmx",
    "playground",
    "api",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "playground.middleware.BodySizeLimitMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "playground.urls"
WSGI_APPLICATION = "playground.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# SQLite in the project folder unless DATABASE_URL names another database,
# e.g. postgres://user:password@host:5432/name (psycopg 3: the `postgres` extra).
_conn_max_age = envint("CONN_MAX_AGE", 0, minimum=0)
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=_conn_max_age,
        # A kept connection is checked before each request reuses it.
        conn_health_checks=_conn_max_age > 0,
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = False
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# WhiteNoise serves static files straight from static/ and the apps, so the
# site runs without a collectstatic step. Set STATIC_ROOT and run
# `manage.py collectstatic` to also serve pre-compressed copies.
STATIC_ROOT = os.environ.get("STATIC_ROOT") or None
WHITENOISE_USE_FINDERS = True
STORAGES = {
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# Requests a minute each anonymous client (IP address) may make to the API;
# 0 turns throttling off.
API_REQUESTS_PER_MINUTE = envint("API_REQUESTS_PER_MINUTE", 120, minimum=0)

# The playground has no user accounts: the API is public and read-only in
# the sense that nothing a request sends is tied to a person.
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "UNAUTHENTICATED_USER": None,
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    # --- REST API (api/): one error shape, per-IP throttling ---
    "EXCEPTION_HANDLER": "api.errors.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["api.throttling.AnonymousRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {"anon": f"{API_REQUESTS_PER_MINUTE}/min" if API_REQUESTS_PER_MINUTE else None},
    "NUM_PROXIES": NUM_PROXIES,
}

SPECTACULAR_SETTINGS = {
    "TITLE": "DRA Playground API",
    "DESCRIPTION": (
        "Validate Kubernetes Dynamic Resource Allocation objects (resource.k8s.io) "
        "and see the allocation the scheduler would make."
    ),
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# Everything goes to the console once. Naming "django" resets Django's default
# handlers (and its children's), so runserver's access log is set up again.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "django.server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        },
    },
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        "django.server": {"class": "logging.StreamHandler", "formatter": "django.server"},
    },
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    "loggers": {
        "django": {"handlers": [], "propagate": True},
        "django.server": {"handlers": ["django.server"], "level": "INFO", "propagate": False},
    },
}
