"""Two analyses of the same documents under two settings, and what differs between them."""

from __future__ import annotations

from typing import Any

from allocator.compare import compare as engine_compare
from playground.services.analyze import Analysis


def compare(left: Analysis, right: Analysis) -> dict[str, Any]:
    """``allocator.compare.compare`` of two analyses: ``{left, right, differences}``."""
    return engine_compare(left.engine_kwargs(), right.engine_kwargs())
