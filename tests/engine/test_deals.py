"""Deals (tracker/engine/deals.py): ICM against a brute force over finishing orders, and
every deal conserves the pool in whole units."""

from fractions import Fraction
from itertools import permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.engine.deals import (
    MAX_ICM_PLAYERS,
    chip_chop_deal,
    custom_deal,
    deal_options,
    even_deal,
    icm_deal,
    icm_equities,
    round_to_unit,
)
from tracker.engine.errors import DomainError


def brute_force_icm(stacks, payouts):
    """Malmuth-Harville by listing every finishing order and its probability."""
    n = len(stacks)
    equity = [Fraction(0)] * n
    for order in permutations(range(n)):
        probability = Fraction(1)
        left = sum(stacks)
        for player in order:
            probability *= Fraction(stacks[player], left)
            left -= stacks[player]
        for place, player in enumerate(order[: len(payouts)]):
            equity[player] += probability * payouts[place]
    return equity


@st.composite
def tables(draw, max_players=6, max_chips=100_000):
    """Stacks of the players still in and the payouts of the places left (<= players)."""
    n = draw(st.integers(1, max_players))
    # small chip counts too, so equal stacks (ties) come up often
    chips = st.one_of(st.integers(1, 12), st.integers(1, max_chips))
    stacks = draw(st.lists(chips, min_size=n, max_size=n))
    places = draw(st.integers(1, n))
    payouts = draw(st.lists(st.integers(0, 20_000), min_size=places, max_size=places))
    return stacks, payouts


units = st.sampled_from([1, 5, 25, 100, 500])


@settings(max_examples=300)
@given(tables())
def test_icm_equals_the_brute_force_over_finishing_orders(table):
    stacks, payouts = table
    assert icm_equities(stacks, payouts) == brute_force_icm(stacks, payouts)


@settings(max_examples=100)
@given(tables(), st.sampled_from([1, 100]))
def test_icm_deal_is_the_brute_force_equity_rounded_within_one_unit(table, unit):
    stacks, payouts = table
    payouts = [p * unit for p in payouts]  # whole units
    amounts = icm_deal(stacks, payouts, unit=unit)
    exact = brute_force_icm(stacks, payouts)
    assert sum(amounts) == sum(payouts)
    for amount, share in zip(amounts, exact, strict=True):
        assert amount % unit == 0
        assert abs(amount - share) < unit


def test_icm_worked_example():
    # A holds half the chips: first 1/2, second 1/3 (B or C first, then A 2/3 of the
    # rest), third 1/6: 50/2 + 30/3 + 20/6 = 115/3; B and C split the rest evenly.
    assert icm_equities([2000, 1000, 1000], [50, 30, 20]) == [
        Fraction(115, 3),
        Fraction(185, 6),
        Fraction(185, 6),
    ]
    # heads-up, ICM is second prize plus the chip share of the difference
    assert icm_equities([3000, 1000], [700, 300]) == [Fraction(600), Fraction(400)]


def test_icm_for_ten_players_is_exact_and_adds_up():
    stacks = [9000, 7500, 6100, 5000, 4400, 3000, 2600, 1500, 900, 350]
    payouts = [40_000, 25_000, 15_000, 8000, 5000, 3000, 2000, 1000, 600, 400]
    equity = icm_equities(stacks, payouts)
    assert sum(equity) == sum(payouts)
    assert equity == sorted(equity, reverse=True)  # a bigger stack is worth more
    assert all(payouts[-1] < e < payouts[0] for e in equity)
    amounts = icm_deal(stacks, payouts, unit=100)
    assert sum(amounts) == sum(payouts) and all(a % 100 == 0 for a in amounts)


def test_icm_refuses_more_than_ten_players_and_the_options_leave_it_out():
    stacks = [1000] * (MAX_ICM_PLAYERS + 1)
    with pytest.raises(DomainError) as err:
        icm_equities(stacks, [500, 300])
    assert err.value.code == "invalid_deal"
    assert "at most 10 players" in err.value.fields["stacks"][0]
    options = deal_options(stacks, [500, 300], unit=1)
    assert set(options) == {"chip_chop", "even"}


def chip_chop_by_hand(stacks, payouts):
    n = len(stacks)
    locked = min(payouts) if len(payouts) == n else 0
    return [locked + Fraction((sum(payouts) - n * locked) * chips, sum(stacks)) for chips in stacks]


@settings(max_examples=200)
@given(tables(max_players=10), units)
def test_chip_chop_and_even_split_conserve_the_pool_in_whole_units(table, unit):
    stacks, payouts = table
    payouts = [p * unit for p in payouts]
    pool = sum(payouts)
    exact = {
        "chip_chop": chip_chop_by_hand(stacks, payouts),
        "even": [Fraction(pool, len(stacks))] * len(stacks),
    }
    for name, deal in (("chip_chop", chip_chop_deal), ("even", even_deal)):
        amounts = deal(stacks, payouts, unit=unit)
        assert sum(amounts) == pool, name
        assert all(a >= 0 and a % unit == 0 for a in amounts), name
        assert all(abs(a - e) < unit for a, e in zip(amounts, exact[name], strict=True)), name


@settings(max_examples=200)
@given(tables(max_players=7), units)
def test_a_bigger_stack_never_gets_less(table, unit):
    stacks, payouts = table
    payouts = sorted((p * unit for p in payouts), reverse=True)
    for amounts in deal_options(stacks, payouts, unit=unit).values():
        for i in range(len(stacks)):
            for j in range(len(stacks)):
                if stacks[i] > stacks[j]:
                    assert amounts[i] >= amounts[j]


def test_chip_chop_locks_in_the_last_place_then_splits_by_chips():
    # 2,000 each locked in, the other 4,000 split 6:3:1
    assert chip_chop_deal([6000, 3000, 1000], [5000, 3000, 2000]) == [4400, 3200, 2400]
    # fewer places than players: nothing is sure, all by chips
    assert chip_chop_deal([6000, 3000, 1000], [7000, 3000]) == [6000, 3000, 1000]


def test_the_leftover_units_go_to_the_largest_remainders_then_the_bigger_stacks():
    # 10,000 / 3 = 3,333.33 each: one unit left, to the biggest stack, then the first seat
    assert even_deal([1000, 3000, 2000], [6000, 4000], unit=100) == [3300, 3400, 3300]
    assert even_deal([2000, 2000, 2000], [6000, 4000], unit=100) == [3400, 3300, 3300]
    # exact shares 250, 333.3, 416.7 -> 200, 300, 400: they lost 50, 33.3 and 16.7,
    # so the one unit left goes to 250
    shares = [Fraction(250), Fraction(1000, 3), Fraction(1250, 3)]
    assert round_to_unit(shares, unit=100, stacks=[1, 1, 1]) == [300, 300, 400]
    # a share that is already whole units gets nothing more: 15 by chips 1:1:1:3:3
    assert chip_chop_deal([1, 1, 1, 3, 3], [15]) == [2, 2, 1, 5, 5]
    # equal remainders: the bigger share first
    shares = [Fraction(150), Fraction(50)]
    assert round_to_unit(shares, unit=100, stacks=[1, 1]) == [200, 0]


def test_a_pool_that_is_not_whole_units_gives_the_odd_amount_to_the_biggest_share():
    amounts = chip_chop_deal([3000, 1000], [834, 400], unit=100)
    assert sum(amounts) == 1234
    # 400 each locked in, 434 split 3:1: 725.5 and 508.5 -> 700 and 500, the odd 34 to 700
    assert amounts == [734, 500]


def test_a_typed_in_deal_is_checked():
    assert custom_deal([3000, 1000, 500], [700, 300], [500, 300, 200]) == [500, 300, 200]
    cases = [
        ([500, 300], "amounts", "2 amounts for 3 players"),
        ([600, 300, 200], "amounts", "add up to 1100, the remaining pool is 1000"),
        ([1100, -100, 0], "amounts[1]", "at least 0"),
        ([500, 300.0, 200], "amounts[1]", "whole number"),
        ([500, True, 499], "amounts[1]", "whole number"),
    ]
    for amounts, field, words in cases:
        with pytest.raises(DomainError) as err:
            custom_deal([3000, 1000, 500], [700, 300], amounts)
        assert err.value.code == "invalid_deal"
        assert words in err.value.fields[field][0], (amounts, err.value.fields)


def test_bad_tables_name_every_field_at_fault():
    with pytest.raises(DomainError) as err:
        icm_deal([1000, 0, -5], [500, 300, 200, 100], unit=0)
    assert set(err.value.fields) == {"stacks[1]", "stacks[2]", "payouts", "unit"}
    with pytest.raises(DomainError) as err:
        even_deal([], [])
    assert set(err.value.fields) == {"stacks"}
    with pytest.raises(DomainError) as err:
        chip_chop_deal([100, 200], [50, -1])
    assert set(err.value.fields) == {"payouts[1]"}


def test_one_player_left_takes_the_pool():
    assert deal_options([4200], [900], unit=100) == {
        "icm": [900],
        "chip_chop": [900],
        "even": [900],
    }
