"""The league table's cost is bounded by what it shows: the standings read from the stored
running totals (StandingTally) equal the night-by-night computation on random leagues
(formulas, ties, best N, nights left out, every season length), and the table page, its
CSV, both standings endpoints and the league page run as many queries at 50 nights as at 5
(both databases); past the chart's nights, the all-time page and the nights it lists as
left out read no final standing."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from tests.factories import make_league
from tests.support.definitions import league_standings_from_results
from tracker.leagues.selectors import (
    league_results,
    league_season,
    league_standings,
    league_table,
    season_nights,
)
from tracker.leagues.services import player_create
from tracker.tournaments.models import FinalStanding, Tournament, TournamentStatus
from tracker.tournaments.services import standings_tallies_apply, tournament_create

pytestmark = pytest.mark.django_db

FORMULAS = [
    None,
    {"formula": "linear", "best": 3},
    {"formula": "table", "table": [10, 6, 4, 3]},
    {"formula": "table", "table": [7, 5.5, 1], "best": 2},
    {"formula": "pokerstars_tlb", "buy_in": 5},
    {"formula": "pokerstars_tlb", "top_fraction": 0.5, "best": 4},
]


def make_world(rng: random.Random, nights: int, *, slug: str = "club"):
    league, admin = make_league(slug=slug)
    league.season_length = "quarter"
    league.min_players = rng.choice([2, 3, 4])
    league.save()
    roster = [player_create(league=league, name=f"P{i}", by=admin) for i in range(7)]
    day = dt.date(2025, 1, 3)
    for n in range(nights):
        people = rng.sample(roster, rng.randint(2, len(roster)))
        t = tournament_create(
            league=league,
            name=f"Night {n}",
            player_ids=[p.id for p in people],
            by=admin,
            date=day + dt.timedelta(days=7 * n + rng.choice([0, 0, 1])),
            counts_toward_standings=rng.random() > 0.15,
        )
        t.status = TournamentStatus.FINISHED
        t.entrants = len(people)  # as final_standings_write stores it
        t.save()
        # Few distinct chip counts, so that players often share a place.
        chips = {p.id: rng.choice([0, 0, 500, 1000, 1500, 3000]) for p in people}
        FinalStanding.objects.bulk_create(
            [
                FinalStanding(
                    tournament=t,
                    player=p,
                    place=1 + sum(1 for c in chips.values() if c > chips[p.id]),
                    chips=chips[p.id],
                    out_hand=None,
                )
                for p in people
            ]
        )
        standings_tallies_apply(tournament_ids=[t.pk], before={})
    return league, admin


def straightforward(league, season):
    """Every counted night scored one by one (the definition, from the final standings)."""
    return league_standings_from_results(league, league_results(league, season), season)


@pytest.mark.parametrize("seed", range(6))
def test_stored_standings_equal_the_night_by_night_computation(seed):
    rng = random.Random(seed)
    league, _ = make_world(rng, 24)
    assert FinalStanding.objects.filter(tournament__league=league).count() > 24
    for formula in FORMULAS:
        league.points_formula = formula or {}
        league.save()
        for key in ("all", "2025-Q1", "2025-Q2"):
            season = league_season(league, key)
            expected = straightforward(league, season)
            assert expected, (seed, formula, key)
            table = league_table(league, season)
            assert table.rows == expected, (seed, formula, key)
            assert table.nights == len({r.tournament_id for r in league_results(league, season)})
        assert league_standings(league) == straightforward(league, None)
    # The season length and the minimum of players are applied when the rows are read:
    # changing them needs no rebuild.
    for length, key, minimum in (("month", "2025-02", 2), ("year", "2025", 5), ("all", "all", 3)):
        league.season_length, league.min_players = length, minimum
        league.save()
        season = league_season(league, key)
        assert league_standings(league, season) == straightforward(league, season), length


def test_ties_share_the_points_of_their_places():
    league, admin = make_world(random.Random(1), 0)
    people = list(league.players.order_by("name")[:4])
    t = tournament_create(
        league=league,
        name="Tied",
        player_ids=[p.id for p in people],
        by=admin,
        date=dt.date(2025, 2, 7),
    )
    t.status = TournamentStatus.FINISHED
    t.entrants = len(people)
    t.save()
    for p, place in zip(people, [1, 2, 2, 4], strict=True):
        FinalStanding.objects.create(tournament=t, player=p, place=place, chips=0, out_hand=None)
    standings_tallies_apply(tournament_ids=[t.pk], before={})
    rows = {r.name: r.points for r in league_standings(league)}
    assert rows == {"P0": 4.0, "P1": 2.5, "P2": 2.5, "P3": 1.0}


def test_the_table_costs_the_same_queries_at_5_and_50_nights():
    """The table page (a season, all time, the default), its CSV, both standings endpoints
    and the league page."""
    counts = {}
    for nights in (5, 50):
        league, admin = make_world(random.Random(nights), nights, slug=f"club{nights}")
        league.is_public = True
        league.points_formula = {"formula": "linear", "best": 3}
        league.save()
        assert Tournament.objects.filter(league=league).count() == nights
        client = Client()
        client.force_login(admin)
        season = "2025-Q1"
        urls = [
            f"/leagues/{league.slug}/table/?season={season}",
            f"/leagues/{league.slug}/table/?season=all",
            f"/api/v1/analytics/leagues/{league.slug}/standings/?season={season}",
            f"/api/v1/analytics/leagues/{league.slug}/standings/?season=all",
            f"/api/v1/leagues/{league.slug}/standings/?season={season}",
            f"/api/v1/leagues/{league.slug}/standings/?season=all",
            f"/leagues/{league.slug}/table.csv?season={season}",
            f"/leagues/{league.slug}/table.csv?season=all",
            f"/leagues/{league.slug}/table/",
            f"/leagues/{league.slug}/",
        ]
        for url in urls:
            client.get(url)  # warm: sessions, content types
        counts[nights] = {}
        for url in urls:
            with CaptureQueriesContext(connection) as ctx:
                resp = client.get(url)
            assert resp.status_code == 200, (url, resp.status_code)
            counts[nights][url.replace(league.slug, "")] = len(ctx.captured_queries)
        listed = client.get(f"/leagues/{league.slug}/").context["page"].tournaments
        assert len(listed) == min(nights, 20)  # the latest nights only
    assert counts[5] == counts[50]


def test_the_nights_left_out_cost_the_same_at_5_and_50_nights_and_read_no_final_standing(
    monkeypatch,
):
    """Past the chart's nights the all-time table lists the nights left out
    (``season_nights(..., left_out_only=True)``): from the nights' stored ``entrants``, not
    by counting their final standings."""
    from web.presenters import stats as presenters

    monkeypatch.setattr(presenters, "CHART_NIGHTS", 0)
    standings_table = FinalStanding._meta.db_table
    counts, listed = {}, {}
    for nights in (5, 50):
        league, admin = make_world(random.Random(nights), nights, slug=f"left{nights}")
        league.min_players = 4
        league.save()
        client = Client()
        client.force_login(admin)
        url = f"/leagues/{league.slug}/table/?season=all"
        client.get(url)  # warm: sessions, content types
        with CaptureQueriesContext(connection) as page:
            resp = client.get(url)
        assert resp.status_code == 200
        page_nights = resp.context["page"].nights
        assert resp.context["page"].chart == {} and "drawn up to 0 nights" in (
            resp.context["page"].chart_note
        )
        with CaptureQueriesContext(connection) as selector:
            left_out = season_nights(league, league_season(league, "all"), left_out_only=True)
        counts[nights] = (len(page.captured_queries), len(selector.captured_queries))
        for q in (*page.captured_queries, *selector.captured_queries):
            assert standings_table not in q["sql"], q["sql"]
        assert left_out == page_nights == [n for n in season_nights(league, None) if not n.counts]
        listed[nights] = left_out
    assert counts[5] == counts[50]
    assert counts[50][1] == 1
    assert listed[50] and len(listed[50]) > len(listed[5])  # some nights are left out
