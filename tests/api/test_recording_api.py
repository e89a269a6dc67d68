"""The REST API for leagues, tournaments and hands (both databases)."""

from __future__ import annotations

import pytest

from api.models import IdempotencyRecord
from tests.factories import add_member, make_league, make_user
from tests.factories import api_client as client_for
from tracker.hands.models import Hand
from tracker.tournaments.models import LedgerEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(django_capture_on_commit_callbacks):
    admin = make_user("admin")
    api = client_for(admin)
    league = api.post("/api/v1/leagues/", {"name": "Friday Stud", "slug": "friday"}, format="json")
    assert league.status_code == 201, league.json()
    ids = []
    for name in ("Ann", "Bob", "Cat"):
        r = api.post("/api/v1/players/", {"league": "friday", "name": name}, format="json")
        assert r.status_code == 201, r.json()
        ids.append(r.json()["id"])
    r = api.post(
        "/api/v1/tournaments/",
        {
            "league": "friday",
            "name": "Night 1",
            "players": ids,
            "default_variant": "seven_card_stud",
        },
        format="json",
    )
    assert r.status_code == 201, r.json()
    return {
        "admin": admin,
        "api": api,
        "players": ids,
        "tournament": r.json()["id"],
        "capture": django_capture_on_commit_callbacks,
    }


def next_hand(api, tournament):
    return api.get(f"/api/v1/tournaments/{tournament}/").json()["next_hand"]


def fold_to_bring_in(api, tournament):
    nxt = next_hand(api, tournament)
    stakes = nxt["stakes"]
    seats = [{"player": nxt["players"][0], "put_in": stakes["ante"] + stakes["bring_in"]}]
    seats += [
        {"player": p, "put_in": stakes["ante"], "folded": "third"} for p in nxt["players"][1:]
    ]
    return {
        "tournament": tournament,
        "number": nxt["number"],
        "entry_mode": "quick",
        "entry": {"seats": seats},
    }


def test_record_a_hand_and_read_live_standings(setup):
    api, tid = setup["api"], setup["tournament"]
    body = fold_to_bring_in(api, tid)
    with setup["capture"](execute=True):
        r = api.post("/api/v1/hands/", body, format="json")
    assert r.status_code == 201, r.json()
    assert r.json()["number"] == 1 and r.json()["status"] == "recorded"
    detail = api.get(f"/api/v1/hands/{r.json()['id']}/").json()
    assert detail["status"] == "verified"
    assert detail["pots"][0]["amount"] == 12  # three antes of 4; the uncalled bring-in went back
    t = api.get(f"/api/v1/tournaments/{tid}/").json()
    assert t["hands_recorded"] == 1 and t["hands_left"] == 49
    assert t["next_hand"]["stakes"] == {
        "level": 1,
        "ante": 4,
        "bring_in": 10,
        "small_bet": 20,
        "big_bet": 40,
    }
    assert sum(row["chips"] for row in t["standings"]) == 3000
    assert t["standings"][0]["place"] == 1


def test_list_hands_filtered(setup):
    api, tid = setup["api"], setup["tournament"]
    for _ in range(3):
        with setup["capture"](execute=True):
            assert (
                api.post("/api/v1/hands/", fold_to_bring_in(api, tid), format="json").status_code
                == 201
            )
    r = api.get(f"/api/v1/hands/?tournament={tid}&status=verified&variant=seven_card_stud")
    assert r.json()["count"] == 3
    r = api.get(f"/api/v1/hands/?hand_seats__player={setup['players'][0]}")
    assert r.json()["count"] == 3
    r = api.get("/api/v1/hands/?status=disputed")
    assert r.json()["count"] == 0


def test_bad_input_is_400_with_field_paths_and_stores_nothing(setup):
    api, tid = setup["api"], setup["tournament"]
    body = fold_to_bring_in(api, tid)
    body["entry"]["seats"][0]["down"] = ["Kd", "XX"]
    r = api.post("/api/v1/hands/", body, format="json")
    assert r.status_code == 400
    error = r.json()["error"]
    assert set(error) == {"code", "message", "fields"}
    assert "entry.seats[0].down[1]" in error["fields"]
    r = api.post(
        "/api/v1/hands/", {"tournament": tid, "entry_mode": "sideways", "entry": []}, format="json"
    )
    assert r.status_code == 400
    assert set(r.json()["error"]["fields"]) == {"entry_mode", "entry"}
    assert Hand.objects.count() == 0


def test_idempotency_key_replays_the_first_response(setup):
    api, tid = setup["api"], setup["tournament"]
    body = fold_to_bring_in(api, tid)
    first = api.post("/api/v1/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    again = api.post("/api/v1/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == again.status_code == 201
    assert first.json() == again.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Hand.objects.count() == 1 and IdempotencyRecord.objects.count() == 1
    body["number"] = 2
    reused = api.post("/api/v1/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-1")
    assert reused.status_code == 422
    assert reused.json()["error"]["code"] == "idempotency_key_reused"


def test_same_hand_number_with_another_body_is_409(setup):
    api, tid = setup["api"], setup["tournament"]
    body = fold_to_bring_in(api, tid)
    assert api.post("/api/v1/hands/", body, format="json").status_code == 201
    other = {**body, "table_result": {"winners": [body["entry"]["seats"][0]["player"]]}}
    r = api.post("/api/v1/hands/", other, format="json")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "hand_exists"


def test_a_retried_body_without_a_key_answers_the_first_hand(setup):
    """A client that lost the answer and sends the same body again (no Idempotency-Key, with or
    without the hand number) is told about the hand it recorded: 200, nothing stored twice."""
    api, tid = setup["api"], setup["tournament"]
    body = fold_to_bring_in(api, tid)
    first = api.post("/api/v1/hands/", body, format="json")
    assert first.status_code == 201
    again = api.post("/api/v1/hands/", body, format="json")
    assert again.status_code == 200, again.json()
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["id"] == first.json()["id"]
    unnumbered = {k: v for k, v in body.items() if k != "number"}
    third = api.post("/api/v1/hands/", unnumbered, format="json")
    assert third.status_code == 200 and third.json()["id"] == first.json()["id"]
    assert Hand.objects.count() == 1


def test_writes_need_a_token_and_the_right_role(setup):
    tid = setup["tournament"]
    body = fold_to_bring_in(setup["api"], tid)
    assert client_for().post("/api/v1/hands/", body, format="json").status_code == 401
    from tracker.leagues.models import League

    league = League.objects.get(slug="friday")
    member = add_member(league, "member", "member")
    r = client_for(member).post("/api/v1/hands/", body, format="json")
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "permission_denied"
    keeper = add_member(league, "keeper", "scorekeeper")
    assert client_for(keeper).post("/api/v1/hands/", body, format="json").status_code == 201


def test_private_leagues_are_invisible_to_outsiders(setup):
    owner = make_user("owner")
    league, _ = make_league(slug="secret", public=False, admin=owner)
    outsider = client_for(make_user("outsider"))
    for client in (client_for(), outsider):
        slugs = [x["slug"] for x in client.get("/api/v1/leagues/").json()["results"]]
        assert "secret" not in slugs and "friday" in slugs
        assert client.get("/api/v1/leagues/secret/").status_code == 404
        assert client.get("/api/v1/tournaments/?league__slug=secret").json()["count"] == 0
    slugs = [x["slug"] for x in client_for(owner).get("/api/v1/leagues/").json()["results"]]
    assert "secret" in slugs


def test_reevaluation_job_reports_progress(setup):
    api, tid = setup["api"], setup["tournament"]
    with setup["capture"](execute=True):
        api.post("/api/v1/hands/", fold_to_bring_in(api, tid), format="json")
    ledger = LedgerEntry.objects.count()
    with setup["capture"](execute=True):
        r = api.post(
            "/api/v1/reevaluations/", {"league": "friday", "tournament": tid}, format="json"
        )
    assert r.status_code == 202, r.json()
    job = api.get(f"/api/v1/reevaluations/{r.json()['id']}/").json()
    assert (
        job["status"] == "done" and job["total"] == 1 and job["done"] == 1 and job["changed"] == 0
    )
    assert job["progress"] == 1.0
    assert LedgerEntry.objects.count() == ledger


def test_schema_documents_hand_creation_with_examples(client):
    schema = client.get("/api/schema/?format=json").json()
    post = schema["paths"]["/api/v1/hands/"]["post"]
    assert "Idempotency-Key" in {p["name"] for p in post["parameters"]}
    examples = post["requestBody"]["content"]["application/json"]["examples"]
    assert {"QuickEntry", "FullHistory"} <= set(examples)


def test_league_standings_endpoint(setup):
    r = client_for().get("/api/v1/leagues/friday/standings/")
    assert r.status_code == 200 and r.json() == []  # no finished tournament yet
