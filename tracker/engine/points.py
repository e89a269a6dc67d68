"""League points: what a finishing place in a tournament is worth, and a season's total.

A league chooses one formula (stored on the league as a small JSON object,
``{"formula": ..., **parameters}``); the empty object means the default,
``linear``. Every formula is a pure function of the number of entrants ``n``
and the place ``k`` (1 = winner):

* ``linear`` (the default): ``n - k + 1``. The winner of a five-player night
  takes 5, the first out 1.

  >>> place_points({"formula": "linear"}, entrants=5, place=1)
  5.0

* ``table``: a fixed table by place, ``{"formula": "table", "table": [10, 6, 4]}``:
  the first place takes ``table[0]``, places past the table take 0. Without
  ``table`` the default table is :data:`DEFAULT_TABLE`.

  >>> place_points({"formula": "table", "table": [10, 6, 4]}, entrants=5, place=2)
  6.0

* ``pokerstars_tlb``: the PokerStars Tournament Leader Board formula,
  ``10 * sqrt(n) / sqrt(k) * (1 + log10(b + 0.25))`` with ``b`` the buy-in
  (parameter ``buy_in``, default 0: our game nights are played for chips, a
  freeroll in PokerStars' terms). PokerStars gives points only to the top
  15 % of finishers; here every finisher scores unless ``top_fraction`` is
  set (e.g. 0.15: places ``k <= n * top_fraction`` score), since a home
  game of five would otherwise give points to nobody. Points are rounded
  to two decimals, as in PokerStars' published examples:

  >>> place_points({"formula": "pokerstars_tlb", "buy_in": 20}, entrants=150, place=3)
  163.09
  >>> place_points({"formula": "pokerstars_tlb"}, entrants=900, place=25)
  23.88
  >>> place_points({"formula": "pokerstars_tlb", "buy_in": 10}, entrants=250, place=10)
  100.54

The PokerStars *Home Games* club standings are not offered: PokerStars'
help pages say each club has its own standings (tournaments of at least
four players, when the host ticks "count towards club standings") but
publish no points formula or worked example, so nothing here claims to be
theirs.

Ties: players who share a place ``k`` (equal chips; RULES.md) span places
``k .. k + m - 1`` and each gets the average of those places' points --
the points of the places they share are split evenly, so a tournament
always hands out the same total whatever the ties:

>>> tournament_points({"formula": "linear"}, {"ann": 1, "bob": 2, "cat": 2, "dan": 4})
{'ann': 4.0, 'bob': 2.5, 'cat': 2.5, 'dan': 1.0}

A season can count only each player's best ``best`` results
(``{"formula": "linear", "best": 10}``); every event still counts as
played. See docs/analytics.md.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Hashable, Iterable, Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from .errors import DomainError

__all__ = [
    "DEFAULT_FORMULA",
    "DEFAULT_TABLE",
    "FORMULAS",
    "FORMULA_TITLES",
    "best_total",
    "describe",
    "normalize_formula",
    "place_points",
    "shared_place_points",
    "tlb_points",
    "tournament_points",
]

FORMULAS: tuple[str, ...] = ("linear", "table", "pokerstars_tlb")
FORMULA_TITLES = {
    "linear": "Linear: players - place + 1",
    "table": "Fixed table by place",
    "pokerstars_tlb": "PokerStars Tournament Leader Board: 10 x sqrt(n/k) x (1 + log10(b + 0.25))",
}
DEFAULT_FORMULA: dict[str, Any] = {"formula": "linear"}
DEFAULT_TABLE: tuple[float, ...] = (10, 7, 5, 4, 3, 2, 1)
_PARAMS = {
    "linear": (),
    "table": ("table",),
    "pokerstars_tlb": ("buy_in", "top_fraction"),
}


class PointsError(DomainError):
    code = "invalid_points_formula"


def _number(value: object, field: str, minimum: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise PointsError(f"must be a number, not {value!r}", field=field)
    if value < minimum:
        raise PointsError(f"must be at least {minimum:g}", field=field)
    return float(value)


def normalize_formula(spec: Mapping[str, Any] | None, field: str = "points_formula") -> dict:
    """Check a league's choice and fill in defaults; ``PointsError`` names the field.

    >>> normalize_formula(None)
    {'formula': 'linear', 'best': None}
    >>> normalize_formula({"formula": "pokerstars_tlb", "best": 10})
    {'formula': 'pokerstars_tlb', 'best': 10, 'buy_in': 0.0, 'top_fraction': None}
    """
    if spec is None or spec == {}:
        spec = DEFAULT_FORMULA
    if not isinstance(spec, Mapping):
        raise PointsError("must be an object with a formula", field=field)
    formula = spec.get("formula", "linear")
    if formula not in FORMULAS:
        raise PointsError(
            f"{formula!r} is not a formula (one of {', '.join(FORMULAS)})",
            field=f"{field}.formula",
        )
    allowed = {"formula", "best", *_PARAMS[formula]}
    for key in spec:
        if key not in allowed:
            raise PointsError(
                f"{formula} takes no {key!r} (it takes: {', '.join(sorted(allowed))})",
                field=f"{field}.{key}",
            )
    out: dict[str, Any] = {"formula": formula}
    best = spec.get("best")
    if best is not None:
        if isinstance(best, bool) or not isinstance(best, int) or best < 1:
            raise PointsError("must be a whole number of events, 1 or more", field=f"{field}.best")
    out["best"] = best
    if formula == "table":
        table = spec.get("table", list(DEFAULT_TABLE))
        if isinstance(table, (str, bytes)) or not isinstance(table, Sequence) or not table:
            raise PointsError("must be a list of points, first place first", field=f"{field}.table")
        out["table"] = [_number(v, f"{field}.table[{i}]") for i, v in enumerate(table)]
    elif formula == "pokerstars_tlb":
        out["buy_in"] = _number(spec.get("buy_in", 0), f"{field}.buy_in")
        top = spec.get("top_fraction")
        if top is not None:
            top = _number(top, f"{field}.top_fraction")
            if not 0 < top <= 1:
                raise PointsError(
                    "must be more than 0 and at most 1", field=f"{field}.top_fraction"
                )
        out["top_fraction"] = top
    return out


def _round2(value: float) -> float:
    return float(Decimal(repr(value)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def tlb_points(entrants: int, place: int, buy_in: float = 0.0) -> float:
    """PokerStars TLB points, rounded to two decimals.

    >>> tlb_points(150, 3, 20), tlb_points(900, 25, 0), tlb_points(250, 10, 10)
    (163.09, 23.88, 100.54)
    """
    raw = 10 * math.sqrt(entrants) / math.sqrt(place) * (1 + math.log10(buy_in + 0.25))
    return _round2(raw)


def place_points(spec: Mapping[str, Any] | None, *, entrants: int, place: int) -> float:
    """The points of one place ``place`` (1 = winner) among ``entrants``."""
    spec = normalize_formula(spec)
    if entrants < 1 or not 1 <= place <= entrants:
        raise PointsError(f"place {place} of {entrants} entrants", field="place")
    formula = spec["formula"]
    if formula == "linear":
        return float(entrants - place + 1)
    if formula == "table":
        table = spec["table"]
        return float(table[place - 1]) if place <= len(table) else 0.0
    top = spec["top_fraction"]
    if top is not None and place > entrants * top:
        return 0.0
    return tlb_points(entrants, place, spec["buy_in"])


def tournament_points(
    spec: Mapping[str, Any] | None, places: Mapping[Hashable, int]
) -> dict[Hashable, float]:
    """Points of every player of one tournament from ``{player: place}`` (ties share a place).

    ``m`` players sharing place ``k`` each get the average of the points of
    places ``k`` to ``k + m - 1`` (rounded to two decimals).
    """
    spec = normalize_formula(spec)
    entrants = len(places)
    by_place: dict[int, list[Hashable]] = {}
    for player, place in places.items():
        by_place.setdefault(place, []).append(player)
    out: dict[Hashable, float] = {}
    for place, players in by_place.items():
        share = shared_place_points(spec, entrants=entrants, place=place, sharing=len(players))
        for player in players:
            out[player] = share
    return {player: out[player] for player in places}


def shared_place_points(
    spec: Mapping[str, Any] | None, *, entrants: int, place: int, sharing: int = 1
) -> float:
    """The points of each of ``sharing`` players tied at ``place`` among ``entrants``: what
    :func:`tournament_points` gives them, a function of these three numbers alone (so a
    league's results can be grouped by them and scored once per group).

    >>> shared_place_points({"formula": "linear"}, entrants=4, place=2, sharing=2)
    2.5
    >>> shared_place_points(None, entrants=5, place=1)
    5.0
    """
    spec = normalize_formula(spec)
    span = range(place, min(place + sharing, entrants + 1))
    points = [place_points(spec, entrants=entrants, place=k) for k in span]
    return _round2(sum(points) / sharing)


def best_total(points: Iterable[float], best: int | None) -> tuple[float, int]:
    """A season's total and how many events it counts: all, or the ``best`` highest.

    >>> best_total([5, 1, 3, 4], 2)
    (9.0, 2)
    """
    ordered = sorted(points, reverse=True)
    if best is not None:
        ordered = ordered[:best]
    return _round2(sum(ordered)), len(ordered)


def running_best_totals(steps: Iterable[float | None], best: int | None) -> list[float]:
    """The season total after each step (``None``: no event for the player at that step),
    counting all events or the ``best`` highest so far -- what :func:`best_total` gives after
    each step, in one pass (a heap of the best N) rather than a sort per step.

    >>> running_best_totals([5, None, 1, 3, 4], 2)
    [5.0, 5.0, 6.0, 8.0, 9.0]
    >>> running_best_totals([2, None, 1], None)
    [2.0, 2.0, 3.0]
    """
    kept: list[float] = []
    total = 0.0
    out: list[float] = []
    for p in steps:
        if p is not None:
            if best is None or len(kept) < best:
                heapq.heappush(kept, p)
                total += p
            elif best > 0 and p > kept[0]:
                total += p - heapq.heapreplace(kept, p)
        out.append(_round2(total))
    return out


def describe(spec: Mapping[str, Any] | None) -> str:
    """The formula in words, for pages and exports.

    >>> describe({"formula": "table", "table": [10, 6, 4], "best": 8})
    'Fixed table by place: 10, 6, 4 (0 after); best 8 events count'
    """
    spec = normalize_formula(spec)
    formula = spec["formula"]
    if formula == "linear":
        text = "Linear: players - place + 1"
    elif formula == "table":
        text = "Fixed table by place: " + ", ".join(f"{v:g}" for v in spec["table"]) + " (0 after)"
    else:
        text = f"PokerStars TLB: 10 x sqrt(n/k) x (1 + log10(b + 0.25)), b = {spec['buy_in']:g}"
        if spec["top_fraction"] is not None:
            text += f", top {spec['top_fraction']:.0%} score"
    if spec["best"] is not None:
        text += f"; best {spec['best']} events count"
    return text
