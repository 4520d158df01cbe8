"""The site's limits on what the engine reads, from settings (docs/configuration.md: "Configuration").

Two kinds of text reach the engine: what anonymous visitors send with each
request (the editor's form, the API's bodies), held to ``TEXT_MAX_CHARS``
characters and ``TEXT_MAX_VALUES`` values, and stored cluster snapshots, sent
once and read again by id, held to ``STORED_INVENTORY_MAX_BYTES`` and
``STORED_INVENTORY_MAX_VALUES``. ``engine_limits(stored)`` is the engine's
``allocator.reading.limits.Limits`` for either, whose refusals name the setting.
Nesting depth and what aliases may add stay fixed: they bound hostile shapes
(alias bombs), not sizes.
"""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings

from allocator.reading.limits import MAX_ALIAS_VALUES, MAX_DEPTH, MAX_INPUT_BYTES, MAX_VALUES, Limits

DEPTH = 64
ALIAS_VALUES = 200_000
STORE_ADVICE = "store a large cluster once (Use my cluster, or POST /api/v1/inventories) and refer to it by id"


def text_limit() -> int:
    return settings.TEXT_MAX_CHARS


def too_long_message(name: str, length: int) -> str:
    """The refusal of a text over ``TEXT_MAX_CHARS``, naming the setting and the way around it."""
    advice = f" To analyze a large inventory, {STORE_ADVICE}." if name == "inventory" else ""
    return (f"{name} is too long: {length} characters, the limit is {text_limit()} "
            f"(the site's TEXT_MAX_CHARS setting).{advice}")


def engine_limits(stored: bool = False) -> Limits:
    """The engine's limits for anonymous text, or (``stored``) for a stored cluster and the claims sent with it."""
    if stored:
        return _limits(settings.STORED_INVENTORY_MAX_BYTES, settings.STORED_INVENTORY_MAX_VALUES,
                       "STORED_INVENTORY_MAX_BYTES", "STORED_INVENTORY_MAX_VALUES", "")
    # 4 bytes a character at most: TEXT_MAX_CHARS decides the size, in characters.
    return _limits(4 * settings.TEXT_MAX_CHARS, settings.TEXT_MAX_VALUES, "TEXT_MAX_CHARS", "TEXT_MAX_VALUES",
                   f"; {STORE_ADVICE}")


@lru_cache(maxsize=8)
def _limits(size: int, values: int, size_setting: str, values_setting: str, more: str) -> Limits:
    # Equal settings give equal (hashable) Limits: the engine caches what it read per limits.
    return Limits(
        max_input_bytes=size, max_values=values, max_depth=DEPTH, max_alias_values=ALIAS_VALUES,
        advice=tuple(sorted({
            MAX_INPUT_BYTES: f"it is the site's {size_setting} setting{more}",
            MAX_VALUES: f"it is the site's {values_setting} setting{more}",
            MAX_DEPTH: "nesting that deep is refused",
            MAX_ALIAS_VALUES: "aliases that expand that much are refused",
        }.items())),  # the form Limits keeps (it sorts a mapping's items the same way)
    )
