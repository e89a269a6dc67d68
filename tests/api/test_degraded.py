"""Degraded, not broken: a cache (Redis) outage keeps writes and sign-ins working, a
database outage is a JSON 503, and every API error has the one error body.

The outage tests use a Redis of their own: a port nobody listens on, and a redis-server
started by the test on another port and stopped halfway; never the shared one."""

from __future__ import annotations

import logging
import re
import shutil
import time

import pytest
from django.db import OperationalError, connection
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import make_league, make_user
from tests.support.outage import free_port, redis_cache, redis_server_start

pytestmark = pytest.mark.django_db


def assert_error(response, status: int) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "fields"}
    return body["error"]


def writes_and_sign_ins_work():
    make_user("rob", password="right-password")
    client = APIClient()
    token = client.post(
        "/api/v1/auth/token/", {"username": "rob", "password": "right-password"}, format="json"
    )
    assert token.status_code == 201, token.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    created = client.post(
        "/api/v1/leagues/", {"name": "Outage", "slug": "outage", "is_public": True}, format="json"
    )
    assert created.status_code == 201, created.content
    wrong = APIClient().post(
        "/api/v1/auth/token/", {"username": "rob", "password": "nope"}, format="json"
    )
    assert wrong.status_code == 401
    page = Client().post("/accounts/login/", {"username": "rob", "password": "right-password"})
    assert page.status_code == 302


def test_writes_and_sign_ins_work_with_the_cache_unreachable(settings, caplog):
    settings.CACHES = redis_cache(free_port())
    with caplog.at_level(logging.WARNING, logger="tracker.core.cache"):
        writes_and_sign_ins_work()
    assert any("cache unavailable" in r.getMessage() for r in caplog.records)


def test_the_write_limit_still_holds_per_process_while_the_cache_is_down(settings, monkeypatch):
    from api.throttles import WriteThrottle

    settings.CACHES = redis_cache(free_port())
    monkeypatch.setattr(WriteThrottle, "rate", "2/min", raising=False)
    user = make_user("sam")
    client = APIClient()
    client.force_authenticate(user)
    codes = [
        client.post(
            "/api/v1/leagues/", {"name": f"L{i}", "slug": f"l{i}"}, format="json"
        ).status_code
        for i in range(3)
    ]
    assert codes == [201, 201, 429]


@pytest.fixture
def own_redis():
    """A redis-server of the test's own on a free port, stopped at the end."""
    if not shutil.which("redis-server"):
        pytest.skip("redis-server is not installed")
    port = free_port()
    redis_server_start(port)
    import redis

    r = redis.Redis(host="127.0.0.1", port=port, socket_connect_timeout=1)
    for _ in range(50):
        try:
            r.ping()
            break
        except redis.RedisError:
            time.sleep(0.1)
    yield port, r
    try:
        r.shutdown(nosave=True)
    except redis.RedisError:
        pass


def test_redis_stopped_mid_run(settings, own_redis):
    import redis

    port, server = own_redis
    settings.CACHES = redis_cache(port)
    make_user("ann")
    client = APIClient()
    client.force_authenticate(make_user("jo"))
    up = client.post("/api/v1/leagues/", {"name": "Up", "slug": "up"}, format="json")
    assert up.status_code == 201
    assert server.keys("*")  # the write counter went to this Redis
    try:
        server.shutdown(nosave=True)
    except redis.RedisError:
        pass
    down = client.post("/api/v1/leagues/", {"name": "Down", "slug": "down"}, format="json")
    assert down.status_code == 201, down.content


class DatabaseDown:
    """Every query fails as if the database server were gone."""

    def __call__(self, execute, sql, params, many, context):
        raise OperationalError("connection to server at 10.1.2.3, port 5432 failed")


def test_database_down_is_a_json_503_for_the_api():
    league, admin = make_league(slug="dbdown")
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(admin)
    with connection.execute_wrapper(DatabaseDown()):
        for response in (
            client.get("/api/v1/leagues/"),
            client.post("/api/v1/leagues/", {"name": "X", "slug": "x"}, format="json"),
            APIClient(raise_request_exception=False).get("/api/v1/leagues/dbdown/"),
        ):
            error = assert_error(response, 503)
            assert error["code"] == "unavailable"
            assert response["Retry-After"]
            assert "10.1.2.3" not in response.content.decode()


def test_database_down_is_a_503_page_for_the_site():
    make_league(slug="dbdown-page")
    client = Client(raise_request_exception=False)
    with connection.execute_wrapper(DatabaseDown()):
        response = client.get("/")
    assert response.status_code == 503
    assert response["Retry-After"]


def test_every_api_error_has_the_error_body(settings):
    league, admin = make_league(slug="bodies")
    anon = APIClient(raise_request_exception=False)
    assert assert_error(anon.get("/api/v1/no-such-thing/"), 404)["code"] == "not_found"
    assert assert_error(anon.get("/api/v1/leagues/nope/"), 404)["code"] == "not_found"
    assert assert_error(anon.get("/api/nothing-here"), 404)["code"] == "not_found"
    assert assert_error(anon.delete("/api/v1/evaluate/"), 405)["code"] == "method_not_allowed"
    assert_error(anon.post("/api/v1/evaluate/", "<x/>", content_type="application/xml"), 415)
    # An endpoint that answers CSV still answers its errors with the JSON body.
    csv_404 = anon.get("/api/v1/analytics/leagues/nope/standings/?format=csv")
    assert assert_error(csv_404, 404)["code"] == "not_found"
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 100
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(admin)
    big = '{"name": "' + "n" * 500 + '"}'
    json_body = client.post("/api/v1/leagues/", big, content_type="application/json")
    assert assert_error(json_body, 413)["code"] == "too_large"
    form = client.post(
        "/api/v1/leagues/", "name=" + "n" * 500, content_type="application/x-www-form-urlencoded"
    )
    assert assert_error(form, 413)["code"] == "too_large"


def test_an_unhandled_exception_is_a_json_500_for_the_api_and_html_for_pages(monkeypatch):
    from api.views import core as api_core
    from web.views import leagues as page_views

    def boom(*args, **kwargs):
        raise RuntimeError("something broke at 10.9.8.7")

    monkeypatch.setattr(api_core, "leagues_visible_to", boom)
    response = APIClient(raise_request_exception=False).get("/api/v1/leagues/")
    error = assert_error(response, 500)
    assert error["code"] == "server_error" and "10.9.8.7" not in response.content.decode()
    monkeypatch.setattr(page_views, "home_leagues", boom)
    page = Client(raise_request_exception=False).get("/")
    assert page.status_code == 500
    assert page["Content-Type"].startswith("text/html")


def test_throttled_is_the_error_body_with_retry_after(monkeypatch):
    from api.throttles import WriteThrottle

    monkeypatch.setattr(WriteThrottle, "rate", "1/min", raising=False)
    client = APIClient()
    client.force_authenticate(make_user("quick"))
    client.post("/api/v1/leagues/", {"name": "A", "slug": "a"}, format="json")
    response = client.post("/api/v1/leagues/", {"name": "B", "slug": "b"}, format="json")
    error = assert_error(response, 429)
    assert error["code"] == "throttled"
    wait = int(response["Retry-After"])
    assert 1 <= wait <= 60
    assert re.fullmatch(
        r"Too many requests; try again in \d+ (seconds?|minutes?)\.", error["message"]
    )
