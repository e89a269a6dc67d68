"""The REST API for leagues, tournaments and hands (both databases)."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.renderers import JSONRenderer

from api.models import IdempotencyRecord
from api.serializers.hands import HandRecordedSerializer, hand_recorded_data
from tests.factories import ACES, KINGS, add_member, make_league, make_user
from tests.factories import api_client as client_for
from tracker.hands.models import Hand
from tracker.hands.requests import HandRequest
from tracker.hands.services.recording import hand_record_with_state
from tracker.tournaments.models import LedgerEntry, Tournament
from tracker.tournaments.selectors import tournament_state

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


def test_a_retry_that_crossed_the_first_answers_the_first_hand(setup, monkeypatch):
    """The retry looked for the key before the first request had stored it, then found the
    hand number taken: it answers with the first response, not the 409."""
    from api import idempotency

    api, tid = setup["api"], setup["tournament"]
    body = fold_to_bring_in(api, tid)
    first = api.post("/api/v1/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-race")
    looked = []
    real = idempotency.stored

    def not_yet_on_the_first_look(user, key):
        looked.append(key)
        return None if len(looked) == 1 else real(user, key)

    monkeypatch.setattr(idempotency, "stored", not_yet_on_the_first_look)
    again = api.post("/api/v1/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-race")
    assert looked == ["k-race", "k-race"]
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()
    assert Hand.objects.count() == 1
    # Without a stored response the conflict stands.
    other = api.post("/api/v1/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="k-other")
    assert other.status_code == 409 and Hand.objects.count() == 1


def test_same_hand_number_with_another_body_is_409(setup):
    api, tid = setup["api"], setup["tournament"]
    body = fold_to_bring_in(api, tid)
    assert api.post("/api/v1/hands/", body, format="json").status_code == 201
    other = {**body, "table_result": {"winners": [body["entry"]["seats"][0]["player"]]}}
    r = api.post("/api/v1/hands/", other, format="json")
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "hand_exists"


def test_a_retry_is_told_apart_by_its_key_or_its_number(setup):
    """A client that lost the answer and sends the same body again: with its Idempotency-Key
    it gets the first hand (201 again, nothing stored twice); without one, the hand number it
    names is taken (409), and only a body naming no number is a new hand."""
    api, tid = setup["api"], setup["tournament"]
    body = fold_to_bring_in(api, tid)
    first = api.post("/api/v1/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="hand-1")
    assert first.status_code == 201
    again = api.post("/api/v1/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="hand-1")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json()["id"] == first.json()["id"]
    numbered = api.post("/api/v1/hands/", body, format="json")
    assert numbered.status_code == 409
    assert numbered.json()["error"]["code"] == "hand_exists"
    assert Hand.objects.count() == 1
    unnumbered = {k: v for k, v in body.items() if k != "number"}
    second = api.post("/api/v1/hands/", unnumbered, format="json")
    assert second.status_code == 201 and second.json()["number"] == 2
    assert Hand.objects.count() == 2


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


def _seats_from(nxt: dict, chips: dict[int, int], *, showdown: bool) -> list[dict]:
    """Seats for the hand ``nxt`` describes: everyone folds to the bring-in, or (``showdown``)
    the first two players by position go all in for the smaller stack, three aces against
    three kings, the shorter stack holding the kings; the others fold their ante."""
    stakes, players = nxt["stakes"], nxt["players"]
    if not showdown:
        seats = [{"player": players[0], "put_in": stakes["ante"] + stakes["bring_in"]}]
        return seats + [
            {"player": p, "put_in": stakes["ante"], "folded": "third"} for p in players[1:]
        ]
    a, b = players[:2]
    short, deep = (a, b) if chips[a] <= chips[b] else (b, a)
    cards = {deep: ACES, short: KINGS}
    seats = [
        {"player": p, "put_in": chips[short], "down": cards[p][0], "up": cards[p][1]}
        for p in (a, b)
    ]
    return seats + [{"player": p, "put_in": stakes["ante"], "folded": "third"} for p in players[2:]]


def test_a_recorded_hand_answers_the_next_hand_as_the_tournament_gives_it(setup):
    """The POST's answer is the hand as a fresh GET of it shows it, and the next hand as a fresh
    GET of the tournament gives it: across a change of stakes, a player going out (the dealer
    moves on without them) and the last hand (no next hand)."""
    api, ids = setup["api"], setup["players"]
    r = api.post(
        "/api/v1/tournaments/",
        {
            "league": "friday",
            "name": "Short night",
            "players": ids,
            "default_variant": "seven_card_stud",
            "starting_chips": 60,
            "hands_per_level": 1,
            "hand_limit": 4,
        },
        format="json",
    )
    assert r.status_code == 201, r.json()
    tid = r.json()["id"]
    detail = api.get(f"/api/v1/tournaments/{tid}/").json()
    nxt = detail["next_hand"]
    seen_players, seen_stakes = [], []
    for number in range(1, 5):
        chips = tournament_state(Tournament.objects.get(pk=tid)).stacks  # projected
        body = {
            "tournament": tid,
            "number": nxt["number"],
            "entry_mode": "quick",
            "entry": {"seats": _seats_from(nxt, chips, showdown=number == 2)},
        }
        with CaptureQueriesContext(connection) as queries:
            answer = api.post("/api/v1/hands/", body, format="json")
        assert answer.status_code == 201, answer.json()
        data = answer.json()
        # Nothing is read back after the writes: the answer comes from what was written.
        writes = [i for i, q in enumerate(queries.captured_queries) if "INSERT" in q["sql"]]
        after = [q["sql"] for q in queries.captured_queries[writes[-1] + 1 :]]
        assert not [sql for sql in after if sql.startswith("SELECT")], after
        shown = api.get(f"/api/v1/hands/{data['id']}/").json()
        assert {k: v for k, v in data.items() if k != "next_hand"} == shown
        assert data["number"] == number and data["status"] == "recorded" and data["pots"] == []
        detail = api.get(f"/api/v1/tournaments/{tid}/").json()
        assert data["next_hand"] == detail["next_hand"]
        nxt = data["next_hand"]
        if nxt is not None:
            seen_players.append(len(nxt["players"]))
            seen_stakes.append(nxt["stakes"]["ante"])
    assert nxt is None and detail["hands_left"] == 0  # the fourth hand was the last
    assert seen_players == [3, 2, 2]  # the kings went out in hand 2
    assert len(set(seen_stakes)) == 3  # a level a hand


def test_the_recorded_answer_is_the_serializers_byte_for_byte(setup):
    """The POST's body (written out by ``hand_recorded_data``, not by DRF's fields) is the
    one HandRecordedSerializer renders, key order included: from the same hand in memory,
    byte for byte; and against the hand as stored, the same values in the same order of
    keys (PostgreSQL's jsonb orders the keys inside the stored entry its own way). A showdown
    with its cards shown, then a fold to the bring-in."""
    api, tid, admin = setup["api"], setup["tournament"], setup["admin"]
    for showdown in (True, False):
        nxt = next_hand(api, tid)
        chips = tournament_state(Tournament.objects.get(pk=tid)).stacks
        body = {
            "tournament": tid,
            "number": nxt["number"],
            "entry_mode": "quick",
            "entry": {"seats": _seats_from(nxt, chips, showdown=showdown)},
        }
        answer = api.post("/api/v1/hands/", body, format="json")
        assert answer.status_code == 201, answer.json()
        hand = Hand.objects.prefetch_related("hand_seats__player", "pots").get(
            pk=answer.json()["id"]
        )
        state = tournament_state(Tournament.objects.get(pk=tid))
        expected = HandRecordedSerializer(hand, context={"state": state}).data
        assert answer.json() == json.loads(JSONRenderer().render(expected))
        assert list(answer.json()) == list(expected)
        assert [list(seat) for seat in answer.json()["seats"]] == [
            list(seat) for seat in expected["seats"]
        ]
        assert any(seat["down"] for seat in expected["seats"]) is showdown
    # The same hand in memory, as the view has it, through both.
    nxt = next_hand(api, tid)
    chips = tournament_state(Tournament.objects.get(pk=tid)).stacks
    hand, seats, state = hand_record_with_state(
        tournament=Tournament.objects.select_related("league").get(pk=tid),
        by=admin,
        asked=HandRequest(
            entry_mode="quick", entry={"seats": _seats_from(nxt, chips, showdown=True)}
        ),
    )
    written = JSONRenderer().render(hand_recorded_data(hand, seats, state))
    hand._prefetched_objects_cache = {"hand_seats": seats, "pots": []}
    assert written == JSONRenderer().render(
        HandRecordedSerializer(hand, context={"state": state}).data
    )


def test_a_retry_answers_the_next_hand_too(setup):
    api, tid = setup["api"], setup["tournament"]
    body = fold_to_bring_in(api, tid)
    first = api.post("/api/v1/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="next-1")
    again = api.post("/api/v1/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="next-1")
    assert (first.status_code, again.status_code) == (201, 201)
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["next_hand"] == first.json()["next_hand"] == next_hand(api, tid)
    assert first.json()["next_hand"]["number"] == 2
