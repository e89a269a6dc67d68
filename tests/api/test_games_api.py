"""The league's house games over REST: list/create, read/update (a new version)/archive,
the preview of sample hands, and refusals in the one API error body."""

from __future__ import annotations

import pytest

from tests.factories import add_member, api_client, make_league
from tracker.engine.game_presets import PRESETS
from tracker.engine.games import dump_game
from tracker.games.models import LeagueGame, LeagueGameVersion

pytestmark = pytest.mark.django_db

BASE = "/api/v1/leagues/club/games/"


@pytest.fixture
def world():
    league, admin = make_league(slug="club")
    return {"league": league, "admin": api_client(admin), "admin_user": admin}


def test_create_from_a_preset_read_list_and_update_to_a_new_version(world):
    client = world["admin"]
    r = client.post(BASE, {"name": "Follow the Queen", "preset": "follow_the_queen"}, format="json")
    assert r.status_code == 201, r.content
    body = r.json()
    assert (body["slug"], body["version"], body["preset"]) == (
        "follow-the-queen",
        1,
        "follow_the_queen",
    )
    assert body["definition"]["wild"][0]["later_x"] == "replaces"
    assert body["loggable_live"] is True and len(body["versions"]) == 1
    listed = client.get(BASE).json()
    assert [g["slug"] for g in listed] == ["follow-the-queen"]

    changed = dict(body["definition"])
    changed["wild"] = [{"kind": "follow", "rank": "Q", "later_x": "adds"}]
    r = client.put(f"{BASE}follow-the-queen/", {"definition": changed}, format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["version"] == 2 and [v["number"] for v in body["versions"]] == [2, 1]
    assert body["definition"]["wild"][0]["later_x"] == "adds"
    assert body["versions"][0]["created_by"] == world["admin_user"].get_username()
    assert body["digest"] == body["versions"][0]["digest"] != body["versions"][1]["digest"]
    assert anonymous_get(f"{BASE}follow-the-queen/")["version"] == 2


def anonymous_get(url):
    r = api_client().get(url)
    assert r.status_code == 200, r.content
    return r.json()


def test_an_invalid_definition_is_refused_in_the_one_body_and_nothing_stored(world):
    r = world["admin"].post(
        BASE, {"name": "Broken", "definition": {"pot": {"kind": "high", "low": {}}}}, format="json"
    )
    assert r.status_code == 400
    error = r.json()["error"]
    assert error["code"] == "invalid_game" and "definition.pot.low" in error["fields"]
    r = world["admin"].post(BASE, {"name": "Nothing"}, format="json")
    assert r.status_code == 400 and "definition" in r.json()["error"]["fields"]
    r = world["admin"].post(BASE, {"name": "X", "preset": "holdem"}, format="json")
    assert r.status_code == 400 and "preset" in r.json()["error"]["fields"]
    assert not LeagueGame.objects.exists() and not LeagueGameVersion.objects.exists()


def test_a_bad_update_keeps_the_version_and_archive_stops_changes(world):
    client = world["admin"]
    client.post(BASE, {"name": "Baseball", "preset": "baseball"}, format="json")
    r = client.put(f"{BASE}baseball/", {"definition": {"wild": [{"kind": "fixed"}]}}, format="json")
    assert r.status_code == 400 and "definition.wild[0]" in r.json()["error"]["fields"]
    r = client.post(f"{BASE}baseball/archive/")
    assert r.status_code == 200 and r.json()["archived"] is True
    assert client.get(BASE).json() == []
    assert [g["slug"] for g in client.get(BASE + "?archived=true").json()] == ["baseball"]
    r = client.put(f"{BASE}baseball/", {"name": "Baseball 2"}, format="json")
    assert r.status_code == 409 and r.json()["error"]["code"] == "conflict"
    assert LeagueGameVersion.objects.count() == 1
    assert client.get(f"{BASE}nope/").status_code == 404


def test_only_admins_write_members_read_and_private_leagues_hide(world):
    world["admin"].post(BASE, {"name": "Razz", "preset": "razz"}, format="json")
    keeper = api_client(add_member(world["league"], "club-keeper", "scorekeeper"))
    r = keeper.post(BASE, {"name": "Deuces", "preset": "deuces_wild"}, format="json")
    assert r.status_code == 403 and r.json()["error"]["code"] == "permission_denied"
    assert keeper.post(f"{BASE}razz/archive/").status_code == 403
    assert keeper.get(f"{BASE}razz/").status_code == 200
    make_league(slug="hidden", public=False)
    assert api_client().get("/api/v1/leagues/hidden/games/").status_code == 404


def test_preview_deals_the_same_hands_for_a_seed_and_explains_them(world):
    client = world["admin"]
    client.post(BASE, {"name": "Follow the Queen", "preset": "follow_the_queen"}, format="json")
    url = f"{BASE}follow-the-queen/preview/"
    r = api_client().post(url, {"seed": 11}, format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["seed"] == 11 and len(body["hands"]) == 3
    assert body == api_client().post(url, {"seed": 11}, format="json").json()
    hand = body["hands"][0]
    assert len(hand["showdown"]["players"]) == 4 and hand["showdown"]["up_order"]
    assert hand["result"]["shares"][0]["text"].startswith(("Seat", "Nobody"))
    assert hand["wild"].startswith("Queens are wild")
    # a posted definition: dealt under it, nothing stored
    deuces = dump_game(PRESETS["deuces_wild"])
    r = client.post(url, {"seed": 11, "definition": deuces}, format="json")
    assert r.status_code == 200 and r.json()["hands"][0]["wild"] == "Twos are wild."
    assert "up_order" not in r.json()["hands"][0]["showdown"]
    r = client.post(url, {"definition": {"max_players": 1}}, format="json")
    assert r.status_code == 400 and "definition.max_players" in r.json()["error"]["fields"]
    assert LeagueGameVersion.objects.count() == 1
