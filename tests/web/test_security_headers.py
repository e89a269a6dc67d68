"""Security headers: a Content-Security-Policy on every answer (no inline script on any
page), HSTS and the HTTPS redirect from the environment."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]


def test_pages_and_api_carry_the_policy(client):
    for url in ("/", "/accounts/login/", "/api/v1/", "/healthz", "/api/docs/"):
        response = client.get(url)
        policy = response["Content-Security-Policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, url
        assert "unsafe-inline" not in policy.split("style-src")[0], url
    assert "unsafe-inline" not in client.get("/")["Content-Security-Policy"]
    assert client.get("/")["X-Frame-Options"] == "DENY"


def test_no_template_has_inline_script_or_handlers():
    for path in (ROOT / "templates").rglob("*.html"):
        text = path.read_text()
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", text), path
        assert not re.search(r"\son[a-z]+=\"", text), path
        assert ' style="' not in text, path


def test_api_docs_script_is_served_as_a_file(client):
    page = client.get("/api/docs/").content.decode()
    assert re.search(r'<script src="[^"]*\?script', page)
    assert client.get("/api/docs/?script")["Content-Type"].startswith("application/javascript")


def test_hsts_and_https_redirect_from_the_environment(monkeypatch):
    from homegame import settings as live

    monkeypatch.setenv("SECURE_HSTS_SECONDS", "31536000")
    monkeypatch.setenv("SECURE_SSL_REDIRECT", "true")
    monkeypatch.setenv("CONTENT_SECURITY_POLICY", "default-src 'none'")
    try:
        configured = importlib.reload(live)
        assert configured.SECURE_HSTS_SECONDS == 31536000
        assert configured.SECURE_SSL_REDIRECT is True
        assert configured.CONTENT_SECURITY_POLICY == "default-src 'none'"
    finally:
        monkeypatch.delenv("SECURE_HSTS_SECONDS")
        monkeypatch.delenv("SECURE_SSL_REDIRECT")
        monkeypatch.delenv("CONTENT_SECURITY_POLICY")
        defaults = importlib.reload(live)
    assert defaults.SECURE_HSTS_SECONDS == 0 and defaults.SECURE_SSL_REDIRECT is False


def test_hsts_header_when_set(client, settings):
    settings.SECURE_HSTS_SECONDS = 3600
    settings.SECURE_SSL_REDIRECT = True
    assert client.get("/").status_code == 301  # plain HTTP goes to HTTPS
    assert client.get("/healthz").status_code == 200  # health checks stay on HTTP
    secure = client.get("/", secure=True)
    assert secure["Strict-Transport-Security"] == "max-age=3600"


def test_the_policy_lets_webassembly_compile_but_never_eval(client):
    policy = client.get("/").headers["Content-Security-Policy"]
    script = next(p for p in policy.split(";") if p.strip().startswith("script-src"))
    assert "'wasm-unsafe-eval'" in script and "'unsafe-eval'" not in script
    assert "wasm-unsafe-eval" not in policy.replace(script, "")
