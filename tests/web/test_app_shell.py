"""The installable app: the manifest, and the service worker served at the site's root
(scope "/", so it covers the live logger) with a version that follows its files."""

from __future__ import annotations

import json
import re

from django.contrib.staticfiles import finders

from web.views import app


def test_the_worker_is_served_from_the_root_with_its_version_and_shell(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Service-Worker-Allowed"] == "/"
    body = answer.content.decode()
    assert f'var VERSION = "{app.app_version()}";' in body
    shell = json.loads(re.search(r"var SHELL = (\[.*\]);", body).group(1))
    assert any(url.endswith("js/logger.js") for url in shell)
    assert "{{" not in body  # every placeholder filled


def test_the_version_changes_with_any_file_of_the_shell(monkeypatch, tmp_path):
    before = app.app_version()
    changed = tmp_path / "logger.js"
    changed.write_text(open(finders.find("js/logger.js")).read() + "\n// a fix\n")
    real = finders.find
    monkeypatch.setattr(
        app.finders, "find", lambda name: str(changed) if name == "js/logger.js" else real(name)
    )
    assert app.app_version() != before


def test_the_manifest_names_the_installable_app():
    manifest = json.loads(open(finders.find("manifest.webmanifest")).read())
    assert manifest["display"] == "standalone" and manifest["scope"] == "/"
    assert manifest["icons"] and manifest["start_url"] == "/"


def test_only_get_is_served(client):
    assert client.post("/sw.js").status_code == 405


def test_the_engine_zip_holds_the_engine_alone_and_is_named_by_its_digest(client):
    import io
    import zipfile

    version, data = app.engine_bundle()
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert "tracker/__init__.py" in names and "tracker/engine/screen.py" in names
    assert all(n == "tracker/__init__.py" or n.startswith("tracker/engine/") for n in names)
    answer = client.get(f"/engine-{version}.zip")
    assert answer.status_code == 200 and answer.content == data
    assert "immutable" in answer["Cache-Control"]
    assert client.get("/engine-000000000000.zip").status_code == 404


def test_the_worker_keeps_the_browsers_python_and_the_engine_when_vendored(client):
    body = client.get("/sw.js").content.decode()
    warm = json.loads(re.search(r"var WARM = (\[.*\]);", body).group(1))
    if not app.pyodide_vendored():  # `make vendor` not run: the logger works online only
        assert warm == []
        return
    assert any(url.endswith("vendor/pyodide/pyodide.asm.wasm") for url in warm)
    assert f"/engine-{app.engine_bundle()[0]}.zip" in warm
