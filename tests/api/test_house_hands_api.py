"""Hands of a league's house games recorded through ``POST /api/v1/hands/`` (both databases):
Follow the Queen and Baseball by full history and quick entry, settled by the game's
definition, the refusals naming the field at fault, the statistics of such hands and the
all-in equity of a house game."""

from __future__ import annotations

import pytest

from tests.factories import api_client, make_league, make_tournament
from tests.support.definitions import stats_for, stats_table
from tests.support.house_api import positions, post, recorded, stakes
from tests.support.house_hands import BASEBALL_ACTIONS, FTQ_ACTIONS
from tracker.engine.cards import parse_card as c
from tracker.engine.equity import Seat, all_in_equity
from tracker.engine.errors import DomainError
from tracker.engine.game_presets import PRESETS
from tracker.games.models import LeagueGameVersion
from tracker.games.services import league_game_archive, league_game_create, league_game_update
from tracker.hands.models import Hand, HandSeat, HandStatus
from tracker.hands.selectors.facts import facts_for_hand
from tracker.stats import selectors as sel
from tracker.tournaments.selectors import tournament_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(django_capture_on_commit_callbacks):
    league, admin = make_league(slug="club")
    tournament, players = make_tournament(
        league=league, by=admin, names=("Ann", "Bob"), default_variant="seven_card_stud"
    )
    ftq = league_game_create(
        league=league, by=admin, name="Follow the Queen", preset="follow_the_queen"
    )
    baseball = league_game_create(league=league, by=admin, name="Baseball", preset="baseball")
    return {
        "league": league,
        "admin": admin,
        "api": api_client(admin),
        "tournament": tournament,
        "ftq": ftq,
        "baseball": baseball,
        "capture": django_capture_on_commit_callbacks,
    }


def test_a_follow_the_queen_history_is_recorded_under_its_version_and_settled_by_it(world):
    p1, p2 = positions(world)
    st = stakes(world)
    r = post(
        world, {"game": "follow-the-queen", "entry_mode": "full", "entry": {"actions": FTQ_ACTIONS}}
    )
    assert r.status_code == 201, r.json()
    assert r.json()["game"] == {"slug": "follow-the-queen", "version": 1}
    hand = Hand.objects.get(pk=r.json()["id"])
    assert hand.game_version == LeagueGameVersion.objects.get(game=world["ftq"], number=1)
    detail = world["api"].get(f"/api/v1/hands/{hand.pk}/").json()
    assert detail["game"] == {"slug": "follow-the-queen", "version": 1}
    assert detail["variant"] == "house" and detail["options"] == {}
    assert hand.status == HandStatus.VERIFIED, hand.status_reason
    each = st.ante + st.bring_in
    assert hand.projected_net == {str(p1): -each, str(p2): each}
    showdown = hand.engine_reading["showdown"]
    assert showdown["game"] == "follow-the-queen"
    assert [p["wild"] for p in showdown["players"]] == [["Qc"], ["7h"]]
    assert showdown["follow"] and showdown["shares"][0]["winners"] == [1]
    assert hand.engine_reading["game"]["name"] == "follow-the-queen"
    seats = {s.player_id: s.won for s in hand.hand_seats.all()}
    assert seats == {p1: 0, p2: 2 * each}


def test_follow_the_queen_by_quick_entry_values_the_sevens_wild(world):
    p1, p2 = positions(world)
    st = stakes(world)
    each = st.ante + st.bring_in
    seats = [
        {"player": p1, "put_in": each, "down": ["As", "Ks", "8s"], "up": ["Qc", "Ah", "Kd", "5c"]},
        {"player": p2, "put_in": each, "down": ["2d", "3d", "Jd"], "up": ["7h", "2s", "2h", "9c"]},
    ]
    hand = recorded(world, "follow-the-queen", "quick", {"seats": seats})
    assert {s.player_id: s.won for s in hand.hand_seats.all()} == {p1: 0, p2: 2 * each}


def test_a_baseball_hand_with_a_pay_and_an_extra_card(world):
    p1, p2 = positions(world)
    st = stakes(world)
    hand = recorded(world, "baseball", "full", {"actions": BASEBALL_ACTIONS})
    reading = hand.engine_reading
    assert reading["paid"] == [0, 2 * st.ante]  # the pot when the 3c fell: the two antes
    players = reading["showdown"]["players"]
    assert players[0]["up"] == ["2c", "4h", "5d", "Jc", "6c"]  # the 5d: the four's extra card
    assert [p["wild"] for p in players] == [["9s"], ["3c"]]
    assert {s.player_id: s.won for s in hand.hand_seats.all()} == {
        p1: 0,
        p2: 4 * st.ante + 2 * st.bring_in,
    }
    state = tournament_state(world["tournament"])
    start = hand.starting_stacks
    assert state.stacks[p1] == start[0] - st.ante - st.bring_in
    assert state.stacks[p2] == start[1] + st.ante + st.bring_in


def test_a_named_version_is_kept_when_the_game_changes(world):
    ftq = world["ftq"]
    v1 = LeagueGameVersion.objects.get(game=ftq, number=1)
    changed = dict(v1.definition)
    changed["wild"] = [{"kind": "follow", "rank": "Q", "later_x": "adds"}]
    league_game_update(game=ftq, by=world["admin"], definition=changed)
    body = {"game": "follow-the-queen", "game_version": 1, "entry_mode": "full"}
    r = post(world, {**body, "entry": {"actions": FTQ_ACTIONS}})
    assert r.status_code == 201, r.json()
    assert Hand.objects.get(pk=r.json()["id"]).game_version == v1


@pytest.mark.parametrize(
    ("extra", "field", "code"),
    [
        ({"game": "no-such-game"}, "game", "unknown_game"),
        ({"game": "baseball", "game_version": 9}, "game_version", "unknown_game"),
        ({"game": "baseball", "variant": "low_hole"}, "variant", None),
        ({"game": "baseball", "options": {"game": "high_low"}}, "options", None),
        ({"game_version": 1}, "game", None),
    ],
)
def test_refusals_name_the_field_and_store_nothing(world, extra, field, code):
    r = post(
        world, {"entry_mode": "full", "entry": {"actions": BASEBALL_ACTIONS}, **extra}, settle=False
    )
    assert r.status_code == 400, r.json()
    error = r.json()["error"]
    assert field in error["fields"], error
    if code:
        assert error["code"] == code
    assert not Hand.objects.exists()


def test_an_archived_game_or_another_leagues_is_refused(world):
    league_game_archive(game=world["baseball"], by=world["admin"])
    r = post(
        world,
        {"game": "baseball", "entry_mode": "full", "entry": {"actions": BASEBALL_ACTIONS}},
        settle=False,
    )
    assert r.status_code == 400 and "game" in r.json()["error"]["fields"], r.json()
    other, other_admin = make_league(slug="other")
    league_game_create(league=other, by=other_admin, name="Razz", preset="razz")
    r = post(world, {"game": "razz", "entry_mode": "full", "entry": {"actions": []}}, settle=False)
    assert r.status_code == 400 and "game" in r.json()["error"]["fields"], r.json()
    assert not Hand.objects.exists()


def test_a_pay_left_out_is_refused_at_the_action(world):
    actions = [a for a in BASEBALL_ACTIONS if a != "p2 _pay"]
    r = post(
        world,
        {"game": "baseball", "entry_mode": "full", "entry": {"actions": actions}},
        settle=False,
    )
    assert r.status_code == 400, r.json()
    assert "entry.actions[2]" in r.json()["error"]["fields"], r.json()
    assert not Hand.objects.exists()


def test_statistics_count_house_game_hands(world):
    p1, p2 = positions(world)  # of the first hand
    for slug, actions in (("follow-the-queen", FTQ_ACTIONS), ("baseball", BASEBALL_ACTIONS)):
        r = post(world, {"game": slug, "entry_mode": "full", "entry": {"actions": actions}})
        assert r.status_code == 201, r.json()
    seats = HandSeat.objects.filter(hand__tournament=world["tournament"])
    assert all("error" not in s.facts for s in seats), [s.facts for s in seats]
    scope = sel.settled_seats(tournament=world["tournament"])
    ann, bob = (stats_for(scope.filter(player_id=p)) for p in (p1, p2))
    assert (ann.hands, bob.hands) == (2, 2)
    # The dealer moves: each player is p2 once, and p2 wins both hands.
    assert (ann.showdowns, bob.showdowns, ann.showdowns_won, bob.showdowns_won) == (2, 2, 1, 1)
    assert (ann.wild_hands, ann.wild_cards, bob.wild_cards) == (2, 2, 2)  # one wild card each
    assert ann.chips_won > 0 and bob.chips_won > 0 and ann.net == -bob.net
    by_variant = {s.key: s.hands for s in stats_table(scope, "hand__variant")}
    assert by_variant == {"house": 4}
    by_game = {s.key: s.hands for s in stats_table(scope, "hand__game_version__game__slug")}
    assert by_game == {"follow-the-queen": 2, "baseball": 2}


def test_all_in_equity_of_a_house_game():
    """Deuces Wild heads-up, all in on fifth street: valued by the game's hand values;
    a follow-the-X game needs the up cards so far in the order dealt (refused without it,
    naming ``up_order``), which the runouts follow."""
    deuces = PRESETS["deuces_wild"]
    seats = [
        Seat(down=(c("As"), c("Ad")), up=(c("Ah"), c("Kc"), c("7d")), to_come=(True, False)),
        Seat(down=(c("2c"), c("Qd")), up=(c("Qh"), c("Jc"), c("8d")), to_come=(True, False)),
    ]
    result = all_in_equity("", None, seats, game=deuces, samples=4000)
    natural = all_in_equity("seven_card_stud", None, seats, samples=4000)
    assert result.equity[1] > natural.equity[1] + 0.05  # the 2c is wild in Deuces Wild
    assert abs(sum(result.equity) - 1) < 1e-9
    ftq = PRESETS["follow_the_queen"]
    with pytest.raises(DomainError) as refused:
        all_in_equity("", None, seats, game=ftq)
    assert refused.value.fields == {"up_order": [refused.value.message]}
    order = [c(x) for x in "Ah Qh Kc Jc 7d 8d".split()]  # the Kc follows the Qh: kings wild
    followed = all_in_equity("", None, seats, game=ftq, up_order=order, samples=4000)
    assert abs(sum(followed.equity) - 1) < 1e-9
    # seat 1's Qh is wild (and seat 0's Kc): a wild card each against the aces' natural edge
    assert followed.equity[1] > natural.equity[1] + 0.05


@pytest.mark.parametrize("mode", ["full", "quick"])
def test_the_facts_walked_again_are_those_of_the_settling_walk(world, mode):
    """A statistics refresh walks a hand again without the settling walk's observer: a house
    game's hand is walked by its game, and gives the same facts."""
    p1, p2 = positions(world)
    st = stakes(world)
    each = st.ante + st.bring_in
    if mode == "full":
        entry = {"actions": FTQ_ACTIONS}
    else:
        entry = {
            "seats": [
                {
                    "player": p1,
                    "put_in": each,
                    "down": ["As", "Ks", "8s"],
                    "up": ["Qc", "Ah", "Kd", "5c"],
                },
                {
                    "player": p2,
                    "put_in": each,
                    "down": ["2d", "3d", "Jd"],
                    "up": ["7h", "2s", "2h", "9c"],
                },
            ]
        }
    hand = recorded(world, "follow-the-queen", mode, entry)
    stored = [s.facts for s in sorted(hand.hand_seats.all(), key=lambda s: s.position)]
    assert all("error" not in f for f in stored) and [f["wild"] for f in stored] == [1, 1]
    assert facts_for_hand(hand, hand.engine_reading) == stored


def test_a_baseball_quick_entry_with_an_extra_card(world):
    """No three up (nothing to pay): the four up's extra card is the seat's next up card."""
    p1, p2 = positions(world)
    st = stakes(world)
    each = st.ante + st.bring_in
    seats = [
        {
            "player": p1,
            "put_in": each,
            "down": ["As", "Ks", "9s"],
            "up": ["2c", "4h", "5d", "Jc", "6c"],
        },
        {"player": p2, "put_in": each, "down": ["Qh", "Qd", "Th"], "up": ["8c", "8d", "Jd", "7d"]},
    ]
    hand = recorded(world, "baseball", "quick", {"seats": seats})
    players = hand.engine_reading["showdown"]["players"]
    assert players[0]["wild"] == ["9s"] and players[0]["high"]["category"] == "straight"
    assert {s.player_id: s.won for s in hand.hand_seats.all()} == {p1: 2 * each, p2: 0}

    # A seat missing the extra card its four up earned: the deal is short, on that seat.
    seats[0] = {**seats[0], "up": ["2c", "4h", "Jc", "6c"]}
    r = post(
        world, {"game": "baseball", "entry_mode": "quick", "entry": {"seats": seats}}, settle=False
    )
    assert r.status_code == 400, r.json()
    assert any(f.startswith("entry.seats[0]") for f in r.json()["error"]["fields"]), r.json()


def test_a_baseball_quick_entry_with_a_three_up_paid(world):
    """The three up's pay in quick entry: ``paid``, the chips paid (part of ``put_in``);
    without it the seat dealt the three must fold there, and a pay nothing called for is
    refused on that seat's field."""
    p1, p2 = positions(world)
    st = stakes(world)
    each = st.ante + st.bring_in
    price = 2 * st.ante  # the pot when the 3c fell: the two antes
    seats = [
        {
            "player": p1,
            "put_in": each,
            "down": ["As", "Ks", "9s"],
            "up": ["2c", "4h", "5d", "Jc", "6c"],
        },
        {
            "player": p2,
            "put_in": each + price,
            "paid": price,
            "down": ["Qh", "Qd", "Th"],
            "up": ["3c", "8c", "Jd", "7d"],
        },
    ]
    hand = recorded(world, "baseball", "quick", {"seats": seats})
    reading = hand.engine_reading
    assert reading["paid"] == [0, price]
    assert [p["wild"] for p in reading["showdown"]["players"]] == [["9s"], ["3c"]]
    # as the full history of the same hand (test_a_baseball_hand_with_a_pay_and_an_extra_card)
    assert {s.player_id: s.won for s in hand.hand_seats.all()} == {
        p1: 0,
        p2: 4 * st.ante + 2 * st.bring_in,
    }
    stored = [s.facts for s in sorted(hand.hand_seats.all(), key=lambda s: s.position)]
    assert all("error" not in f for f in stored), stored
    assert facts_for_hand(hand, hand.engine_reading) == stored  # a statistics refresh too

    def refused(seats):
        body = {"game": "baseball", "entry_mode": "quick", "entry": {"seats": seats}}
        r = post(world, body, settle=False)
        assert r.status_code == 400, r.json()
        return r.json()["error"]

    # The three up without its pay, the seat still in: refused on its paid.
    error = refused([seats[0], {k: v for k, v in seats[1].items() if k != "paid"}])
    assert "entry.seats[1].paid" in error["fields"], error
    # A pay on the seat whose cards called for none.
    error = refused([{**seats[0], "put_in": each + 3, "paid": 3}, seats[1]])
    assert "entry.seats[0].paid" in error["fields"], error


def test_a_baseball_quick_entry_with_a_three_up_folded(world):
    p1, p2 = positions(world)
    st = stakes(world)
    seats = [
        {"player": p1, "put_in": st.ante, "up": ["2c"]},
        {"player": p2, "put_in": st.ante, "folded": "third", "up": ["3c"]},
    ]
    hand = recorded(world, "baseball", "quick", {"seats": seats})
    assert hand.engine_reading["paid"] == [0, 0]
    assert {s.player_id: s.won for s in hand.hand_seats.all()} == {p1: 2 * st.ante, p2: 0}
