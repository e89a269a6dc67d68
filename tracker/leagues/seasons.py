"""Seasons: which stretch of the calendar a game night counts in.

A league chooses a season length (a year, a quarter, a month, or one season for all time);
a tournament's season follows from its date alone, so nothing about seasons is stored on a
tournament and changing the length regroups every earlier night at once.

Pure functions of a length and a date (no database):

>>> season_of("quarter", date(2026, 11, 5))
Season(key='2026-Q4', label='Oct–Dec 2026', start=datetime.date(2026, 10, 1), end=datetime.date(2026, 12, 31))
>>> season_of("month", date(2026, 2, 14)).label
'February 2026'
>>> season_of("year", date(2025, 7, 1)).key
'2025'
>>> season_of("all", date(2025, 7, 1)).key
'all'
>>> season_from_key("quarter", "2026-Q4") == season_of("quarter", date(2026, 12, 31))
True
"""

from __future__ import annotations

import calendar
import re
from datetime import date
from typing import NamedTuple

# The season lengths a league may choose, with labels (tracker.leagues.models uses them).
SEASON_LENGTHS: tuple[tuple[str, str], ...] = (
    ("year", "Yearly"),
    ("quarter", "Quarterly"),
    ("month", "Monthly"),
    ("all", "One season for all time"),
)
DEFAULT_SEASON_LENGTH = "year"
# Home Games clubs count a night toward the standings only when at least four played.
DEFAULT_MIN_PLAYERS = 4

_QUARTER_MONTHS = ("Jan–Mar", "Apr–Jun", "Jul–Sep", "Oct–Dec")


class Season(NamedTuple):
    """One season: a stable ``key`` (for URLs and aggregate rows), a ``label`` for people,
    and its first and last day (``None`` for the all-time season)."""

    key: str
    label: str
    start: date | None
    end: date | None

    def contains(self, day: date) -> bool:
        """Whether ``day`` falls in this season."""
        return self.start is None or (self.start <= day <= self.end)  # type: ignore[operator]


def _check_length(length: str) -> None:
    if length not in dict(SEASON_LENGTHS):
        raise ValueError(f"unknown season length {length!r}")


def season_of(length: str, day: date) -> Season:
    """The season of ``length`` that ``day`` falls in."""
    _check_length(length)
    if length == "all":
        return Season("all", "All time", None, None)
    if length == "year":
        return Season(str(day.year), str(day.year), date(day.year, 1, 1), date(day.year, 12, 31))
    if length == "quarter":
        q = (day.month - 1) // 3
        first = date(day.year, 3 * q + 1, 1)
        last_month = 3 * q + 3
        last = date(day.year, last_month, calendar.monthrange(day.year, last_month)[1])
        return Season(f"{day.year}-Q{q + 1}", f"{_QUARTER_MONTHS[q]} {day.year}", first, last)
    first = date(day.year, day.month, 1)
    last = date(day.year, day.month, calendar.monthrange(day.year, day.month)[1])
    return Season(f"{day.year}-{day.month:02d}", first.strftime("%B %Y"), first, last)


_KEY = {
    "year": re.compile(r"^(\d{4})$"),
    "quarter": re.compile(r"^(\d{4})-Q([1-4])$"),
    "month": re.compile(r"^(\d{4})-(0[1-9]|1[0-2])$"),
    "all": re.compile(r"^all$"),
}


def season_from_key(length: str, key: str) -> Season:
    """The season a ``key`` names (as :func:`season_of` makes them); ValueError if the key is
    not one of ``length``'s.

    >>> season_from_key("month", "2026-13")
    Traceback (most recent call last):
    ...
    ValueError: '2026-13' is not a month season (like 2026-11)
    """
    _check_length(length)
    m = _KEY[length].match(key or "")
    if not m:
        example = season_of(length, date(2026, 11, 1)).key
        raise ValueError(f"{key!r} is not a {length} season (like {example})")
    if length == "all":
        return season_of("all", date(2000, 1, 1))
    year = int(m.group(1))
    if length == "year":
        return season_of(length, date(year, 1, 1))
    if length == "quarter":
        return season_of(length, date(year, 3 * (int(m.group(2)) - 1) + 1, 1))
    return season_of(length, date(year, int(m.group(2)), 1))


def seasons_between(length: str, first: date, last: date) -> list[Season]:
    """Every season from the one holding ``first`` to the one holding ``last``, newest first
    (the season picker's list).

    >>> [s.key for s in seasons_between("quarter", date(2026, 2, 1), date(2026, 8, 1))]
    ['2026-Q3', '2026-Q2', '2026-Q1']
    """
    _check_length(length)
    out: list[Season] = []
    season = season_of(length, first)
    while True:
        out.append(season)
        if season.end is None or season.end >= last:
            break
        nxt = season.end.toordinal() + 1
        season = season_of(length, date.fromordinal(nxt))
    out.reverse()
    return out
