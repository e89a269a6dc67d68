"""The stakes of one hand: ante, bring-in, small bet and big bet.

RULES.md fixes the structure: every player antes, the lowest up card brings
in (or completes to the small bet), bets and raises are one small bet on
third and fourth street and one big bet -- twice the small bet -- from
fifth street on.

>>> Stakes(4, 10, 20, 40).unit("fifth")
40
>>> Stakes.coerce({"ante": 4, "bring_in": 10, "small_bet": 20, "big_bet": 40})
Stakes(ante=4, bring_in=10, small_bet=20, big_bet=40)
>>> Stakes(4, 10, 20, 30)
Traceback (most recent call last):
...
tracker.engine.errors.DomainError: the big bet must be twice the small bet (40), not 30
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .errors import DomainError

__all__ = ["Stakes", "chip_amount"]

STAKE_FIELDS = ("ante", "bring_in", "small_bet", "big_bet")


def chip_amount(value: object, field: str, *, minimum: int = 0) -> int:
    """``value`` as a whole number of chips >= ``minimum``, or a DomainError naming ``field``."""
    if isinstance(value, bool) or not isinstance(value, int):
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        else:
            raise DomainError(
                f"must be a whole number of chips, not {value!r}", code="invalid_chips", field=field
            )
    if value < minimum:
        raise DomainError(
            f"must be at least {minimum}, not {value}", code="invalid_chips", field=field
        )
    return value


@dataclass(frozen=True)
class Stakes:
    """Ante, bring-in, small bet, big bet, in chips.

    Checked on construction: ``ante >= 0``, ``0 < bring_in <= small_bet``
    and ``big_bet == 2 * small_bet``.
    """

    ante: int
    bring_in: int
    small_bet: int
    big_bet: int

    def __post_init__(self) -> None:
        for name, minimum in (("ante", 0), ("bring_in", 1), ("small_bet", 1), ("big_bet", 1)):
            object.__setattr__(self, name, chip_amount(getattr(self, name), name, minimum=minimum))
        if self.bring_in > self.small_bet:
            raise DomainError(
                f"the bring-in ({self.bring_in}) may not exceed the small bet ({self.small_bet})",
                code="invalid_stakes",
                field="bring_in",
            )
        if self.big_bet != 2 * self.small_bet:
            raise DomainError(
                f"the big bet must be twice the small bet ({2 * self.small_bet}), not {self.big_bet}",
                code="invalid_stakes",
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
                    f"missing {', '.join(missing)}", code="invalid_stakes", field=field
                )
            raw = [value[k] for k in STAKE_FIELDS]
        elif all(hasattr(value, k) for k in STAKE_FIELDS):
            raw = [getattr(value, k) for k in STAKE_FIELDS]
        else:
            raise DomainError(
                "must give ante, bring_in, small_bet and big_bet",
                code="invalid_stakes",
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
        return {k: getattr(self, k) for k in STAKE_FIELDS}
