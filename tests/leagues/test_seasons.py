"""Seasons follow from a length and a date: every day falls in exactly one season."""

import doctest
from datetime import date, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

import tracker.leagues.seasons as seasons
from tracker.leagues.seasons import SEASON_LENGTHS, season_from_key, season_of, seasons_between

LENGTHS = [length for length, _ in SEASON_LENGTHS]


def test_docstring_examples():
    result = doctest.testmod(seasons, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    assert result.attempted > 0 and result.failed == 0


@given(st.sampled_from(LENGTHS), st.dates(date(1990, 1, 1), date(2100, 12, 31)))
def test_a_day_is_in_its_season_and_the_key_names_it(length, day):
    season = season_of(length, day)
    assert season.contains(day)
    assert season_from_key(length, season.key) == season


@given(st.sampled_from(["year", "quarter", "month"]), st.dates(date(1990, 1, 1), date(2100, 1, 1)))
def test_seasons_tile_the_calendar(length, day):
    season = season_of(length, day)
    assert season_of(length, season.end + timedelta(days=1)).start == season.end + timedelta(days=1)
    assert season_of(length, season.start - timedelta(days=1)).end == season.start - timedelta(
        days=1
    )


def test_seasons_between_lists_newest_first_without_gaps():
    listed = seasons_between("month", date(2025, 11, 20), date(2026, 2, 3))
    assert [s.key for s in listed] == ["2026-02", "2026-01", "2025-12", "2025-11"]
    assert seasons_between("all", date(2000, 1, 1), date(2026, 1, 1))[0].key == "all"


@pytest.mark.parametrize(
    "length,key", [("year", "26"), ("quarter", "2026-Q5"), ("month", "2026-1"), ("bogus", "x")]
)
def test_bad_keys_and_lengths_are_refused(length, key):
    with pytest.raises(ValueError):
        season_from_key(length, key)
