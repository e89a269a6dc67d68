"""The showdown calculator: the engine's reading of hands typed in, ready to show."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tracker.engine import evaluate_showdown
from tracker.engine.announcements import VARIANT_TITLES, has_high, has_low
from tracker.hands.selectors.replay import CardView, HandView, dealt_order, hand_view, mark_wild

WILD_RULES = {
    "seven_card_stud": "No wild cards: natural stud, high hand wins.",
    "kings_and_little_ones": (
        "Every king is wild, and so is each player's lowest card (among all seven). "
        "Announcements decide whether a king is needed for the little one, whether "
        "every card of the lowest rank is wild, whether an ace can be the lowest, and "
        "whether only a door-card king is wild."
    ),
    "low_hole": (
        "The player's lowest face-down card is wild, and every card of its rank in the "
        "hand. Played high, low or high-low as announced."
    ),
    "low_hold": (
        "The player's lowest face-down card (aces high) is wild; announcements decide "
        "whether other cards of that rank are wild too."
    ),
}


@dataclass
class CalculatedSeat:
    name: str
    cards: list[CardView]
    high: HandView | None
    low: HandView | None
    declare: str | None
    high_winner: bool
    low_winner: bool


@dataclass
class Calculation:
    variant: str
    variant_title: str
    seats: list[CalculatedSeat]
    high_winners: list[str]
    low_winners: list[str]
    has_high: bool
    has_low: bool
    options: dict

    @property
    def summary(self) -> str:
        parts = []
        if self.has_high and self.high_winners:
            who = " and ".join(self.high_winners)
            verb = "split the pot" if len(self.high_winners) > 1 else "wins"
            if self.has_low:
                verb = "split high" if len(self.high_winners) > 1 else "wins high"
            parts.append(f"{who} {verb}")
        if self.has_low:
            if self.low_winners:
                who = " and ".join(self.low_winners)
                verb = "split low" if len(self.low_winners) > 1 else "wins low"
                parts.append(f"{who} {verb}")
            elif self.has_high:
                parts.append("no qualifying low: high takes it all")
            else:
                parts.append("no qualifying low hand")
        return "; ".join(parts)


def calculate(showdown: Mapping[str, Any], names: Sequence[str]) -> Calculation:
    """Evaluate ``showdown`` (the engine's input) for players called ``names``.

    Raises DomainError (fields ``players[i]...``) when the engine refuses it.
    """
    result = evaluate_showdown(showdown)
    variant = showdown["variant"]
    seats = []
    high_w = set(result.get("high_winners", []))
    low_w = set(result.get("low_winners", []))
    for i, (player, reading) in enumerate(zip(showdown["players"], result["players"], strict=True)):
        cards = dealt_order(player["down"], player["up"])
        mark_wild(cards, reading.get("high"), reading.get("low"))
        seats.append(
            CalculatedSeat(
                name=names[i],
                cards=cards,
                high=hand_view(reading.get("high")),
                low=hand_view(reading.get("low")),
                declare=reading.get("declare"),
                high_winner=i in high_w,
                low_winner=i in low_w,
            )
        )
    options = dict(showdown.get("options") or {})
    return Calculation(
        variant=variant,
        variant_title=VARIANT_TITLES.get(variant, variant),
        seats=seats,
        high_winners=[names[i] for i in sorted(high_w)],
        low_winners=[names[i] for i in sorted(low_w)],
        has_high=has_high(variant, options),
        has_low=has_low(variant, options),
        options=options,
    )
