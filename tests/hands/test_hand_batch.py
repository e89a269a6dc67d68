"""Batches of the hand-history import: a batch after another goes on from the state of play
the other left in memory, and reads it again when anything else changed the tournament's
play between them (both databases)."""

from __future__ import annotations

import pytest
from django.db import transaction

from tests.factories import make_league, make_tournament
from tests.interchange.histories import FOLD, SHOWDOWN, night
from tracker.hands.models import Hand, HandStatus
from tracker.hands.services import recording
from tracker.hands.services.recording import HandBatch
from tracker.hands.services.settlement import tournament_settle
from tracker.interchange.services.hands import content_hash, phh_hands_add
from tracker.tournaments.models import LedgerEntry, LedgerKind
from tracker.tournaments.selectors import tournament_state

pytestmark = pytest.mark.django_db

HANDS = night([FOLD, SHOWDOWN, FOLD, SHOWDOWN, FOLD, SHOWDOWN])


@pytest.fixture
def table(monkeypatch):
    """A tournament at level 1 throughout, and a count of the state reads of the batches."""
    league, admin = make_league()
    tournament, players = make_tournament(league=league, by=admin, hands_per_level=50)
    reads = []

    def counted(t, **kwargs):
        reads.append(t.pk)
        return tournament_state(t, **kwargs)

    monkeypatch.setattr(recording, "tournament_state", counted)
    return admin, tournament, players, reads


def batch_of(admin, tournament, hands, after=None) -> HandBatch:
    with transaction.atomic():
        batch = HandBatch(tournament=tournament, by=admin, after=after)
        for hand in hands:
            phh_hands_add(
                batch, hand=hand, digest=content_hash(hand), source="n.phhs", label=hand["hand"]
            )
        batch.save()
    return batch


def as_read(state) -> tuple:
    """What the checks of a hand read of the state (not ``pending`` nor ``settled_stacks``,
    which a state gone on from counts as of its last read)."""
    latest = state.latest
    return (
        state.hands_recorded,
        state.last_dealer,
        state.stacks,
        state.over,
        state.next_stakes,
        [s.pk for s in state.next_positions()],
        state.blocked_by.pk if state.blocked_by else None,
        state.last_variant,
        (latest.number, latest.content_hash) if latest else None,
        [s.pk for s in state.seats],
    )


def test_a_batch_after_another_goes_on_from_its_state_without_reading_it(table):
    admin, tournament, _, reads = table
    first = batch_of(admin, tournament, HANDS[:2])
    second = batch_of(admin, tournament, HANDS[2:4], after=first)
    third = HandBatch(tournament=tournament, by=admin, after=second)
    assert len(reads) == 1  # the first batch's read only
    assert as_read(third.state) == as_read(tournament_state(tournament))
    assert third.state.tournament.pk == tournament.pk


def test_hands_settled_between_batches_change_nothing_of_the_state(table):
    admin, tournament, _, reads = table
    first = batch_of(admin, tournament, HANDS[:3])
    assert tournament_settle(tournament_id=tournament.pk) == 3
    second = HandBatch(tournament=tournament, by=admin, after=first)
    assert len(reads) == 1
    assert as_read(second.state) == as_read(tournament_state(tournament))


def test_a_rebuy_between_batches_is_read(table):
    admin, tournament, players, reads = table
    first = batch_of(admin, tournament, HANDS[:2])
    LedgerEntry.objects.create(
        tournament=tournament, player=players[0], kind=LedgerKind.REBUY, amount=500, from_hand=3
    )
    second = HandBatch(tournament=tournament, by=admin, after=first)
    assert len(reads) == 2
    assert second.state.stacks[players[0].id] == first.state.stacks[players[0].id] + 500
    assert as_read(second.state) == as_read(tournament_state(tournament))


def test_a_hand_found_invalid_between_batches_is_read(table):
    admin, tournament, _, reads = table
    first = batch_of(admin, tournament, HANDS[:2])
    Hand.objects.filter(tournament=tournament, number=2).update(status=HandStatus.INVALID)
    second = HandBatch(tournament=tournament, by=admin, after=first)
    assert len(reads) == 2
    assert second.state.blocked_by.number == 2
    assert second.state.stacks != first.state.stacks  # hand 2's chips left the projection
    assert as_read(second.state) == as_read(tournament_state(tournament))


def test_a_hand_recorded_otherwise_between_batches_is_read(table):
    admin, tournament, _, reads = table
    first = batch_of(admin, tournament, HANDS[:2])
    batch_of(admin, tournament, HANDS[2:3])  # not after ``first``: as another client would
    second = HandBatch(tournament=tournament, by=admin, after=first)
    assert len(reads) == 3
    assert second.state.hands_recorded == 3
    assert as_read(second.state) == as_read(tournament_state(tournament))


def test_a_batch_rolled_back_is_not_gone_on_from(table):
    admin, tournament, _, reads = table
    first = batch_of(admin, tournament, HANDS[:2])
    with pytest.raises(RuntimeError), transaction.atomic():
        lost = batch_of(admin, tournament, HANDS[2:4], after=first)
        raise RuntimeError("the worker died before the batch committed")
    second = HandBatch(tournament=tournament, by=admin, after=lost)
    assert len(reads) == 2
    assert as_read(second.state) == as_read(tournament_state(tournament))
    assert second.state.hands_recorded == 2
