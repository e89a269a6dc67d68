"""Starting a game night: seating (chosen or drawn), the first dealer, the counts-toward
switch, the stakes schedule's bounds, in the service, the API and the dealer rotation (both
databases)."""

from __future__ import annotations

import json
import random

import pytest

from tests.factories import add_member, api_client, fold_entry, make_league
from tests.support.recording import record
from tracker.audit.models import AuditEntry
from tracker.core.errors import PermissionDenied
from tracker.engine.errors import DomainError
from tracker.leagues.services import player_create
from tracker.tournaments.models import Tournament
from tracker.tournaments.selectors import tournament_state
from tracker.tournaments.services import tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    league, admin = make_league(slug="friday")
    league.admin = admin
    league.roster = [
        player_create(league=league, name=n, by=admin) for n in ("Ann", "Bob", "Cat", "Dee", "Eve")
    ]
    return league


def ids(league, n=5):
    return [p.id for p in league.roster[:n]]


def seat_order(tournament) -> list[int]:
    return [s.player_id for s in tournament.seats.order_by("number")]


def drawn(league, seed, **night):
    """A night of the league's roster (five), seats drawn with ``random.Random(seed)``."""
    return tournament_create(
        league=league,
        name="N",
        player_ids=ids(league),
        by=league.admin,
        seating="random",
        rng=random.Random(seed),
        **night,
    )


def test_chosen_seating_keeps_the_order_and_the_first_seat_deals(league):
    t = tournament_create(league=league, name="N", player_ids=ids(league), by=league.admin)
    assert seat_order(t) == ids(league)
    assert not t.seats_drawn and t.first_dealer_seat == 0 and t.counts_toward_standings
    assert tournament_state(t).next_dealer == 0


def test_a_random_draw_seats_everyone_once_and_says_it_was_drawn(league):
    t = drawn(league, 7)
    expected = ids(league)
    random.Random(7).shuffle(expected)
    assert seat_order(t) == expected != ids(league)
    assert t.seats_drawn
    entry = AuditEntry.objects.get(action="tournament.create")
    assert entry.data["players"] == expected and entry.data["seats_drawn"] is True


def test_the_first_dealer_deals_hand_one_then_the_deal_moves_clockwise(
    league, django_capture_on_commit_callbacks
):
    cat = league.roster[2]
    t = tournament_create(
        league=league, name="N", player_ids=ids(league, 4), by=league.admin, first_dealer=cat.id
    )
    assert t.first_dealer_seat == 2
    state = tournament_state(t)
    assert state.next_dealer == 2
    assert [s.player.name for s in state.next_positions()] == ["Dee", "Ann", "Bob", "Cat"]
    with django_capture_on_commit_callbacks(execute=True):
        hand = record(t, league.admin, fold_entry(t), variant="seven_card_stud")
    assert hand.dealer_seat == 2
    assert tournament_state(t).next_dealer == 3


def test_the_first_dealer_follows_the_draw(league):
    bob = league.roster[1]
    t = drawn(league, 3, first_dealer=bob.id)
    dealer = tournament_state(t).next_dealer
    assert t.seats.get(number=dealer).player_id == bob.id


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"seating": "sorted"}, "seating"),
        ({"first_dealer": -1}, "first_dealer"),
        ({"counts_toward_standings": "yes"}, "counts_toward_standings"),
        ({"stakes_schedule": [[4, 10, 20, 40], [6, 15, 30, 61]]}, "stakes_schedule[1]"),
        ({"default_variant": "seven_card_stud"}, "default_variant"),
    ],
)
def test_bad_choices_name_their_field(league, kwargs, field):
    # Eight players: Seven-Card Stud deals to at most seven.
    eight = ids(league) + [
        player_create(league=league, name=n, by=league.admin).id for n in ("Fay", "Gus", "Hal")
    ]
    with pytest.raises(DomainError) as err:
        tournament_create(league=league, name="N", player_ids=eight, by=league.admin, **kwargs)
    assert field in err.value.fields


def test_a_friendly_night_is_kept_out_of_the_standings(league):
    t = tournament_create(
        league=league,
        name="N",
        player_ids=ids(league, 2),
        by=league.admin,
        counts_toward_standings=False,
    )
    assert t.counts_toward_standings is False


def test_only_scorekeepers_and_admins_start_a_night(league):
    member = add_member(league, "mem", "member")
    with pytest.raises(PermissionDenied):
        tournament_create(league=league, name="N", player_ids=ids(league, 2), by=member)


def test_the_api_takes_seating_first_dealer_and_the_switch(league):
    keeper = add_member(league, "keeper", "scorekeeper")
    api = api_client(keeper)
    body = {
        "league": "friday",
        "name": "Drawn night",
        "players": ids(league, 4),
        "seating": "random",
        "first_dealer": league.roster[3].id,
        "counts_toward_standings": False,
    }
    r = api.post("/api/v1/tournaments/", body, format="json")
    assert r.status_code == 201, r.json()
    data = r.json()
    assert data["seats_drawn"] is True and data["counts_toward_standings"] is False
    assert sorted(s["player"] for s in data["seats"]) == sorted(ids(league, 4))
    seat_of_dee = next(s["seat"] for s in data["seats"] if s["player"] == league.roster[3].id)
    assert data["first_dealer_seat"] == seat_of_dee
    detail = api.get(f"/api/v1/tournaments/{data['id']}/").json()
    assert detail["next_hand"]["dealer_seat"] == seat_of_dee

    r = api.post("/api/v1/tournaments/", {**body, "first_dealer": 999999}, format="json")
    assert r.status_code == 400
    assert "first_dealer" in r.json()["error"]["fields"]


# --------------------------------------------------------------------------
# The stakes schedule: whole numbers, bounded, at most the levels the night reaches


def post_schedule(league, schedule_json: str, **extra):
    """POST /tournaments/ with the schedule written as raw JSON (numbers of any length)."""
    keeper = add_member(league, "keeper", "scorekeeper")
    body = json.dumps({"league": "friday", "name": "Staked", "players": ids(league, 2), **extra})
    raw = body[:-1] + f', "stakes_schedule": {schedule_json}}}'
    return api_client(keeper).post("/api/v1/tournaments/", raw, content_type="application/json")


@pytest.mark.parametrize(
    ("schedule", "path", "words"),
    [
        ('[[4, 10, 20, 40], [4, 10, 20, "4\\u00b2"]]', "stakes_schedule[1]", "whole number"),
        ('[["\\u0664", 10, 20, 40]]', "stakes_schedule[0]", "whole number"),
        ('[[4, 10, 20, "40"]]', "stakes_schedule[0]", "whole number"),
        ("[[true, 10, 20, 40]]", "stakes_schedule[0]", "whole number"),
        (f"[[4, 10, 20, {'9' * 4000}]]", "stakes_schedule[0]", "at most 8,000 chips"),
        ("[[4, 10, 20, 40], [10, 20, 9000, 18000]]", "stakes_schedule[1]", "at most 8,000"),
        (json.dumps([[4, 10, 20, 40]] * 100_000), "stakes_schedule[10]", "reaches 10 levels"),
    ],
    ids=["superscript", "arabic", "string", "bool", "digits", "chips", "levels"],
)
def test_the_api_refuses_a_bad_schedule_with_its_path(league, schedule, path, words):
    r = post_schedule(league, schedule)
    assert r.status_code == 400, r.content[:300]
    error = r.json()["error"]
    assert list(error["fields"]) == [path], error
    assert words in error["message"]
    assert len(r.content) < 1000  # nothing sent is echoed back at length
    assert not Tournament.objects.filter(name="Staked").exists()


def test_a_number_too_long_to_read_is_a_400_not_a_500(league):
    r = post_schedule(league, f"[[4, 10, 20, {'9' * 5000}]]")
    assert r.status_code == 400 and r.json()["error"]["code"] == "parse_error"
    assert not Tournament.objects.filter(name="Staked").exists()


def test_the_bounds_follow_the_night(league):
    # 100 hands at 5 a level reach 20 levels; 5000 chips each make a full table 40,000.
    twenty = json.dumps([[4, 10, 20, 40]] * 19 + [[100, 5000, 20000, 40000]])
    r = post_schedule(league, twenty, hand_limit=100, starting_chips=5000)
    assert r.status_code == 201, r.json()
    assert len(r.json()["stakes_schedule"]) == 20
    # The house schedule (10 levels) still serves a short night and a small stack.
    t = tournament_create(
        league=league,
        name="Short",
        player_ids=ids(league, 2),
        by=league.admin,
        hand_limit=7,
        starting_chips=100,
    )
    assert len(t.stakes_schedule) == 10
    with pytest.raises(DomainError) as err:
        tournament_create(
            league=league,
            name="Short",
            player_ids=ids(league, 2),
            by=league.admin,
            hand_limit=7,
            stakes_schedule=[[4, 10, 20, 40]] * 3,
        )
    assert err.value.code == "too_many_levels" and "stakes_schedule[2]" in err.value.fields
