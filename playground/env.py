"""Strict readers for settings that come from the environment.

Each helper returns the default when the variable is unset or empty and
raises ImproperlyConfigured on anything it cannot read, so a typo such as
DEBUG=ture stops the process at start-up instead of silently meaning False.
"""

import os
import re

from django.core.exceptions import ImproperlyConfigured

TRUE = frozenset({"1", "true", "yes", "on"})
FALSE = frozenset({"0", "false", "no", "off"})


def _raw(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


def envbool(name: str, default: bool) -> bool:
    raw = _raw(name)
    if raw is None:
        return default
    if raw.lower() in TRUE:
        return True
    if raw.lower() in FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean: use 1/true/yes/on or 0/false/no/off")


def envint(name: str, default: int, *, minimum: int | None = None) -> int:
    raw = _raw(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an integer") from None
    if minimum is not None and value < minimum:
        raise ImproperlyConfigured(f"{name}={value} is below the minimum of {minimum}")
    return value


def envlist(name: str, default: list[str]) -> list[str]:
    """A comma-separated list; blank items are dropped."""
    raw = _raw(name)
    if raw is None:
        return list(default)
    return [item.strip() for item in raw.split(",") if item.strip()]


_HEADER = re.compile(r"^[A-Za-z0-9][A-Za-z0-9-]*$")


def envheader(name: str) -> str | None:
    """An HTTP header name (``X-Forwarded-Proto``) as Django's META key
    (``HTTP_X_FORWARDED_PROTO``), or None when unset."""
    raw = _raw(name)
    if raw is None:
        return None
    if not _HEADER.match(raw):
        raise ImproperlyConfigured(f"{name}={raw!r} is not an HTTP header name, e.g. X-Forwarded-Proto")
    return "HTTP_" + raw.upper().replace("-", "_")


def envchoice(name: str, default: str, choices: tuple[str, ...]) -> str:
    """One of ``choices`` (compared without case)."""
    raw = _raw(name)
    if raw is None:
        return default
    if raw.lower() not in choices:
        raise ImproperlyConfigured(f"{name}={raw!r} is not one of: {', '.join(choices)}")
    return raw.lower()
