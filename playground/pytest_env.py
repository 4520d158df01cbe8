"""pytest plugin that gives the test run a throwaway SECRET_KEY.

Loaded from `addopts` (`-p playground.pytest_env`) because pytest-django
imports the settings before any conftest.py runs, and the settings refuse to
start without a SECRET_KEY when DEBUG is off. A key set in the environment
wins. Nothing here imports Django, so allocator tests run without it.
"""

import os

os.environ.setdefault("SECRET_KEY", "pytest-only-not-secret")
