"""The health check (/healthz): the database and, when configured, the broker.

Everyone gets the status alone (200 ``{"status": "ok"}``, or 503 ``{"status": "degraded"}``).
Staff users, and requests carrying ``HEALTHZ_TOKEN`` (``Authorization: Bearer <token>``),
also get which check failed (``checks``), never hosts, ports or connection strings.
"""

import hmac

from django.conf import settings
from django.db import DatabaseError
from django.http import JsonResponse
from django.views.decorators.http import require_GET

from tracker.core.health import system_health


def _may_see_details(request) -> bool:
    token = settings.HEALTHZ_TOKEN
    given = request.headers.get("Authorization", "")
    if token and hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        return True
    try:  # the session lives in the database, which may be the thing that is down
        user = getattr(request, "user", None)
        return bool(user is not None and user.is_authenticated and user.is_staff)
    except DatabaseError:
        return False


@require_GET
def healthz(request):
    health = system_health()
    status = 200 if health["status"] == "ok" else 503
    body = health if _may_see_details(request) else {"status": health["status"]}
    response = JsonResponse(body, status=status)
    response["Cache-Control"] = "no-store"
    return response
