"""The statistics endpoints: JSON and CSV, scopes, the points formula, private leagues,
query counts."""

from __future__ import annotations

import csv
import io

import pytest
from rest_framework.test import APIClient

from tests.factories import add_member
from tracker.hands.models import HandSeat

pytestmark = pytest.mark.django_db
API = "/api/v1/analytics"


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_standings_json_and_csv(world, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        r = client_for().get(f"{API}/leagues/{world.league.slug}/standings/")
    assert r.status_code == 200
    rows = r.json()
    assert rows[0]["place"] == 1 and {"points", "events_counted", "net_chips"} <= set(rows[0])
    assert sum(row["points"] for row in rows) == 30
    r = client_for().get(f"{API}/leagues/{world.league.slug}/standings/?format=csv")
    assert r.status_code == 200 and r["Content-Type"].startswith("text/csv")
    table = list(csv.DictReader(io.StringIO(r.content.decode())))
    assert [float(t["points"]) for t in table] == [row["points"] for row in rows]


def test_player_stats_and_scopes(world, django_assert_max_num_queries):
    ann = world.players[0]
    with django_assert_max_num_queries(4):
        r = client_for().get(f"{API}/players/{ann.pk}/stats/")
    data = r.json()
    assert data["name"] == "Ann" and data["scope"] == "All time"
    assert data["hands"] == HandSeat.objects.filter(player=ann).count()
    assert isinstance(data["categories"], dict)
    t = world.tournaments[0]
    scoped = client_for().get(f"{API}/players/{ann.pk}/stats/?tournament={t.pk}").json()
    assert scoped["hands"] == HandSeat.objects.filter(player=ann, hand__tournament=t).count()
    assert client_for().get(f"{API}/players/{ann.pk}/stats/?variant=go").status_code == 404
    flat = client_for().get(f"{API}/players/{ann.pk}/stats/?format=csv").content.decode()
    assert "categories." in flat.splitlines()[0]


def test_player_hands_with_luck(world):
    pid = HandSeat.objects.filter(facts__ai=1).values_list("player_id", flat=True).first()
    hands = client_for().get(f"{API}/players/{pid}/hands/").json()
    allins = client_for().get(f"{API}/players/{pid}/hands/?all_in=1").json()
    assert len(hands) == HandSeat.objects.filter(player_id=pid).count()
    assert allins and all(h["equity"] is not None for h in allins)
    assert all(h["luck"] == round(h["won"] - h["expected"], 1) for h in allins)


def test_league_and_tournament_tables(world, django_assert_max_num_queries):
    with django_assert_max_num_queries(4):
        league = client_for().get(f"{API}/leagues/{world.league.slug}/stats/").json()
    assert {row["player"] for row in league} == set(
        HandSeat.objects.values_list("player_id", flat=True)
    )
    t = world.tournaments[0]
    with django_assert_max_num_queries(4):
        stats = client_for().get(f"{API}/tournaments/{t.pk}/stats/").json()
    assert sum(row["net"] for row in stats) == 0
    with django_assert_max_num_queries(3):
        hands = client_for().get(f"{API}/tournaments/{t.pk}/hands/").json()
    assert len(hands) == HandSeat.objects.filter(hand__tournament=t).count()


def test_points_formula_get_and_put(world):
    url = f"{API}/leagues/{world.league.slug}/points-formula/"
    assert client_for().get(url).json()["formula"] == "linear"
    assert client_for().put(url, {"formula": "table"}, format="json").status_code in (401, 403)
    member = add_member(world.league, "api-member", "member")
    r = client_for(member).put(url, {"formula": "table"}, format="json")
    assert r.status_code == 403 and r.json()["error"]["code"] == "permission_denied"
    rob = add_member(world.league, "api-rob", "authority")
    body = {"formula": "pokerstars_tlb", "buy_in": 20, "best": 2}
    r = client_for(rob).put(url, body, format="json")
    assert r.status_code == 200, r.json()
    assert r.json()["description"].startswith("PokerStars TLB")
    standings = client_for().get(f"{API}/leagues/{world.league.slug}/standings/").json()
    assert all(row["events_counted"] <= 2 for row in standings)
    bad = client_for(rob).put(url, {"formula": "table", "table": [5, -1]}, format="json")
    assert bad.status_code == 400 and "table.1" in bad.json()["error"]["fields"]
    bad = client_for(rob).put(url, {"formula": "linear", "buy_in": 5}, format="json")
    assert bad.status_code == 400 and "points_formula.buy_in" in bad.json()["error"]["fields"]


def test_private_league_answers_404_to_outsiders(private_world):
    w = private_world
    urls = [
        f"{API}/leagues/{w.league.slug}/standings/",
        f"{API}/leagues/{w.league.slug}/stats/",
        f"{API}/leagues/{w.league.slug}/points-formula/",
        f"{API}/players/{w.players[0].pk}/stats/",
        f"{API}/players/{w.players[0].pk}/hands/",
        f"{API}/tournaments/{w.tournaments[0].pk}/stats/",
        f"{API}/tournaments/{w.tournaments[0].pk}/hands/",
    ]
    for user in (None, w.outsider):
        for url in urls:
            r = client_for(user).get(url)
            assert r.status_code == 404, url
            assert r.json()["error"]["code"] == "not_found"
    for url in urls:
        assert client_for(w.member).get(url).status_code == 200, url
    put = client_for(w.outsider).put(urls[2], {"formula": "linear"}, format="json")
    assert put.status_code == 404


def test_schema_lists_the_endpoints(client):
    schema = client.get("/api/schema/?format=json").json()
    paths = set(schema["paths"])
    assert "/api/v1/analytics/leagues/{slug}/standings/" in paths
    assert "/api/v1/analytics/players/{id}/hands/" in paths
