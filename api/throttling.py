from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle


class AnonymousRateThrottle(AnonRateThrottle):
    """DRF's per-IP throttle for anonymous clients, with its rate read when a request comes.

    AnonRateThrottle copies DEFAULT_THROTTLE_RATES once, at import, so
    overriding the settings (in tests) would not reach it. A rate of None
    means no limit. ``cost`` is how many requests of the rate one request
    counts for (a comparison runs two analyses).
    """

    cost = 1

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def allow_request(self, request, view) -> bool:
        if self.rate is None:
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
