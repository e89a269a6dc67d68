"""The house games' pages: the list, a new game from a preset's house choices or from
scratch (JSON, refusals listed by the part at fault), the game with its versions, a change,
archiving, the preview, and who may do what."""

from __future__ import annotations

import json

import pytest
from django.test import Client

from tests.factories import add_member, make_league
from tracker.games.models import LeagueGame, LeagueGameVersion
from tracker.games.selectors import game_versions, league_game
from tracker.games.services import league_game_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    league, admin = make_league(slug="club")
    client = Client()
    client.force_login(admin)
    return league, admin, client


def test_the_list_offers_games_and_says_how_they_are_logged(world):
    league, admin, client = world
    league_game_create(league=league, by=admin, name="Deuces", preset="deuces_wild")
    page = Client().get("/leagues/club/games/").content.decode()
    assert "Deuces" in page and "logged on a dealer" in page and "New game" not in page
    assert "the results form lays its seats out" in page
    assert "New game" in client.get("/leagues/club/games/").content.decode()
    assert 'href="/leagues/club/games/"' in Client().get("/leagues/club/").content.decode()


def test_a_new_game_from_a_preset_with_a_house_choice_changed(world):
    league, admin, client = world
    picker = client.get("/leagues/club/games/new/").content.decode()
    assert "Follow the Queen" in picker and "?preset=scratch" in picker
    form = client.get("/leagues/club/games/new/?preset=follow_the_queen").content.decode()
    assert 'name="c-wild-0-later_x"' in form and "A later face-up queen" in form
    r = client.post(
        "/leagues/club/games/new/",
        {
            "preset": "follow_the_queen",
            "name": "Follow the first Queen",
            "c-wild-0-rank": "Q",
            "c-wild-0-x_wild": "yes",
            "c-wild-0-later_x": "ignored",
            "c-wild-0-last_x": "keeps",
            "c-double_ace_flush": "no",
            "c-max_players": "6",
        },
    )
    assert r.status_code == 302 and r["Location"] == "/leagues/club/games/follow-the-first-queen/"
    stored = game_versions(league_game(league, "follow-the-first-queen"))[0].definition
    assert stored["wild"][0] | {} == {
        "kind": "follow",
        "rank": "Q",
        "x_wild": True,
        "later_x": "ignored",
        "last_x": "keeps",
    }
    assert stored["max_players"] == 6
    page = client.get(r["Location"]).content.decode()
    assert "Version 1" in page and "Follow the first Queen" in page


def test_a_refused_house_choice_is_shown_on_its_input(world):
    league, admin, client = world
    r = client.post(
        "/leagues/club/games/new/",
        {
            "preset": "baseball",
            "name": "Baseball",
            "c-wild-0-ranks": "3 Z",
            "c-wild-0-cards": "",
            "c-extra_cards-0-face": "up",
            "c-pays-0-price": "pot",
            "c-double_ace_flush": "no",
            "c-max_players": "7",
        },
    )
    assert r.status_code == 400
    form = r.context["form"]
    assert form.errors["c-wild-0-ranks"] and "is not a rank" in form.errors["c-wild-0-ranks"][0]
    assert not LeagueGame.objects.exists()


def test_from_scratch_lists_each_refusal_by_the_part_at_fault(world):
    league, admin, client = world
    bad = {"pot": {"kind": "high", "low": {}}}
    r = client.post(
        "/leagues/club/games/new/",
        {"preset": "scratch", "name": "Mine", "definition": json.dumps(bad)},
    )
    assert r.status_code == 400
    assert r.context["form"].errors["definition"][0].startswith("pot.low: a low rule")
    r = client.post(
        "/leagues/club/games/new/", {"preset": "scratch", "name": "Mine", "definition": "{,"}
    )
    assert "line 1, column 2" in r.context["form"].errors["definition"][0]
    good = {"wild": [{"kind": "fixed", "ranks": ["7"]}]}
    r = client.post(
        "/leagues/club/games/new/",
        {"preset": "scratch", "name": "Sevens", "definition": json.dumps(good)},
    )
    assert r.status_code == 302 and LeagueGame.objects.get().preset == ""


def test_a_change_is_a_new_version_and_the_old_one_stays_readable(world):
    league, admin, client = world
    game = league_game_create(league=league, by=admin, name="Deuces", preset="deuces_wild")
    edit = client.get("/leagues/club/games/deuces/edit/").content.decode()
    assert "&quot;ranks&quot;" in edit
    changed = {"wild": [{"kind": "fixed", "ranks": ["2", "7"]}]}
    r = client.post(
        "/leagues/club/games/deuces/edit/", {"name": "Deuces", "definition": json.dumps(changed)}
    )
    assert r.status_code == 302
    assert [v.number for v in game_versions(game)] == [2, 1]
    page = client.get("/leagues/club/games/deuces/?version=1").content.decode()
    assert "Twos are wild." in page and "not the current one" in page
    assert "Twos and sevens are wild." in client.get("/leagues/club/games/deuces/").content.decode()
    r = client.post("/leagues/club/games/deuces/archive/")
    assert r.status_code == 302 and league_game(league, "deuces").archived
    assert LeagueGameVersion.objects.count() == 2


def test_the_preview_shows_cards_wild_marks_and_winners(world):
    league, admin, _ = world
    league_game_create(league=league, by=admin, name="Deuces", preset="deuces_wild")
    r = Client().get("/leagues/club/games/deuces/preview/?seed=5")
    assert r.status_code == 200
    hands = r.context["hands"]
    assert len(hands) == 3 and all(h.wild == "Twos are wild." for h in hands)
    twos = [c for h in hands for s in h.seats for c in s.cards if c.code[0] == "2"]
    assert twos and all(c.wild and c.wild_note.startswith("wild") for c in twos)
    others = [c for h in hands for s in h.seats for c in s.cards if c.code[0] != "2"]
    assert not any(c.wild for c in others)
    page = r.content.decode()
    assert page.count('data-testid="preview-hand"') == 3 and ("wins the pot" in page)
    assert r.context["hands"][0].shares == (
        Client().get("/leagues/club/games/deuces/preview/?seed=5").context["hands"][0].shares
    )


@pytest.mark.parametrize("role", ["member", "scorekeeper", "authority"])
def test_only_admins_reach_the_forms(world, role):
    league, admin, _ = world
    league_game_create(league=league, by=admin, name="Razz", preset="razz")
    client = Client()
    client.force_login(add_member(league, f"club-{role}", role))
    assert client.get("/leagues/club/games/new/").status_code == 403
    assert client.get("/leagues/club/games/razz/edit/").status_code == 403
    assert client.post("/leagues/club/games/razz/archive/").status_code == 403
    assert client.get("/leagues/club/games/razz/preview/").status_code == 200
    assert Client().get("/leagues/club/games/new/").status_code == 302  # the login page


def test_a_dealers_choice_night_offers_the_league_games_live(world):
    from tests.factories import make_tournament

    league, admin, client = world
    league_game_create(league=league, by=admin, name="Baseball", preset="baseball")
    choice, _ = make_tournament(league=league, by=admin, name="Anything goes")
    page = client.get(f"/tournaments/{choice.pk}/").content.decode()
    assert 'data-testid="house-games"' in page and "The live logger deals them" in page
    assert "the results form records them" in page and "not take them" not in page
    assert 'href="/leagues/club/games/baseball/"' in page
    live = client.get(f"/tournaments/{choice.pk}/live/").content.decode()
    assert '<option value="game:baseball">Baseball (version 1)</option>' in live
    assert "not yet loggable" not in live.lower()
    stud, _ = make_tournament(
        league=league,
        by=admin,
        name="Stud night",
        names=("Dee", "Eve"),
        default_variant="seven_card_stud",
    )
    assert (
        'data-testid="house-games"' not in client.get(f"/tournaments/{stud.pk}/").content.decode()
    )


def test_a_house_game_hand_is_started_and_paid_on_the_live_page(world):
    from tests.factories import make_tournament

    league, admin, client = world
    league_game_create(league=league, by=admin, name="Baseball", preset="baseball")
    choice, _ = make_tournament(league=league, by=admin, name="Anything goes", names=("A", "B"))
    url = f"/tournaments/{choice.pk}/live/"
    assert client.post(url, {"op": "start", "variant": "game:baseball"}).status_code == 302
    page = client.get(url).content.decode()
    assert "Hand 1 · Baseball" in page
    draft = choice.drafts.get()
    assert draft.game_version.game.slug == "baseball" and draft.variant == "house"
    assert "Deal third street to " in page  # one seat at a time: a three up pays first
    assert 'name="card-0-2"' in page and 'name="card-1-2"' not in page
    cards = {"op": "deal", "version": 0, "card-0-0": "As", "card-0-1": "Ks", "card-0-2": "3c"}
    assert client.post(url, cards).status_code == 302
    page = client.get(url).content.decode()
    assert "Pay 8" in page and "Fold" in page
    paid = client.post(url, {"op": "act", "version": 1, "seat": 0, "verb": "pay"})
    assert paid.status_code == 302
    draft.refresh_from_db()
    assert draft.steps[-1] == {"event": "pay", "seat": 0}


def test_a_house_game_hand_page_marks_the_wild_cards_and_the_winner(
    world, django_capture_on_commit_callbacks
):
    from tests.factories import make_tournament
    from tests.support.live_house import cards, play_out, step
    from tracker.engine.events import DealHole, Pay
    from tracker.hands.services.live import draft_finish, draft_start

    league, admin, client = world
    league_game_create(league=league, by=admin, name="Baseball", preset="baseball")
    choice, _ = make_tournament(league=league, by=admin, name="Anything goes", names=("A", "B"))
    draft = draft_start(tournament=choice, by=admin, game="baseball")
    draft = step(draft, admin, DealHole(0, cards("As Ks 2c")), DealHole(1, cards("Qh Qd 3c")))
    draft = step(draft, admin, Pay(1))
    draft = play_out(draft, admin, {0: "4h Td Ah 7d 8d".split(), 1: "5d 6d 7s 8s".split()})
    with django_capture_on_commit_callbacks(execute=True):
        hand = draft_finish(draft=draft, by=admin, version=draft.version)
    page = client.get(f"/hands/{hand.pk}/").content.decode()
    assert "Baseball (version 1)" in page and "cannot be shown street by street" not in page
    shares = page[page.index('data-testid="shares"') :].split("</ul>")[0]
    winner = hand.positions[1]
    assert (
        f"{choice.seats.get(player_id=winner).player.name} wins the pot with nine-high straight"
        in shares
    )
    showdown = page[page.index('class="showdown-list"') :].split("</ul>")[0]
    assert showdown.count("card wild") >= 1 and "as 9" in showdown  # the 3c, wild, as a nine
    assert page.count("card wild") > showdown.count("card wild")  # the replayer marks it too
    assert "pays 8 for the card dealt face up." in page  # the pay rule, in the replayer's log
    assert 'data-testid="phh-download"' in page
    phh = client.get(f"/hands/{hand.pk}/download.phh")  # its PHH actions, the pay among them
    assert phh.status_code == 200 and b"p2 _pay" in phh.content and b"_game = {" in phh.content
    night = client.get(f"/tournaments/{choice.pk}/download.phhs").content.decode()
    for url in (  # the pages that read the hand back: none fails on a house game's hand
        f"/tournaments/{choice.pk}/",
        "/leagues/club/table/",
        "/leagues/club/stats/",
        "/leagues/club/stats.csv",
        f"/players/{hand.positions[0]}/stats/",
        f"/players/{hand.positions[0]}/",
    ):
        assert client.get(url).status_code == 200, url
    assert "Left out" not in night and "1 hand in PHH" in night
