import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def staff_client(client, django_user_model):
    staff = django_user_model.objects.create_user("ops", password="x", is_staff=True)
    client.force_login(staff)
    return client


@pytest.mark.django_db
def test_healthz_reports_database_up(staff_client):
    response = staff_client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["checks"]["database"]["status"] == "up"


@pytest.mark.django_db
def test_healthz_is_503_when_broker_is_down(staff_client, settings):
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = staff_client.get("/healthz")
    assert response.status_code == 503
    broker = response.json()["checks"]["broker"]
    assert broker["status"] == "down"
    # Which check failed and the error's class; never where the broker is.
    assert "127.0.0.1" not in response.content.decode() and ":1" not in broker["error"]


@pytest.mark.django_db
def test_healthz_tells_the_public_the_status_only(client, settings):
    assert client.get("/healthz").json() == {"status": "ok"}
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json() == {"status": "degraded"}


@pytest.mark.django_db
def test_healthz_details_with_the_token(client, settings):
    settings.HEALTHZ_TOKEN = "s3cret-health-token"
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"
    wrong = client.get("/healthz", HTTP_AUTHORIZATION="Bearer nope")
    assert wrong.json() == {"status": "degraded"}
    right = client.get("/healthz", HTTP_AUTHORIZATION="Bearer s3cret-health-token")
    assert right.status_code == 503
    assert right.json()["checks"]["broker"]["status"] == "down"
    assert right.json()["checks"]["database"] == {
        "status": "up",
        "vendor": right.json()["checks"]["database"]["vendor"],
    }


@pytest.mark.django_db
def test_home_page_renders_with_base_layout(client):
    response = client.get("/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "homegame" in html and "Not logged in" in html


@pytest.mark.django_db
def test_openapi_schema_and_docs(client):
    schema = client.get("/api/schema/?format=json")
    assert schema.status_code == 200
    assert schema.json()["openapi"].startswith("3.")
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger" in docs.content.lower()
    assert b"cdn" not in docs.content.lower()


def _settings_in_subprocess(env_extra: dict) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "homegame.settings", **env_extra}
    code = "import django; django.setup(); from django.conf import settings; print(settings.DEBUG, settings.DATABASES['default']['ENGINE'])"
    return subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )


def test_production_refuses_missing_secret_key():
    result = _settings_in_subprocess({"DEBUG": "false"})
    assert result.returncode != 0
    assert "SECRET_KEY is not set" in result.stderr


def test_debug_is_parsed_strictly():
    result = _settings_in_subprocess({"DEBUG": "maybe", "SECRET_KEY": "x"})
    assert result.returncode != 0
    assert "is not a boolean" in result.stderr


def test_development_defaults_to_sqlite():
    result = _settings_in_subprocess({"DEBUG": "true"})
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "django.db.backends.sqlite3"]


def test_env_bool_rejects_garbage(monkeypatch):
    from homegame.env import env_bool

    monkeypatch.setenv("X_FLAG", "perhaps")
    with pytest.raises(ImproperlyConfigured):
        env_bool("X_FLAG", default=False)


def test_engine_imports_no_django():
    code = (
        "import sys, tracker.engine; "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'rest_framework', 'celery'}); "
        "print(bad); sys.exit(1 if bad else 0)"
    )
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_api_error_body_for_unknown_route(client):
    response = client.get("/api/v1/no-such-thing/")
    assert response.status_code == 404


def test_flatten_errors_paths():
    from api.errors import flatten_errors

    assert flatten_errors({"players": [{}, {"down": ["bad card"]}], "variant": ["unknown"]}) == {
        "players[1].down": ["bad card"],
        "variant": ["unknown"],
    }


@pytest.mark.django_db
def test_healthz_reports_a_live_broker(staff_client, settings):
    import redis

    try:
        redis.Redis(host="127.0.0.1", port=6379, socket_connect_timeout=1).ping()
    except redis.RedisError:
        pytest.skip("no Redis on 127.0.0.1:6379")
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:6379/14"
    response = staff_client.get("/healthz")
    assert response.status_code == 200
    assert response.json()["checks"]["broker"]["status"] == "up"


@pytest.mark.django_db
def test_healthz_with_the_database_down_is_a_503_status(staff_client, settings):
    from django.db import OperationalError, connection

    def down(execute, sql, params, many, context):
        raise OperationalError("connection to server at 10.1.2.3, port 5432 failed")

    settings.HEALTHZ_TOKEN = "tok"
    with connection.execute_wrapper(down):
        public = staff_client.get("/healthz")  # the staff session cannot be read: status only
        detailed = staff_client.get("/healthz", HTTP_AUTHORIZATION="Bearer tok")
    assert public.status_code == 503 and public.json() == {"status": "degraded"}
    assert detailed.json()["checks"]["database"] == {"status": "down", "error": "OperationalError"}
    assert "10.1.2.3" not in detailed.content.decode()


LOG_PROBE = """
import django, logging, logging.config
django.setup()
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.test import RequestFactory
from django.utils.log import log_response

request = RequestFactory().get("/tournaments/1/hands/new/")
try:
    raise PermissionDenied("Only a scorekeeper may record hands")
except PermissionDenied as exc:
    log_response("Forbidden (Permission denied): %s", request.path,
                 response=HttpResponse(status=403), request=request, exception=exc)
try:
    raise RuntimeError("boom")
except RuntimeError as exc:
    log_response("Internal Server Error: %s", "/x", response=HttpResponse(status=500),
                 request=request, exception=exc)
logging.getLogger("celery.app.trace").info("Task tracker.tournament_settle[1] succeeded")
logging.getLogger("django.server").info('"GET / HTTP/1.1" 200 2257')
"""


def _log_probe(env_extra: dict) -> str:
    env = {"PATH": "/usr/bin:/bin", "DJANGO_SETTINGS_MODULE": "homegame.settings", **env_extra}
    result = subprocess.run(
        [sys.executable, "-c", LOG_PROBE], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert result.returncode == 0, result.stderr
    return result.stdout + result.stderr


def test_a_development_console_shows_requests_not_task_lines_nor_403_tracebacks():
    out = _log_probe({"DEBUG": "true"})
    assert '] "GET / HTTP/1.1" 200 2257' in out  # runserver's one line per request
    assert "Forbidden" not in out  # a 403 is the request line only
    assert "tournament_settle" not in out  # no line per task
    assert "ERROR django.request: Internal Server Error: /x" in out
    assert out.count("Traceback") == 1 and "RuntimeError: boom" in out  # a 500 keeps it
    assert "{" not in out  # plain text, no JSON


def test_production_logs_are_json_lines_and_a_403_has_no_traceback():
    import json

    out = _log_probe({"DEBUG": "false", "SECRET_KEY": "x"})
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{")]
    by_logger = {}
    for line in lines:
        by_logger.setdefault(line["logger"], []).append(line)
    (forbidden, error) = by_logger["django.request"]
    assert forbidden["status_code"] == 403 and "exc_info" not in forbidden
    assert error["status_code"] == 500 and "RuntimeError: boom" in error["exc_info"]
    assert by_logger["celery.app.trace"][0]["message"].startswith("Task tracker.tournament_settle")
    # Django's own console handler does not print the records a second time.
    assert sum(1 for line in out.splitlines() if "Forbidden" in line) == 1


def test_log_format_is_checked():
    result = _settings_in_subprocess({"DEBUG": "true", "LOG_FORMAT": "xml"})
    assert result.returncode != 0 and "LOG_FORMAT must be json or text" in result.stderr
