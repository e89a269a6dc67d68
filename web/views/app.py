"""The installable web app: its service worker, served at the site's root so its scope
covers the live logger (templates/app/sw.js, static/js/logger.js registers it), and the
engine the phone runs: tracker/engine/ as a zip named by its digest, for the browser's
Python (Pyodide, vendored into static/vendor/pyodide/ by `make vendor`)."""

from __future__ import annotations

import functools
import hashlib
import io
import json
import zipfile
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse
from django.template.loader import render_to_string
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.http import require_GET

#: The app shell the worker keeps from its install on: the static files the logger needs.
SHELL_FILES = (
    "css/site.css",
    "js/homegame.js",
    "js/logger.js",
    "js/engine-worker.js",
    "manifest.webmanifest",
    "icon.svg",
)

#: The browser's Python (the npm package pyodide, Makefile's PYODIDE_FILES), when vendored.
PYODIDE_DIR = "vendor/pyodide/"
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)

#: The engine's package folder (pure Python, standard library only).
ENGINE_DIR = Path(__file__).resolve().parents[2] / "tracker" / "engine"


@functools.cache
def engine_bundle() -> tuple[str, bytes]:
    """tracker/engine/ as a zip the browser's Python imports from (with an empty
    ``tracker/__init__.py``), and its version: a digest of the zip, which is built with
    fixed dates so the same sources give the same bytes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        names = [("tracker/__init__.py", b"")] + [
            (f"tracker/engine/{path.name}", path.read_bytes())
            for path in sorted(ENGINE_DIR.glob("*.py"))
        ]
        for name, data in names:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            bundle.writestr(info, data)
    data = buffer.getvalue()
    return hashlib.sha256(data).hexdigest()[:12], data


def pyodide_vendored() -> bool:
    return all(finders.find(PYODIDE_DIR + name) for name in PYODIDE_FILES)


def pyodide_url(name: str = "") -> str:
    """The browser's Python's files by their own names (Pyodide loads its files by name
    from its folder; the manifest storage keeps the unhashed copies too)."""
    return f"{settings.STATIC_URL}{PYODIDE_DIR}{name}"


def phone_engine() -> dict[str, str]:
    """Where the logger's page finds the browser's Python and the engine (empty when the
    browser's Python is not vendored: the logger then works through the server alone)."""
    if not pyodide_vendored():
        return {}
    version, _ = engine_bundle()
    return {
        "pyodide": pyodide_url(),
        "worker": static("js/engine-worker.js"),
        "engine": reverse("engine-bundle", kwargs={"version": version}),
    }


def shell_urls() -> list[str]:
    """The addresses the worker keeps from its install on (small: the worker takes the
    pages over as soon as they are kept)."""
    return [static(name) for name in SHELL_FILES]


def warm_urls() -> list[str]:
    """The addresses the worker fetches into its cache once it has taken over: the
    browser's Python (12 MB) and the engine, when vendored."""
    engine = phone_engine()
    if not engine:
        return []
    return [pyodide_url(name) for name in PYODIDE_FILES] + [engine["engine"]]


def app_version() -> str:
    """A version string for the worker: a digest of the shell's files and the worker's
    template, so any change to them is a new version (and a new cache) on the phones."""
    digest = hashlib.sha256()
    for name in SHELL_FILES:
        digest.update(Path(finders.find(name)).read_bytes())
    digest.update((Path(settings.BASE_DIR) / "templates" / "app" / "sw.js").read_bytes())
    digest.update(engine_bundle()[0].encode())
    if pyodide_vendored():
        digest.update(Path(finders.find(PYODIDE_DIR + "pyodide-lock.json")).read_bytes())
    return digest.hexdigest()[:12]


@require_GET
def service_worker(request):
    body = render_to_string(
        "app/sw.js",
        {
            "version": app_version(),
            "shell": json.dumps(shell_urls()),
            "warm": json.dumps(warm_urls()),
            "static_prefix": static(""),
        },
    )
    response = HttpResponse(body, content_type="text/javascript; charset=utf-8")
    response["Service-Worker-Allowed"] = "/"
    response["Cache-Control"] = "no-cache"  # the browser checks for a new version each time
    return response


@require_GET
def engine_zip(request, version: str):
    """The engine's zip; its address names its version, so it is cached for good."""
    current, data = engine_bundle()
    if version != current:
        raise Http404("no engine of that version")
    response = HttpResponse(data, content_type="application/zip")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response
