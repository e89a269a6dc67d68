"""All-in equity (tracker/engine/equity.py): exact enumeration against a brute force
through the public showdown evaluator, Monte Carlo against exact, pots, errors."""

from __future__ import annotations

import itertools
import random

import pytest

from tracker.engine import evaluate_showdown
from tracker.engine.cards import format_card
from tracker.engine.cards import parse_card as c
from tracker.engine.equity import EquityError, Pot, Seat, all_in_equity, runout_work
from tracker.engine.pots import award_pot


def cards(text: str) -> tuple[int, ...]:
    return tuple(c(text[k : k + 2]) for k in range(0, len(text), 2))


def brute_force(variant, options, seats, pots, dead=(), community=False):
    """Expected chips by dealing every ordered runout and settling each pot with
    evaluate_showdown over its own contenders, as the engine settles a hand."""
    seen = {x for s in seats for x in (*s.down, *s.up)} | set(dead)
    unseen = [x for x in range(52) if x not in seen]
    need = sum(len(s.to_come) for s in seats) + (1 if community else 0)
    game = (options or {}).get("game", "high")
    totals = [0.0] * len(seats)
    count = 0
    for draw in itertools.permutations(unseen, need):
        at = 0
        players = []
        for s in seats:
            new = draw[at : at + len(s.to_come)]
            at += len(s.to_come)
            down = list(s.down) + [x for x, f in zip(new, s.to_come, strict=True) if not f]
            up = list(s.up) + [x for x, f in zip(new, s.to_come, strict=True) if f]
            p = {"down": [format_card(x) for x in down], "up": [format_card(x) for x in up]}
            if s.declare:
                p["declare"] = s.declare
            players.append(p)
        comm = format_card(draw[-1]) if community else None
        for pot in pots:
            elig = list(pot.eligible)
            if len(elig) == 1:
                totals[elig[0]] += pot.amount
                continue
            res = evaluate_showdown(
                {
                    "variant": variant,
                    "options": options or {},
                    "community": comm,
                    "players": [players[i] for i in elig],
                }
            )
            hi = [elig[i] for i in res["high_winners"]]
            lo = [elig[i] for i in res["low_winners"]]
            for seat, chips in award_pot(pot.amount, game, hi, lo, elig):
                totals[seat] += chips
        count += 1
    return [t / count for t in totals]


SIXTH = [
    Seat(cards("Kh7c"), cards("9h9d2s5c"), (False,)),
    Seat(cards("Qs3d"), cards("JsTs4h6d"), (False,)),
]
LOW_SIXTH = [
    Seat(cards("Ah3c"), cards("5d7s2hKc"), (False,)),
    Seat(cards("4s6h"), cards("8c8dQh3s"), (False,)),
]

CASES = [
    ("seven_card_stud", {}, SIXTH, [Pot(120, (0, 1))]),
    ("kings_and_little_ones", {}, SIXTH, [Pot(120, (0, 1))]),
    (
        "kings_and_little_ones",
        {"king_required": False, "all_lowest_wild": True},
        SIXTH,
        [Pot(90, (0, 1))],
    ),
    ("low_hole", {}, SIXTH, [Pot(120, (0, 1))]),
    ("low_hole", {"game": "high_low"}, LOW_SIXTH, [Pot(121, (0, 1))]),
    ("low_hole", {"game": "low", "low_ranking": "deuce_to_seven"}, LOW_SIXTH, [Pot(100, (0, 1))]),
    ("low_hold", {"same_rank_wild": "all"}, SIXTH, [Pot(100, (0, 1))]),
]


@pytest.mark.parametrize("variant,options,seats,pots", CASES)
def test_exact_equals_brute_force(variant, options, seats, pots):
    result = all_in_equity(variant, options, seats, pots, dead=cards("2c8h"))
    assert result.method == "exact"
    expected = brute_force(variant, options, seats, pots, dead=cards("2c8h"))
    assert result.expected == pytest.approx(expected, abs=1e-9)
    assert sum(result.expected) == pytest.approx(sum(p.amount for p in pots))


def test_declarations_and_side_pots_three_way():
    seats = [
        Seat(cards("Ah3c"), cards("5d7s2hKc"), (False,), declare="low"),
        Seat(cards("4s6h"), cards("8c8dQh3s"), (False,), declare="both"),
        Seat(cards("KsKd"), cards("9c9s4d6c"), (False,), declare="high"),
    ]
    pots = [Pot(150, (0, 1, 2)), Pot(61, (1, 2))]
    options = {"game": "high_low", "declaration": "declare"}
    # Brute force over 3 cards (~35,000 runouts) would take seconds: compare with
    # a narrower deck of dead cards instead.
    dead = [x for x in range(52) if x not in {y for s in seats for y in (*s.down, *s.up)}][:26]
    result = all_in_equity("low_hole", options, seats, pots, dead=dead)
    assert result.method == "exact"
    assert result.expected == pytest.approx(
        brute_force("low_hole", options, seats, pots, dead=dead), abs=1e-9
    )
    assert result.pot_equity[1][0] == 0.0  # seat 0 cannot win the side pot
    assert sum(result.pot_equity[1]) == pytest.approx(1.0)


def test_community_card():
    # Seven players reached seventh street: one community card for everyone.
    rng = random.Random(5)
    deck = list(range(52))
    rng.shuffle(deck)
    seats = [
        Seat(tuple(deck[6 * i : 6 * i + 2]), tuple(deck[6 * i + 2 : 6 * i + 6])) for i in range(3)
    ]
    pots = [Pot(300, (0, 1, 2))]
    result = all_in_equity("kings_and_little_ones", {}, seats, pots, community=True)
    assert result.method == "exact" and result.runouts == 52 - 18
    assert result.expected == pytest.approx(
        brute_force("kings_and_little_ones", {}, seats, pots, community=True), abs=1e-9
    )


@pytest.mark.parametrize("variant", ["seven_card_stud", "kings_and_little_ones", "low_hole"])
def test_monte_carlo_agrees_with_exact(variant):
    seats = [
        Seat(cards("Kh7c"), cards("9h9d2s"), (True, False)),
        Seat(cards("Qs3d"), cards("JsTs4h"), (True, False)),
    ]
    pots = [Pot(200, (0, 1))]
    exact = all_in_equity(variant, {}, seats, pots)
    assert exact.method == "exact"  # fifth street heads-up: ~2.4 million runouts
    mc = all_in_equity(variant, {}, seats, pots, exact_limit=0, samples=4000)
    assert mc.method == "monte_carlo" and mc.runouts == 4000
    for i in range(2):
        assert mc.stderr[i] > 0
        assert abs(mc.expected[i] - exact.expected[i]) < 4.5 * mc.stderr[i]


def test_monte_carlo_is_reproducible_and_seeded():
    seats = [
        Seat(cards("Kh7c"), cards("9h"), (True, True, True, False)),
        Seat(cards("Qs3d"), cards("Js"), (True, True, True, False)),
    ]
    a = all_in_equity("low_hole", {}, seats, samples=500)
    b = all_in_equity("low_hole", {}, seats, samples=500)
    assert a.method == "monte_carlo" and a == b
    other = all_in_equity("low_hole", {}, seats, samples=500, seed=7)
    assert other.expected != a.expected
    assert sum(a.equity) == pytest.approx(1.0)


def test_split_pot_pays_the_odd_chip_like_the_engine():
    # Both play the board-like straight: every runout that changes nothing splits.
    seats = [
        Seat(cards("2c3c"), cards("Th9dJsQh"), (False,)),
        Seat(cards("2d3d"), cards("TsJdQsKh"), (False,)),
    ]
    result = all_in_equity("seven_card_stud", {}, seats, [Pot(11, (0, 1))])
    assert result.expected == pytest.approx(
        brute_force("seven_card_stud", {}, seats, [Pot(11, (0, 1))]), abs=1e-9
    )


def test_runout_work_counts_faces():
    up_down = Seat((), (), (True, False))
    assert runout_work(40, [up_down, up_down]) == (40 * 39) ** 2
    assert runout_work(40, [Seat((), ())] * 2, community=True) == 40


@pytest.mark.parametrize(
    "seats,dead,field",
    [
        ([Seat(cards("AsAs"), cards("2c3c4c5c"), (False,)), SIXTH[1]], (), "seats[0].down[1]"),
        ([Seat(cards("As"), cards("2c3c4c5c"), (False,)), SIXTH[1]], (), "seats[0]"),
        (SIXTH, cards("Kh"), "dead[0]"),
        (SIXTH[:1], (), "seats"),
    ],
)
def test_bad_input_names_the_field(seats, dead, field):
    with pytest.raises(EquityError) as err:
        all_in_equity("seven_card_stud", {}, seats, dead=dead)
    assert field in err.value.fields


def test_pot_eligibility_is_checked():
    with pytest.raises(EquityError) as err:
        all_in_equity("seven_card_stud", {}, SIXTH, [Pot(10, (0, 5))])
    assert "pots[0]" in err.value.fields
