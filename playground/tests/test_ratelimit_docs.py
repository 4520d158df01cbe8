"""docs/configuration.md names exactly the routes each page rate limit counts (playground.ratelimit)."""

from __future__ import annotations

import re
from pathlib import Path

from playground import urls
from playground.ratelimit import LIMITED

DOC = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"


def shape(path: str) -> str:
    """A route with its parameters unnamed: ``s/<share_id:share_id>`` and the doc's ``/s/<id>`` agree."""
    return re.sub(r"<[^>]*>", "<>", path)


def limited_routes() -> dict[str, set[str]]:
    """setting -> the routes whose views it limits (through the decorators around them)."""
    found: dict[str, set[str]] = {}
    for pattern in urls.urlpatterns:
        view = getattr(pattern, "callback", None)
        while view is not None and view not in LIMITED:
            view = getattr(view, "__wrapped__", None)
        if view is not None:
            found.setdefault(LIMITED[view], set()).add(shape("/" + str(pattern.pattern)))
    return found


def documented_routes(setting: str) -> set[str]:
    """The routes (`/...` in backquotes) in the setting's row of the configuration table."""
    row = next(line for line in DOC.read_text().splitlines() if line.startswith(f"| `{setting}` |"))
    return {shape(path) for path in re.findall(r"`(/[^`]*)`", row)}


def test_the_configuration_page_names_every_rate_limited_route_and_no_other():
    limited = limited_routes()
    assert set(limited) == {"PAGE_ANALYSES_PER_MINUTE", "PAGE_SHARES_PER_MINUTE"}
    assert "/capacity" in limited["PAGE_ANALYSES_PER_MINUTE"]
    for setting, routes in limited.items():
        assert documented_routes(setting) == routes, setting
