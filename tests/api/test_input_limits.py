"""Input limits: nesting depth and body size, NUL characters and unpaired surrogates are
refused with the error body (400, or 413 for size) everywhere, never a 500."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import add_member, make_league, make_tournament
from tracker.core.errors import DomainError
from tracker.engine.phh import PHHError, loads

pytestmark = pytest.mark.django_db


def assert_error(response, status: int) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "fields"}
    return body["error"]


def deep(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.fixture
def scorekeeper_client():
    league, admin = make_league(slug="limits")
    tournament, _players = make_tournament(league=league, by=admin)
    client = APIClient()
    client.force_authenticate(admin)
    return client, tournament


@pytest.mark.parametrize("levels", [40, 5_000, 100_000])
def test_deep_json_on_evaluate_is_a_400(levels):
    body = '{"variant": "seven_card_stud", "players": ' + deep(levels) + "}"
    response = APIClient().post("/api/v1/evaluate/", body, content_type="application/json")
    error = assert_error(response, 400)
    assert "nested deeper" in error["message"]


def test_deep_json_on_hands_is_a_400(scorekeeper_client):
    client, tournament = scorekeeper_client
    body = f'{{"tournament": {tournament.pk}, "entry": {deep(50_000)}}}'
    response = client.post("/api/v1/hands/", body, content_type="application/json")
    assert "nested deeper" in assert_error(response, 400)["message"]


def test_a_body_over_the_limit_is_a_413(settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = '{"variant": "' + "x" * 2000 + '"}'
    response = APIClient().post("/api/v1/evaluate/", body, content_type="application/json")
    assert assert_error(response, 413)["code"] == "too_large"


@pytest.mark.parametrize("text", ["\\u0000", "a\\u0000b", "\\ud800", "x\\udfffy"])
def test_nul_and_unpaired_surrogates_in_json_are_400s(text, scorekeeper_client):
    client, tournament = scorekeeper_client
    body = f'{{"variant": "{text}", "players": []}}'
    error = assert_error(
        APIClient().post("/api/v1/evaluate/", body, content_type="application/json"), 400
    )
    assert error["fields"] == {"variant": [error["fields"]["variant"][0]]}
    hand = (
        f'{{"tournament": {tournament.pk}, "number": 1, "variant": "{text}", '
        '"entry_mode": "quick"}'
    )
    assert_error(client.post("/api/v1/hands/", hand, content_type="application/json"), 400)
    key = f'{{"{text}": 1}}'
    assert_error(client.post("/api/v1/hands/", key, content_type="application/json"), 400)


@pytest.mark.parametrize("param", ["league", "action", "actor"])
def test_nul_in_audit_filters_is_a_400(param):
    league, admin = make_league(slug="audited")
    client = APIClient()
    client.force_authenticate(admin)
    error = assert_error(client.get(f"/api/v1/audit/?{param}=%00"), 400)
    assert param in error["fields"]


def test_nul_in_a_page_query_or_form_is_a_400(client):
    make_league(slug="paged")
    assert client.get("/leagues/paged/audit/?action=%00").status_code == 400
    form = "application/x-www-form-urlencoded"
    login = client.post("/accounts/login/", "username=a%00&password=x", content_type=form)
    assert login.status_code == 400


def test_deep_toml_in_a_phh_text_is_refused():
    text = "variant = 'F7S'\nactions = " + deep(500) + "\n"
    with pytest.raises(PHHError, match="nested deeper"):
        loads(text)
    with pytest.raises(PHHError, match="nested deeper"):
        loads("x = " + deep(20) + "\n")
    with pytest.raises(PHHError, match="NUL"):
        loads('variant = "F7\\u0000S"\n')
    assert issubclass(PHHError, DomainError)


def test_an_integer_past_pythons_digit_limit_is_a_phh_error():
    # tomllib raises ValueError, not TOMLDecodeError, for it; both readers are covered.
    for text in (
        "x = " + "9" * 5000 + "\n",
        "x = [" + "9" * 5000 + "]\n",
        "x = {a = " + "9" * 5000 + "}\n",
    ):
        with pytest.raises(PHHError, match="more than 4,300 digits"):
            loads(text)


def test_deep_toml_in_an_upload_is_a_400(scorekeeper_client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client, tournament = scorekeeper_client
    text = ("variant = 'F7S'\nactions = " + deep(500) + "\n").encode()
    response = client.post(
        f"/api/v1/tournaments/{tournament.pk}/imports/",
        {"files": [SimpleUploadedFile("deep.phh", text)]},
        format="multipart",
    )
    error = assert_error(response, 400)
    assert "nested deeper" in error["message"]


def test_a_member_gets_no_detail_on_limits_either():
    league, admin = make_league(slug="member-limits")
    member = add_member(league, "mo", "member")
    client = APIClient()
    client.force_authenticate(member)
    response = client.post("/api/v1/evaluate/", deep(100), content_type="application/json")
    assert_error(response, 400)
