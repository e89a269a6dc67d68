"""House games dealt by the stud machine (``StudHand(game=...)``) for the tests: a new hand,
every card due dealt from per-seat queues, a street bet out passively, a whole hand played
out (with the players' up/down choices) and settled, chips conserved."""

from __future__ import annotations

from collections.abc import Mapping

from tracker.engine.cards import parse_card
from tracker.engine.events import ChooseSeventh, DealBoard, DealHole, PostAntes, event_for
from tracker.engine.stakes import Stakes
from tracker.engine.stud import Face, Phase, StudHand, Verb

STAKES = Stakes(1, 2, 5, 10)


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def new(game, n, stacks=100, **kw) -> StudHand:
    return StudHand(game=game, stakes=STAKES, stacks=[stacks] * n, **kw)


def deal_due(hand: StudHand, queues: dict[int, list[int]], *, events: bool = False) -> None:
    """Deal every card due, in the order the machine lists them, each seat's from its queue
    (the community card from ``queues[-1]``); stops at a price to pay."""
    while hand.phase is Phase.DEAL:
        nxt = hand.next_event()
        if nxt.seat is not None or not nxt.deals:
            return
        d = nxt.deals[0]
        if d.face is Face.COMMUNITY:
            card = queues[-1].pop(0)
            hand.apply(DealBoard(card)) if events else hand.deal_community(card)
        else:
            card = queues[d.seat].pop(0)
            if events:
                hand.apply(DealHole(d.seat, (card,)))
            else:
                hand.deal(d.seat, card, up=d.face is Face.UP)


def passive(hand: StudHand, *, events: bool = False) -> None:
    """Bet the street out: bring in, then check or call."""
    while hand.phase is Phase.BET:
        nxt = hand.next_event()
        by = {o.verb: o for o in nxt.options}
        option = by.get(Verb.BRING_IN) or by.get(Verb.CHECK) or by[Verb.CALL]
        if events:
            hand.apply(event_for(option))
        elif option.verb is Verb.BRING_IN:
            hand.bring_in(option.seat)
        elif option.verb is Verb.CHECK:
            hand.check(option.seat)
        else:
            hand.call(option.seat)


def play_out(
    hand: StudHand,
    queues: dict[int, list[int]],
    *,
    events: bool = False,
    choices: Mapping[int, bool] | None = None,
) -> None:
    """The antes (unless posted), then every street dealt from ``queues`` and bet passively
    to the showdown; ``choices`` (seat -> up) are made on the street that offers them, before
    its deal."""
    if hand.phase is Phase.ANTES:
        hand.apply(PostAntes()) if events else hand.post_antes()
    while not hand.over:
        offered = {o.seat for o in hand.next_event().choices if o.verb is Verb.CHOOSE_SEVENTH}
        for seat, up in (choices or {}).items():
            if seat in offered:
                hand.apply(ChooseSeventh(seat, up)) if events else hand.choose_seventh(seat, up)
        deal_due(hand, queues, events=events)
        passive(hand, events=events)


def conserved(hand: StudHand, result) -> None:
    assert sum(result.finishing_stacks) == sum(hand.starting)
    assert sum(result.winnings) == sum(p.amount for p in result.pots)


def settled(game, seats: Mapping[int, str], **kw):
    """A hand of ``game`` dealt to ``seats`` (seat -> its cards in the order dealt), played
    out passively (``kw`` as :func:`play_out` takes) and settled, chips conserved."""
    hand = new(game, len(seats))
    play_out(hand, {s: cards(c) for s, c in seats.items()}, **kw)
    result = hand.settle()
    conserved(hand, result)
    return hand, result
