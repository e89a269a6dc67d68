"""The stakes of one hand: ante, bring-in, small bet and big bet.

RULES.md fixes the structure: every player antes, the lowest up card brings
in (or completes to the small bet), bets and raises are one small bet on
third and fourth street and one big bet -- twice the small bet -- from
fifth street on.

>>> Stakes(4, 10, 20, 40).unit("fifth")
40
>>> Stakes.coerce({"ante": 4, "bring_in": 10, "small_bet": 20, "big_bet": 40})
Stakes(ante=4, bring_in=10, small_bet=20, big_bet=40, level=None)
>>> Stakes(6, 15, 30, 60, level=2).as_dict()
{'ante': 6, 'bring_in': 15, 'small_bet': 30, 'big_bet': 60}
>>> Stakes(4, 10, 20, 30)
Traceback (most recent call last):
...
tracker.engine.errors.DomainError: the big bet must be twice the small bet (40), not 30
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .errors import Code, DomainError

__all__ = ["MAX_DIGITS", "Stakes", "chip_amount", "stakes_row"]

STAKE_FIELDS = ("ante", "bring_in", "small_bet", "big_bet")
# The longest whole number a stakes row may hold: more digits than any bound on chips has
# (tournament.stake_limit), and short enough to read without effort.
MAX_DIGITS = 12
_SEPARATORS = " \t,/"


def chip_amount(value: object, field: str, *, minimum: int = 0) -> int:
    """``value`` as a whole number of chips >= ``minimum``, or a DomainError naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise DomainError(
                f"must be a whole number of chips, not {value!r}",
                code=Code.INVALID_CHIPS,
                field=field,
            )
    if value < minimum:
        raise DomainError(
            f"must be at least {minimum}, not {value}", code=Code.INVALID_CHIPS, field=field
        )
    return value


def stakes_row(text: str) -> list[int]:
    """One level written as text, ``ante bring-in small big`` (spaces, commas or slashes
    between), as four whole numbers. Only the ASCII digits 0-9 make a number (not ``'²'``
    nor other scripts' digits, which ``str.isdigit`` accepts), at most ``MAX_DIGITS`` of
    them; whether the numbers make valid stakes is :func:`~tracker.engine.tournament.check_schedule`'s
    to say.

    >>> stakes_row("4 10 20 40"), stakes_row(" 6, 15 / 30,60 ")
    ([4, 10, 20, 40], [6, 15, 30, 60])
    >>> stakes_row("4 10 20 4²")
    Traceback (most recent call last):
    ...
    tracker.engine.errors.DomainError: four whole numbers, ante, bring-in, small bet and big bet (not '4 10 20 4²')
    >>> stakes_row("4 10 20 " + "9" * 5000)
    Traceback (most recent call last):
    ...
    tracker.engine.errors.DomainError: 5000 digits is no chip amount: at most 12 digits
    """
    parts = text.translate({ord(c): " " for c in _SEPARATORS}).split()
    if len(parts) != 4 or not all(p.isascii() and p.isdigit() for p in parts):
        shown = text.strip()
        shown = shown if len(shown) <= 60 else shown[:57] + "..."
        raise DomainError(
            f"four whole numbers, ante, bring-in, small bet and big bet (not {shown!r})",
            code=Code.INVALID_STAKES,
        )
    for p in parts:
        if len(p) > MAX_DIGITS:
            raise DomainError(
                f"{len(p)} digits is no chip amount: at most {MAX_DIGITS} digits",
                code=Code.INVALID_CHIPS,
            )
    return [int(p) for p in parts]


@dataclass(frozen=True)
class Stakes:
    """Ante, bring-in, small bet, big bet, in chips, and the level of the night's stakes
    schedule they are (``level``, when known: a hand's, the next hand's; one type for the
    stakes of a hand and a level of the schedule).

    Checked on construction: ``ante >= 0``, ``0 < bring_in <= small_bet``
    and ``big_bet == 2 * small_bet``.
    """

    ante: int
    bring_in: int
    small_bet: int
    big_bet: int
    level: int | None = None

    def __post_init__(self) -> None:
        for name, minimum in (("ante", 0), ("bring_in", 1), ("small_bet", 1), ("big_bet", 1)):
            object.__setattr__(self, name, chip_amount(getattr(self, name), name, minimum=minimum))
        if self.bring_in > self.small_bet:
            raise DomainError(
                f"the bring-in ({self.bring_in}) may not exceed the small bet ({self.small_bet})",
                code=Code.INVALID_STAKES,
                field="bring_in",
            )
        if self.big_bet != 2 * self.small_bet:
            raise DomainError(
                f"the big bet must be twice the small bet ({2 * self.small_bet}), not {self.big_bet}",
                code=Code.INVALID_STAKES,
                field="big_bet",
            )

    @classmethod
    def coerce(cls, value: object, field: str = "stakes") -> Stakes:
        """A Stakes from a Stakes, a mapping, or any object with the four attributes
        (e.g. a tournament level)."""
        if isinstance(value, Stakes):
            return value
        if isinstance(value, Mapping):
            missing = [k for k in STAKE_FIELDS if k not in value]
            if missing:
                raise DomainError(
                    f"missing {', '.join(missing)}", code=Code.INVALID_STAKES, field=field
                )
            raw = [value[k] for k in STAKE_FIELDS]
        elif all(hasattr(value, k) for k in STAKE_FIELDS):
            raw = [getattr(value, k) for k in STAKE_FIELDS]
        else:
            raise DomainError(
                "must give ante, bring_in, small_bet and big_bet",
                code=Code.INVALID_STAKES,
                field=field,
            )
        values = [chip_amount(v, f"{field}.{k}") for k, v in zip(STAKE_FIELDS, raw, strict=True)]
        return cls(*values)

    def unit(self, street: int | str) -> int:
        """The bet unit of a street (0..4 or "third".."seventh"): small bet on
        third and fourth street, big bet from fifth."""
        if isinstance(street, str):
            street = ("third", "fourth", "fifth", "sixth", "seventh").index(street)
        return self.small_bet if street < 2 else self.big_bet

    def as_dict(self) -> dict[str, int]:
        """The four amounts by name (the level is not one of them)."""
        return {k: getattr(self, k) for k in STAKE_FIELDS}
