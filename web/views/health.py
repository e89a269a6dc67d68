"""The health check (/healthz): the database and, when configured, the broker."""

from django.http import JsonResponse
from django.views.decorators.http import require_GET

from tracker.core.health import system_health


@require_GET
def healthz(request):
    health = system_health()
    return JsonResponse(health, status=200 if health["status"] == "ok" else 503)
