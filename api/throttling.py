from __future__ import annotations

from typing import TYPE_CHECKING, cast

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle

if TYPE_CHECKING:  # DRF's views import this module (DEFAULT_THROTTLE_CLASSES) while they load
    from rest_framework.request import Request
    from rest_framework.views import APIView


class AnonymousRateThrottle(AnonRateThrottle):
    """DRF's per-IP throttle for anonymous clients, with its rate read when a request comes.

    AnonRateThrottle copies DEFAULT_THROTTLE_RATES once, at import, so
    overriding the settings (in tests) would not reach it. A rate of None
    means no limit. ``cost`` is how many requests of the rate one request
    counts for (a comparison runs two analyses).
    """

    cost = 1
    # Set by SimpleRateThrottle.__init__ from the rate (None with no rate); the stubs leave them out.
    num_requests: int | None
    duration: int | None

    def get_rate(self) -> str | None:
        # Rates are texts such as "60/minute" (DRF's parse_rate splits them); the stubs say numbers.
        rates = cast(dict[str, str | None], api_settings.DEFAULT_THROTTLE_RATES)
        return rates.get(self.scope) if self.scope is not None else None

    def allow_request(self, request: Request, view: APIView) -> bool:
        if self.rate is None or self.num_requests is None or self.duration is None:  # all None, or none
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        self.now = self.timer()
        # The history holds one timestamp per request counted, newest first.
        self.history = [t for t in self.cache.get(self.key, []) if t > self.now - self.duration]
        if len(self.history) + self.cost > self.num_requests:
            return self.throttle_failure()
        self.history[:0] = [self.now] * self.cost
        self.cache.set(self.key, self.history, self.duration)
        return True


class TwoAnalysesRateThrottle(AnonymousRateThrottle):
    """For ``POST /api/v1/compare``: two analyses, two requests of the address's budget."""

    cost = 2
