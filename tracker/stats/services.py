"""Writes behind the statistics: per-seat facts (at settlement and in bulk) and the
league's points formula.

* :func:`facts_for_hand` -- the facts of a hand being settled (called by
  ``tracker.hands.services.settlement._settle_hand``). A fault here is logged and stored
  as ``{"error": ...}`` on the seats: statistics never stop a hand from settling.
* :func:`stats_refresh` -- recompute the facts of settled hands (all, a league,
  a tournament; by default only rows missing or older than ``FACTS_VERSION``),
  in batches, one ``bulk_update`` per batch. ``manage.py refresh_stats`` runs it.
* :func:`league_points_formula_set` -- a league admin or authority chooses how
  tournaments score (tracker/engine/points.py).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from django.db import transaction
from django.db.models import Q

from tracker.core.permissions import Capability, require
from tracker.engine.equity import SAMPLES
from tracker.engine.facts import FACTS_VERSION, hand_facts
from tracker.engine.points import normalize_formula
from tracker.hands.models import Hand, HandSeat, HandStatus
from tracker.leagues.models import League

log = logging.getLogger(__name__)

SETTLED = (HandStatus.VERIFIED, HandStatus.DISPUTED)
#: Monte Carlo runouts per all-in at settlement (when the runouts are too many to count).
EQUITY_SAMPLES = SAMPLES


def facts_for_hand(hand: Hand, reading: dict[str, Any], samples: int | None = None) -> list[dict]:
    """The facts of every position of ``hand`` from the engine's ``reading`` (never raises)."""
    samples = samples or EQUITY_SAMPLES
    try:
        return hand_facts(
            variant=hand.variant,
            options=hand.options,
            entry_mode=hand.entry_mode,
            entry=hand.entry,
            reading=reading,
            samples=samples,
        )
    except Exception as exc:  # noqa: BLE001 - statistics must never block settlement
        log.exception("hand facts failed", extra={"hand": hand.pk})
        n = len(reading.get("folded") or hand.positions or [])
        return [{"v": FACTS_VERSION, "error": f"{type(exc).__name__}: {exc}"} for _ in range(n)]


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
