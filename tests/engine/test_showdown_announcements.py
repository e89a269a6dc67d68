"""Variants and announcements: names, defaults and refusals exactly as RULES.md."""

import pytest

from tracker.engine.announcements import (
    MAX_PLAYERS,
    VARIANTS,
    max_players,
    normalize_announcements,
)
from tracker.engine.errors import DomainError


def test_variants_and_seats():
    assert VARIANTS == ("seven_card_stud", "kings_and_little_ones", "low_hole", "low_hold")
    assert MAX_PLAYERS == {
        "seven_card_stud": 7,
        "kings_and_little_ones": 7,
        "low_hole": 8,
        "low_hold": 7,
    }
    assert max_players("low_hole") == 8


@pytest.mark.parametrize(
    "variant, expected",
    [
        ("seven_card_stud", {"double_ace_flush": False}),
        (
            "kings_and_little_ones",
            {
                "double_ace_flush": False,
                "king_required": True,
                "all_lowest_wild": False,
                "ace_low_for_lowest": False,
                "door_card_kings": False,
            },
        ),
        (
            "low_hole",
            {
                "double_ace_flush": False,
                "game": "high",
                "low_ranking": "ace_to_five",
                "low_qualifier": None,
                "declaration": "cards_speak",
            },
        ),
        (
            "low_hold",
            {
                "double_ace_flush": False,
                "same_rank_wild": "none",
                "buy_version": "contributed",
                "buy_price": None,
            },
        ),
    ],
)
def test_defaults(variant, expected):
    assert normalize_announcements(variant, None) == expected
    assert normalize_announcements(variant, {}) == expected


def test_low_qualifier_default_follows_game():
    assert normalize_announcements("low_hole", {"game": "high_low"})["low_qualifier"] == 8
    assert normalize_announcements("low_hole", {"game": "low"})["low_qualifier"] is None
    got = normalize_announcements("low_hole", {"game": "high_low", "low_qualifier": None})
    assert got["low_qualifier"] is None
    assert (
        normalize_announcements("low_hole", {"game": "low", "low_qualifier": 8})["low_qualifier"]
        == 8
    )


def test_given_values_are_kept():
    got = normalize_announcements(
        "low_hold", {"same_rank_wild": "all", "buy_version": "buderick", "buy_price": 40}
    )
    assert got["same_rank_wild"] == "all" and got["buy_version"] == "buderick"
    assert got["buy_price"] == 40


@pytest.mark.parametrize(
    "variant, options, field",
    [
        ("low_hole", {"king_required": True}, "options.king_required"),
        ("seven_card_stud", {"game": "high"}, "options.game"),
        ("low_hole", {"game": "middle"}, "options.game"),
        ("low_hole", {"low_ranking": "razz"}, "options.low_ranking"),
        ("low_hole", {"low_qualifier": 7}, "options.low_qualifier"),
        ("low_hole", {"low_qualifier": True}, "options.low_qualifier"),
        ("low_hole", {"declaration": "shout"}, "options.declaration"),
        ("kings_and_little_ones", {"king_required": "yes"}, "options.king_required"),
        ("kings_and_little_ones", {"door_card_kings": 1}, "options.door_card_kings"),
        ("low_hold", {"same_rank_wild": "some"}, "options.same_rank_wild"),
        ("low_hold", {"buy_version": "free"}, "options.buy_version"),
        ("low_hold", {"buy_price": -5}, "options.buy_price"),
        ("low_hold", {"buy_price": 2.5}, "options.buy_price"),
        ("low_hold", {"buy_price": True}, "options.buy_price"),
        ("low_hold", ["none"], "options"),
    ],
)
def test_refusals_name_the_option(variant, options, field):
    with pytest.raises(DomainError) as exc:
        normalize_announcements(variant, options)
    assert list(exc.value.fields) == [field]


@pytest.mark.parametrize("variant", ["razz", "", None, 3, "Seven_Card_Stud"])
def test_unknown_variant(variant):
    with pytest.raises(DomainError) as exc:
        normalize_announcements(variant, {})
    assert list(exc.value.fields) == ["variant"]
    assert exc.value.code == "invalid_variant"
