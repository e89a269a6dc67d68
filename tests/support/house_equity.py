"""All-in hands of house games played through the machine (``StudHand(game=...)``), and two
oracles of their equity: every runout dealt card by card as the machine asks for it, each
weighted by its chance, then valued by the machine's ``settle()`` or by the brute-force
evaluator of tests/engine/games_oracle.py over the engine's pots (``hand.pots()``)."""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from fractions import Fraction

from tests.engine import games_oracle
from tests.engine import oracle as brute
from tracker.engine.cards import format_card, parse_card
from tracker.engine.equity import Pot, Seat
from tracker.engine.events import event_for
from tracker.engine.games import dump_game
from tracker.engine.pots import award_pot
from tracker.engine.stakes import Stakes
from tracker.engine.stud import Face, Phase, StudHand, Verb

STAKES = Stakes(1, 2, 5, 10)


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def deal_known(hand: StudHand, queues: dict[int, list[int]]) -> None:
    """Deal each seat its next card from ``queues`` (a community card from ``queues[None]``)
    until the betting (no pay rule set off)."""
    while hand.phase is Phase.DEAL:
        nxt = hand.next_event()
        assert nxt.seat is None, "the known cards set off no pay rule"
        d = nxt.deals[0]
        if d.face is Face.COMMUNITY:
            hand.deal_community(queues[None].pop(0))
        else:
            hand.deal(d.seat, queues[d.seat].pop(0), up=d.face is Face.UP)


def bet_until_closed(hand: StudHand, street: int, deal: Callable[[StudHand], None]) -> None:
    """Play until nobody can bet: ``deal`` deals each street; the bring-in, checks and calls
    before ``street``, then from ``street`` on everyone bets or raises while they can (all
    in); it stops at the showdown if nobody is all in by then."""
    while not hand.closed and not hand.over:
        deal(hand)
        while hand.phase is Phase.BET:
            by = {o.verb: o for o in hand.next_event().options}
            if hand.street >= street:
                option = (
                    by.get(Verb.RAISE)
                    or by.get(Verb.BET)
                    or by.get(Verb.COMPLETE)
                    or by.get(Verb.CALL)
                    or by[Verb.CHECK]
                )
            else:
                option = by.get(Verb.BRING_IN) or by.get(Verb.CHECK) or by[Verb.CALL]
            hand.apply(event_for(option))


def seats_of(hand: StudHand) -> list[Seat]:
    """The contenders at the all-in moment: their cards, the faces still to come (a community
    street is nobody's) and the chips left."""
    streets = hand.game.streets[hand.street :]
    to_come = tuple(f == "up" for s in streets for f in s.faces if f != "community")
    out = []
    for i in range(hand.n):
        if not hand.in_hand[i]:
            continue
        pairs = list(zip(hand.cards[i], hand.faces[i], strict=True))
        out.append(
            Seat(
                down=tuple(c for c, up in pairs if not up),
                up=tuple(c for c, up in pairs if up),
                to_come=to_come,
                chips=hand.stacks[i],
            )
        )
    return out


def pots_of(hand: StudHand) -> list[Pot]:
    """The hand's pots, their seats numbered among the contenders (as ``seats_of``)."""
    index = {pos: k for k, pos in enumerate(i for i in range(hand.n) if hand.in_hand[i])}
    return [Pot(p.amount, tuple(index[s] for s in p.eligible)) for p in hand.pots()]


_MORE = object()


def _run(start: StudHand, seq: tuple[int, ...], value: Callable[[StudHand], list[int]]):
    """Deal ``seq`` as the machine asks; a pay rule's price is paid (all in if short)."""
    hand = copy.deepcopy(start)
    at = 0
    while not hand.over:
        nxt = hand.next_event()
        assert nxt.phase is Phase.DEAL
        if nxt.seat is not None:  # a pay rule's price: paid, all in if short
            assert nxt.options[0].verb is Verb.PAY
            assert nxt.options[0].amount == min(hand.pot_total(), hand.stacks[nxt.seat])
            hand.pay(nxt.seat)
            continue
        if at == len(seq):
            return _MORE
        d = nxt.deals[0]
        if d.face is Face.COMMUNITY:
            hand.deal_community(seq[at])
        else:
            hand.deal(d.seat, seq[at], up=d.face is Face.UP)
        at += 1
    return value(hand)


def settled(hand: StudHand) -> list[int]:
    """What the machine's settlement pays each seat."""
    return list(hand.settle().winnings)


def brute_force(game) -> Callable[[StudHand], list[int]]:
    """What each seat wins when each of the engine's pots (``hand.pots()``) is decided among
    its own contenders by the brute-force evaluator (each distinct hand valued once) and paid
    by ``award_pot``."""
    definition = dump_game(game)
    kind = definition["pot"]["kind"]
    split = "high_low" if kind.endswith("chicago") else kind
    rule = next((w for w in definition["wild"] if w["kind"] == "follow"), None)
    memo: dict[tuple, tuple] = {}

    def pair(c: int) -> tuple[int, int]:
        return brute.card(format_card(c))

    def value(hand: StudHand) -> list[int]:
        com = pair(hand.community) if hand.community is not None else None
        follow: set[int] = set()
        if rule is not None:
            order = [pair(c) for c in hand.up_order if c is not None]
            follow = games_oracle.follow_ranks(rule, order)
        values = {}
        for i in range(hand.n):
            if not hand.in_hand[i]:
                continue
            pairs = list(zip(hand.cards[i], hand.faces[i], strict=True))
            down = [pair(c) for c, up in pairs if not up]
            up = [pair(c) for c, up in pairs if up]
            key = (tuple(down), tuple(up), com, frozenset(follow))
            if key not in memo:
                memo[key] = games_oracle.player_value(definition, down, up, com, follow)
            values[i] = memo[key]
        won = [0] * hand.n
        for pot in hand.pots():
            elig = list(pot.eligible)
            hw, lw, sw = games_oracle.decide([values[i] for i in elig], None)
            hi = [elig[j] for j in hw]
            lo = [elig[j] for j in (sw if kind.endswith("chicago") else lw)]
            for seat, chips in award_pot(pot.amount, split, hi, lo, elig):
                won[seat] += chips
        return won

    return value


def oracle(
    start: StudHand, unseen: list[int], value: Callable[[StudHand], list[int]] = settled
) -> list[Fraction]:
    """Each contender's expected chips over every runout the machine deals from ``unseen``."""
    contenders = [i for i in range(start.n) if start.in_hand[i]]
    expected = [Fraction(0)] * len(contenders)
    stack: list[tuple[int, ...]] = [()]
    while stack:
        seq = stack.pop()
        won = _run(start, seq, value)
        if won is _MORE:
            more = [seq + (c,) for c in unseen if c not in seq]
            assert more, "the runout needs more cards than the test leaves unseen"
            stack.extend(more)
            continue
        weight = Fraction(1, math.perm(len(unseen), len(seq)))
        for k, i in enumerate(contenders):
            expected[k] += weight * won[i]
    return expected


def deal_out(hand: StudHand, draw, *, until=lambda h: h.over) -> None:
    """Deal ``hand`` from ``draw()`` (pay rules paid, a community card where the deal calls
    for one) until ``until(hand)``: by default to the end of the hand."""
    while not until(hand):
        nxt = hand.next_event()
        if nxt.seat is not None:
            hand.pay(nxt.seat)
            continue
        d = nxt.deals[0]
        if d.face is Face.COMMUNITY:
            hand.deal_community(draw())
        else:
            hand.deal(d.seat, draw(), up=d.face is Face.UP)


def random_all_in(game, rng, players: int, street: int, spare: int = 0, ranks=()):
    """A random all-in of ``players`` with unequal stacks, bet in from ``street`` on (pay
    rules paid while one can): the hand at that moment, its unseen cards (just enough for
    every runout, ``spare`` more, with a card of each of ``ranks`` among them if the deck has one) and the dead
    ones, or None when nobody was all in before the last street."""
    stacks = sorted(rng.sample(range(4, 40), players), key=lambda _: rng.random())
    hand = StudHand(game=game, stakes=STAKES, stacks=stacks)
    hand.post_antes()
    deck = list(range(52))
    rng.shuffle(deck)

    def deal(h: StudHand) -> None:
        deal_out(h, deck.pop, until=lambda h: h.phase is not Phase.DEAL)

    bet_until_closed(hand, street, deal)
    if hand.phase is not Phase.DEAL or sum(hand.in_hand) < 2:
        return None
    seats = seats_of(hand)
    need = sum(len(s.to_come) for s in seats) + spare
    unseen = deck[-need:]
    for k, r in enumerate(ranks):
        left = [c for c in deck if (c >> 2) + 2 == r]
        if left and not any(c in unseen for c in left):
            unseen[k] = left[0]
    dead = [c for c in range(52) if c not in hand.known and c not in unseen]
    return hand, unseen, dead
