"""A night scheduled ahead: how many seats a game allows, and who a freed seat goes to.

Pure rules; the schedule feature (tracker/schedule) stores the answers.

>>> seat_limit("low_hole"), seat_limit("seven_card_stud"), seat_limit("")
(8, 7, 7)
>>> promoted(seats=3, going=2, waitlist=["cat", "dan", "eve"])
['cat']
>>> promoted(seats=5, going=2, waitlist=["cat", "dan", "eve"])
['cat', 'dan', 'eve']
>>> promoted(seats=2, going=2, waitlist=["cat"])
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from tracker.engine.variants import VARIANT_RULES

__all__ = ["ANSWERS", "promoted", "seat_limit"]

YES, NO, MAYBE = "yes", "no", "maybe"
ANSWERS: tuple[str, ...] = (YES, NO, MAYBE)

T = TypeVar("T")


def seat_limit(variant: str) -> int:
    """The most players a night of ``variant`` seats; dealer's choice (``""``) seats as many
    as the smallest game allows, since any game may be called. Unknown variants raise
    KeyError (the caller names the field)."""
    if not variant:
        return min(rules.max_players for rules in VARIANT_RULES.values())
    return VARIANT_RULES[variant].max_players


def promoted(*, seats: int, going: int, waitlist: Sequence[T]) -> list[T]:
    """Who on ``waitlist`` (in the order they said yes) takes the seats left free when
    ``going`` players hold ``seats``: the first ones, as many as there are free seats."""
    free = max(0, seats - going)
    return list(waitlist[:free])
