"""Quick entry's pays under a pay rule (Baseball's three up, a ``pot`` price): each pay
given in the order of the up cards, and the refusals that name the seat and the card."""

from __future__ import annotations

import pytest

from tracker.engine.errors import DomainError
from tracker.engine.game_presets import PRESETS
from tracker.engine.procedure import QuickEntry, settle_quick

STAKES = {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10}


def entry(paid, put_in, up1=("3c", "3h")) -> QuickEntry:
    return QuickEntry(
        variant="baseball",
        game=PRESETS["baseball"],
        stakes=STAKES,
        starting_stacks=[100, 100, 100],
        put_in=put_in,
        paid=paid,
        folded=["fourth", None, "fourth"],
        shown=[
            {"down": [], "up": ["2c", "Kd"]},
            {"down": [], "up": list(up1)},
            {"down": [], "up": ["8c", "Jd"]},
        ],
    )


def test_two_threes_up_each_pay_the_pot_then():
    # The pot at the first three: the antes, 3; at the second: 3 + 3 = 6 at least.
    result = settle_quick(entry([None, [3, 6], None], [1, 10, 1]))
    assert result.paid == [0, 9, 0]
    assert result.finishing_stacks == [99, 102, 99]


def test_two_threes_in_one_sum_are_refused_naming_the_second_card():
    with pytest.raises(DomainError) as info:
        settle_quick(entry([None, 9, None], [1, 10, 1]))
    assert list(info.value.fields) == ["paid[1]"]
    assert "the 3h up on fourth street" in info.value.message
    assert "give each pay, in the order of the up cards" in info.value.message


def test_a_second_pay_under_the_pot_is_refused_on_that_pay():
    with pytest.raises(DomainError) as info:
        settle_quick(entry([None, [3, 4], None], [1, 8, 1]))
    assert list(info.value.fields) == ["paid[1][1]"]
    assert "seat 1 paid 4 for the 3h up on fourth street" in info.value.message
    assert "at least 6" in info.value.message


def test_a_pay_too_many_is_refused_on_it():
    with pytest.raises(DomainError) as info:
        settle_quick(entry([None, [3, 6], None], [1, 10, 1], up1=("3c", "8h")))
    assert list(info.value.fields) == ["paid[1][1]"]
    assert "gave 2 pays" in info.value.message


def test_a_three_up_without_pay_nor_fold_names_the_card():
    with pytest.raises(DomainError) as info:
        settle_quick(entry([None, None, None], [1, 1, 1]))
    assert list(info.value.fields) == ["paid[1]"]
    assert "seat 1 was dealt the 3c up on third street" in info.value.message
