"""pytest plugin that gives the test run a throwaway SECRET_KEY and no page rate limits.

Loaded from `addopts` (`-p playground.pytest_env`) because pytest-django
imports the settings before any conftest.py runs, and the settings refuse to
start without a SECRET_KEY when DEBUG is off. A key set in the environment
wins. Nothing here imports Django, so allocator tests run without it.

The pages' rate limits (playground.ratelimit) count per address in a cache
that lives as long as the test process, and every test client comes from
127.0.0.1: the suite would trip them. They are off here; the tests that
prove the 429s set them with override_settings (and e2e/ starts its servers
with its own values).
"""

import os

os.environ.setdefault("SECRET_KEY", "pytest-only-not-secret")
os.environ.setdefault("PAGE_ANALYSES_PER_MINUTE", "0")
os.environ.setdefault("PAGE_SHARES_PER_MINUTE", "0")
