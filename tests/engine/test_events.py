"""One event vocabulary: a typed event per table verb, played by ``StudHand.apply`` and
checked by ``StudHand.verify``; PHH action text as a codec of events; the machine's
automations as an option of the machine."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

from tracker.engine import phh
from tracker.engine.cards import parse_card
from tracker.engine.errors import DomainError
from tracker.engine.events import (
    EVENT_TYPES,
    BringIn,
    Buy,
    Call,
    Check,
    ChooseSeventh,
    Complete,
    CompleteBetOrRaise,
    DealBoard,
    DealHole,
    Declare,
    Fold,
    Muck,
    PostAntes,
    RaiseTo,
    Show,
    event_for,
    event_from_json,
    event_to_json,
)
from tracker.engine.examples import new_hand, seventh_street, third_street
from tracker.engine.live import LIVE_AUTOMATIONS, live_hand
from tracker.engine.phh import format_action, history_entry, parse_action
from tracker.engine.procedure import ProcedureError, _read_spec
from tracker.engine.stakes import Stakes
from tracker.engine.stud import ALL_AUTOMATIONS, Automation, Phase, StudHand

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
EXAMPLE_HANDS = [
    hand
    for path in sorted(EXAMPLES.glob("*.phh*"))
    for hand in phh.loads(path.read_text(encoding="utf-8"))
]

SAMPLES = [
    PostAntes(),
    DealHole(0, (None, None, parse_card("2c"))),
    DealBoard(parse_card("As")),
    BringIn(0),
    Complete(1, 20),
    RaiseTo(2),
    CompleteBetOrRaise(0, 40),
    Call(1),
    Check(2),
    Fold(0),
    Buy(1),
    ChooseSeventh(2, True),
    ChooseSeventh(0, False),
    Show(1),
    Show(1, (parse_card("Kd"), None)),
    Muck(2),
    Declare(0, "both"),
]


@pytest.mark.parametrize("event", SAMPLES, ids=lambda e: type(e).__name__)
def test_every_event_keeps_its_json_form(event):
    data = event_to_json(event)
    assert data["event"] == event.name and EVENT_TYPES[data["event"]] is type(event)
    assert event_from_json(data, n=3) == event


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"event": "fold", "seat": 3}, "event.seat"),
        ({"event": "fold", "seat": True}, "event.seat"),
        ({"event": "flop", "seat": 0}, "event.event"),
        ({"event": "declare", "seat": 0, "choice": "middle"}, "event.choice"),
        ({"event": "choose_seventh", "seat": 0, "up": "up"}, "event.up"),
        ({"event": "deal", "seat": 0, "cards": ["Zz"]}, "event.cards[0]"),
        ({"event": "complete", "seat": 0, "to": -5}, "event.to"),
        (["fold"], "event"),
    ],
)
def test_a_malformed_event_names_its_field(data, field):
    with pytest.raises(DomainError) as err:
        event_from_json(data, n=3)
    assert field in err.value.fields


@pytest.mark.parametrize("hand", EXAMPLE_HANDS, ids=lambda h: str(h.get("hand", "")))
def test_phh_actions_round_trip_through_events(hand):
    n = len(hand["starting_stacks"])
    events = [parse_action(action, n=n) for action in hand["actions"]]
    assert [format_action(e) for e in events] == hand["actions"]


def test_phh_notes_and_malformed_actions():
    assert parse_action("# the dealer sneezed", n=2) is None
    assert parse_action("p1 cc # thinking", n=2) == phh.CheckOrCall(0)
    for text, code in (("p1 cbr ten", "bet_size"), ("p1 sd", "invalid_action"),
                       ("d dh p1 Zz", "invalid_card"), ("d db AsKs", "deal_count")):  # fmt: skip
        with pytest.raises(ProcedureError) as err:
            parse_action(text, n=2)
        assert err.value.code == code
    assert format_action(Buy(0)) is None and format_action(PostAntes()) is None


def _state(hand: StudHand) -> dict:
    return {name: copy.deepcopy(getattr(hand, name)) for name in StudHand.__slots__
            if name not in ("observers", "rules", "automations")}  # fmt: skip


@pytest.mark.parametrize("hand", EXAMPLE_HANDS, ids=lambda h: str(h.get("hand", "")))
def test_verify_checks_without_acting_and_apply_plays_what_verify_accepts(hand):
    """Every example hand played event by event: ``verify`` leaves the machine exactly as
    it was and says what ``apply`` then plays; the walk ends where replay_hand ends."""
    spec = _read_spec(hand, None)
    machine = StudHand(variant=spec.variant, stakes=spec.stakes, stacks=spec.stacks,
                       options=spec.options)  # fmt: skip
    machine.apply(PostAntes())
    chosen = False
    for action in spec.actions:
        event = parse_action(action, n=machine.n)
        before = _state(machine)
        checked = machine.verify(event)
        assert _state(machine) == before
        assert machine.apply(event) == checked
        if machine.seventh_open and not chosen:
            chosen = True
            for seat in range(machine.n):
                if spec.buys[seat]:
                    machine.apply(Buy(seat))
    for seat, choice in enumerate(spec.declarations):
        if choice is not None:
            machine.apply(Declare(seat, choice))
    machine.verify_complete_hand()
    expected = phh.replay_text(phh.dumps(hand))
    assert machine.settle().finishing_stacks == next(iter(expected))["finishing_stacks"]


def test_a_refused_event_names_the_rule_and_changes_nothing():
    hand = third_street()
    before = _state(hand)
    with pytest.raises(ProcedureError) as err:
        hand.apply(RaiseTo(0))
    assert err.value.code == "illegal_action" and "moment calls for a complete" in str(err.value)
    with pytest.raises(ProcedureError) as err:
        hand.verify(Fold(1))
    assert err.value.code == "out_of_turn"
    assert _state(hand) == before
    assert hand.verify(Complete(0)) == Complete(0, 5)  # the size filled in
    assert hand.apply(CompleteBetOrRaise(0)) == CompleteBetOrRaise(0, 5)


def test_every_option_offered_is_an_event_the_machine_accepts():
    hand = third_street()
    for option in hand.next_event().options:
        assert hand.verify(event_for(option)) == event_for(option)
    fresh = new_hand()
    (ante,) = fresh.next_event().options
    assert fresh.verify(event_for(ante)) == PostAntes()
    low_hold = seventh_street(variant="low_hold")
    for option in low_hold.next_event().choices:
        assert low_hold.verify(event_for(option)) == Buy(option.seat)
    (choice, *_) = seventh_street(variant="kings_and_little_ones").next_event().choices
    with pytest.raises(DomainError):  # up or down: more than the option says
        event_for(choice)


def c(text: str) -> tuple[int, ...]:
    return tuple(parse_card(t) for t in text.split())


def test_automations_are_an_option_of_the_machine():
    stakes = Stakes(1, 5, 5, 10)  # a bring-in as large as the small bet: the completion itself
    plain = StudHand(variant="seven_card_stud", stakes=stakes, stacks=[100, 100])
    assert plain.phase is Phase.ANTES and plain.automate() == []
    hand = StudHand(variant="seven_card_stud", stakes=stakes, stacks=[100, 100],
                    automations=ALL_AUTOMATIONS)  # fmt: skip
    assert hand.phase is Phase.DEAL and hand.antes == [1, 1]  # the antes posted themselves
    hand.apply(DealHole(0, (None, None, *c("2c"))))
    hand.apply(DealHole(1, (None, None, *c("Kd"))), automate=False)
    assert hand.next_event().seat == 0 and hand.bets == [0, 0]  # held back: nothing forced yet
    assert hand.automate() == [BringIn(0)]  # the one legal action
    assert hand.next_event().seat == 1


def test_unseen_face_down_cards_are_dealt_by_the_machine():
    hand = StudHand(variant="seven_card_stud", stakes=Stakes(1, 2, 5, 10), stacks=[100, 100],
                    automations={Automation.ANTES, Automation.UNSEEN_DEALS})  # fmt: skip
    hand.apply(DealHole(0, (None, None, *c("2c"))))
    hand.apply(DealHole(1, (None, None, *c("Kd"))))
    hand.apply(BringIn(0))
    hand.apply(Call(1))
    for card_0, card_1 in (("3c", "4d"), ("5c", "6d"), ("7c", "8d")):
        hand.apply(DealHole(0, c(card_0)))
        hand.apply(DealHole(1, c(card_1)))
        first = hand.next_event().seat
        hand.apply(Check(first))
        done_before = [list(cards) for cards in hand.cards]
        hand.apply(Check(1 - first))
    # Sixth street's last check: the seventh cards, face down and unseen, came by themselves.
    assert [len(cards) for cards in done_before] == [6, 6]
    assert [cards[-1] for cards in hand.cards] == [None, None]
    assert hand.street.name == "SEVENTH" and hand.next_event().seat is not None


def test_a_live_hand_replays_its_events_without_automating_them_twice():
    events = [DealHole(0, (None, None, *c("2c"))), DealHole(1, (None, None, *c("Kd"))),
              BringIn(0), Fold(1)]  # fmt: skip
    hand = live_hand(variant="seven_card_stud", options={}, stakes=Stakes(1, 5, 5, 10),
                     stacks=[100, 100], events=events)  # fmt: skip
    assert hand.automations == LIVE_AUTOMATIONS and hand.phase is Phase.OVER
    assert history_entry(events, n=2)["actions"] == [
        "d dh p1 ????2c", "d dh p2 ????Kd", "p1 pb", "p2 f"
    ]  # fmt: skip
