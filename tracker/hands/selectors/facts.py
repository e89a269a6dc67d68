"""The per-seat statistics facts of a hand being settled or read again (pure: no database).

:func:`facts_for_hand` walks the hand with ``tracker.engine.facts`` watching, from the
engine's reading; settlement, re-evaluation and the statistics' backfill
(``tracker.stats.services.stats_refresh``) store what it returns on the hand seats.
Settlement walks each hand once: :func:`facts_observer` watches the settling walk
(``hand_evaluate(..., observers=[observer])``) and ``facts_for_hand(..., observed=observer)``
reads the facts from it instead of walking the hand again. A fault
here is logged and stored as ``{"error": ...}``: statistics never stop a hand from settling.
"""

from __future__ import annotations

import logging
from typing import Any

from tracker.engine.equity import SAMPLES
from tracker.engine.facts import FACTS_VERSION, FactsObserver, hand_facts
from tracker.games.selectors import version_definition
from tracker.hands.models import Hand

log = logging.getLogger(__name__)

#: Monte Carlo runouts per all-in at settlement (when the runouts are too many to count).
EQUITY_SAMPLES = SAMPLES


def facts_observer(hand: Hand) -> FactsObserver:
    """An observer to attach to the engine's walk of ``hand`` (for ``facts_for_hand``)."""
    return FactsObserver(len(hand.positions))


def facts_for_hand(
    hand: Hand,
    reading: dict[str, Any],
    samples: int | None = None,
    observed: FactsObserver | None = None,
) -> list[dict]:
    """The facts of every position of ``hand`` from the engine's ``reading`` (never raises);
    ``observed``: the :func:`facts_observer` that watched the walk which gave ``reading``."""
    samples = samples or EQUITY_SAMPLES
    try:
        return hand_facts(
            variant=hand.variant,
            options=hand.options,
            entry_mode=hand.entry_mode,
            entry=hand.entry,
            reading=reading,
            samples=samples,
            observed=observed,
            game=version_definition(hand.game_version) if hand.game_version_id else None,
        )
    except Exception as exc:  # noqa: BLE001 - statistics must never block settlement
        log.exception("hand facts failed", extra={"hand": hand.pk})
        n = len(reading.get("folded") or hand.positions or [])
        return [{"v": FACTS_VERSION, "error": f"{type(exc).__name__}: {exc}"} for _ in range(n)]
