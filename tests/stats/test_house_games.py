"""Statistics by game list each house game by its name, whatever its version."""

from __future__ import annotations

import pytest

from tests.support.live_house import house_table, record_live
from tracker.games.services import league_game_create
from web.presenters.stats import player_stats_page

pytestmark = pytest.mark.django_db


def test_two_house_games_are_listed_by_name(django_capture_on_commit_callbacks):
    league, admin, tournament, players, ftq = house_table()
    deuces = league_game_create(league=league, by=admin, name="Deuces", preset="deuces_wild")
    deals = lambda: {0: "Qs 4d 5s Jh".split(), 1: "9d 6c Tc 8c".split()}  # noqa: E731
    first = {0: "9h 7d Qd", 1: "2c 3c 7h"}
    with django_capture_on_commit_callbacks(execute=True):
        record_live(tournament, admin, ftq, first, deals())
    with django_capture_on_commit_callbacks(execute=True):
        record_live(tournament, admin, ftq, first, deals())
    with django_capture_on_commit_callbacks(execute=True):
        record_live(tournament, admin, deuces, first, deals())
    ann = players[0]
    page = player_stats_page(admin, ann.pk)
    rows = {s.label: s.hands for s in page.by_variant}
    assert rows == {"Deuces": 1, "Follow the Queen": 2}
    assert "House game" not in rows
