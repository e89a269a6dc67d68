"""The results machine is its own class: ResultsHand(StudHand) plays what a hand entered as
results allows, StudHand refuses it, and quick entry is one frozen QuickEntry."""

from __future__ import annotations

import dataclasses

import pytest

from tracker.engine.errors import Code
from tracker.engine.events import Contribute, EndBetting, Fold
from tracker.engine.examples import STAKES, THIRD_STREET, deal_round
from tracker.engine.procedure import QuickEntry, settle_quick, walk_quick
from tracker.engine.results import ResultsHand
from tracker.engine.stud import ProcedureError, StudHand

QUICK = {
    "variant": "seven_card_stud",
    "stakes": {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10},
    "starting_stacks": [100, 100, 100],
    "put_in": [7, 7, 1],
    "folded": ["fourth", None, "third"],
}


def dealt(cls=StudHand, **kw):
    hand = cls(variant="seven_card_stud", stakes=STAKES, stacks=[100, 100], **kw)
    hand.post_antes()
    deal_round(hand, THIRD_STREET)
    return hand


def test_results_true_makes_the_subclass_and_a_plain_hand_stays_one():
    assert type(dealt(results=True)) is ResultsHand
    assert type(dealt()) is StudHand
    assert type(dealt(ResultsHand)) is ResultsHand


def test_events_are_played_by_the_hands_own_class():
    """apply() dispatches to the subclass's verbs: a contribution and an out-of-turn fold
    are played on a ResultsHand and refused, by the same events, on a StudHand."""
    results = dealt(ResultsHand)
    results.apply(Contribute(1, 5))
    results.apply(Fold(1))  # seat 0 was to bring it in: no turns in results
    assert results.live == [1, 6] and results.folded == [None, "third"]
    plain = dealt()
    for event, code in ((Contribute(1, 5), Code.ILLEGAL_ACTION), (Fold(1), Code.OUT_OF_TURN)):
        with pytest.raises(ProcedureError) as info:
            plain.apply(event)
        assert info.value.code == code
    with pytest.raises(ProcedureError) as info:
        plain.verify(EndBetting())
    assert info.value.code == Code.ILLEGAL_ACTION


def test_the_results_machine_refuses_betting_and_ends_streets_by_hand():
    hand = dealt(ResultsHand)
    assert hand.legal_options(0) == ()
    with pytest.raises(ProcedureError) as info:
        hand.bring_in(0)
    assert (info.value.code, info.value.seat) == (Code.INVALID_ACTION, 0)
    hand.end_betting()
    assert hand.street == 1 and hand.cards_due(0) == 1


def test_a_quick_entry_is_frozen_and_settles_as_its_fields_do():
    entry = QuickEntry(**QUICK)
    with pytest.raises(dataclasses.FrozenInstanceError):
        entry.put_in = [1, 1, 1]  # type: ignore[misc]
    assert settle_quick(entry).to_dict() == settle_quick(**QUICK).to_dict()
    assert settle_quick(entry).finishing_stacks == [
        93,
        108,
        99,
    ]  # the pot of 15 to the last seat in
    assert type(walk_quick(entry)) is ResultsHand


def test_a_quick_entry_or_its_fields_not_both():
    with pytest.raises(TypeError):
        settle_quick(QuickEntry(**QUICK), put_in=[7, 7, 1])
    with pytest.raises(TypeError):
        settle_quick(**QUICK, puts=[1, 1, 1])
