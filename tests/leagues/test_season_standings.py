"""League standings per season: the nights of a season that count (switched on, at least
the league's minimum of players), in the selectors, the league table page and the API
(both databases)."""

from __future__ import annotations

import datetime as dt

import pytest
from rest_framework.test import APIClient

from tests.factories import make_league
from tests.support.nights import finished_night
from tracker.engine.errors import DomainError
from tracker.leagues.selectors import (
    ALL,
    league_results,
    league_season,
    league_seasons,
    league_standings,
    season_nights,
)
from tracker.leagues.services import player_create

pytestmark = pytest.mark.django_db

TODAY = dt.date.today()


@pytest.fixture
def league():
    league, admin = make_league(slug="club")
    league.season_length = "quarter"
    league.min_players = 4
    league.save()
    league.admin = admin
    league.people = {
        n: player_create(league=league, name=n, by=admin) for n in ("Ann", "Bob", "Cat", "Dee")
    }
    return league


@pytest.fixture
def nights(league):
    return {
        # 2026 Q3: one night that counts.
        "summer": finished_night(
            league, "Summer", dt.date(2026, 8, 7), ["Bob", "Ann", "Cat", "Dee"]
        ),
        # 2026 Q4: one that counts, one friendly, one of three players.
        "autumn": finished_night(
            league, "Autumn", dt.date(2026, 10, 2), ["Ann", "Bob", "Cat", "Dee"]
        ),
        "friendly": finished_night(
            league, "Friendly", dt.date(2026, 10, 9), ["Dee", "Cat", "Bob", "Ann"], counts=False
        ),
        "three": finished_night(league, "Three", dt.date(2026, 11, 6), ["Cat", "Bob", "Ann"]),
    }


def winners(rows):
    return [r.name for r in rows]


def test_a_season_counts_only_its_nights_switched_on_with_enough_players(league, nights):
    q4 = league_season(league, "2026-Q4")
    rows = league_standings(league, season=q4)
    assert winners(rows) == ["Ann", "Bob", "Cat", "Dee"]
    assert all(r.events == 1 for r in rows)
    assert {r.tournament_id for r in league_results(league, q4)} == {nights["autumn"].id}
    listed = {n.name: n for n in season_nights(league, q4)}
    assert set(listed) == {"Autumn", "Friendly", "Three"}
    assert listed["Autumn"].counts
    assert not listed["Friendly"].counts and "friendly" in listed["Friendly"].reason
    assert not listed["Three"].counts and listed["Three"].reason == (
        "3 players, fewer than the league's 4"
    )


def test_an_earlier_season_and_all_time(league, nights):
    q3 = league_standings(league, season=league_season(league, "2026-Q3"))
    assert winners(q3)[0] == "Bob"
    every = league_standings(league, season=league_season(league, "all"))
    assert {r.name: r.events for r in every} == {"Ann": 2, "Bob": 2, "Cat": 2, "Dee": 2}
    # Lowering the minimum lets the three-player night count.
    league.min_players = 3
    every = league_standings(league, season=league_season(league, "all"))
    assert {r.name: r.events for r in every}["Cat"] == 3


def test_the_current_season_is_the_default(league):
    finished_night(league, "Tonight", TODAY, ["Dee", "Cat", "Bob", "Ann"])
    season = league_season(league)
    assert season.contains(TODAY)
    assert winners(league_standings(league, season=season))[0] == "Dee"
    assert league_seasons(league, TODAY)[0] == season


def test_the_picker_lists_every_season_from_the_first_night(league, nights):
    keys = [s.key for s in league_seasons(league, dt.date(2027, 1, 15))]
    assert keys == ["2027-Q1", "2026-Q4", "2026-Q3", "all"]


def test_the_league_statistics_open_on_the_league_tables_season(client, league):
    finished_night(league, "Tonight", TODAY, ["Dee", "Cat", "Bob", "Ann"])
    table = client.get(f"/leagues/{league.slug}/table/").context["page"]
    stats = client.get(f"/leagues/{league.slug}/stats/").context["page"]
    assert table.season == stats.season == league_season(league)
    assert league_season(league, "", default=ALL) == league_season(league, "all")
    with pytest.raises(ValueError):
        league_season(league, "", default="someday")


def test_a_key_of_another_length_is_refused(league):
    with pytest.raises(DomainError) as err:
        league_season(league, "2026-11")
    assert err.value.code == "invalid_season" and "season" in err.value.fields


def test_the_league_table_page_per_season(client, league, nights):
    url = f"/leagues/{league.slug}/table/"
    page = client.get(url, {"season": "2026-Q4"})
    assert page.status_code == 200
    body = page.content.decode()
    assert "Oct–Dec 2026" in body
    assert 'value="2026-Q4" selected' in body and 'value="2026-Q3"' in body
    assert [r.name for r in page.context["page"].standings] == ["Ann", "Bob", "Cat", "Dee"]
    assert "a friendly night: switched off" in body
    assert "3 players, fewer than the league&#x27;s 4" in body
    q3 = client.get(url, {"season": "2026-Q3"})
    assert [r.name for r in q3.context["page"].standings][0] == "Bob"
    assert client.get(url, {"season": "2026-13"}).status_code == 404
    csv = client.get(f"/leagues/{league.slug}/table.csv", {"season": "2026-Q3"})
    assert csv.content.decode().splitlines()[1].split(",")[1] == "Bob"


def test_a_season_of_more_nights_than_the_chart_draws(client, league, nights, monkeypatch):
    """All time has two nights that count: the chart is drawn, and every night is listed;
    with a chart of one night at most, no chart, a note why, and only the nights left out."""
    from web.presenters import stats as presenter

    url = f"/leagues/{league.slug}/table/"
    page = client.get(url, {"season": "all"}).context["page"]
    assert page.tournaments == 2 and page.chart and page.chart_note == ""
    assert [n.name for n in page.nights] == ["Summer", "Autumn", "Friendly", "Three"]
    monkeypatch.setattr(presenter, "CHART_NIGHTS", 1)
    page = client.get(url, {"season": "all"}).context["page"]
    assert page.tournaments == 2 and page.chart == {}
    assert page.chart_note == (
        "2 nights count: the points chart is drawn up to 1 nights (pick a shorter season)."
    )
    assert [n.name for n in page.nights] == ["Friendly", "Three"]
    assert [r.name for r in page.standings] == ["Ann", "Bob", "Cat", "Dee"]


def test_the_league_page_says_which_nights_do_not_count(client, league, nights):
    body = client.get(f"/leagues/{league.slug}/").content.decode()
    assert "friendly: not counted in the standings" in body
    assert "not counted: fewer than 4 players" in body
    assert body.count('data-testid="not-counted"') == 2


@pytest.mark.parametrize(
    "path", ["/api/v1/leagues/club/standings/", "/api/v1/analytics/leagues/club/standings/"]
)
def test_the_api_takes_a_season(league, nights, path):
    api = APIClient()
    q4 = api.get(path, {"season": "2026-Q4"}).json()
    assert [r["name"] for r in q4] == ["Ann", "Bob", "Cat", "Dee"]
    q3 = api.get(path, {"season": "2026-Q3"}).json()
    assert q3[0]["name"] == "Bob"
    every = api.get(path, {"season": "all"}).json()
    assert {r["name"]: r["events"] for r in every}["Ann"] == 2
    bad = api.get(path, {"season": "2026"})
    assert bad.status_code == 400
    assert bad.json()["error"]["code"] == "invalid_season"
    assert "season" in bad.json()["error"]["fields"]
