"""Pots from contributions and their payouts: examples and properties."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.engine.errors import DomainError
from tracker.engine.pots import Pot, build_pots, settle_pots, split_amount


def test_main_and_side_pots():
    pots = build_pots([50, 200, 200, 120], [True, True, True, True])
    assert pots == [Pot(200, (0, 1, 2, 3)), Pot(210, (1, 2, 3)), Pot(160, (1, 2))]


def test_folded_chips_stay_in_the_pots_they_reached():
    pots = build_pots([80, 200, 200, 120], [True, False, True, True])
    assert pots == [Pot(320, (0, 2, 3)), Pot(120, (2, 3)), Pot(160, (2,))]


def test_levels_with_the_same_contenders_are_one_pot():
    # The folded player's 60 makes a level of its own, but with the same contenders.
    assert build_pots([100, 60, 100], [True, False, True]) == [Pot(260, (0, 2))]


def test_dead_money_joins_the_main_pot():
    assert build_pots([30, 100, 100], [True, True, True], dead=[0, 40, 0]) == [
        Pot(130, (0, 1, 2)),
        Pot(140, (1, 2)),
    ]


def test_a_pot_nobody_still_in_can_win_is_refused():
    with pytest.raises(DomainError) as info:
        build_pots([100, 50], [False, True])
    assert info.value.code == "pot_without_contender"


def test_split_odd_chips_to_the_first_winner_clockwise():
    assert split_amount(7, [3, 1]) == [(1, 4), (3, 3)]
    assert split_amount(11, [2, 0, 1]) == [(0, 5), (1, 3), (2, 3)]


def fixed(high, low):
    """A stand-in evaluator: fixed winners by seat (the showdown gives the seats' indices)."""
    calls = []

    def evaluate(showdown):
        calls.append(showdown)
        seats = showdown["players"]
        names = [p["name"] for p in seats]
        return {
            "players": [{"high": None, "low": None} for _ in seats],
            "high_winners": [i for i, n in enumerate(names) if n in high],
            "low_winners": [i for i, n in enumerate(names) if n in low],
        }

    evaluate.calls = calls
    return evaluate


def hands(n):
    return {i: {"down": [], "up": [], "name": i} for i in range(n)}


def test_high_low_halves_odd_chip_to_high():
    settlement = settle_pots(
        [Pot(17, (0, 1, 2))],
        n_players=3,
        variant="low_hole",
        options={"game": "high_low"},
        hands=hands(3),
        evaluate=fixed({2}, {0, 1}),
    )
    assert settlement.payouts[0].awards == ((0, 4), (1, 4), (2, 9))
    assert settlement.winnings == [4, 4, 9]


def test_no_low_high_scoops():
    settlement = settle_pots(
        [Pot(17, (0, 1))],
        n_players=2,
        variant="low_hole",
        options={"game": "high_low"},
        hands=hands(2),
        evaluate=fixed({1}, set()),
    )
    assert settlement.payouts[0].awards == ((1, 17),)


def test_each_pot_is_read_over_its_own_contenders():
    evaluate = fixed({0}, set())
    settlement = settle_pots(
        [Pot(90, (0, 1, 2)), Pot(40, (1, 2))],
        n_players=3,
        variant="seven_card_stud",
        options={},
        hands=hands(3),
        evaluate=evaluate,
    )
    # Seat 0 wins the main pot; the side pot is read among seats 1 and 2 only.
    assert [len(c["players"]) for c in evaluate.calls] == [3, 2]
    assert settlement.payouts[1].awards in (((1, 40),), ((2, 40),), ((1, 20), (2, 20)))


# --- properties -------------------------------------------------------------------


@st.composite
def tables(draw):
    n = draw(st.integers(2, 8))
    contributions = draw(st.lists(st.integers(0, 500), min_size=n, max_size=n))
    in_hand = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    if not any(in_hand):
        in_hand[draw(st.integers(0, n - 1))] = True
    # Legal hands: someone still in put in at least as much as any folded player.
    top = max(range(n), key=lambda i: contributions[i])
    if not in_hand[top]:
        best_in = max((i for i in range(n) if in_hand[i]), key=lambda i: contributions[i])
        contributions[best_in] = contributions[top]
    dead = draw(st.lists(st.integers(0, 60), min_size=n, max_size=n))
    return contributions, in_hand, dead


@given(tables())
@settings(max_examples=300, deadline=None)
def test_pots_conserve_chips_and_cap_each_player(table):
    contributions, in_hand, dead = table
    pots = build_pots(contributions, in_hand, dead)
    assert sum(p.amount for p in pots) == sum(contributions) + sum(dead)
    for k, pot in enumerate(pots):
        assert pot.amount > 0 and pot.eligible
        assert all(in_hand[i] for i in pot.eligible)
        if k:
            assert set(pot.eligible) < set(pots[k - 1].eligible)  # side pots narrow
    for i in range(len(contributions)):
        # A player still in can win from each opponent exactly what they put in
        # themselves (capped by what that opponent put in), plus the dead money.
        can_win = sum(p.amount for p in pots if i in p.eligible)
        if in_hand[i] and contributions[i] > 0:
            expected = sum(min(c, contributions[i]) for c in contributions) + sum(dead)
            assert can_win == expected
        if not in_hand[i]:
            assert can_win == 0


@given(tables(), st.randoms(use_true_random=False), st.sampled_from(["high", "low", "high_low"]))
@settings(max_examples=300, deadline=None)
def test_payouts_conserve_chips_and_pay_only_contenders(table, rnd, game):
    contributions, in_hand, dead = table
    pots = build_pots(contributions, in_hand, dead)
    seats = [i for i in range(len(in_hand)) if in_hand[i]]

    def evaluate(showdown):
        players = showdown["players"]
        k = len(players)
        high = sorted(rnd.sample(range(k), rnd.randint(1, k)))
        low = sorted(rnd.sample(range(k), rnd.randint(0, k)))
        return {
            "players": [{"high": None, "low": None}] * k,
            "high_winners": high,
            "low_winners": low,
        }

    settlement = settle_pots(
        pots,
        n_players=len(in_hand),
        variant="low_hole",
        options={"game": game},
        hands={i: {"down": [], "up": []} for i in seats},
        evaluate=evaluate,
    )
    assert sum(settlement.winnings) == sum(p.amount for p in pots)
    for pot, award in zip(pots, settlement.payouts, strict=True):
        assert sum(a for _, a in award.awards) == pot.amount
        assert {s for s, _ in award.awards} <= set(pot.eligible)
    for i in range(len(in_hand)):
        if not in_hand[i]:
            assert settlement.winnings[i] == 0
