"""What one hand seat adds to the statistics' running totals (pure: no database).

The statistics are sums over hand seats (docs/analytics.md). Every figure is a ratio of
additive counters, so the counters of one seat can be added to a running total when its
hand settles and subtracted again when a ruling, a re-evaluation or a backfill changes
it. :func:`seat_tally` turns one seat (its facts, chips and whether it was logged live)
into those counters; ``tracker.stats.models`` stores their sums per player, league,
variant and month, and per player, tournament and variant.

>>> t = seat_tally(facts={"full": 1, "vpip": 1, "sd": 1, "cat": "flush"}, won=40, put_in=25)
>>> t["hands"], t["vpip"], t["sd_won"], t["net"], t["chips_won"], t["cat_flush"], t["biggest"]
(1, 1, 1, 15, 15, 1, 40)
>>> seat_tally(facts={"error": "boom"}, won=0, put_in=4)["chips_lost"]
4
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tracker.engine.hands import CATEGORIES

#: The facts summed as they are (tracker/engine/facts.py), each 0 or a small count.
FACT_COUNTERS: tuple[str, ...] = (
    "full",
    "vpip",
    "bi",
    "comp",
    "r3",
    "bets",
    "calls",
    "st_try",
    "steal",
    "saw4",
    "saw5",
    "saw6",
    "saw7",
    "sd",
    "wild",
    "ai",
)
#: Counters derived from the seat's chips and facts.
DERIVED_COUNTERS: tuple[str, ...] = (
    "hands",
    "live",
    "wild_hands",
    "sd_won",
    "net",
    "chips_won",
    "chips_lost",
    "put_in",
    "ai_won",
)
CATEGORY_COUNTERS: tuple[str, ...] = tuple(f"cat_{c}" for c in CATEGORIES)
#: Every integer counter (added and subtracted as they are).
INT_COUNTERS: tuple[str, ...] = DERIVED_COUNTERS + FACT_COUNTERS + CATEGORY_COUNTERS
#: Float sums: expected chips at the all-ins and the variance of that estimate.
FLOAT_COUNTERS: tuple[str, ...] = ("ev", "ev_var")
#: The one figure that is a maximum, not a sum: the biggest pot taken in one hand.
MAX_COUNTER = "biggest"


def _int(value: Any) -> int:
    return int(value or 0)


def seat_tally(
    *, facts: Mapping[str, Any] | None, won: int, put_in: int, live: bool = False
) -> dict[str, Any]:
    """The counters one settled hand seat adds (every key of INT_COUNTERS, FLOAT_COUNTERS
    and MAX_COUNTER). Facts in error (``{"error": ...}``) count the hand and its chips only."""
    facts = facts or {}
    net = won - put_in
    out: dict[str, Any] = {k: _int(facts.get(k)) for k in FACT_COUNTERS}
    se = float(facts.get("ai_se") or 0.0)
    out.update(
        hands=1,
        live=int(live),
        wild_hands=int("wild" in facts),
        sd_won=int(facts.get("sd") == 1 and won > 0),
        net=net,
        chips_won=net if net > 0 else 0,
        chips_lost=-net if net < 0 else 0,
        put_in=put_in,
        ai_won=won if facts.get("ai") == 1 else 0,
        ev=float(facts.get("ev") or 0.0),
        ev_var=se * se,
    )
    cat = facts.get("cat")
    for c in CATEGORIES:
        out[f"cat_{c}"] = int(cat == c)
    out[MAX_COUNTER] = won
    return out
