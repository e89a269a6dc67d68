"""A house game with a ``choice`` street (the player says whether the card comes up or
down): a hand recorded through the services keeps each player's choice and is settled by it,
and its PHH export, imported into another league with the same game, records the same hand
with the choice card where it was. Both databases."""

from __future__ import annotations

import pytest

from tests.factories import make_league, make_tournament
from tests.support.house_hands import CHOICE_ACTIONS, CHOICE_GAME
from tracker.engine import phh
from tracker.games.services import league_game_create
from tracker.hands.models import Hand, HandStatus
from tracker.hands.services.recording import hand_record
from tracker.interchange.selectors.export import export_hand
from tracker.interchange.services.imports import phh_import_start

pytestmark = pytest.mark.django_db

SIDES = [("down", 1), ("up", 0)]  # p2's last card, the Qs, and who wins with it


def _night(slug):
    """A heads-up night of a league that has the choice game."""
    league, admin = make_league(slug=slug)
    game = league_game_create(
        league=league, by=admin, name="Follow the Queen, Up or Down", definition=CHOICE_GAME
    )
    tournament, _ = make_tournament(
        league=league, by=admin, names=("Ann", "Bob"), default_variant="seven_card_stud"
    )
    return admin, tournament, game


def _recorded(side, capture):
    admin, tournament, game = _night("home")
    entry = {"actions": CHOICE_ACTIONS, "seventh_card": [None, side]}
    with capture(execute=True):
        hand = hand_record(
            tournament=tournament, by=admin, entry_mode="full", entry=entry, game=game.slug
        )
    hand.refresh_from_db()
    return hand


def _seats(hand):
    """Each seat's cards and winnings, players by name."""
    seats = sorted(hand.hand_seats.all(), key=lambda s: s.position)
    return [(s.player.name, s.down, s.up, s.contributed, s.won) for s in seats]


@pytest.mark.parametrize(("side", "winner"), SIDES)
def test_a_choice_card_recorded_through_the_services_is_dealt_as_chosen(
    side, winner, django_capture_on_commit_callbacks
):
    hand = _recorded(side, django_capture_on_commit_callbacks)
    assert hand.status == HandStatus.VERIFIED, hand.status_reason
    assert hand.entry["seventh_card"] == [None, side]
    (_, p1_down, _, _, _), (_, down, up, _, _) = _seats(hand)
    assert p1_down[-1] == "8s"  # no choice made: down
    assert ("Qs" in up, "Qs" in down) == (side == "up", side == "down")
    showdown = hand.engine_reading["showdown"]
    assert showdown["high_winners"] == [winner]
    assert showdown["up_order"][-1:] == (["Qs"] if side == "up" else ["9c"])
    assert showdown["follow"] == ([] if side == "up" else ["7"])
    won = [s[-1] for s in _seats(hand)]
    assert won[winner] == sum(won) > 0


@pytest.mark.parametrize(("side", "winner"), SIDES)
def test_a_choice_card_round_trips_export_to_import(
    side, winner, django_capture_on_commit_callbacks
):
    hand = _recorded(side, django_capture_on_commit_callbacks)
    text = export_hand(hand).text
    (exported,) = phh.loads(text)
    assert exported["_game"]["streets"][-1]["faces"] == ["choice"]
    assert exported["_seventh_card"][1] == side
    admin, target, game = _night("away")
    with django_capture_on_commit_callbacks(execute=True):
        job = phh_import_start(tournament=target, by=admin, files=[("night.phhs", text)])
    assert job.imported == 1, job.errors
    (imported,) = Hand.objects.filter(tournament=target)
    assert imported.status == HandStatus.VERIFIED, imported.status_reason
    assert imported.game_version.game == game
    assert imported.entry == hand.entry
    assert _seats(imported) == _seats(hand)
    assert imported.engine_reading["showdown"] == hand.engine_reading["showdown"]
    assert imported.engine_reading["showdown"]["high_winners"] == [winner]
