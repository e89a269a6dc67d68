from rest_framework.throttling import SimpleRateThrottle

from tracker.core.cache import failsafe_cache
from tracker.core.ratelimit import client_address, limit_address


class WriteThrottle(SimpleRateThrottle):
    """Writes are rate-limited per API token (per user), or per address when anonymous.

    Anonymous writes are counted per address as the sign-in limits count them (an IPv6 /64
    as one). The counters live in the fail-safe cache: with Redis down they are kept per process
    (and the outage logged) rather than failing the write."""

    scope = "writes"
    cache = failsafe_cache

    def get_ident(self, request):
        return limit_address(client_address(request))  # an IPv6 /64 is one asker

    def get_cache_key(self, request, view):
        if request.user and request.user.is_authenticated:
            ident = f"user-{request.user.pk}"
        else:
            ident = self.get_ident(request)
        return self.cache_format % {"scope": self.scope, "ident": ident}
