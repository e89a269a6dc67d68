"""A house game's seat on the results form, shaped by the game's definition: a card slot
for each card of each street with its face (down, up, or the player's choice), extra-card
slots where an extra-card rule may deal them, the pays of a pay rule, and the choice.

No game is special-cased: the shape is read from the definition (tracker/engine/games.py).
The slots are typed in the order dealt, so the seat's up cards are in the table's order
(what a follow-the-X wild rule values by).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from tracker.engine.cards import parse_card
from tracker.engine.games import STREET_NAMES, GameDefinition
from tracker.engine.variants import STREETS

# The most extra cards a seat can be dealt: one per card of a rank that sets one off.
EXTRA_LIMIT = 4


@dataclass(frozen=True)
class Slot:
    """One card input: its field name, label, face (down, up, choice, extra) and street."""

    name: str
    label: str
    face: str
    street: int


@dataclass(frozen=True)
class SeatShape:
    """The card slots and questions of a seat in ``game``."""

    game: GameDefinition
    slots: tuple[Slot, ...]
    street_names: tuple[str, ...]

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.slots)

    @property
    def has_choice(self) -> bool:
        return any(s.face == "choice" for s in self.slots)

    @property
    def has_pays(self) -> bool:
        return bool(self.game.pays)

    @property
    def acts_on_up(self) -> bool:
        """Whether the rules act on the up cards (order, extra cards, pays): then a seat
        folded on its first street still gives the up cards it was dealt."""
        game = self.game
        return bool(game.up_order_needed or game.extra_cards or game.pays)

    @property
    def kept_on_first_fold(self) -> tuple[str, ...]:
        """The slots still read for a seat folded on the first street."""
        if not self.acts_on_up:
            return ()
        return tuple(s.name for s in self.slots if s.street == 0 and s.face in ("up", "choice"))

    def fold_choices(self) -> list[tuple[str, str]]:
        """Where a seat finished: the game's streets (named as quick entry takes them, the
        first street being ``third``), then the showdown."""
        out = [("", "In to the showdown")]
        for k, name in enumerate(self.street_names):
            out.append((STREETS[k], f"Folded on {name} street"))
        out.append(("showdown", "Mucked at the showdown"))
        return out


def _ordinal(name: str) -> str:
    n = STREET_NAMES.index(name) + 1
    return f"{n}{'st' if n == 1 else 'nd' if n == 2 else 'rd' if n == 3 else 'th'}"


def seat_shape(game: GameDefinition) -> SeatShape:
    """The seat's slots for ``game``, street by street (community cards are the hand's).

    >>> from tracker.engine.game_presets import PRESETS
    >>> shape = seat_shape(PRESETS["five_card_stud"])
    >>> [(s.label, s.face) for s in shape.slots]
    [('2nd down', 'down'), ('2nd up', 'up'), ('3rd up', 'up'), ('4th up', 'up'), ('5th up', 'up')]
    >>> [s.label for s in seat_shape(PRESETS["baseball"]).slots][-4:]
    ['extra', 'extra', 'extra', 'extra']
    """
    slots: list[Slot] = []
    names: list[str] = []
    held = 0
    for k, street in enumerate(game.streets):
        held += len(street.faces)
        names.append(STREET_NAMES[held - 1])
        for j, face in enumerate(street.faces):
            if face == "community":
                continue
            label = f"{_ordinal(names[-1])} {face}"
            slots.append(Slot(f"s{k}_{j}", label, face, k))
    if game.extra_cards:
        ups = sum(1 for s in slots if s.face in ("up", "choice"))
        for x in range(min(EXTRA_LIMIT * len(game.extra_cards), ups)):
            slots.append(Slot(f"x{x + 1}", "extra", "extra", -1))
    return SeatShape(game, tuple(slots), tuple(names))


def shaped_cards(
    shape: SeatShape, data: Mapping[str, str], chose_up: bool
) -> tuple[list[str], list[str], dict[str, str], list[str]]:
    """(down, up, paths, unused): the cards typed in the order dealt, an extra card coming
    right after the up card that set it off; ``paths`` maps ``down[i]``/``up[i]`` to the
    slot; ``unused`` the extra slots typed that no card set off."""
    rules = {e.rank: e.face for e in shape.game.extra_cards}
    extras = [s.name for s in shape.slots if s.face == "extra" and data.get(s.name)]
    down: list[str] = []
    up: list[str] = []
    paths: dict[str, str] = {}

    def put(slot: str, card: str, face_up: bool) -> None:
        target, part = (up, "up") if face_up else (down, "down")
        paths[f"{part}[{len(target)}]"] = slot
        target.append(card)
        if face_up and rules:
            rank = (parse_card(card) >> 2) + 2
            if rank in rules and extras:
                extra = extras.pop(0)
                put(extra, data[extra], rules[rank] == "up")

    for slot in shape.slots:
        card = data.get(slot.name) or ""
        if not card or slot.face == "extra":
            continue
        put(slot.name, card, slot.face == "up" or (slot.face == "choice" and chose_up))
    return down, up, paths, extras


def parse_pays(text: str) -> list[int]:
    """The pays typed, in the order of the up cards that cost: ``"3, 6"`` -> ``[3, 6]``.

    >>> parse_pays("3, 6"), parse_pays(" 4 "), parse_pays("")
    ([3, 6], [4], [])
    >>> parse_pays("3 and 6")
    Traceback (most recent call last):
    ...
    ValueError: '3 and 6'
    """
    parts = [p.strip() for p in text.replace(";", ",").split(",")]
    if parts == [""]:
        return []
    if not all(p.isdigit() and int(p) > 0 for p in parts):
        raise ValueError(repr(text))
    return [int(p) for p in parts]
