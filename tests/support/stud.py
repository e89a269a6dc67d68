"""The stud state machine (tracker/engine/stud.py) driven step by step for the tests: a new
hand, PHH-like steps, the options and deals offered, autoplay to a point, a refusal that
must change nothing, and an observer that records every event."""

from __future__ import annotations

import copy

import pytest

from tests.support.hands import STAKES
from tracker.engine.announcements import normalize_announcements
from tracker.engine.cards import parse_card
from tracker.engine.stud import HandObserver, Phase, ProcedureError, StudHand, Verb
from tracker.engine.variants import Face, Street

D, U = Face.DOWN, Face.UP


def new_hand(stacks=(1000, 1000), variant="seven_card_stud", options=None, stakes=STAKES, **kw):
    options = normalize_announcements(variant, options or {})
    return StudHand(variant=variant, stakes=stakes, stacks=list(stacks), options=options, **kw)


def play(hand, *steps):
    """PHH-like steps: 'd pN CARDS' (each card with the face it is due), 'pN pb',
    'pN cc', 'pN f', 'pN cbr TO'; the antes first if not posted."""
    if hand.phase is Phase.ANTES:
        hand.post_antes()
    for step in steps:
        who, verb, *rest = step.split()
        if who == "d":
            seat = int(verb[1:]) - 1
            for k in range(0, len(rest[0]), 2):
                text = rest[0][k : k + 2]
                card = None if text == "??" else parse_card(text)
                hand.deal(seat, card, up=hand.next_face(seat) is U)
            continue
        seat = int(who[1:]) - 1
        if verb == "cbr":
            hand.complete_bet_or_raise(seat, int(rest[0]))
        else:
            {"pb": hand.bring_in, "cc": hand.check_or_call, "f": hand.fold}[verb](seat)
    return hand


def options(hand):
    return [(o.verb.value, o.amount, o.to) for o in hand.next_event().options]


def deals(hand):
    return [(d.seat, d.face) for d in hand.next_event().deals]


def autoplay(hand, deck, stop):
    """Deal the cards due from ``deck`` and check or call (bring in when due) until
    ``stop(next_event)``."""
    if hand.phase is Phase.ANTES:
        hand.post_antes()
    while not stop(ev := hand.next_event()):
        if ev.phase is Phase.DEAL:
            deal = ev.deals[0]
            hand.deal(deal.seat, deck.pop(), up=deal.face is U)
        elif Verb.BRING_IN in {o.verb for o in ev.options}:
            hand.bring_in(ev.seat)
        else:
            hand.check_or_call(ev.seat)
    return hand


def at_seventh_deal(ev):
    return ev.phase is Phase.DEAL and ev.street is Street.SEVENTH


def deck():
    return list(range(52))  # popped from the top: As, Ah, Ad, Ac, Ks, ...


def snapshot(hand):
    slots = {k: copy.deepcopy(getattr(hand, k)) for k in StudHand.__slots__ if k != "observers"}
    return slots, hand.next_event()


def assert_refused(hand, verify, verb, code, seat, subject):
    before = snapshot(hand)
    with pytest.raises(ProcedureError) as first:
        verify(hand)
    assert (first.value.code, first.value.seat, first.value.subject) == (code, seat, subject)
    assert isinstance(first.value.code, str) and first.value.code == code.value
    assert snapshot(hand) == before
    with pytest.raises(ProcedureError) as second:
        verb(hand)
    assert (second.value.code, second.value.seat, second.value.subject) == (code, seat, subject)
    assert snapshot(hand) == before


class Recorder(HandObserver):
    def __init__(self):
        self.events, self.ledger = [], []

    def on_event(self, event, hand):
        self.events.append(event)
        put_in = sum(hand.starting) - sum(hand.stacks)
        self.ledger.append((sum(p.amount for p in hand.pots()), put_in))
