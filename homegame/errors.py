"""Django's error views (handler400/404/500 in homegame/urls.py).

The pages keep Django's HTML answers, with two statuses made precise: a body over
``DATA_UPLOAD_MAX_MEMORY_SIZE`` (or too many fields or files) is a 413, and an exception
raised because the database cannot be reached is a 503 with ``Retry-After``. Under /api/
api/middleware.py then turns any of these into the API's error body.
"""

from __future__ import annotations

import sys

from django.conf import settings
from django.core.exceptions import (
    PermissionDenied,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import HttpResponse
from django.middleware import csrf
from django.shortcuts import render
from django.views import defaults

from api.errors import DATABASE_DOWN, RETRY_AFTER_SECONDS

TOO_LARGE = (RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent)


def bad_request(request, exception):
    response = defaults.bad_request(request, exception)
    if isinstance(exception, TOO_LARGE):
        response.status_code = 413
    return response


def page_not_found(request, exception):
    return defaults.page_not_found(request, exception)


def server_error(request):
    exc = sys.exc_info()[1]
    if isinstance(exc, DATABASE_DOWN):
        response = HttpResponse(
            "<h1>Service unavailable</h1><p>Try again in a moment.</p>", status=503
        )
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    return defaults.server_error(request)


# Why a browser's form post failed the CSRF check, in words a person setting up the site can
# act on. The usual cause on a home network: the compose defaults mark the session and CSRF
# cookies Secure, so over plain http:// the browser never sends them back (README, "Running
# with docker compose": reaching the site from other devices).
INSECURE_COOKIES = (
    "This site is set up to be served over HTTPS: its sign-in cookies are marked Secure, "
    "so your browser does not send them back over plain http://{host}/. Open the site "
    "through its HTTPS address, or, on a trusted home network only, set "
    "SESSION_COOKIE_SECURE=false and CSRF_COOKIE_SECURE=false together (README: Running "
    "with docker compose)."
)
UNTRUSTED_ORIGIN = (
    "This form was sent from {origin}, which the site does not list as one of its own. "
    "Behind an HTTPS proxy, add that origin to CSRF_TRUSTED_ORIGINS (and set "
    "TRUSTED_PROXY_COUNT) (README: Running with docker compose)."
)
NO_REFERER = (
    "Your browser sent this form without saying which page it came from (the Referer "
    "header), which the site needs over HTTPS. A privacy setting or an extension may remove "
    "it: allow it for this site, then reload the page and send the form again."
)
EXPIRED = "The form was out of date. Go back, reload the page and send it again."


def csrf_failure_reason(request, reason: str = "") -> str:
    """The sentence the refused page shows: which setting keeps this browser out, if any."""
    secure_cookies = settings.CSRF_COOKIE_SECURE or settings.SESSION_COOKIE_SECURE
    if secure_cookies and not request.is_secure():
        return INSECURE_COOKIES.format(host=request.get_host())
    if reason == csrf.REASON_NO_REFERER:
        return NO_REFERER
    if reason.startswith(("Origin checking failed", "Referer checking failed")):
        origin = request.META.get("HTTP_ORIGIN") or request.META.get("HTTP_REFERER") or "?"
        return UNTRUSTED_ORIGIN.format(origin=origin)
    return EXPIRED


def csrf_failure(request, reason: str = ""):
    """CSRF_FAILURE_VIEW: the site's 403 page, saying why, instead of Django's bare one."""
    message = csrf_failure_reason(request, reason)
    return render(request, "403.html", {"exception": PermissionDenied(message)}, status=403)
