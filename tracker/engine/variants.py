"""The four games as data: streets, faces, the seventh card, buys and wild rules.

Every rule that differs between the games has its one home here, in
:data:`VARIANT_RULES`; the showdown, the equity, the drivers and the pages read it instead
of comparing variant names. The stud state machine (:mod:`tracker.engine.stud`) deals and
bets by the game's definition (:func:`tracker.engine.stud.variant_definition`) and keeps
these rules for its titles and messages. The one place that still tells the games apart by name is
:func:`tracker.engine.wild.wild_options`, which implements the wild rule each game's
``wild`` names (``has_wild`` says whether there is one).

>>> rules = VARIANT_RULES["low_hold"]
>>> rules.seventh, rules.buys, rules.max_players
(<SeventhCard.BUY: 'buy'>, True, 7)
>>> rules.seventh_up({"buy_version": "contributed"}, bought=True, chose_up=False)
True
>>> rules.seventh_up({"buy_version": "buderick"}, bought=True, chose_up=False)
False
>>> VARIANT_RULES["kings_and_little_ones"].seventh_up({}, bought=False, chose_up=True)
True
>>> [len(s.faces) for s in STREET_DEALS]  # cards each player gets, third to seventh street
[3, 1, 1, 1, 1]
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Any

__all__ = [
    "BURNS",
    "DECK_SIZE",
    "KINGS_AND_LITTLE_ONES",
    "LOW_HOLD",
    "LOW_HOLE",
    "MAX_BETS_PER_ROUND",
    "SEVEN_CARD_STUD",
    "STREETS",
    "STREET_DEALS",
    "VARIANT_RULES",
    "Face",
    "SeventhCard",
    "Street",
    "StreetDeal",
    "VariantRules",
]

SEVEN_CARD_STUD = "seven_card_stud"
KINGS_AND_LITTLE_ONES = "kings_and_little_ones"
LOW_HOLE = "low_hole"
LOW_HOLD = "low_hold"

DECK_SIZE = 52
BURNS = 5  # one card is burned before each of the five streets
MAX_BETS_PER_ROUND = 4  # a bet (the completion on third street) and three raises


class Street(IntEnum):
    """The five streets of stud; ``int(street)`` is 0 (third) .. 4 (seventh)."""

    THIRD = 0
    FOURTH = 1
    FIFTH = 2
    SIXTH = 3
    SEVENTH = 4

    @property
    def key(self) -> str:
        """``"third"`` .. ``"seventh"``, as stored in hand records."""
        return STREETS[self]

    @property
    def number(self) -> int:
        """3 .. 7, as players say it."""
        return int(self) + 3


STREETS = ("third", "fourth", "fifth", "sixth", "seventh")


class Face(StrEnum):
    """How a card is dealt."""

    DOWN = "down"
    UP = "up"
    COMMUNITY = "community"


class SeventhCard(StrEnum):
    """Who decides the face of a player's seventh card."""

    DOWN = "down"  # always face down (seven-card stud, Low Hole)
    CHOICE = "choice"  # the player says up or down (Kings and Little Ones)
    BUY = "buy"  # a paid buy turns it over (Low Hold; ``buy_version`` says which way)


@dataclass(frozen=True, slots=True)
class StreetDeal:
    """The cards each player still in gets on a street, in order (the seventh
    street's one card is face down unless the variant turns it up), and the
    betting unit: the small bet on third and fourth street, the big bet after."""

    street: Street
    faces: tuple[Face, ...]
    big_bet: bool


STREET_DEALS: tuple[StreetDeal, ...] = (
    StreetDeal(Street.THIRD, (Face.DOWN, Face.DOWN, Face.UP), False),
    StreetDeal(Street.FOURTH, (Face.UP,), False),
    StreetDeal(Street.FIFTH, (Face.UP,), True),
    StreetDeal(Street.SIXTH, (Face.UP,), True),
    StreetDeal(Street.SEVENTH, (Face.DOWN,), True),
)


@dataclass(frozen=True, slots=True)
class VariantRules:
    """The procedure rules of one game (RULES.md); ``wild`` names its wild rule
    (implemented by :func:`tracker.engine.wild.wild_options`)."""

    name: str
    title: str
    max_players: int
    seventh: SeventhCard
    wild: str

    @property
    def has_wild(self) -> bool:
        """Whether a card can be wild in this game (Seven-Card Stud: never).

        >>> VARIANT_RULES["seven_card_stud"].has_wild, VARIANT_RULES["low_hole"].has_wild
        (False, True)
        """
        return self.wild != "none"

    @property
    def buys(self) -> bool:
        """Whether players may pay to turn their seventh card over."""
        return self.seventh is SeventhCard.BUY

    @property
    def chooses_seventh(self) -> bool:
        """Whether each player says up or down for the seventh card."""
        return self.seventh is SeventhCard.CHOICE

    def seventh_up(self, options: Mapping[str, Any], *, bought: bool, chose_up: bool) -> bool:
        """Whether a player's own seventh card comes face up.

        Low Hold ``contributed`` (the default): face down, a buy turns it up;
        ``buderick``: face up, a buy turns it down. Kings and Little Ones: the
        player's choice (default down). Otherwise face down.
        """
        if self.seventh is SeventhCard.BUY:
            if options.get("buy_version", "contributed") == "buderick":
                return not bought
            return bought
        if self.seventh is SeventhCard.CHOICE:
            return chose_up
        return False

    def buy_price(self, options: Mapping[str, Any], big_bet: int) -> int:
        """The price of a buy: the announced ``buy_price``, else one big bet."""
        price = options.get("buy_price")
        return big_bet if price is None else int(price)


VARIANT_RULES: dict[str, VariantRules] = {
    SEVEN_CARD_STUD: VariantRules(SEVEN_CARD_STUD, "Seven-Card Stud", 7, SeventhCard.DOWN, "none"),
    KINGS_AND_LITTLE_ONES: VariantRules(
        KINGS_AND_LITTLE_ONES,
        "Kings and Little Ones",
        7,
        SeventhCard.CHOICE,
        "kings and the lowest card",
    ),
    LOW_HOLE: VariantRules(LOW_HOLE, "Low Hole", 8, SeventhCard.DOWN, "lowest hole card's rank"),
    LOW_HOLD: VariantRules(LOW_HOLD, "Low Hold", 7, SeventhCard.BUY, "lowest hole card"),
}
