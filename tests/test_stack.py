"""The production stack as the README runs it: the image's files and the refused-login page.

Whether the runtime install alone starts a worker and beat that settle hands is proved by
`.ci/runtime-check` (a fresh virtualenv with `pip install .`, run by `.ci/run`); these tests
hold the files that check cannot see, and the page a browser shows when its cookies are
dropped over plain HTTP.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
import yaml
from django.test import Client

ROOT = Path(__file__).resolve().parent.parent


def test_the_runtime_dependencies_bring_the_workers_transport():
    # kombu needs `packaging` for its Redis transport, only through its `redis` extra.
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert any(re.fullmatch(r"celery\[redis\]==[\d.]+", dep) for dep in deps), deps


def test_secrets_and_what_the_site_does_not_run_stay_out_of_the_image():
    ignored = (ROOT / ".dockerignore").read_text().split()
    for entry in (".env", ".env*", "tests", "docs", "bench", ".git", ".venv"):
        assert entry in ignored
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert not re.search(r"^COPY \. ", dockerfile, re.M), "COPY . copies the app a second time"
    # Exec form, so gunicorn is PID 1 and receives the stop signal itself.
    assert re.search(r'^CMD \["gunicorn"', dockerfile, re.M)


def test_compose_runs_migrations_once_before_web_worker_and_beat():
    services = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    assert services["migrate"]["command"][:3] == ["python", "manage.py", "migrate"]
    for name in ("web", "worker", "beat"):
        after = services[name]["depends_on"]["migrate"]
        assert after == {"condition": "service_completed_successfully"}, name
        command = services[name].get("command", [])
        assert "sh" not in command[:1], f"{name} runs under a shell that swallows signals"


@pytest.fixture
def csrf_client():
    return Client(enforce_csrf_checks=True)


@pytest.mark.django_db
def test_a_login_over_plain_http_with_secure_cookies_says_why(csrf_client, settings):
    settings.CSRF_COOKIE_SECURE = True
    settings.SESSION_COOKIE_SECURE = True
    settings.ALLOWED_HOSTS = ["192.0.2.10"]
    response = csrf_client.post(
        "/accounts/login/", {"username": "rob", "password": "x"}, HTTP_HOST="192.0.2.10"
    )
    assert response.status_code == 403
    text = response.content.decode()
    assert "plain http://192.0.2.10/" in text
    assert "SESSION_COOKIE_SECURE=false and CSRF_COOKIE_SECURE=false" in text
    assert "Not your deal" in text  # the site's own 403 page, not Django's bare one


@pytest.mark.django_db
def test_a_form_from_an_untrusted_origin_names_the_setting(csrf_client, settings):
    settings.CSRF_COOKIE_SECURE = True
    settings.SESSION_COOKIE_SECURE = True
    csrf_client.cookies["csrftoken"] = "a" * 32
    response = csrf_client.post(
        "/accounts/login/",
        {"username": "rob", "password": "x", "csrfmiddlewaretoken": "a" * 32},
        secure=True,
        HTTP_ORIGIN="https://proxy.example",
    )
    assert response.status_code == 403
    text = response.content.decode()
    assert "https://proxy.example" in text and "CSRF_TRUSTED_ORIGINS" in text


@pytest.mark.django_db
def test_a_stale_form_over_https_asks_for_a_reload(csrf_client, settings):
    settings.CSRF_COOKIE_SECURE = True
    settings.SESSION_COOKIE_SECURE = True
    response = csrf_client.post(
        "/accounts/login/",
        {"username": "rob", "password": "x"},
        secure=True,
        HTTP_REFERER="https://testserver/accounts/login/",
    )
    assert response.status_code == 403
    assert "reload the page and send it again" in response.content.decode()


@pytest.mark.django_db
def test_a_form_without_a_referer_over_https_says_so(csrf_client, settings):
    settings.CSRF_COOKIE_SECURE = True
    response = csrf_client.post("/accounts/login/", {"username": "rob"}, secure=True)
    assert response.status_code == 403
    assert "(the Referer header)" in response.content.decode()
