"""The installable web app: its service worker, served at the site's root so its scope
covers the live logger (templates/app/sw.js, static/js/logger.js registers it)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.views.decorators.http import require_GET

#: The app shell the worker keeps from its install on: the static files the logger needs.
SHELL_FILES = ("css/site.css", "js/homegame.js", "js/logger.js", "manifest.webmanifest", "icon.svg")


def app_version() -> str:
    """A version string for the worker: a digest of the shell's files and the worker's
    template, so any change to them is a new version (and a new cache) on the phones."""
    digest = hashlib.sha256()
    for name in SHELL_FILES:
        digest.update(Path(finders.find(name)).read_bytes())
    digest.update((Path(settings.BASE_DIR) / "templates" / "app" / "sw.js").read_bytes())
    return digest.hexdigest()[:12]


@require_GET
def service_worker(request):
    body = render_to_string(
        "app/sw.js",
        {
            "version": app_version(),
            "shell": json.dumps([static(name) for name in SHELL_FILES]),
            "static_prefix": static(""),
        },
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # the browser checks for a new version each time
    return response
