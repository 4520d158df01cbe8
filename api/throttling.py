from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle


class AnonymousRateThrottle(AnonRateThrottle):
    """DRF's per-IP throttle for anonymous clients, with its rate read when a request comes.

    AnonRateThrottle copies DEFAULT_THROTTLE_RATES once, at import, so
    overriding the settings (in tests) would not reach it. A rate of None
    means no limit.
    """

    def get_rate(self) -> str | None:
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)
