"""The preset games, and the four games of today as definitions of the same form.

:data:`PRESETS` holds one :class:`~tracker.engine.games.GameDefinition` each, by
name, with the house choices at their defaults (docs/games/ describes every
preset and its choices). :func:`definition_for_variant` turns one of today's
variants and its announcements (RULES.md) into the definition that values its
hands exactly as :func:`~tracker.engine.showdown.evaluate_showdown` does.

>>> sorted(PRESETS)  # doctest: +NORMALIZE_WHITESPACE
['baseball', 'deuces_wild', 'five_card_stud', 'follow_the_queen', 'high_chicago',
 'kings_and_little_ones', 'low_chicago', 'low_hold', 'low_hole', 'one_eyed_jacks', 'razz',
 'seven_card_stud', 'seven_card_stud_high_low']
>>> PRESETS["razz"].pot.low
LowRule(ranking='ace_to_five', qualifier=None)
>>> definition_for_variant("low_hold", {"buy_version": "buderick"}).streets[-1].faces
('up',)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .announcements import normalize_announcements
from .games import GameDefinition, load_game

__all__ = ["PRESETS", "PRESET_DATA", "definition_for_variant"]

_SEVEN = [
    {"faces": ["down", "down", "up"], "unit": "small"},
    {"faces": ["up"], "unit": "small"},
    {"faces": ["up"], "unit": "big"},
    {"faces": ["up"], "unit": "big"},
    {"faces": ["down"], "unit": "big"},
]


def _seven(last: str = "down") -> list[dict]:
    return [*_SEVEN[:-1], {"faces": [last], "unit": "big"}]


PRESET_DATA: dict[str, dict[str, Any]] = {
    "follow_the_queen": {
        "name": "follow_the_queen",
        "title": "Follow the Queen",
        "wild": [
            {
                "kind": "follow",
                "rank": "Q",
                "x_wild": True,
                "later_x": "replaces",
                "last_x": "no_follow",
            }
        ],
        "max_players": 7,
    },
    "baseball": {
        "name": "baseball",
        "title": "Baseball",
        "wild": [{"kind": "fixed", "ranks": ["3", "9"]}],
        "extra_cards": [{"rank": "4", "face": "up"}],
        "pays": [{"rank": "3", "price": "pot"}],
        "max_players": 7,
    },
    "low_chicago": {
        "name": "low_chicago",
        "title": "Low Chicago",
        "pot": {"kind": "low_chicago", "spade_ace": "high"},
        "max_players": 7,
    },
    "high_chicago": {
        "name": "high_chicago",
        "title": "High Chicago",
        "pot": {"kind": "high_chicago"},
        "max_players": 7,
    },
    "razz": {
        "name": "razz",
        "title": "Razz",
        "pot": {"kind": "low", "low": {"ranking": "ace_to_five", "qualifier": None}},
        "bring_in": "highest",
        "first_to_act": "lowest_board",
        "order_aces": "low",
        "max_players": 7,
    },
    "seven_card_stud_high_low": {
        "name": "seven_card_stud_high_low",
        "title": "Seven-Card Stud High-Low (eight or better)",
        "pot": {
            "kind": "high_low",
            "low": {"ranking": "ace_to_five", "qualifier": 8},
            "declaration": "cards_speak",
        },
        "max_players": 7,
    },
    "deuces_wild": {
        "name": "deuces_wild",
        "title": "Deuces Wild",
        "wild": [{"kind": "fixed", "ranks": ["2"]}],
        "max_players": 7,
    },
    "one_eyed_jacks": {
        "name": "one_eyed_jacks",
        "title": "One-Eyed Jacks",
        "wild": [{"kind": "fixed", "cards": ["Js", "Jh"]}],
        "max_players": 7,
    },
    "five_card_stud": {
        "name": "five_card_stud",
        "title": "Five-Card Stud",
        "streets": [
            {"faces": ["down", "up"], "unit": "small"},
            {"faces": ["up"], "unit": "small"},
            {"faces": ["up"], "unit": "big"},
            {"faces": ["up"], "unit": "big"},
        ],
        "max_players": 10,
    },
}


def definition_for_variant(
    variant: str, announcements: Mapping[str, Any] | None = None
) -> GameDefinition:
    """The definition of one of today's four games under ``announcements`` (checked and
    defaulted as RULES.md says); it gives the same showdown results as the variant."""
    ann = normalize_announcements(variant, announcements)
    data: dict[str, Any] = {"double_ace_flush": ann["double_ace_flush"], "max_players": 7}
    if variant == "seven_card_stud":
        data.update(name=variant, title="Seven-Card Stud", streets=_seven())
    elif variant == "kings_and_little_ones":
        data.update(
            name=variant,
            title="Kings and Little Ones",
            streets=_seven("choice"),
            wild=[
                {
                    "kind": "kings_and_lowest",
                    "king_required": ann["king_required"],
                    "all_lowest_wild": ann["all_lowest_wild"],
                    "ace_low_for_lowest": ann["ace_low_for_lowest"],
                    "door_card_kings": ann["door_card_kings"],
                }
            ],
        )
    elif variant == "low_hole":
        game = ann["game"]
        pot: dict[str, Any] = {"kind": game}
        if game != "high":
            pot["low"] = {"ranking": ann["low_ranking"], "qualifier": ann["low_qualifier"]}
            if game == "high_low":
                pot["declaration"] = ann["declaration"]
        data.update(
            name=variant,
            title="Low Hole",
            streets=_seven(),
            wild=[{"kind": "lowest_hole", "same_rank": "all"}],
            pot=pot,
            max_players=8,
        )
    else:  # low_hold
        version = ann["buy_version"]
        data.update(
            name=variant,
            title="Low Hold",
            streets=_seven("down" if version == "contributed" else "up"),
            wild=[{"kind": "lowest_hole", "same_rank": ann["same_rank_wild"]}],
            buy={"version": version, "price": ann["buy_price"]},
        )
    return load_game(data)


PRESETS: dict[str, GameDefinition] = {name: load_game(data) for name, data in PRESET_DATA.items()}
for _variant in ("seven_card_stud", "kings_and_little_ones", "low_hole", "low_hold"):
    PRESETS[_variant] = definition_for_variant(_variant)
del _variant
PRESETS = dict(sorted(PRESETS.items()))
