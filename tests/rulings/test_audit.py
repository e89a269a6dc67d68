"""The audit log: every write, who, when, through which channel, from where (both databases)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.factories import api_key, make_user
from tests.rulings.helpers import (
    ACES,
    KINGS,
    api_client,
    disputed_hand,
    league_with_roles,
    positions,
    showdown,
)
from tracker.audit.models import AuditEntry
from tracker.audit.services import token_fingerprint
from tracker.engine.errors import DomainError
from tracker.leagues.models import League
from tracker.rulings.services import house_rules_set, ruling_make

pytestmark = pytest.mark.django_db


def actions(**filters) -> list[str]:
    return list(
        AuditEntry.objects.filter(**filters).order_by("id").values_list("action", flat=True)
    )


def test_every_service_write_is_recorded_with_its_league(django_capture_on_commit_callbacks):
    league, users = league_with_roles()
    _, hand, _ = disputed_hand(league, users["admin"], django_capture_on_commit_callbacks)
    ruling_make(pot=hand.pots.get(), by=users["authority"], result="engine", reason="aces")
    house_rules_set(
        league=league,
        house_rules={"kings_and_little_ones": {"king_required": False}},
        by=users["authority"],
    )
    from tracker.leagues.services import role_grant, role_revoke

    role_grant(league=league, user=users["member"], role="scorekeeper", by=users["admin"])
    role_revoke(league=league, user=users["member"], role="member", by=users["admin"])
    logged = actions(league_id=league.pk)
    assert logged == [
        "league.create",
        "player.create",
        "player.create",
        "player.create",
        "tournament.create",
        "hand.record",
        "dispute.flag",
        "ruling.make",
        "league.house_rules",
        "role.grant",
        "role.revoke",
    ]
    entries = {e.action: e for e in AuditEntry.objects.filter(league_id=league.pk)}
    # Outside a request the actor is the user the service acted for; settlement is the system's.
    assert entries["hand.record"].actor == users["admin"].username
    assert entries["hand.record"].channel == "system"
    assert entries["dispute.flag"].actor == "system" and entries["dispute.flag"].actor_id is None
    ruling = entries["ruling.make"]
    assert ruling.actor == users["authority"].username and ruling.target_type == "ruling"
    assert ruling.data["correction"] and ruling.data["reason"] == "aces"
    assert entries["league.house_rules"].data == {
        "before": {},
        "after": {"kings_and_little_ones": {"king_required": False}},
    }
    assert entries["role.grant"].data == {"user": users["member"].username, "role": "scorekeeper"}
    assert entries["role.revoke"].data == {"user": users["member"].username, "role": "member"}
    assert all(e.league_slug == league.slug for e in entries.values())


def test_a_refused_write_leaves_no_entry(django_capture_on_commit_callbacks):
    league, users = league_with_roles()
    _, hand, _ = disputed_hand(league, users["admin"], django_capture_on_commit_callbacks)
    count = AuditEntry.objects.count()
    with pytest.raises(DomainError):
        ruling_make(pot=hand.pots.get(), by=users["authority"], result="award", reason="x")
    with pytest.raises(DomainError):
        house_rules_set(league=league, house_rules={"poker": {}}, by=users["authority"])
    assert AuditEntry.objects.count() == count


def test_api_writes_name_the_token_never_the_secret_and_the_address(settle):
    admin = make_user("boss")
    key = api_key(admin)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    with settle():
        r = api.post(
            "/api/v1/leagues/",
            {"name": "Friday", "slug": "friday"},
            format="json",
            REMOTE_ADDR="203.0.113.7",
        )
    assert r.status_code == 201
    entry = AuditEntry.objects.get(action="league.create")
    assert entry.actor == "boss" and entry.actor_id == admin.pk
    assert entry.channel == "token" and entry.token_id == token_fingerprint(key)
    assert key not in entry.token_id and key[:8] not in str(entry.data)
    assert entry.ip == "203.0.113.7"
    assert entry.target_type == "league" and entry.target == "Friday"


def test_session_writes_say_session_and_need_the_csrf_token():
    from django.test import Client

    league, users = league_with_roles()
    rob = users["authority"]
    body = {"house_rules": {"low_hole": {"game": "high_low"}}}
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(rob)
    url = f"/api/v1/leagues/{league.slug}/house-rules/"
    r = strict.put(url, body, content_type="application/json")
    assert r.status_code == 403 and "CSRF" in r.json()["error"]["message"]
    assert not AuditEntry.objects.filter(action="league.house_rules").exists()
    strict.get(f"/leagues/{league.slug}/disputes/")  # any page sets the CSRF cookie
    token = strict.cookies["csrftoken"].value
    r = strict.put(url, body, content_type="application/json", HTTP_X_CSRFTOKEN=token)
    assert r.status_code == 200, r.content
    entry = AuditEntry.objects.get(action="league.house_rules")
    assert entry.channel == "session" and entry.token_id == "" and entry.actor == rob.username
    assert entry.ip == "127.0.0.1"


def test_tokens_created_and_revoked_are_recorded_for_the_user():
    user = make_user("ann", password="a-long-pass-phrase")
    anon = api_client()
    r = anon.post(
        "/api/v1/auth/token/", {"username": "ann", "password": "a-long-pass-phrase"}, format="json"
    )
    assert r.status_code == 201
    created = AuditEntry.objects.get(action="token.create")
    assert created.actor == "ann" and created.channel == "password"
    assert created.data["token_id"] == r.json()["token_id"] == token_fingerprint(r.json()["token"])
    assert created.league_id is None
    api = api_client()
    api.credentials(HTTP_AUTHORIZATION=f"Token {r.json()['token']}")
    assert api.delete("/api/v1/auth/token/").status_code == 204
    revoked = AuditEntry.objects.get(action="token.revoke")
    assert revoked.channel == "token" and revoked.token_id == r.json()["token_id"]
    assert revoked.actor_id == user.pk
    # The user reads their own entries outside any league.
    fresh = anon.post(
        "/api/v1/auth/token/", {"username": "ann", "password": "a-long-pass-phrase"}, format="json"
    ).json()
    mine = api_client()
    mine.credentials(HTTP_AUTHORIZATION=f"Token {fresh['token']}")
    listed = mine.get("/api/v1/audit/").json()
    assert {"token.create", "token.revoke"} <= {e["action"] for e in listed["results"]}


def test_reevaluation_started_is_recorded_and_its_flags_are_the_systems(settle):
    league, users = league_with_roles()
    api = api_client(users["admin"])
    from tests.factories import make_tournament

    tournament, _ = make_tournament(
        league=league, by=users["admin"], default_variant="seven_card_stud"
    )
    from tracker.hands.services.recording import hand_record

    with settle():
        hand_record(
            tournament=tournament,
            by=users["admin"],
            entry_mode="quick",
            entry=showdown(tournament, [ACES, KINGS], 24),
            table_result={"winners": [positions(tournament)[1]]},
        )
    with settle():
        r = api.post("/api/v1/reevaluations/", {"league": league.slug}, format="json")
    assert r.status_code == 202
    started = AuditEntry.objects.get(action="reevaluation.start")
    assert started.channel == "token" and started.data["job"] == r.json()["id"]
    flags = AuditEntry.objects.filter(action="dispute.flag")
    assert flags.count() == 1 and flags.get().actor == "system"


def test_the_log_survives_its_league_being_renamed():
    league, users = league_with_roles()
    League.objects.filter(pk=league.pk).update(name="Renamed")
    entry = AuditEntry.objects.get(action="league.create")
    assert entry.data["name"] == league.name and entry.target == league.name
