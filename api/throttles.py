from rest_framework.throttling import UserRateThrottle

from tracker.core.cache import failsafe_cache
from tracker.core.ratelimit import limit_address


class WriteThrottle(UserRateThrottle):
    """Writes are rate-limited per API token (per user), or per address when anonymous.

    The address is DRF's (``NUM_PROXIES``, set from ``TRUSTED_PROXY_COUNT``), counted as the
    sign-in limits count it: an IPv6 /64 as one, which DRF does not do. The counters live in
    the fail-safe cache: with Redis down they are kept per process (and the outage logged)
    rather than failing the write."""

    scope = "writes"
    cache = failsafe_cache

    def get_ident(self, request):
        return limit_address(super().get_ident(request))  # an IPv6 /64 is one asker
