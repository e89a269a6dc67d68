"""Variants and their announcements (RULES.md, "Variants and their announcements").

Every open point of the rule documents is a named, typed announcement with
a default. :func:`normalize_announcements` checks the options a hand was
dealt under and fills in every omitted announcement, so the result is the
complete, explicit rule set the hand is evaluated by.

=======================  ===========================================================
variant                  announcements (default)
=======================  ===========================================================
seven_card_stud          double_ace_flush (false)
kings_and_little_ones    double_ace_flush (false), king_required (true),
                         all_lowest_wild (false), ace_low_for_lowest (false),
                         door_card_kings (false)
low_hole                 double_ace_flush (false), game ("high"),
                         low_ranking ("ace_to_five"), low_qualifier (8 when game is
                         high_low, else null), declaration ("cards_speak")
low_hold                 double_ace_flush (false), same_rank_wild ("none"),
                         buy_version ("contributed"), buy_price (null: one big bet
                         of the hand's stakes)
=======================  ===========================================================

``double_ace_flush`` is listed for every variant because RULES.md states it
for all of them; it has no effect without wild cards.

Not announcements
-----------------
* ``last_card`` (Kings and Little Ones: each player takes the seventh card
  up or down) is a per-player choice recorded in the hand, not a dealer's
  announcement. In a showdown record it is implied by where the seventh
  card sits: the last element of ``up`` (taken up) or of ``down`` (taken
  down). Low Hold's buys are likewise per player and also end up as where
  the seventh card sits. The engine never needs a separate flag.
* ``declare`` (``high`` / ``low`` / ``both``) is per player in the
  showdown, required when ``declaration`` is ``declare`` and ``game`` is
  ``high_low``.

Player counts: at least 2; at most :data:`MAX_PLAYERS` (7, Low Hole 8).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import Code, DomainError
from .variants import (
    KINGS_AND_LITTLE_ONES,
    LOW_HOLD,
    LOW_HOLE,
    SEVEN_CARD_STUD,
    VARIANT_RULES,
)

__all__ = [
    "ANNOUNCEMENTS",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "NULLABLE",
    "VARIANTS",
    "VARIANT_ANNOUNCEMENTS",
    "VARIANT_TITLES",
    "Announcement",
    "AnnouncementError",
    "check_variant",
    "has_high",
    "has_low",
    "max_players",
    "normalize_announcements",
    "options_from_text",
]

VARIANTS: tuple[str, ...] = tuple(VARIANT_RULES)

VARIANT_TITLES: dict[str, str] = {name: rules.title for name, rules in VARIANT_RULES.items()}

MIN_PLAYERS = 2
MAX_PLAYERS: dict[str, int] = {name: rules.max_players for name, rules in VARIANT_RULES.items()}

LOW_RANKINGS = ("ace_to_five", "ace_to_six", "deuce_to_seven")
GAMES = ("high", "low", "high_low")
DECLARATIONS = ("cards_speak", "declare")
SAME_RANK_WILD = ("none", "face_down", "all")
BUY_VERSIONS = ("contributed", "buderick")


class AnnouncementError(DomainError):
    code = "invalid_announcement"


@dataclass(frozen=True)
class Announcement:
    """One announcement: its name, type (``bool``, ``choice``, ``qualifier``,
    ``chips``), allowed choices, default and a one-line description.

    A ``default`` of ``None`` on ``low_qualifier`` means "depends on game"
    (see :func:`normalize_announcements`); on ``buy_price`` it means one
    big bet of the hand's stakes.
    """

    name: str
    type: str
    default: Any
    choices: tuple = ()
    help: str = ""

    def check(self, value: Any, field: str) -> Any:
        if self.type == "bool":
            if not isinstance(value, bool):
                raise AnnouncementError(f"must be true or false, not {value!r}", field=field)
        elif self.type == "choice":
            if value not in self.choices:
                raise AnnouncementError(
                    f"{value!r} is not one of {', '.join(self.choices)}", field=field
                )
        elif self.type == "qualifier":
            if value is not None and (isinstance(value, bool) or value != 8):
                raise AnnouncementError(f"must be 8 or null, not {value!r}", field=field)
        elif self.type == "chips":
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, int) or value < 0
            ):
                raise AnnouncementError(
                    f"must be a whole number of chips (0 or more) or null, not {value!r}",
                    field=field,
                )
        return value


ANNOUNCEMENTS: dict[str, Announcement] = {
    a.name: a
    for a in (
        Announcement(
            "double_ace_flush",
            "bool",
            False,
            help="a wild card in a flush plays as an ace even if the ace is held",
        ),
        Announcement(
            "king_required",
            "bool",
            True,
            help="a player needs a king (any king, up or down) for the lowest card to be wild",
        ),
        Announcement(
            "all_lowest_wild",
            "bool",
            False,
            help="every card of the lowest rank is wild (false: one of them, player's choice)",
        ),
        Announcement(
            "ace_low_for_lowest",
            "bool",
            False,
            help="an ace counts as the lowest card when finding the little one",
        ),
        Announcement(
            "door_card_kings",
            "bool",
            False,
            help="a king is wild only if it was the player's door card (first up card)",
        ),
        Announcement("game", "choice", "high", GAMES, help="high, low or high_low"),
        Announcement(
            "low_ranking", "choice", "ace_to_five", LOW_RANKINGS, help="how low hands rank"
        ),
        Announcement(
            "low_qualifier",
            "qualifier",
            None,
            help="8: a low must be five unpaired cards 8 or lower; null: any low",
        ),
        Announcement(
            "declaration",
            "choice",
            "cards_speak",
            DECLARATIONS,
            help="cards speak, or players declare high, low or both",
        ),
        Announcement(
            "same_rank_wild",
            "choice",
            "none",
            SAME_RANK_WILD,
            help="which other cards of the wild card's rank are wild",
        ),
        Announcement(
            "buy_version",
            "choice",
            "contributed",
            BUY_VERSIONS,
            help="contributed: seventh down, buy it up; buderick: seventh up, buy it down",
        ),
        Announcement(
            "buy_price",
            "chips",
            None,
            help="chips paid to turn the seventh card (null: one big bet of the stakes)",
        ),
    )
}

# Announcements whose value may be null (no qualifier; the default buy price). Where a format
# has no null (TOML), these are written as the string "none" -- which is also a real value of
# ``same_rank_wild``, so only these names may be read back as null.
NULLABLE: frozenset[str] = frozenset(
    name for name, a in ANNOUNCEMENTS.items() if a.type in ("qualifier", "chips")
)


def options_from_text(options: Mapping[str, Any]) -> dict[str, Any]:
    """Announcements read from a null-less format: ``"none"`` is null for nullable ones only.

    >>> options_from_text({"low_qualifier": "none", "same_rank_wild": "none"})
    {'low_qualifier': None, 'same_rank_wild': 'none'}
    """
    return {k: (None if v == "none" and k in NULLABLE else v) for k, v in options.items()}


VARIANT_ANNOUNCEMENTS: dict[str, tuple[str, ...]] = {
    SEVEN_CARD_STUD: ("double_ace_flush",),
    KINGS_AND_LITTLE_ONES: (
        "double_ace_flush",
        "king_required",
        "all_lowest_wild",
        "ace_low_for_lowest",
        "door_card_kings",
    ),
    LOW_HOLE: ("double_ace_flush", "game", "low_ranking", "low_qualifier", "declaration"),
    LOW_HOLD: ("double_ace_flush", "same_rank_wild", "buy_version", "buy_price"),
}


def check_variant(variant: object, field: str = "variant") -> str:
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise AnnouncementError(
            f"{variant!r} is not a variant (one of {', '.join(VARIANTS)})",
            code=Code.INVALID_VARIANT,
            field=field,
        )
    return variant


def max_players(variant: str) -> int:
    return MAX_PLAYERS[check_variant(variant)]


def normalize_announcements(
    variant: str, options: Mapping[str, Any] | None, *, field: str = "options"
) -> dict[str, Any]:
    """Every announcement of ``variant``, given values checked, omitted ones defaulted.

    Refuses an unknown variant (field ``variant``), an announcement the
    variant does not have, or a bad value (field ``options.<name>``).

    >>> normalize_announcements("low_hole", {"game": "high_low"})["low_qualifier"]
    8
    >>> normalize_announcements("low_hole", {"game": "low"})["low_qualifier"] is None
    True
    """
    check_variant(variant)
    if options is None:
        options = {}
    if not isinstance(options, Mapping):
        raise AnnouncementError("must be an object of announcements", field=field)
    names = VARIANT_ANNOUNCEMENTS[variant]
    for key in options:
        if key not in names:
            raise AnnouncementError(
                f"{key!r} is not an announcement of {variant} (announcements: {', '.join(names)})",
                code=Code.UNKNOWN_ANNOUNCEMENT,
                field=f"{field}.{key}",
            )
    result: dict[str, Any] = {}
    for name in names:
        spec = ANNOUNCEMENTS[name]
        if name in options:
            result[name] = spec.check(options[name], f"{field}.{name}")
        else:
            result[name] = spec.default
    if variant == LOW_HOLE and "low_qualifier" not in options:
        result["low_qualifier"] = 8 if result["game"] == "high_low" else None
    return result


def has_high(variant: str, announcements: Mapping[str, Any]) -> bool:
    """Whether the game has a high half (all but Low Hole played ``low``)."""
    return announcements.get("game", "high") != "low"


def has_low(variant: str, announcements: Mapping[str, Any]) -> bool:
    """Whether the game has a low half (Low Hole played ``low`` or ``high_low``)."""
    return announcements.get("game", "high") != "high"
