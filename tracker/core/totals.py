"""The running totals kept in step with the rows they sum: the one way in for every write that
moves chips or statistics.

Two systems of running totals are kept as the hands and nights change: the statistics'
(``MonthTally``, ``TournamentTally``: what the settled hand seats add) and the league table's
(``StandingTally``: what the final standings of the nights that count add). Each is a
*keeper*: it reads what some rows add now (the *before*), and after the write moves its totals
from that to what the same rows add then. A write names the hands and the nights it changes
and runs inside :func:`totals_kept`::

    with totals_kept(hands=[hand.pk]):
        ...  # move the hand's chips (a ruling), its facts (a re-evaluation), its status

    with totals_kept(tournaments=[night.pk]):
        ...  # rewrite the night's final standings, its date or its switch

    with totals_kept(new_hands=[h.pk for h in batch]):
        ...  # settle hands that counted for nothing before (no before is read)

On leaving the block every keeper, in the order they were registered (the statistics', then
the league table's: the rows of one table are locked before the other's in every
transaction, so two writers never deadlock), applies the difference, in the block's
transaction. A block inside another leaves to the outer one what the outer already keeps
(the outer's before was read first), and keeps the rest itself. A block that raises
applies nothing: its transaction is rolled back (the block opens no savepoint: inside an
enclosing transaction, that whole transaction).

This module knows no feature: the statistics and the tournaments register their keepers when
the app is ready (``tracker/apps.py``), so every service may enter the block through core
(``pyproject.toml``, the layers contract, ignores no import for it).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import Protocol

from django.db import transaction


@dataclass(frozen=True)
class Changed:
    """What a write changes: ``hands`` (their seats may count differently after it) and
    ``tournaments`` (their final standings, date or switch), and ``new_hands``, hands that
    counted for nothing before it (being settled), whose before is not read."""

    hands: tuple[int, ...] = ()
    tournaments: tuple[int, ...] = ()
    new_hands: tuple[int, ...] = ()
    # What the writer gave the keeper (``totals_given``) of what ``new_hands`` add, in the
    # keeper's own form: the keeper then need not read them back (None: it reads them).
    given: object = field(default=None, compare=False)

    def __bool__(self) -> bool:
        return bool(self.hands or self.tournaments or self.new_hands)


class Keeper(Protocol):
    """One system of running totals.

    ``read(changed)`` returns what the rows of ``changed.hands`` and ``changed.tournaments``
    add now (nothing to read: no query); ``apply(before, changed)`` moves the totals from
    ``before`` to what the rows of ``changed`` (``new_hands`` too) add as they now stand.
    """

    name: str

    def read(self, changed: Changed) -> object: ...

    def apply(self, before: object, changed: Changed) -> None: ...


_keepers: dict[str, Keeper] = {}
_open = threading.local()  # .blocks: the Changed of the blocks open in this thread


def totals_keeper_register(keeper: Keeper) -> None:
    """Register ``keeper`` (again under its name: replaced, its place kept)."""
    _keepers[keeper.name] = keeper


def totals_keepers() -> tuple[Keeper, ...]:
    """The registered keepers, in the order they apply."""
    return tuple(_keepers.values())


def _blocks() -> list[Changed]:
    if not hasattr(_open, "blocks"):
        _open.blocks = []
        _open.given = []
    return _open.blocks


def totals_given(*, keeper: str, new_hands: Iterable[int], value: object) -> None:
    """Give the keeper named ``keeper`` what the hands ``new_hands`` add as the write has them in
    memory (``value``, in that keeper's form: for the statistics, the rows
    ``seat_tallies`` reads), inside the innermost open block. The keeper uses it instead of
    reading those rows back when ``new_hands`` are the block's new hands and the block
    changes no other hand; otherwise it reads them, as without it. Example: settlement
    gives the statistics the seats of the batch it has just written."""
    blocks = _blocks()
    if not blocks:
        raise RuntimeError("totals_given outside a totals_kept block")
    _open.given[-1][keeper] = (_ids(new_hands), value)


def totals_active() -> bool:
    """Whether a :func:`totals_kept` block is open in this thread."""
    return bool(_blocks())


def _ids(values: Iterable[int]) -> tuple[int, ...]:
    return tuple(sorted({int(v) for v in values}))


@contextmanager
def totals_kept(
    *,
    hands: Iterable[int] = (),
    tournaments: Iterable[int] = (),
    new_hands: Iterable[int] = (),
) -> Iterator[Changed]:
    """Run the block's write in one transaction with every running total kept in step with
    the rows it changes (module docstring). Yields what this block keeps itself (less what
    an enclosing block keeps)."""
    if not _keepers:
        raise RuntimeError("no running totals are registered (tracker.apps.TrackerConfig.ready)")
    outer = _blocks()
    kept_hands = {h for c in outer for h in (*c.hands, *c.new_hands)}
    kept_nights = {t for c in outer for t in c.tournaments}
    changed = Changed(
        hands=tuple(h for h in _ids(hands) if h not in kept_hands),
        tournaments=tuple(t for t in _ids(tournaments) if t not in kept_nights),
        new_hands=tuple(h for h in _ids(new_hands) if h not in kept_hands),
    )
    # No savepoint of its own (none is needed: a block that raises rolls the whole
    # transaction back), so entering the block adds no statement to the write.
    with transaction.atomic(savepoint=False):
        keepers = totals_keepers()
        before = [keeper.read(changed) for keeper in keepers] if changed else []
        outer.append(changed)
        _open.given.append({})
        try:
            yield changed
            if changed:
                given = _open.given[-1]
                for keeper, was in zip(keepers, before, strict=True):
                    covered, value = given.get(keeper.name, ((), None))
                    usable = not changed.hands and covered == changed.new_hands
                    keeper.apply(was, replace(changed, given=value) if usable else changed)
        finally:
            outer.pop()
            _open.given.pop()
