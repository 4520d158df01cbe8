"""A per-client rate limit for the pages, counted in Django's cache.

The API has DRF's throttling; the pages that run the same engine (the
editor, examples and shares, read or posted, the embed view) and the share
posts get a limit too:

    @rate_limit("PAGE_ANALYSES_PER_MINUTE")
    def index(request): ...

A view that runs two analyses (a comparison) counts twice (``cost``).

Counts are kept per client address and calendar minute (a fixed window)
under ``ratelimit:<setting>:<address>:<minute>``. The client address is
REMOTE_ADDR, or with ``NUM_PROXIES`` set, the address the outermost of our
proxies saw in X-Forwarded-For (as DRF's throttles read it), so a client
cannot choose its own identity. A limit of 0 turns it off. Only the methods
named are counted (POST by default). Over the limit the answer is 429 with
Retry-After: a page, or for htmx a fragment that the editor shows in place.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django_htmx.middleware import HtmxDetails

WINDOW = 60  # seconds

# Every limited view, as urls.py routes it, and the setting that limits it: docs/configuration.md names
# the same routes under each setting (playground/tests/test_ratelimit_docs.py checks).
LIMITED: dict[Callable[..., HttpResponse], str] = {}


def client_address(request: HttpRequest) -> str:
    remote: str = request.META.get("REMOTE_ADDR", "")
    proxies: int = settings.NUM_PROXIES
    forwarded: str | None = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies and forwarded:
        addresses = [a.strip() for a in forwarded.split(",") if a.strip()]
        if addresses:
            return addresses[-min(proxies, len(addresses))]
    return remote


def hit(scope: str, address: str, limit: int, cost: int = 1) -> int | None:
    """Count a request as ``cost`` requests; None when within ``limit``, else the seconds until the window ends."""
    now = time.time()
    window = int(now // WINDOW)
    key = f"ratelimit:{scope}:{address}:{window}"
    # add() is atomic where the cache is shared (memcached, Redis, database);
    # incr() then counts. A key lives a little longer than its window.
    if cache.add(key, cost, WINDOW + 5):
        count = cost
    else:
        try:
            count = cache.incr(key, cost)
        except ValueError:  # expired between add() and incr()
            cache.add(key, cost, WINDOW + 5)
            count = cost
    if count <= limit:
        return None
    return max(1, int((window + 1) * WINDOW - now) + 1)


class HtmxHttpRequest(HttpRequest):
    """A request as django-htmx's middleware leaves it (the way django-htmx documents typing ``request.htmx``)."""

    htmx: HtmxDetails


def too_many(request: HtmxHttpRequest, limit: int, retry_after: int) -> HttpResponse:
    ctx = {"limit": limit, "retry_after": retry_after}
    template = "playground/partials/too_many.html" if request.htmx else "playground/too_many.html"
    response = HttpResponse(render_to_string(template, ctx, request=request), status=429)
    response["Retry-After"] = str(retry_after)
    return response


def rate_limit(setting: str, methods: tuple[str, ...] = ("POST",),
               cost: Callable[..., int] | None = None
               ) -> Callable[[Callable[..., HttpResponse]], Callable[..., HttpResponse]]:
    """Limit a view to ``settings.<setting>`` requests a minute per client (0: no limit).

    ``cost(request, *args, **kwargs)``, when given, says how many requests
    one counts for (a comparison runs two analyses).
    """

    def decorator(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            limit = getattr(settings, setting)
            if limit and request.method in methods:
                weight = cost(request, *args, **kwargs) if cost else 1
                retry_after = hit(setting, client_address(request), limit, weight)
                if retry_after is not None:
                    return too_many(request, limit, retry_after)
            return view(request, *args, **kwargs)

        LIMITED[wrapped] = setting
        return wrapped

    return decorator
