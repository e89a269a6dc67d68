"""Who is asking (the client address), the wording of every refusal, and the limits the
libraries do not express.

``client_address`` trusts ``X-Forwarded-For`` only as far as ``TRUSTED_PROXY_COUNT`` says:
with 0 (the default) the header is ignored and the address is the connection's; with n, the
address is the n-th entry from the right, the one the outermost trusted proxy saw.

Sign-in limits (the login pages and ``POST /api/v1/auth/token/`` alike; put together in
tracker/accounts/signin.py). The lock of a username from one address (after
``LOGIN_FAILURE_LIMIT`` wrong passwords, for ``LOGIN_LOCKOUT_SECONDS``) is django-axes's.
Axes has one failure limit and one cool-off for all the counts it keeps, so the locks with
limits and lengths of their own are kept here, counted in the fail-safe cache:

- one address, any usernames: after ``LOGIN_ADDRESS_FAILURE_LIMIT`` wrong passwords within
  ``LOGIN_WINDOW_SECONDS``, for ``LOGIN_LOCKOUT_SECONDS``;
- one username, any addresses (a spread-out guesser): after ``LOGIN_USER_FAILURE_LIMIT``
  wrong passwords the username is refused everywhere, but only for
  ``LOGIN_USER_LOCKOUT_SECONDS`` at a time, so the right user is not kept out for long;
- one username, any addresses, over a day: after ``LOGIN_USER_DAILY_FAILURE_LIMIT`` wrong
  passwords within 24 hours of the first, the username is refused everywhere until those
  24 hours are over, so a guesser with many addresses gets at most that many a day.

The two username-wide locks do not apply at all from an address where that user signed in
before (within ``LOGIN_KNOWN_ADDRESS_SECONDS``), so the right user at home is never kept
out by them (axes has no such exemption).

Addresses are counted as ``limit_address`` says: an IPv6 address by its /64 (one
household, or one attacker's whole allocation), an IPv4 address as it is.

A refused attempt checks no password and counts nothing.

The callers give a username in the form it signs in by, its canonical form
(tracker/accounts/names.py ``canonical_username``: NFKC, case-folded), so ``Bob``, ``bob``
and ``ＢＯＢ``, which all sign in the same account, are one username for every counter.
"""

from __future__ import annotations

import hashlib
import ipaddress
import logging
import math
import time
from dataclasses import dataclass

from django.conf import settings

from tracker.core.cache import failsafe_cache

log = logging.getLogger(__name__)


def wait_words(seconds: float) -> str:
    """How long to wait, in words: seconds under a minute, else minutes (rounded up).

    >>> wait_words(900), wait_words(61), wait_words(60), wait_words(37.2), wait_words(1)
    ('15 minutes', '2 minutes', '1 minute', '38 seconds', '1 second')
    """
    whole = max(1, math.ceil(seconds))
    if whole < 60:
        return f"{whole} second{'s' if whole != 1 else ''}"
    minutes = math.ceil(whole / 60)
    return f"{minutes} minute{'s' if minutes != 1 else ''}"


def too_many(reason: str, seconds: float) -> str:
    """The one sentence of every refusal for going over a limit (API body and pages alike).

    >>> too_many("Too many failed sign-ins", 900)
    'Too many failed sign-ins; try again in 15 minutes.'
    """
    return f"{reason}; try again in {wait_words(seconds)}."


def limit_address(address: str) -> str:
    """The address the limits count: an IPv6 address stands for its /64 (a home or a
    server gets a whole /64, so its 2**64 addresses are one asker), an IPv4-mapped IPv6
    address for its IPv4 address; anything else as it is.

    >>> limit_address("2001:db8:1:2:aaaa::1"), limit_address("2001:db8:1:2:ffff::9")
    ('2001:db8:1:2::/64', '2001:db8:1:2::/64')
    >>> limit_address("::ffff:192.0.2.7"), limit_address("192.0.2.7"), limit_address("")
    ('192.0.2.7', '192.0.2.7', '')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def valid_address(text: str | None) -> str | None:
    """``text`` as an IP address in its canonical form, or None when it is none.

    >>> valid_address(" 2001:DB8::1 "), valid_address("proxy"), valid_address(None)
    ('2001:db8::1', None, None)
    """
    if not text:
        return None
    try:
        return str(ipaddress.ip_address(text.strip()))
    except ValueError:
        return None


def client_address(request) -> str:
    """The client's address, trusting ``TRUSTED_PROXY_COUNT`` proxies in front of us."""
    remote = request.META.get("REMOTE_ADDR") or ""
    proxies = getattr(settings, "TRUSTED_PROXY_COUNT", 0)
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR")
    if proxies <= 0 or not forwarded:
        return remote
    hops = [h for h in (p.strip() for p in forwarded.split(",")) if h]
    if len(hops) < proxies:
        return remote  # fewer hops than trusted proxies: the header is not ours
    return valid_address(hops[-proxies]) or remote


def counted_address(request) -> str | None:
    """The client address as django-axes stores it (``AXES_CLIENT_IP_CALLABLE``): that of
    ``limit_address``, an IPv6 /64 by its first address (axes keeps addresses, not networks);
    None when the request has none."""
    return limit_address(client_address(request)).split("/")[0] or None


@dataclass(frozen=True)
class LoginLimits:
    failures_per_address: int
    failures_per_user: int
    failures_per_user_day: int
    window: int
    lockout: int
    user_lockout: int

    @classmethod
    def from_settings(cls) -> LoginLimits:
        return cls(
            failures_per_address=settings.LOGIN_ADDRESS_FAILURE_LIMIT,
            failures_per_user=settings.LOGIN_USER_FAILURE_LIMIT,
            failures_per_user_day=settings.LOGIN_USER_DAILY_FAILURE_LIMIT,
            window=settings.LOGIN_WINDOW_SECONDS,
            lockout=settings.LOGIN_LOCKOUT_SECONDS,
            user_lockout=settings.LOGIN_USER_LOCKOUT_SECONDS,
        )


def _user(username: str) -> str:
    return hashlib.sha256((username or "").strip().casefold().encode()).hexdigest()[:32]


DAY = 86400
USER_WIDE = ("user", "user_day")  # the locks an address the user signed in from is spared


def _keys(username: str, address: str) -> dict[str, str]:
    user, address = _user(username), limit_address(address)
    return {
        "address": f"login:addr:{address}",
        "user": f"login:user:{user}",
        "user_day": f"login:userday:{user}",
    }


def _known(username: str, address: str) -> str:
    return f"login:known:{_user(username)}:{limit_address(address)}"


def _count(key: str, window: int) -> tuple[int, bool]:
    """Count one under ``key`` for ``window`` seconds from its first count: the count, and
    whether this was the first."""
    fresh = failsafe_cache.add(key, 0, window)
    try:
        return failsafe_cache.incr(key), fresh
    except ValueError:  # expired between add and incr
        failsafe_cache.set(key, 1, window)
        return 1, True


def _wait(key: str) -> float:
    until = failsafe_cache.get(f"{key}:locked")
    return (until - time.time()) if until else 0.0


def _lock(key: str, seconds: int) -> None:
    failsafe_cache.set(f"{key}:locked", time.time() + seconds, seconds)


def login_wait(username: str, address: str) -> int:
    """Seconds before ``username`` may try a password from ``address`` again by the limits
    kept here; 0: now."""
    known = failsafe_cache.get(_known(username, address))
    waits = [
        _wait(key)
        for kind, key in _keys(username, address).items()
        if not (known and kind in USER_WIDE)  # signed in from here before: not for them
    ]
    wait = max(waits, default=0.0)
    return math.ceil(wait) if wait > 0 else 0


def login_failed(username: str, address: str) -> None:
    """Count a wrong password; lock what went over its limit."""
    limits = LoginLimits.from_settings()
    # kind: (limit, counting window, lockout; None: until the window that counted is over)
    rules = {
        "address": (limits.failures_per_address, limits.window, limits.lockout),
        "user": (limits.failures_per_user, limits.window, limits.user_lockout),
        "user_day": (limits.failures_per_user_day, DAY, None),
    }
    for kind, key in _keys(username, address).items():
        limit, window, lockout = rules[kind]
        count, fresh = _count(key, window)
        if fresh and lockout is None:  # a lock until the window is over: note its start
            failsafe_cache.set(f"{key}:since", time.time(), window)
        if count >= limit:
            if lockout is None:
                since = failsafe_cache.get(f"{key}:since") or time.time()
                lockout = max(1, math.ceil(since + window - time.time()))
            _lock(key, lockout)
            log.warning(
                "sign-in locked",
                extra={"lock": kind, "address": address, "failures": count, "seconds": lockout},
            )


def login_succeeded(username: str, address: str) -> None:
    """A right password: ``address`` is one the user signed in from."""
    failsafe_cache.set(_known(username, address), 1, settings.LOGIN_KNOWN_ADDRESS_SECONDS)


# --------------------------------------------------------------------------
# Sign-up: one address may try to create ``SIGNUP_ADDRESS_LIMIT`` accounts (successful or
# not) in ``SIGNUP_WINDOW_SECONDS``; then it is refused until a whole window has passed.


def _signup_key(address: str) -> str:
    return f"signup:addr:{limit_address(address)}"


def signup_wait(address: str) -> int:
    """Seconds before ``address`` may try to sign up again; 0: now."""
    wait = _wait(_signup_key(address))
    return math.ceil(wait) if wait > 0 else 0


def signup_attempted(address: str) -> None:
    """Count one sign-up attempt from ``address``; lock the address at the limit."""
    key, window = _signup_key(address), settings.SIGNUP_WINDOW_SECONDS
    count, _ = _count(key, window)
    if count >= settings.SIGNUP_ADDRESS_LIMIT:
        _lock(key, window)
        log.warning("sign-up locked", extra={"address": address, "attempts": count})


# --------------------------------------------------------------------------
# Allowances for mail: each request counts, in the fail-safe cache, under a key naming what
# is limited (a client address, an e-mail address, an account); past ``limit`` in
# ``window`` seconds the request is refused (or served without sending) until the window of
# its first count has passed. An e-mail address is counted by its digest, never stored.


def email_key(address: str) -> str:
    """The name under which an e-mail address is counted (its digest, case-insensitive).

    >>> email_key("Ann@Example.org") == email_key("ann@example.org")
    True
    """
    return hashlib.sha256((address or "").strip().lower().encode()).hexdigest()[:32]


def allowance_take(kind: str, key: str, *, limit: int, window: int) -> bool:
    """Count one request of ``kind`` for ``key``; False when it is over ``limit`` within
    ``window`` seconds (it is counted all the same, so hammering does not reset the window)."""
    count, _ = _count(f"allow:{kind}:{key}", window)
    if count > limit:
        if count == limit + 1:
            log.warning("allowance used up", extra={"allowance": kind, "limit": limit})
        return False
    return True
