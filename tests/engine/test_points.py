"""League points formulas (tracker/engine/points.py) against their published worked examples."""

from __future__ import annotations

import pytest

from tracker.engine.points import (
    DEFAULT_TABLE,
    PointsError,
    best_total,
    describe,
    normalize_formula,
    place_points,
    tlb_points,
    tournament_points,
)


@pytest.mark.parametrize(
    "entrants,place,buy_in,points",
    [
        (150, 3, 20, 163.09),  # PokerStars TLB example 1: 3rd of 150 in a $20 tournament
        (900, 25, 0, 23.88),  # example 2: 25th of 900 in a freeroll
        (250, 10, 10, 100.54),  # example 3: 10th of 250, 200 FPP counted as $10
    ],
)
def test_pokerstars_tlb_worked_examples(entrants, place, buy_in, points):
    assert tlb_points(entrants, place, buy_in) == points
    spec = {"formula": "pokerstars_tlb", "buy_in": buy_in}
    assert place_points(spec, entrants=entrants, place=place) == points


def test_tlb_top_fraction_only_scores_the_top():
    spec = {"formula": "pokerstars_tlb", "buy_in": 20, "top_fraction": 0.15}
    assert place_points(spec, entrants=150, place=22) > 0  # 22 <= 22.5
    assert place_points(spec, entrants=150, place=23) == 0


def test_linear_is_the_default():
    assert normalize_formula({}) == normalize_formula(None) == {"formula": "linear", "best": None}
    assert [place_points(None, entrants=5, place=k) for k in range(1, 6)] == [5, 4, 3, 2, 1]


def test_fixed_table_and_its_default():
    spec = {"formula": "table", "table": [10, 6, 4]}
    assert [place_points(spec, entrants=5, place=k) for k in range(1, 6)] == [10, 6, 4, 0, 0]
    default = normalize_formula({"formula": "table"})
    assert default["table"] == list(DEFAULT_TABLE)


def test_ties_share_the_points_of_the_places_they_span():
    # Bob and Cat share second of four: places 2 and 3 (3 and 2 points) -> 2.5 each.
    points = tournament_points(None, {"ann": 1, "bob": 2, "cat": 2, "dan": 4})
    assert points == {"ann": 4.0, "bob": 2.5, "cat": 2.5, "dan": 1.0}
    assert sum(points.values()) == 4 + 3 + 2 + 1
    table = tournament_points({"formula": "table", "table": [10, 6, 4]}, {"a": 1, "b": 1, "c": 3})
    assert table == {"a": 8.0, "b": 8.0, "c": 4.0}
    tlb = tournament_points({"formula": "pokerstars_tlb"}, {"a": 1, "b": 2, "c": 2})
    # (4.87 + 3.98) / 2 = 4.425, rounded half up like every points figure
    assert (tlb_points(3, 2), tlb_points(3, 3)) == (4.87, 3.98)
    assert tlb["b"] == tlb["c"] == 4.43


def test_best_n_events():
    assert best_total([5, 1, 3, 4], None) == (13.0, 4)
    assert best_total([5, 1, 3, 4], 2) == (9.0, 2)
    assert best_total([2.5], 3) == (2.5, 1)


@pytest.mark.parametrize(
    "spec,field",
    [
        ({"formula": "elo"}, "points_formula.formula"),
        ({"formula": "linear", "table": [1]}, "points_formula.table"),
        ({"formula": "table", "table": "10,5"}, "points_formula.table"),
        ({"formula": "table", "table": [10, -1]}, "points_formula.table[1]"),
        ({"formula": "pokerstars_tlb", "buy_in": -5}, "points_formula.buy_in"),
        ({"formula": "pokerstars_tlb", "top_fraction": 2}, "points_formula.top_fraction"),
        ({"formula": "linear", "best": 0}, "points_formula.best"),
        ("linear", "points_formula"),
    ],
)
def test_bad_formulas_name_the_field(spec, field):
    with pytest.raises(PointsError) as err:
        normalize_formula(spec)
    assert field in err.value.fields


def test_describe():
    assert describe(None) == "Linear: players - place + 1"
    text = describe({"formula": "pokerstars_tlb", "buy_in": 5, "top_fraction": 0.15, "best": 10})
    assert "b = 5" in text and "top 15%" in text and "best 10" in text
