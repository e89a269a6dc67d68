"""Disputes, rulings, evaluations, the audit log and API tokens over REST (both databases)."""

from __future__ import annotations

import pytest

from api.models import IdempotencyRecord
from api.throttles import WriteThrottle
from tests.factories import make_user
from tests.rulings.helpers import api_client, disputed_hand, league_with_roles
from tracker.audit.models import AuditEntry
from tracker.rulings.models import Ruling
from tracker.tournaments.models import LedgerEntry

pytestmark = pytest.mark.django_db


def test_the_queue_lists_open_pots_with_both_readings(case):
    r = api_client().get("/api/v1/disputes/?league=friday")
    assert r.status_code == 200
    body = r.json()
    assert body["count"] == 1
    item = body["results"][0]
    assert item["hand"] == case["hand"].pk and item["pot"] == 0 and item["state"] == "open"
    assert item["engine_award"] == {str(case["order"][0]): 132}
    assert item["table_award"] == item["award"] == {str(case["order"][1]): 132}
    assert item["options"]["king_required"] is True
    wild = next(p for p in item["players"] if p["player"] == case["order"][0])
    assert wild["down"] == ["Kd", "4c", "2c"] and wild["up"] == ["4s", "7h", "9h", "Jd"]
    assert {"card": "Kd", "as": "4h"} in wild["high"]["wild"]
    assert (wild["engine"], wild["table"], wild["stands"]) == (132, 0, 0)
    assert item["disputes"][0]["source"] == "settlement"
    assert item["rulings"] == []
    assert api_client().get(f"/api/v1/disputes/{item['id']}/").json()["hand"] == item["hand"]
    assert api_client().get("/api/v1/disputes/?state=ruled").json()["count"] == 0
    assert api_client().get("/api/v1/disputes/?league=nowhere").json()["count"] == 0


def test_the_authority_rules_over_the_api(case):
    hand, order = case["hand"], case["order"]
    body = {"hand": hand.pk, "pot": 0, "result": "engine", "reason": "four fours beat fives"}
    for role in ("member", "scorekeeper", "admin"):
        r = api_client(case["users"][role]).post("/api/v1/rulings/", body, format="json")
        assert r.status_code == 403, role
    assert api_client().post("/api/v1/rulings/", body, format="json").status_code == 401
    rob = api_client(case["users"]["authority"])
    r = rob.post("/api/v1/rulings/", {**body, "reason": ""}, format="json")
    assert r.status_code == 400 and "reason" in r.json()["error"]["fields"]
    r = rob.post("/api/v1/rulings/", body, format="json", HTTP_IDEMPOTENCY_KEY="rule-1")
    assert r.status_code == 201, r.json()
    ruling = r.json()
    assert ruling["award"] == {str(order[0]): 132} and not ruling["override"]
    assert ruling["correction"] == {str(order[0]): 132, str(order[1]): -132}
    assert ruling["ruled_by"] == case["users"]["authority"].username
    # A retry with the same key writes nothing more.
    again = rob.post("/api/v1/rulings/", body, format="json", HTTP_IDEMPOTENCY_KEY="rule-1")
    assert again.status_code == 201 and again.json()["id"] == ruling["id"]
    assert (
        Ruling.objects.count() == 1 and LedgerEntry.objects.filter(kind="correction").count() == 2
    )
    assert IdempotencyRecord.objects.filter(key="rule-1").exists()
    listed = api_client().get(f"/api/v1/rulings/?hand={hand.pk}").json()
    assert listed["count"] == 1 and listed["results"][0]["reason"] == body["reason"]
    queue = api_client().get("/api/v1/disputes/?state=ruled").json()
    assert queue["count"] == 1 and queue["results"][0]["rulings"][0]["id"] == ruling["id"]
    hand_detail = api_client().get(f"/api/v1/hands/{hand.pk}/").json()
    assert hand_detail["status"] == "verified"
    # An explicit award, superseding the first ruling.
    split = {
        "hand": hand.pk,
        "result": "award",
        "award": {str(order[0]): 66, str(order[1]): 66},
        "reason": "misdeal of the door card: chop",
    }
    r = rob.post("/api/v1/rulings/", split, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["supersedes"] == ruling["id"] and r.json()["override"]
    first = api_client().get(f"/api/v1/rulings/{ruling['id']}/").json()
    assert first["superseded_by"] == r.json()["id"]
    bad = {**split, "award": {str(order[0]): 100, str(order[1]): 66}}
    r = rob.post("/api/v1/rulings/", bad, format="json")
    assert r.status_code == 400 and r.json()["error"]["code"] == "award_total"


def test_members_raise_disputes_over_the_api(case):
    hand = case["hand"]
    member = api_client(case["users"]["member"])
    body = {"hand": hand.pk, "pot": 0, "reason": "the king was not my door card"}
    r = member.post("/api/v1/disputes/", body, format="json")
    assert r.status_code == 201, r.json()
    assert [d["source"] for d in r.json()["disputes"]] == ["settlement", "member"]
    assert r.json()["disputes"][1]["raised_by"] == case["users"]["member"].username
    assert member.post("/api/v1/disputes/", body, format="json").status_code == 409
    outsider = api_client(make_user("walk-in"))
    assert outsider.post("/api/v1/disputes/", body, format="json").status_code == 403
    r = member.post("/api/v1/disputes/", {**body, "pot": 3}, format="json")
    assert r.status_code == 404


def test_evaluations_show_what_each_engine_version_said(case):
    r = api_client().get(f"/api/v1/evaluations/?hand={case['hand'].pk}")
    assert r.status_code == 200
    (evaluation,) = r.json()["results"]
    assert evaluation["source"] == "settlement"
    assert evaluation["engine_version"] == case["hand"].engine_version
    assert evaluation["awards"] == [{str(case["order"][0]): 132}]


def test_the_audit_log_is_for_league_admins_and_the_authority(case):
    url = "/api/v1/audit/?league=friday"
    assert api_client().get(url).status_code == 401
    for role in ("member", "scorekeeper"):
        r = api_client(case["users"][role]).get(url)
        assert r.status_code == 403, role
    # The authority reads the same entries as the admin (a ruling is judged against them).
    everything = AuditEntry.objects.filter(league_id=case["league"].pk).count()
    r = api_client(case["users"]["authority"]).get(url)
    assert r.status_code == 200 and r.json()["count"] == everything
    assert (
        api_client(case["users"]["authority"]).get("/api/v1/audit/").json()["count"] >= everything
    )
    admin = api_client(case["users"]["admin"])
    r = admin.get(url + "&limit=2")
    assert r.status_code == 200
    body = r.json()
    assert body["count"] == AuditEntry.objects.filter(league_id=case["league"].pk).count()
    assert len(body["results"]) == 2 and body["next"]
    assert body["results"][0]["id"] > body["results"][1]["id"]  # newest first
    r = admin.get(url + "&action=hand.record")
    assert [e["action"] for e in r.json()["results"]] == ["hand.record"]
    r = admin.get(url + "&action_prefix=dispute.&actor=system")
    assert [e["action"] for e in r.json()["results"]] == ["dispute.flag"]
    r = admin.get(url + "&since=2000-01-01T00:00:00Z&until=2000-01-02T00:00:00Z")
    assert r.json()["count"] == 0
    r = admin.get("/api/v1/audit/?league=friday&channel=bogus")
    assert r.status_code == 400


def test_private_leagues_leak_nothing(django_capture_on_commit_callbacks):
    league, users = league_with_roles(slug="secret", public=False)
    _, hand, _ = disputed_hand(league, users["admin"], django_capture_on_commit_callbacks)
    pot = hand.pots.get()
    from tracker.rulings.services import ruling_make

    ruling = ruling_make(pot=pot, by=users["authority"], result="engine", reason="aces")
    stranger = api_client(make_user("stranger"))
    for client in (api_client(), stranger):
        assert client.get("/api/v1/disputes/?state=all").json()["count"] == 0
        assert client.get("/api/v1/disputes/?league=secret&state=all").json()["count"] == 0
        assert client.get(f"/api/v1/disputes/{pot.pk}/").status_code == 404
        assert client.get("/api/v1/rulings/").json()["count"] == 0
        assert client.get(f"/api/v1/rulings/{ruling.pk}/").status_code == 404
        assert client.get(f"/api/v1/evaluations/?hand={hand.pk}").json()["count"] == 0
        assert client.get("/api/v1/leagues/secret/house-rules/").status_code == 404
    assert stranger.get("/api/v1/audit/?league=secret").status_code == 404
    own = stranger.get("/api/v1/audit/").json()["results"]
    assert [e["action"] for e in own] == ["token.create"]  # their own token's, nothing else
    body = {"hand": hand.pk, "pot": 0, "result": "table", "reason": "x"}
    assert stranger.post("/api/v1/rulings/", body, format="json").status_code == 404
    body = {"hand": hand.pk, "pot": 0, "reason": "x"}
    assert stranger.post("/api/v1/disputes/", body, format="json").status_code == 404
    member = api_client(users["member"])
    assert member.get("/api/v1/disputes/?state=all").json()["count"] == 1


def test_tokens_rotate_and_revoke():
    make_user("ann", password="a-long-pass-phrase")
    anon = api_client()
    creds = {"username": "ann", "password": "a-long-pass-phrase"}
    r = anon.post("/api/v1/auth/token/", {**creds, "password": "wrong"}, format="json")
    assert r.status_code == 401 and r.json()["error"]["code"] == "authentication_failed"
    first = anon.post("/api/v1/auth/token/", creds, format="json").json()
    second = anon.post("/api/v1/auth/token/", creds, format="json").json()
    assert first["token"] != second["token"] and second["token_id"].startswith("tok_")

    def as_token(key):
        client = api_client()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        return client

    # Rotation: the old token stops working, the new one works.
    assert as_token(first["token"]).get("/api/v1/audit/").status_code == 401
    assert as_token(second["token"]).get("/api/v1/audit/").status_code == 200
    assert as_token(second["token"]).delete("/api/v1/auth/token/").status_code == 204
    r = as_token(second["token"]).post("/api/v1/leagues/", {"name": "After revoke"}, format="json")
    assert r.status_code == 401
    assert anon.delete("/api/v1/auth/token/").status_code == 401


def test_writes_are_rate_limited_with_the_error_body(case, monkeypatch):
    monkeypatch.setattr(WriteThrottle, "rate", "3/min", raising=False)
    member = api_client(case["users"]["member"])
    body = {"hand": case["hand"].pk, "pot": 0, "reason": ""}  # refused, but still counted
    codes = [member.post("/api/v1/disputes/", body, format="json").status_code for _ in range(4)]
    assert codes == [400, 400, 400, 429]
    r = member.post("/api/v1/disputes/", body, format="json")
    assert r.status_code == 429
    assert r.json()["error"]["code"] == "throttled"
    assert set(r.json()["error"]) == {"code", "message", "fields"}
    assert "Retry-After" in r.headers
    # Reads are not limited; another user has their own budget.
    assert member.get("/api/v1/disputes/").status_code == 200
    other = api_client(case["users"]["scorekeeper"])
    assert other.post("/api/v1/disputes/", body, format="json").status_code == 400


def test_the_schema_documents_the_new_operations(client):
    schema = client.get("/api/schema/?format=json").json()
    paths = schema["paths"]
    for path, methods in {
        "/api/v1/disputes/": {"get", "post"},
        "/api/v1/disputes/{id}/": {"get"},
        "/api/v1/rulings/": {"get", "post"},
        "/api/v1/rulings/{id}/": {"get"},
        "/api/v1/evaluations/": {"get"},
        "/api/v1/audit/": {"get"},
        "/api/v1/leagues/{slug}/house-rules/": {"get", "put"},
        "/api/v1/auth/token/": {"post", "delete"},
    }.items():
        assert methods <= set(paths[path]), path
    names = {p["name"] for p in paths["/api/v1/audit/"]["get"]["parameters"]}
    assert {"league", "action", "actor", "since", "until", "limit", "offset"} <= names
