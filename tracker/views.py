"""Pages. Views are thin: they call selectors and services and render templates."""

from __future__ import annotations

from django.http import JsonResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tracker.selectors.health import system_health


@require_GET
def healthz(request):
    health = system_health()
    return JsonResponse(health, status=200 if health["status"] == "ok" else 503)


def home(request):
    return render(request, "tracker/home.html", {})
