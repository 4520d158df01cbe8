"""Django settings for the type checker.

mypy's Django plugin imports the settings to learn the models and their managers.
The real settings refuse to load without a SECRET_KEY when DEBUG is off, so this
gives them a throwaway one first, as playground.pytest_env does for the tests.
A key set in the environment wins. Never used to serve anything.
"""

import os

os.environ.setdefault("SECRET_KEY", "typecheck-only-not-secret")

from playground.settings import *  # noqa: E402,F403
