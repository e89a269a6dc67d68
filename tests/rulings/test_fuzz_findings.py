"""Regressions for what the schema fuzzer (tests/api/test_fuzz.py) found: each was a 500
or a response the OpenAPI schema refused. Bad input is a 400 and stores nothing."""

from __future__ import annotations

import pytest

from tests.factories import make_tournament
from tests.rulings.helpers import api_client, disputed_hand, league_with_roles
from tracker.tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    "extra, field",
    [
        ({"hand_limit": 33721712010}, "hand_limit"),
        ({"hands_per_level": 3_000_000_000}, "hands_per_level"),
        ({"starting_chips": 3_000_000_000}, "starting_chips"),
        ({"stakes_schedule": [[4, 10, 2 * 10**9, 4 * 10**9]]}, "stakes_schedule[0]"),
    ],
)
def test_numbers_beyond_what_the_database_holds_are_refused(extra, field):
    league, users = league_with_roles()
    _, players = make_tournament(league=league, by=users["admin"])
    count = Tournament.objects.count()
    api = api_client(users["admin"])
    api.raise_request_exception = False
    body = {"league": league.slug, "name": "Big", "players": [p.id for p in players], **extra}
    r = api.post("/api/v1/tournaments/", body, format="json")
    assert r.status_code == 400, r.content[:300]
    assert field in r.json()["error"]["fields"]
    assert Tournament.objects.count() == count


@pytest.mark.parametrize(
    "query",
    [
        "hand=-2.011841276028557e%2B166",
        "tournament=0.5",
        "hand=99999999999999999999999",
    ],
)
def test_id_filters_refuse_what_is_not_an_id(query):
    api = api_client()
    api.raise_request_exception = False
    for path in ("/api/v1/disputes/", "/api/v1/rulings/", "/api/v1/evaluations/"):
        r = api.get(f"{path}?{query}")
        assert r.status_code == 400, (path, r.content[:200])


def test_audit_times_with_any_offset_are_read_in_utc():
    league, users = league_with_roles()
    api = api_client(users["admin"])
    api.raise_request_exception = False
    r = api.get("/api/v1/audit/?league=friday&since=3861-02-04T07:35:00.3-23:27")
    assert r.status_code == 200 and r.json()["count"] == 0
    r = api.get("/api/v1/audit/?league=friday&until=9999-12-31T23:59:59-12:00")
    assert r.status_code == 400


def test_responses_match_the_schema(client, django_capture_on_commit_callbacks):
    league, users = league_with_roles()
    disputed_hand(league, users["admin"], django_capture_on_commit_callbacks, hand_limit=1)
    schema = client.get("/api/schema/?format=json").json()
    standings = schema["paths"]["/api/v1/leagues/{slug}/standings/"]["get"]["responses"]["200"]
    assert standings["content"]["application/json"]["schema"]["type"] == "array"
    assert isinstance(client.get("/api/v1/leagues/friday/standings/").json(), list)
    # A dealer's-choice tournament answers default_variant "", which the schema allows.
    tournament = schema["components"]["schemas"]["Tournament"]["properties"]["default_variant"]
    assert any(s.get("$ref", "").endswith("BlankEnum") for s in tournament.get("oneOf", []))


def test_a_huge_page_size_is_capped():
    league_with_roles()
    api = api_client()
    api.raise_request_exception = False
    r = api.get("/api/v1/leagues/?limit=517519944151566843904")
    assert r.status_code == 200 and r.json()["count"] == len(r.json()["results"]) == 1
    r = api.get("/api/v1/leagues/?limit=5&offset=99999999999999999999999")
    assert r.status_code == 200 and r.json()["results"] == []


@pytest.mark.parametrize(
    "where",
    ["table_result", "entry", "entry_value"],
)
def test_nul_characters_in_a_hand_are_refused_and_nothing_is_stored(where):
    """PostgreSQL cannot store a NUL character in JSON: it was a 500, it is now a 400."""
    from tests.rulings.helpers import ACES, KINGS, positions, showdown
    from tracker.audit.models import AuditEntry
    from tracker.hands.models import Hand

    league, users = league_with_roles()
    t, _ = make_tournament(league=league, by=users["admin"], default_variant="seven_card_stud")
    body = {"tournament": t.pk, "entry_mode": "quick", "entry": showdown(t, [ACES, KINGS], 24)}
    if where == "table_result":
        body["table_result"] = {"winners": [positions(t)[0]], "note\u0000": 1}
    elif where == "entry":
        body["entry"]["note\u0000"] = 1
    else:
        body["entry"]["community"] = "\u0000"
    api = api_client(users["admin"])
    api.raise_request_exception = False
    audit = AuditEntry.objects.count()
    r = api.post("/api/v1/hands/", body, format="json")
    assert r.status_code == 400, r.content[:300]
    assert any(k.startswith(where.split("_value")[0]) for k in r.json()["error"]["fields"])
    assert not Hand.objects.exists() and AuditEntry.objects.count() == audit


def test_a_hand_history_file_with_nul_characters_is_refused():
    from django.core.files.uploadedfile import SimpleUploadedFile

    league, users = league_with_roles()
    t, _ = make_tournament(league=league, by=users["admin"], default_variant="seven_card_stud")
    api = api_client(users["admin"])
    api.raise_request_exception = False
    upload = SimpleUploadedFile("night\x00.phh", b"variant = 'F7S'\x00\n")
    r = api.post(f"/api/v1/tournaments/{t.pk}/imports/", {"files": [upload]})
    assert r.status_code == 400, r.content[:300]
    assert "NUL" in r.json()["error"]["message"]
