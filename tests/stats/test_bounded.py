"""The statistics pages read the running totals: the same queries at 5 hands and at 50,
and no query that reads every hand seat of a scope."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import make_league
from tests.stats.seed import play
from tests.support.nights import night_played
from tracker.hands.selectors import facts as facts_module
from tracker.leagues.services import player_create
from tracker.tournaments.services import tournament_create
from web.presenters import stats as stats_pages

pytestmark = pytest.mark.django_db


def pages(league, player, tournament) -> dict[str, str]:
    return {
        "league statistics": f"/leagues/{league.slug}/stats/",
        "league statistics, one game": f"/leagues/{league.slug}/stats/?variant=low_hole",
        "league statistics CSV": f"/leagues/{league.slug}/stats.csv",
        "league statistics API": f"/api/v1/analytics/leagues/{league.slug}/stats/",
        "player statistics page": f"/players/{player.pk}/stats/",
        "player statistics, one game": f"/players/{player.pk}/stats/?variant=seven_card_stud",
        "player statistics CSV": f"/players/{player.pk}/stats.csv",
        "player statistics API": f"/api/v1/analytics/players/{player.pk}/stats/",
        "tournament statistics API": f"/api/v1/analytics/tournaments/{tournament.pk}/stats/",
    }


def read(client, urls: dict[str, str]) -> dict[str, list[str]]:
    out = {}
    for label, url in urls.items():
        with CaptureQueriesContext(connection) as q:
            assert client.get(url).status_code == 200, url
        out[label] = [x["sql"] for x in q.captured_queries]
    return out


def test_the_pages_take_the_same_queries_at_5_hands_and_at_50(
    client, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(facts_module, "EQUITY_SAMPLES", 200)
    # Past 10 hands the chips chart goes month by month (300 on the site).
    monkeypatch.setattr(stats_pages, "CHART_HANDS", 10)
    league, admin = make_league(slug="bounded")
    players = [player_create(league=league, name=n, by=admin) for n in ("Ann", "Bob", "Cat")]
    ids = [p.pk for p in players]
    rng = random.Random(7)
    first = tournament_create(
        league=league, name="One", player_ids=ids, by=admin, date=dt.date(2026, 1, 9)
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert play(first, admin, rng, hands=5) == 5
    urls = pages(league, players[0], first)
    small = read(client, urls)
    for k, day in enumerate((dt.date(2026, 2, 6), dt.date(2026, 3, 6), dt.date(2026, 3, 20))):
        night_played(
            league, admin, players, name=f"N{k}", date=day, rng=rng, hands=15, starting_chips=5000
        )
    from tracker.hands.models import HandSeat

    assert HandSeat.objects.filter(player=players[0]).count() >= 50
    large = read(client, urls)
    for label in urls:
        assert len(large[label]) == len(small[label]), label
        # The league's and the API's statistics never read the hand seats; the player page
        # reads at most the latest 25 all-ins from them.
        seat_reads = [sql for sql in large[label] if '"tracker_handseat"' in sql]
        if label == "player statistics page":
            assert len(seat_reads) == 1 and "LIMIT 25" in seat_reads[0], label
        elif label == "player statistics, one game":
            # hand by hand only while the scope holds at most CHART_HANDS hands
            stud = HandSeat.objects.filter(player=players[0], hand__variant="seven_card_stud")
            assert len(seat_reads) == 1 + (stud.count() <= 10), label
            assert "LIMIT 25" in seat_reads[-1], label
        else:
            assert not seat_reads, label


def test_a_long_history_charts_month_by_month(client, monkeypatch):
    monkeypatch.setattr(facts_module, "EQUITY_SAMPLES", 200)
    monkeypatch.setattr(stats_pages, "CHART_HANDS", 10)
    league, admin = make_league(slug="months")
    players = [player_create(league=league, name=n, by=admin) for n in ("Ann", "Bob")]
    rng = random.Random(3)
    for month in (1, 2, 3):
        night_played(
            league,
            admin,
            players,
            name=f"M{month}",
            date=dt.date(2026, month, 5),
            rng=rng,
            hands=6,
            starting_chips=5000,
        )
    html = client.get(f"/players/{players[0].pk}/stats/").content.decode()
    assert 'data-testid="chips-chart"' in html and "Chips won, by month" in html
    assert "months played" in html


def test_the_league_page_reads_as_many_queries_after_three_hands_or_twelve(
    monkeypatch, django_capture_on_commit_callbacks
):
    from web.presenters.pages import league_page

    monkeypatch.setattr(facts_module, "EQUITY_SAMPLES", 200)
    league, admin = make_league(slug="totals")
    players = [player_create(league=league, name=n, by=admin) for n in ("Ann", "Bob", "Cat")]
    t = tournament_create(league=league, name="N", player_ids=[p.pk for p in players], by=admin)
    rng = random.Random(2)
    counts = []
    for hands in (3, 9):
        with django_capture_on_commit_callbacks(execute=True):
            play(t, admin, rng, hands=hands)
        with CaptureQueriesContext(connection) as q:
            league_page(admin, league.slug)
        counts.append(len(q))
        # No figure of the page is a sum over every seat of the league.
        assert not [x for x in q.captured_queries if 'COUNT("tracker_handseat"' in x["sql"]]
    assert counts[0] == counts[1]
