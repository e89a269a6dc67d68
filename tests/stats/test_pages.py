"""The statistics pages and CSV exports: content, query counts that stay flat, private
leagues, the points formula form."""

from __future__ import annotations

import csv
import io

import pytest

from tracker.hands.models import HandSeat

pytestmark = pytest.mark.django_db


def rows(response) -> list[dict]:
    assert response["Content-Type"].startswith("text/csv")
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def urls(w):
    slug, p, t = w.league.slug, w.players[0].pk, w.tournaments[0].pk
    return {
        f"/leagues/{slug}/table/": 9,  # all time here: how many nights count, first
        f"/leagues/{slug}/stats/": 7,
        f"/leagues/{slug}/stats/?variant=low_hole": 7,
        f"/players/{p}/stats/": 11,
        f"/players/{p}/stats/?variant=kings_and_little_ones": 9,
        f"/players/{p}/stats/?tournament={t}": 12,
        f"/tournaments/{t}/stats/": 10,
        f"/leagues/{slug}/table.csv": 7,
        f"/leagues/{slug}/stats.csv": 7,
        f"/players/{p}/stats.csv": 7,
        f"/players/{p}/hands.csv": 6,
        f"/tournaments/{t}/stats.csv": 7,
        f"/tournaments/{t}/hands.csv": 6,
    }


def test_every_page_answers_within_its_query_budget(world, client, django_assert_max_num_queries):
    client.force_login(world.admin)
    for url, budget in urls(world).items():
        with django_assert_max_num_queries(budget):
            response = client.get(url)
        assert response.status_code == 200, url


def test_query_counts_do_not_grow_with_the_hands(world, client, django_capture_on_commit_callbacks):
    """Record more hands: every page takes the same number of queries."""
    import random

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tests.stats.seed import play

    def counts():
        out = {}
        for url in urls(world):
            with CaptureQueriesContext(connection) as q:
                assert client.get(url).status_code == 200
            out[url] = len(q)
        return out

    before = counts()
    with django_capture_on_commit_callbacks(execute=True):
        play(world.tournaments[-1], world.admin, random.Random(11), hands=8)
    assert counts() == before


def test_player_page_shows_what_counted_the_luck_and_phone_sized_charts(world, client):
    ann = max(world.players, key=lambda p: HandSeat.objects.filter(player=p, facts__ai=1).count())
    html = client.get(f"/players/{ann.pk}/stats/").content.decode()
    seats = HandSeat.objects.filter(player=ann)
    full = seats.filter(hand__entry_mode="full").count()
    assert f"{seats.count()} hands settled: {full} full histories" in html
    assert 'data-testid="chips-chart"' in html and 'data-testid="luck-chart"' in html
    assert 'viewBox="0 0 340 ' in html  # drawn for a 375-pixel phone too
    assert 'data-testid="allins"' in html
    assert "From the" in html and "full histories only" in html
    assert f'href="/players/{ann.pk}/stats.csv"' in html


def test_player_page_scopes(world, client):
    ann = world.players[0]
    html = client.get(f"/players/{ann.pk}/stats/?variant=low_hole").content.decode()
    assert "Low Hole" in html and "By game" not in html
    assert client.get(f"/players/{ann.pk}/stats/?variant=chess").status_code == 404
    assert client.get(f"/players/{ann.pk}/stats/?tournament=99999").status_code == 404
    assert client.get(f"/players/{ann.pk}/stats/?tournament=x").status_code == 404


def test_league_table_page_and_csv(world, client):
    html = client.get(f"/leagues/{world.league.slug}/table/").content.decode()
    assert "League table" in html and "Linear: players - place + 1" in html
    assert 'data-testid="points-chart"' in html
    assert 'data-testid="points-form"' not in html  # not for an anonymous visitor
    table = rows(client.get(f"/leagues/{world.league.slug}/table.csv"))
    assert [r["place"] for r in table] == [str(k + 1) for k in range(len(table))]
    assert sum(float(r["points"]) for r in table) == 30  # three 4-player nights, linear
    assert set(table[0]) >= {"player", "points", "events", "wins", "average_place", "net_chips"}


def test_stats_csv_columns(world, client):
    table = rows(client.get(f"/leagues/{world.league.slug}/stats.csv"))
    assert {"player", "hands", "vpip_pct", "wtsd_pct", "wsd_pct", "luck"} <= set(table[0])
    assert "cat_five_of_a_kind" in table[0]
    hands = rows(client.get(f"/tournaments/{world.tournaments[0].pk}/hands.csv"))
    settled = HandSeat.objects.filter(hand__tournament=world.tournaments[0]).count()
    assert len(hands) == settled
    assert any(r["equity"] for r in hands)


def test_the_points_formula_form(world, client):
    url = f"/leagues/{world.league.slug}/table/"
    client.force_login(world.admin)
    assert 'data-testid="points-form"' in client.get(url).content.decode()
    response = client.post(url, {"formula": "table", "table": "10, 6, 3", "best": "2"})
    assert response.status_code == 302
    world.league.refresh_from_db()
    assert world.league.points_formula == {"formula": "table", "table": [10.0, 6.0, 3.0], "best": 2}
    html = client.get(url).content.decode()
    assert "Fixed table by place: 10, 6, 3 (0 after); best 2 events count" in html
    bad = client.post(url, {"formula": "table", "table": "ten, six"})
    assert bad.status_code == 200 and "give numbers separated by commas" in bad.content.decode()


def test_a_member_cannot_change_the_formula(private_world, client):
    client.force_login(private_world.member)
    url = f"/leagues/{private_world.league.slug}/table/"
    assert client.get(url).status_code == 200
    assert client.post(url, {"formula": "linear"}).status_code == 403


def test_private_leagues_do_not_exist_for_outsiders(private_world, client):
    w = private_world
    pages = list(urls(w))
    for url in pages:
        assert client.get(url).status_code == 404, url
    client.force_login(w.outsider)
    for url in pages:
        assert client.get(url).status_code == 404, url
    client.force_login(w.member)
    for url in pages:
        assert client.get(url).status_code == 200, url


def test_the_league_player_and_tournament_pages_link_here(world, client):
    slug, p, t = world.league.slug, world.players[0].pk, world.tournaments[0].pk
    assert f'href="/leagues/{slug}/table/"' in client.get(f"/leagues/{slug}/").content.decode()
    assert f'href="/players/{p}/stats/"' in client.get(f"/players/{p}/").content.decode()
    assert f'href="/tournaments/{t}/stats/"' in client.get(f"/tournaments/{t}/").content.decode()
