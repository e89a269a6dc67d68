"""Writes behind the statistics: per-seat facts in bulk, the running totals and the
league's points formula.

* :func:`stats_refresh` -- recompute the facts of settled hands (all, a league,
  a tournament; by default only rows missing or older than ``FACTS_VERSION``),
  in batches, one ``bulk_update`` per batch. ``manage.py refresh_stats`` runs it.
* :class:`StatisticsTotals` -- the running totals (tracker/stats/models.py) as a keeper of
  ``tracker.core.totals``: every write that settles hands or changes settled ones
  (settlement, rulings, re-evaluation, voids, the backfill) runs inside ``totals_kept``,
  which reads what the seats added before (``tracker.stats.selectors.seat_tallies``) and
  then calls :func:`stats_tallies_apply`.
* :func:`stats_tallies_rebuild` -- recompute the running totals from the seats
  (``manage.py rebuild_stats``).
* :func:`league_points_formula_set` -- a league admin or authority chooses how
  tournaments score (tracker/engine/points.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models import Q

from tracker.core.bulk import rows_accumulate, rows_update, statements_pipelined
from tracker.core.permissions import Capability, require
from tracker.core.totals import Changed, totals_kept
from tracker.engine.facts import FACTS_VERSION
from tracker.engine.points import normalize_formula
from tracker.hands.models import SETTLED, Hand, HandSeat
from tracker.hands.selectors.facts import facts_for_hand
from tracker.leagues.models import League
from tracker.stats.models import MonthTally, TournamentTally
from tracker.stats.selectors import (
    SeatTally,
    cell_biggest,
    month_sums,
    seat_tallies,
    seat_tallies_of,
    settled_seats,
    tournament_sums,
)
from tracker.stats.tally import FLOAT_COUNTERS, INT_COUNTERS, MAX_COUNTER


def _hands_to_refresh(
    *, league: League | None, tournament_id: int | None, everything: bool
) -> Iterator[int]:
    hands = Hand.objects.filter(status__in=SETTLED, engine_reading__isnull=False)
    if league is not None:
        hands = hands.filter(tournament__league=league)
    if tournament_id is not None:
        hands = hands.filter(tournament_id=tournament_id)
    if not everything:
        stale = HandSeat.objects.filter(
            Q(facts={}) | ~Q(facts__v=FACTS_VERSION) | Q(facts__has_key="error")
        ).values("hand_id")
        hands = hands.filter(id__in=stale)
    return hands.order_by("id").values_list("id", flat=True).iterator(chunk_size=2000)


def stats_refresh(
    *,
    league: League | None = None,
    tournament_id: int | None = None,
    everything: bool = False,
    batch: int = 200,
    samples: int | None = None,
    progress=None,
) -> int:
    """Recompute the facts of settled hands; returns how many hands were written.

    Only hands with a seat whose facts are missing, of an older version or in
    error, unless ``everything``. Each batch is two reads and one bulk update.
    """
    ids = list(_hands_to_refresh(league=league, tournament_id=tournament_id, everything=everything))
    done = 0
    for start in range(0, len(ids), batch):
        chunk = ids[start : start + batch]
        with transaction.atomic():
            hands = {
                h.pk: h
                for h in Hand.objects.filter(pk__in=chunk).only(
                    "id", "variant", "options", "entry_mode", "entry", "engine_reading", "positions"
                )
            }
            seats = list(
                HandSeat.objects.filter(hand_id__in=chunk).only("id", "hand_id", "position")
            )
            facts = {
                pk: facts_for_hand(hand, hand.engine_reading, samples) for pk, hand in hands.items()
            }
            with totals_kept(hands=chunk):
                for seat in seats:
                    rows = facts[seat.hand_id]
                    seat.facts = rows[seat.position] if seat.position < len(rows) else {}
                HandSeat.objects.bulk_update(seats, ["facts"], batch_size=500)
        done += len(chunk)
        if progress is not None:
            progress(done, len(ids))
    return done


@transaction.atomic
def league_points_formula_set(*, league: League, formula: dict | None, by) -> League:
    """Choose the league's points formula (admins and authorities). ``None`` or ``{}``:
    the default. Refused with a DomainError naming the field when it is not a formula."""
    require(by, league, Capability.SET_POINTS, "choose the points formula")
    spec = normalize_formula(formula)
    stored = {k: v for k, v in spec.items() if v is not None}
    league = League.objects.select_for_update().get(pk=league.pk)
    league.points_formula = stored
    league.save(update_fields=["points_formula"])
    return league


# --------------------------------------------------------------------------
# Running totals


_SUMMED = (*INT_COUNTERS, *FLOAT_COUNTERS)  # the counters a running total adds up


class _Delta:
    """The change to one running-total row: counters to add, and the biggest pots of the
    seats added and of those taken away (a maximum cannot be subtracted)."""

    __slots__ = ("counters", "added_max", "removed_max")

    def __init__(self) -> None:
        self.counters: dict[str, Any] = dict.fromkeys(_SUMMED, 0)
        self.added_max = 0
        self.removed_max: int | None = None

    def add(self, counters: dict[str, Any], sign: int) -> None:
        mine = self.counters
        if sign > 0:
            for k in _SUMMED:
                mine[k] += counters[k]
            self.added_max = max(self.added_max, counters[MAX_COUNTER])
        else:
            for k in _SUMMED:
                mine[k] -= counters[k]
            self.removed_max = max(self.removed_max or 0, counters[MAX_COUNTER])

    def empty(self) -> bool:
        return self.removed_max is None and not self.added_max and not any(self.counters.values())


_KEYS = {
    MonthTally: ("player_id", "league_id", "variant", "month"),
    TournamentTally: ("player_id", "tournament_id", "variant"),
}


def _apply(model, deltas: dict[tuple, _Delta]) -> None:
    """Add ``deltas`` to ``model``'s rows. Every writer locks the rows it touches in one
    order, sorted by key, through one ``INSERT … ON CONFLICT`` (``rows_accumulate``), so
    two transactions touching the same rows (settling two nights of one league's month, a
    ruling) wait for each other and never deadlock."""
    deltas = {k: d for k, d in deltas.items() if not d.empty()}
    if not deltas:
        return
    names = _KEYS[model]
    keys = sorted(deltas)
    sums = [*INT_COUNTERS, *FLOAT_COUNTERS]
    if all(d.removed_max is None for d in deltas.values()):
        # Only additions (settling): the rows' new totals in the statement that locks them.
        rows_accumulate(
            model,
            keys=names,
            rows=[(*k, *(deltas[k].counters[c] for c in sums), deltas[k].added_max) for k in keys],
            sums=sums,
            maxima=[MAX_COUNTER],
        )
        return
    # Something is taken away (a ruling, a void, a re-evaluation): a row may empty, or lose
    # its biggest pot, which is read again from its seats.
    rows_accumulate(model, keys=names, rows=keys)  # lock (or create) them, in key order
    match = Q()
    for k in keys:
        match |= Q(**dict(zip(names, k, strict=True)))
    rows = list(model.objects.filter(match).order_by("pk"))
    changed, empty = [], []
    for row in rows:
        key = tuple(getattr(row, n) for n in names)
        delta = deltas[key]
        for k, v in delta.counters.items():
            setattr(row, k, getattr(row, k) + v)
        if row.hands <= 0:
            empty.append(row.pk)
            continue
        if delta.removed_max is not None and delta.removed_max >= row.biggest:
            row.biggest = cell_biggest(model, key)  # the seats are already as they now stand
        else:
            row.biggest = max(row.biggest, delta.added_max)
        changed.append(row)
    if empty:
        model.objects.filter(pk__in=empty).delete()
    rows_update(changed, [*sums, MAX_COUNTER])


def stats_tallies_apply(
    *,
    hand_ids: Iterable[int],
    before: Sequence[SeatTally] = (),
    after: Sequence[SeatTally] | None = None,
) -> None:
    """Bring the running totals in step with the seats of ``hand_ids`` as they now stand.

    ``before`` is what those seats added before the change (``seat_tallies`` read inside
    the same transaction, before it): empty for hands just settled. It is subtracted and
    the seats' present tallies added, one row of each table locked and written per player,
    variant and month (or tournament) touched, in a fixed order. The writes reach it through
    ``tracker.core.totals.totals_kept`` (:class:`StatisticsTotals`), once per transaction
    with every hand the transaction settled or changed. ``after``, when the caller has it,
    is what those seats add now (``seat_tallies`` of them), not read again.
    """
    if after is None:
        after = seat_tallies(hand_ids=hand_ids)
    was = {t.seat_id: t for t in before}
    months: dict[tuple, _Delta] = {}
    nights: dict[tuple, _Delta] = {}

    def add(t: SeatTally, sign: int) -> None:
        months.setdefault(t.month_key, _Delta()).add(t.counters, sign)
        nights.setdefault(t.tournament_key, _Delta()).add(t.counters, sign)

    for t in after:
        old = was.pop(t.seat_id, None)
        if old == t:
            continue  # nothing changed for this seat
        if old is not None:
            add(old, -1)
        add(t, +1)
    for old in was.values():  # seats that no longer count (their hand is no longer settled)
        add(old, -1)
    if all(d.removed_max is None for d in (*months.values(), *nights.values())):
        # Only additions (settling): one upsert per table, whose answers nobody reads, sent
        # together (one round trip).
        with statements_pipelined():
            _apply(MonthTally, months)
            _apply(TournamentTally, nights)
        return
    _apply(MonthTally, months)
    _apply(TournamentTally, nights)


class StatisticsTotals:
    """The statistics' running totals as a keeper of ``tracker.core.totals``: what the
    seats of the hands a write changes add (``seat_tallies``), before and after it."""

    name = "statistics"

    def read(self, changed: Changed) -> Sequence[SeatTally]:
        return seat_tallies(hand_ids=changed.hands) if changed.hands else ()

    def apply(self, before: Sequence[SeatTally], changed: Changed) -> None:
        hand_ids = (*changed.hands, *changed.new_hands)
        if not hand_ids:
            return
        # Given by the write (settlement: the seats it has just written): not read back.
        after = None if changed.given is None else seat_tallies_of(changed.given)
        stats_tallies_apply(hand_ids=hand_ids, before=before, after=after)


def _rows(model, sums, names: tuple[str, ...], rename: dict[str, str]) -> list:
    out = []
    for r in sums:
        r = {rename.get(k, k): v for k, v in r.items()}
        values = {k: r[k] or 0 for k in (*INT_COUNTERS, *FLOAT_COUNTERS, MAX_COUNTER)}
        if isinstance(r.get("month"), datetime):  # TruncMonth of a date, on some databases
            r["month"] = r["month"].date()
        out.append(model(**{n: r[n] for n in names}, **values))
    return out


@transaction.atomic
def stats_tallies_rebuild(*, league: League | None = None) -> tuple[int, int]:
    """Recompute the running totals from the settled hand seats (of one league, or all);
    returns how many month and tournament rows were written. Two aggregate queries and
    two bulk inserts: the statistics of the league are unchanged by it, whatever they were."""
    seats = settled_seats(league=league)
    months = MonthTally.objects.all()
    nights = TournamentTally.objects.all()
    if league is not None:
        months = months.filter(league=league)
        nights = nights.filter(tournament__league=league)
    months.delete()
    nights.delete()
    month_rows = _rows(MonthTally, month_sums(seats), _KEYS[MonthTally], {})
    night_rows = _rows(
        TournamentTally,
        tournament_sums(seats),
        _KEYS[TournamentTally],
        {"tournament_id_": "tournament_id"},
    )
    MonthTally.objects.bulk_create(month_rows, batch_size=1000)
    TournamentTally.objects.bulk_create(night_rows, batch_size=1000)
    return len(month_rows), len(night_rows)
