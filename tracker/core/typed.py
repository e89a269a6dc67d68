"""Typed views of JSON columns.

JSON object keys are strings, so a column holding chips per player stores
``{"12": 40, "15": 0}``. Code reads and writes such columns through
:class:`ChipsByPlayer` (a read-only mapping from player id *int* to chips), exposed as
properties of the models (``Pot.award_chips``, ``Hand.projected_net_chips``,
``Ruling.correction_chips``, ...), and never converts keys by hand. The stored shape is
unchanged, so no data migration was needed.

>>> awards = ChipsByPlayer.from_json({"15": 0, "12": 40})
>>> awards[12], list(awards), awards.total
(40, [15, 12], 40)
>>> awards.normal().to_json()
{'12': 40}
>>> awards == {12: 40, 15: 0}
True
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping


class ChipsByPlayer(Mapping[int, int]):
    """Chips by player id (an award, a correction, a net result)."""

    __slots__ = ("_chips",)

    def __init__(self, chips: Mapping[int | str, int] | None = None) -> None:
        self._chips: dict[int, int] = {int(k): int(v) for k, v in (chips or {}).items()}

    @classmethod
    def from_json(cls, data: Mapping[str, int] | None) -> ChipsByPlayer | None:
        """The column's value read (``None`` stays ``None``: no award was given)."""
        return None if data is None else cls(data)

    def to_json(self) -> dict[str, int]:
        """The value to store: string keys, in this mapping's order."""
        return {str(k): v for k, v in self._chips.items()}

    def normal(self) -> ChipsByPlayer:
        """Without zero entries, sorted by player id (how rulings store awards)."""
        return ChipsByPlayer({k: v for k, v in sorted(self._chips.items()) if v})

    def plus(self, other: Mapping[int, int]) -> ChipsByPlayer:
        """Each player's chips plus ``other``'s (players of either)."""
        out = dict(self._chips)
        for k, v in other.items():
            out[int(k)] = out.get(int(k), 0) + int(v)
        return ChipsByPlayer(out)

    @property
    def total(self) -> int:
        return sum(self._chips.values())

    def __getitem__(self, player_id: int) -> int:
        return self._chips[player_id]

    def __iter__(self) -> Iterator[int]:
        return iter(self._chips)

    def __len__(self) -> int:
        return len(self._chips)

    def __repr__(self) -> str:
        return f"ChipsByPlayer({self._chips!r})"


def chips_property(column: str, doc: str) -> property:
    """A model property reading and writing the JSON ``column`` as :class:`ChipsByPlayer`."""

    def get(obj) -> ChipsByPlayer | None:
        return ChipsByPlayer.from_json(getattr(obj, column))

    def set_(obj, value: Mapping[int, int] | None) -> None:
        setattr(obj, column, None if value is None else ChipsByPlayer(value).to_json())

    return property(get, set_, doc=doc)
