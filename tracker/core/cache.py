"""The shared cache (rate-limit counters, import progress), kept usable while it is down.

``failsafe_cache`` answers like Django's default cache. When that cache cannot be reached
(Redis down, a timeout), it logs a warning and answers from a per-process memory cache
instead, so a cache outage degrades the limits to per-process ones and never fails a
request.
"""

from __future__ import annotations

import logging
import time
from typing import Any

from django.core.cache import caches
from django.core.cache.backends.locmem import LocMemCache
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

# What a cache outage raises: redis-py's errors, and socket errors from other backends.
CACHE_DOWN = (RedisError, OSError)

_WARN_EVERY = 60.0
# Entries a per-process memory cache holds before it drops the oldest third (Django's default,
# 300, would let a burst of sign-in attempts push the locks out): the settings' own memory
# cache (no CACHE_URL) and the fallback use it.
MEMORY_MAX_ENTRIES = 50_000  # seconds between two warnings about the same outage


class FailSafeCache:
    """Django's default cache, or a per-process memory cache while the default is down."""

    def __init__(self, alias: str = "default") -> None:
        self.alias = alias
        self.fallback = LocMemCache(
            "homegame-failsafe", {"TIMEOUT": 300, "OPTIONS": {"MAX_ENTRIES": MEMORY_MAX_ENTRIES}}
        )
        self._warned_at = -_WARN_EVERY

    def _warn(self, operation: str, exc: Exception) -> None:
        now = time.monotonic()
        if now - self._warned_at >= _WARN_EVERY:
            self._warned_at = now
            log.warning(
                "cache unavailable, using per-process memory",
                extra={"cache": self.alias, "operation": operation, "error": type(exc).__name__},
            )

    def _call(self, operation: str, *args: Any, **kwargs: Any) -> Any:
        try:
            return getattr(caches[self.alias], operation)(*args, **kwargs)
        except CACHE_DOWN as exc:
            self._warn(operation, exc)
            return getattr(self.fallback, operation)(*args, **kwargs)

    def get(self, key, default=None):
        return self._call("get", key, default)

    def set(self, key, value, timeout=None):
        return self._call("set", key, value, timeout)

    def add(self, key, value, timeout=None):
        return self._call("add", key, value, timeout)

    def incr(self, key, delta=1):
        return self._call("incr", key, delta)

    def delete(self, key):
        return self._call("delete", key)


failsafe_cache = FailSafeCache()
