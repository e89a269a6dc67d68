"""All-in equity of house games against a brute-force oracle: every runout of a small all-in
played through the real machine (``StudHand(game=...)``, dealt card by card in the order it
asks for, then ``settle()``), each weighted by its chance, against ``all_in_equity``."""

from __future__ import annotations

import copy
import math
from fractions import Fraction

import pytest

from tracker.engine.cards import parse_card
from tracker.engine.equity import EquityError, Pot, Seat, all_in_equity
from tracker.engine.events import event_for
from tracker.engine.game_presets import PRESETS
from tracker.engine.games import load_game
from tracker.engine.stakes import Stakes
from tracker.engine.stud import Face, Phase, StudHand, Verb

STAKES = Stakes(1, 2, 5, 10)
STACK = 8  # antes 1, the bring-in 2 called, then a bet of 5 puts both all in


def cards(text: str) -> list[int]:
    return [parse_card(t) for t in text.split()]


def _deal_known(hand: StudHand, queues: dict[int, list[int]]) -> None:
    while hand.phase is Phase.DEAL:
        nxt = hand.next_event()
        assert nxt.seat is None, "the known cards set off no pay rule"
        d = nxt.deals[0]
        hand.deal(d.seat, queues[d.seat].pop(0), up=d.face is Face.UP)


def all_in_at(game, queues: dict[int, list[int]], street: int) -> StudHand:
    """Heads-up, both all in when ``street``'s betting ends (its first actor bets all in)."""
    hand = StudHand(game=game, stakes=STAKES, stacks=[STACK, STACK])
    hand.post_antes()
    while not hand.closed:
        _deal_known(hand, queues)
        while hand.phase is Phase.BET:
            by = {o.verb: o for o in hand.next_event().options}
            if hand.street == street:
                option = by.get(Verb.BET) or by.get(Verb.CALL) or by[Verb.CHECK]
            else:
                option = by.get(Verb.BRING_IN) or by.get(Verb.CHECK) or by[Verb.CALL]
            hand.apply(event_for(option))
    assert hand.stacks == [0, 0] and hand.phase is Phase.DEAL
    return hand


_MORE = object()


def _run(start: StudHand, seq: tuple[int, ...]):
    hand = copy.deepcopy(start)
    at = 0
    while not hand.over:
        nxt = hand.next_event()
        assert nxt.phase is Phase.DEAL
        if nxt.seat is not None:  # a pay rule's price: all in, it pays nothing
            assert nxt.options[0].verb is Verb.PAY and nxt.options[0].amount == 0
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
    return hand.settle().winnings


def oracle(start: StudHand, unseen: list[int]) -> list[Fraction]:
    """Each seat's expected chips over every runout the machine deals from ``unseen``."""
    expected = [Fraction(0)] * start.n
    stack: list[tuple[int, ...]] = [()]
    while stack:
        seq = stack.pop()
        won = _run(start, seq)
        if won is _MORE:
            stack.extend(seq + (c,) for c in unseen if c not in seq)
            continue
        weight = Fraction(1, math.perm(len(unseen), len(seq)))
        for i, chips in enumerate(won):
            expected[i] += weight * chips
    return expected


def seats_of(hand: StudHand) -> list[Seat]:
    streets = hand.game.streets[hand.street :]
    to_come = tuple(f == "up" for s in streets for f in s.faces)
    out = []
    for i in range(hand.n):
        pairs = list(zip(hand.cards[i], hand.faces[i], strict=True))
        out.append(
            Seat(
                down=tuple(c for c, up in pairs if not up),
                up=tuple(c for c, up in pairs if up),
                to_come=to_come,
            )
        )
    return out


def check(game, queues: dict[int, list[int]], street: int, unseen: str, **kw):
    hand = all_in_at(game, {k: list(v) for k, v in queues.items()}, street)
    rest = cards(unseen)
    dead = [c for c in range(52) if c not in hand.known and c not in rest]
    pots = [Pot(p.amount, p.eligible) for p in hand.pots()]
    want = oracle(hand, rest)
    got = all_in_equity(
        "house",
        None,
        seats_of(hand),
        pots,
        dead=dead,
        game=game,
        up_order=[c for c in hand.up_order if c is not None],
        dealt=hand.dealt,
        exact_limit=10**9,
        **kw,
    )
    assert got.method == "exact"
    assert got.expected == pytest.approx([float(x) for x in want], abs=1e-9)
    assert 0 < min(want) and max(want) < sum(p.amount for p in pots)  # both can win
    return hand, got, rest, dead, pots


def test_five_card_stud_two_up_cards_to_come():
    queues = {0: cards("Ah Kd 9c Qs Tc"), 1: cards("Jd Jh 3s 2s 8c")}
    check(PRESETS["five_card_stud"], queues, 1, "Ac Kc 2h 3h 7d 8d 4s")


def test_follow_the_queen_the_runout_order_sets_the_wild_rank():
    # a queen to come, then whatever follows it is wild; the known cards have none
    queues = {0: cards("Ah Ad 5c 6h 7s Jd 3h"), 1: cards("Kc Ks 8h 9d 4c Tc 6s")}
    check(PRESETS["follow_the_queen"], queues, 2, "Qd Qh 5d 9s Kd 2c 7h")


def test_follow_the_queen_a_queen_already_up_and_the_seventh_down():
    queues = {0: cards("Ah Ad 5c Qh 7s 2d"), 1: cards("Kc Ks 8h 9d 4c Jh")}  # the 9d follows
    check(PRESETS["follow_the_queen"], queues, 3, "9s Qd 2c Kd 5s 8s")


def test_baseball_extra_cards_and_pays_in_the_runout():
    # fours to come earn an extra card at once; threes (wild) cost an all-in player nothing
    queues = {0: cards("Ah Ad 5c 6h 8s"), 1: cards("Kc Ks 7h Td Jc")}
    hand, got, *_ = check(PRESETS["baseball"], queues, 2, "4d 4s 3h 9c Kd 2c 7d")
    assert got.runouts > math.perm(7, 4)  # the runouts with an extra card are longer


def test_baseball_the_deck_runs_short_and_a_community_card_comes():
    # four players' worth of cards are gone: an extra card leaves too few for a seventh each
    game = PRESETS["baseball"]
    queues = {0: cards("Ah Ad 5c 6h 8s"), 1: cards("Kc Ks 7h Td Jc")}
    hand = all_in_at(game, {k: list(v) for k, v in queues.items()}, 2)
    rest = cards("4d 4s 3h 9c Kd")
    dealt = 52 - len(game.streets) - 4  # four cards a sixth and seventh street without extras
    dead = [c for c in range(52) if c not in hand.known and c not in rest]
    hand.dealt = dealt  # as if folded players' cards had been dealt too
    want = oracle(hand, rest)
    got = all_in_equity(
        "house", None, seats_of(hand), [Pot(p.amount, p.eligible) for p in hand.pots()],
        dead=dead, game=game, dealt=dealt, exact_limit=10**9,
    )  # fmt: skip
    assert got.expected == pytest.approx([float(x) for x in want], abs=1e-9)


@pytest.mark.parametrize("name", ["low_chicago", "high_chicago"])
def test_chicago_the_spade_half_follows_the_hole_cards(name):
    queues = {0: cards("Ah 3s 5c 6h 7d Jd"), 1: cards("Kc 9s 8h 9d 4c Tc")}
    check(PRESETS[name], queues, 3, "2s Qs 5d 9h Kd 2c 7h As")


def test_a_six_card_house_game_with_extra_cards():
    game = load_game(
        {
            "name": "six",
            "title": "Six",
            "streets": [
                {"faces": ["down", "up"]},
                {"faces": ["up"]},
                {"faces": ["up"], "unit": "big"},
                {"faces": ["up"], "unit": "big"},
                {"faces": ["down"], "unit": "big"},
            ],
            "extra_cards": [{"rank": "5", "face": "down"}],
        }
    )
    queues = {0: cards("Ah Ad 6c 8h"), 1: cards("Kc Ks 7h 9d")}
    check(game, queues, 2, "5d 5s Kd 2c 7d Ac")


def test_monte_carlo_agrees_with_the_oracle():
    queues = {0: cards("Ah Ad 5c 6h 7s Jd 3h"), 1: cards("Kc Ks 8h 9d 4c Tc 6s")}
    game = PRESETS["follow_the_queen"]
    hand, exact, rest, dead, pots = check(game, queues, 2, "Qd Qh 5d 9s Kd 2c 7h")
    mc = all_in_equity(
        "house", None, seats_of(hand), pots, dead=dead, game=game,
        up_order=list(hand.up_order), exact_limit=0, samples=4000, seed=7,
    )  # fmt: skip
    assert mc.method == "monte_carlo" and mc.runouts == 4000
    for i in range(2):
        assert mc.stderr[i] > 0
        assert abs(mc.expected[i] - exact.expected[i]) < 5 * mc.stderr[i]


def test_a_player_with_chips_facing_a_pay_rule_is_refused():
    seat = Seat(cards("Ah Ad"), cards("5c 6h 8s"), (True, False))
    rich = Seat(cards("Kc Ks"), cards("7h Td Jc"), (True, False), chips=50)
    with pytest.raises(EquityError) as err:
        all_in_equity("house", None, [seat, rich], game=PRESETS["baseball"])
    assert err.value.fields == {"seats[1].chips": [err.value.message]}


def test_follow_the_queen_needs_the_up_order():
    a = Seat(cards("Ah Ad"), cards("5c 6h 7s"), (True, False))
    b = Seat(cards("Kc Ks"), cards("8h 9d 4c"), (True, False))
    with pytest.raises(EquityError) as err:
        all_in_equity("house", None, [a, b], game=PRESETS["follow_the_queen"])
    assert "up_order" in err.value.fields


@pytest.mark.parametrize("name", ["follow_the_queen", "baseball", "five_card_stud"])
def test_the_facts_of_a_house_all_in_value_the_runout_the_machine_deals(name):
    from tracker.engine.facts import FactsObserver, hand_facts

    game = PRESETS[name]
    first = {0: cards("Ah Ad 5c 6h 8s"), 1: cards("Kc Ks 7h Td Jc")}
    if name == "five_card_stud":
        first = {0: cards("Ah 5c 6h"), 1: cards("Kc 7h Td")}
    observer = FactsObserver(2)
    hand = StudHand(game=game, stakes=STAKES, stacks=[STACK, STACK], observers=[observer])
    hand.post_antes()
    street = 2 if name != "five_card_stud" else 1
    queues = {k: list(v) for k, v in first.items()}
    while not hand.closed:
        _deal_known(hand, queues)
        while hand.phase is Phase.BET:
            by = {o.verb: o for o in hand.next_event().options}
            if hand.street == street:
                option = by.get(Verb.BET) or by.get(Verb.CALL) or by[Verb.CHECK]
            else:
                option = by.get(Verb.BRING_IN) or by.get(Verb.CHECK) or by[Verb.CALL]
            hand.apply(event_for(option))
    moment = copy.deepcopy(hand)
    rest = iter(cards("4d Qd 3h 9c 2c Kd 7d 8d"))
    while not hand.over:
        nxt = hand.next_event()
        if nxt.seat is not None:
            hand.pay(nxt.seat)
            continue
        d = nxt.deals[0]
        hand.deal(d.seat, next(rest), up=d.face is Face.UP)
    reading = hand.settle().to_dict()
    facts = hand_facts(
        variant="house", options={}, entry_mode="full", entry={}, reading=reading,
        observed=observer, game=game,
    )  # fmt: skip
    assert "ai_skip" not in facts[0] and facts[0]["ai"] == 1
    want = all_in_equity(
        "house", None, seats_of(moment), [Pot(p.amount, p.eligible) for p in moment.pots()],
        game=game, up_order=list(moment.up_order), dealt=moment.dealt,
    )  # fmt: skip
    assert facts[0]["eq"] == round(want.equity[0], 4) and facts[1]["ev"] == round(
        want.expected[1], 2
    )
    assert facts[0]["ai_st"] == street + 3
