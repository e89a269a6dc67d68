"""The sign-in limits of the login page, the admin's login and ``POST /api/v1/auth/token/``.

The lock of one username from one address is django-axes's (``AXES_*`` in the settings):
each wrong password that ``authenticate()`` refuses is recorded by axes from Django's
``user_login_failed`` signal (an ``AccessAttempt`` row), and after ``LOGIN_FAILURE_LIMIT``
of them, each within ``LOGIN_LOCKOUT_SECONDS`` of the last, the pair is locked until that
time after the last is over. The other locks (per address, per username, per username and
day, with the exemption of an address the user signed in from) are tracker/core/ratelimit.py's.

Callers ask ``sign_in_wait`` before any password is checked, then tell ``sign_in_failed`` or
``sign_in_succeeded``. Axes counts a username by its canonical form (``counted_username``) and
an address as the other limits do (``counted_address``), so ``Bob``, ``bob`` and ``ＢＯＢ``
from one IPv6 /64 are one pair.
"""

from __future__ import annotations

import math

from axes.attempts import get_cool_off_threshold
from axes.handlers.proxy import AxesProxyHandler
from axes.helpers import get_cool_off
from axes.models import AccessAttempt
from django.db.models import Max
from django.utils import timezone

from tracker.accounts.names import canonical_username
from tracker.core.ratelimit import client_address, login_failed, login_succeeded, login_wait


def counted_username(request, credentials: dict | None) -> str | None:
    """The username axes counts (``AXES_USERNAME_CALLABLE``): its canonical form, as it
    signs in; from the credentials given to ``authenticate()``, else from the posted form."""
    if credentials is not None:
        username = credentials.get("username")
    else:
        username = getattr(request, "POST", {}).get("username")
    return canonical_username(username) if username else None


def _credentials(username: str) -> dict:
    return {"username": username}


def _pair_wait(request, username: str) -> float:
    """Seconds the lock of ``username`` from this request's address has still to run."""
    credentials = _credentials(username)
    if AxesProxyHandler.is_allowed(request, credentials):
        return 0.0
    last = AccessAttempt.objects.filter(
        username=username,
        ip_address=request.axes_ip_address,
        attempt_time__gte=get_cool_off_threshold(request),
    ).aggregate(last=Max("attempt_time"))["last"]
    if last is None:  # locked by axes for another reason (a blacklist): a whole cool-off
        return get_cool_off(request).total_seconds()
    return (last + get_cool_off(request) - timezone.now()).total_seconds()


def sign_in_wait(request, username: str) -> int:
    """Seconds before ``username`` (canonical) may try a password from this request's
    address again; 0: now. ``request`` is Django's (under DRF, ``request._request``): the one
    ``authenticate()`` is given."""
    wait = max(_pair_wait(request, username), login_wait(username, client_address(request)))
    return math.ceil(wait) if wait > 0 else 0


def sign_in_failed(request, username: str) -> None:
    """A wrong password (axes has counted it from the signal): count it for the other locks."""
    login_failed(username, client_address(request))


def sign_in_succeeded(request, username: str) -> None:
    """A right password: the pair's failures are forgotten, and the address is one the user
    signed in from."""
    AxesProxyHandler.update_request(request)
    AccessAttempt.objects.filter(username=username, ip_address=request.axes_ip_address).delete()
    login_succeeded(username, client_address(request))
