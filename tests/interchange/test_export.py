"""Exporting hands as PHH, the round trip through an import, and pokerkit reading our files."""

from __future__ import annotations

import io
import warnings

import pytest
from django.core.management import CommandError, call_command

from api.errors import http_status
from tests.factories import make_league, make_tournament
from tests.interchange.histories import FOLD, KINGS, LOW_HOLD, SHOWDOWN, as_hand
from tracker.engine import phh
from tracker.engine.procedure import replay_hand
from tracker.hands.models import Hand, HandStatus, Pot
from tracker.hands.services.recording import hand_record
from tracker.interchange.selectors.export import (
    MEDIA_TYPE,
    NoHistory,
    export_hand,
    export_league,
    export_tournament,
)
from tracker.interchange.services.imports import phh_import_start
from tracker.tournaments.models import FinalStanding, TournamentStatus
from tracker.tournaments.selectors import tournament_stacks, tournament_standings, tournament_state
from tracker.tournaments.services import tournament_create

pytestmark = pytest.mark.django_db


def record_full(tournament, by, spec, table_result=None):
    """Record a full history (positions as in the spec) through the service, like the API."""
    hand = as_hand(spec)
    entry = {"actions": hand["actions"]}
    for ours, theirs in (("buys", "_buys"), ("seventh_card", "_seventh_card")):
        if theirs in hand:
            entry[ours] = hand[theirs]
    return hand_record(
        tournament=tournament,
        by=by,
        entry_mode="full",
        variant=hand.get("_variant", "seven_card_stud"),
        options=hand.get("_options"),
        entry=entry,
        table_result=table_result,
    )


def record_quick_walk(tournament, by):
    """A quick entry: everyone antes and folds to p1's bring-in."""
    state = tournament_state(tournament)
    stakes = state.next_stakes
    seats = [
        {"player": s.player_id, "put_in": stakes.ante, "folded": "third"}
        for s in state.next_positions()
    ]
    seats[0] = {"player": seats[0]["player"], "put_in": stakes.ante + stakes.bring_in}
    return hand_record(
        tournament=tournament,
        by=by,
        entry_mode="quick",
        variant="seven_card_stud",
        entry={"seats": seats},
    )


@pytest.fixture
def played(settle):
    """Five full-history hands, the last two settling the game: a walk, a showdown, a Low
    Hold buy, Kings and Little Ones with a seventh card up, and a disputed showdown."""
    league, admin = make_league()
    tournament, players = make_tournament(league=league, by=admin, hand_limit=5)
    with settle():
        record_full(tournament, admin, FOLD)
        record_full(tournament, admin, SHOWDOWN)
        record_full(tournament, admin, LOW_HOLD)
        record_full(tournament, admin, KINGS)
        fifth = tournament_state(tournament).next_positions()
        record_full(tournament, admin, SHOWDOWN, table_result={"winners": [fifth[1].player_id]})
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED
    return league, admin, tournament, players


def test_a_full_history_hand_exports_every_field(played):
    _, _, tournament, _ = played
    hand = Hand.objects.get(tournament=tournament, number=3)
    export = export_hand(hand)
    assert export.filename.endswith("-game-night-hand-3.phh") and export.hands == 1
    (data,) = phh.loads(export.text)
    seats = list(hand.hand_seats.order_by("position"))
    assert data["variant"] == "F7S"
    assert data["antes"] == [4, 4, 4] and data["bring_in"] == 10
    assert (data["small_bet"], data["big_bet"]) == (20, 40)
    assert data["starting_stacks"] == [s.starting_stack for s in seats]
    assert data["actions"] == LOW_HOLD["actions"]
    assert data["players"] == [s.player.name for s in seats]
    assert (data["hand"], data["level"], data["event"]) == (3, 1, "Game night")
    assert data["finishing_stacks"] == replay_hand(data).finishing_stacks
    assert data["_variant"] == "low_hold" and data["_buys"] == [True, False, False]
    assert data["_options"] == hand.options
    kings = phh.loads(export_hand(Hand.objects.get(tournament=tournament, number=4)).text)[0]
    assert kings["_seventh_card"] == [None, "up", None]
    assert 'variant = "F7S"\n' in export.text


def test_a_table_result_exports_by_position(played):
    _, _, tournament, _ = played
    hand = Hand.objects.get(tournament=tournament, number=5)
    assert hand.status == HandStatus.DISPUTED
    (data,) = phh.loads(export_hand(hand).text)
    assert data["_table_result"] == {"winners": ["p2"]}
    # finishing_stacks is the replay's (what any PHH reader computes), not the table's award.
    assert data["finishing_stacks"] == replay_hand(data).finishing_stacks


def test_round_trip_into_an_empty_tournament(played, settle):
    league, admin, source, players = played
    exported = export_tournament(source)
    assert exported.hands == 5 and not exported.left_out
    copy = tournament_create(
        league=league, name="Replayed", player_ids=[p.id for p in players], by=admin, hand_limit=5
    )
    with settle():
        job = phh_import_start(
            tournament=copy, by=admin, files=[(exported.filename, exported.text)]
        )
    assert job.imported == 5, job.errors
    copy.refresh_from_db()
    assert copy.status == TournamentStatus.FINISHED

    def hands(t):
        return [
            (
                h.number,
                h.level,
                h.variant,
                h.options,
                h.entry,
                h.table_result,
                h.positions,
                h.starting_stacks,
                h.status,
                [
                    (s.player_id, s.starting_stack, s.contributed, s.won, s.down, s.up)
                    for s in h.hand_seats.order_by("position")
                ],
            )
            for h in Hand.objects.filter(tournament=t).order_by("number")
        ]

    def pots(t):
        return list(
            Pot.objects.filter(hand__tournament=t)
            .order_by("hand__number", "index")
            .values_list(
                "hand__number", "amount", "eligible", "engine_award", "table_award", "award"
            )
        )

    def standings(t):
        return [(r.player_id, r.chips, r.place, r.out_hand) for r in tournament_standings(t)]

    def final(t):
        return list(
            FinalStanding.objects.filter(tournament=t)
            .order_by("place", "player_id")
            .values_list("player_id", "place", "chips")
        )

    assert hands(copy) == hands(source)
    assert pots(copy) == pots(source)
    assert tournament_stacks(copy) == tournament_stacks(source)
    assert standings(copy) == standings(source)
    assert final(copy) == final(source) and final(copy)
    # And the copy exports the same hands (only the event name differs).
    again = phh.loads(export_tournament(copy).text)
    for ours, theirs in zip(phh.loads(exported.text), again, strict=True):
        assert ours.pop("event") == "Game night" and theirs.pop("event") == "Replayed"
        theirs.pop("year"), theirs.pop("month"), theirs.pop("day")
        ours.pop("year"), ours.pop("month"), ours.pop("day")
        assert ours == theirs


def test_quick_entry_hands_are_left_out_and_listed(settle):
    league, admin = make_league()
    tournament, _ = make_tournament(league=league, by=admin)
    with settle():
        record_full(tournament, admin, FOLD)
        quick = record_quick_walk(tournament, admin)
        record_quick_walk(tournament, admin)
    export = export_tournament(tournament)
    assert export.hands == 1 and export.left_out == [("Game night", 2), ("Game night", 3)]
    head = export.text.split("\n\n", 1)[0]
    assert head.startswith("# Game night (Friday), ")
    assert "Left out, recorded by quick entry" in head and "#   Game night: hands 2, 3" in head
    assert list(dict(phh.iter_hands(export.text))) == [1]  # labelled by hand number
    with pytest.raises(NoHistory) as err:
        export_hand(quick)
    assert http_status(err.value) == 409 and "quick entry" in err.value.message


def test_a_league_exports_every_tournament_in_date_order(played, settle):
    league, admin, _, _ = played
    other, _ = make_tournament(league=league, by=admin, names=("Dan", "Eve"), name="Later night")
    with settle():
        record_quick_walk(other, admin)
    export = export_league(league)
    labels = [label for label, _ in phh.iter_hands(export.text)]
    assert labels == [1, 2, 3, 4, 5]
    assert "#   Later night: hand 1" in export.text
    assert export.filename == "friday.phhs"


def test_plain_stud_exports_load_in_pokerkit_with_the_same_stacks(settle):
    HandHistory = pytest.importorskip("pokerkit").HandHistory
    league, admin = make_league()
    tournament, _ = make_tournament(league=league, by=admin)
    with settle():
        for spec in (FOLD, SHOWDOWN, FOLD, SHOWDOWN):
            record_full(tournament, admin, spec)
    text = export_tournament(tournament).text
    ours = phh.loads(text)
    theirs = list(HandHistory.loads_all(text))
    assert len(theirs) == len(ours) == 4
    for data, history in zip(ours, theirs, strict=True):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            *_, final = history
        assert list(final.stacks) == data["finishing_stacks"]
        assert not final.status
    hand = Hand.objects.get(tournament=tournament, number=2)
    single = HandHistory.loads(export_hand(hand).text)
    *_, final = single
    seats = hand.hand_seats.order_by("position")
    assert list(final.stacks) == [s.starting_stack - s.contributed + s.won for s in seats]


def test_the_export_command(played, tmp_path):
    league, _, tournament, _ = played
    out, err = io.StringIO(), io.StringIO()
    call_command("export_phh", "--tournament", str(tournament.pk), stdout=out, stderr=err)
    assert out.getvalue() == export_tournament(tournament).text
    assert err.getvalue().strip() == "5 hands"
    path = tmp_path / "league.phhs"
    call_command("export_phh", "--league", league.slug, "-o", str(path), stderr=io.StringIO())
    assert path.read_text(encoding="utf-8") == export_league(league).text
    hand = Hand.objects.get(tournament=tournament, number=1)
    out = io.StringIO()
    call_command("export_phh", "--hand", str(hand.pk), stdout=out, stderr=io.StringIO())
    assert phh.loads(out.getvalue())[0]["hand"] == 1
    with pytest.raises(CommandError, match="no league"):
        call_command("export_phh", "--league", "nope")
    assert MEDIA_TYPE == "application/x-phh"
