"""The new game night form and the table screen through Django's test client."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.factories import fold_entry, make_user
from tests.web.conftest import make_game, record_walk
from tracker.engine import tournament as rules
from tracker.hands.services.recording import hand_record
from tracker.leagues.services import player_create
from tracker.tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def text(response) -> str:
    body = re.sub(r"<script.*?</script>", " ", response.content.decode(), flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body))


@pytest.fixture
def game():
    g = make_game()
    for name in ("Dee", "Eve", "Fay"):
        player_create(league=g.league, name=name, by=g.admin)
    return g


def roster(game):
    return {p.name: p for p in game.league.players.all()}


def form_data(game, picks, **extra):
    """The form as a browser sends it: ticked players with their seat numbers."""
    data = {
        "name": "Friday",
        "date": "2026-11-27",
        "seating": "chosen",
        "first_dealer": "",
        "starting_chips": "1000",
        "hands_per_level": "5",
        "hand_limit": "50",
        "stakes": "default",
        "stakes_rows": "",
        "default_variant": "",
        "counts_toward_standings": "on",
    }
    players = roster(game)
    for seat, name in enumerate(picks, start=1):
        data[f"play_{players[name].pk}"] = "on"
        data[f"seat_{players[name].pk}"] = str(seat)
    data.update(extra)
    return data


def test_the_league_page_links_the_form_for_those_who_record(client, game):
    url = f"/leagues/{game.league.slug}/nights/new/"
    assert url not in client.get(game.league.get_absolute_url()).content.decode()
    client.force_login(game.member)
    assert url not in client.get(game.league.get_absolute_url()).content.decode()
    client.force_login(game.keeper)
    assert url in client.get(game.league.get_absolute_url()).content.decode()


def test_the_form_refuses_anonymous_and_members(client, game):
    url = f"/leagues/{game.league.slug}/nights/new/"
    r = client.get(url)
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]
    client.force_login(game.member)
    assert client.get(url).status_code == 403
    assert client.post(url, form_data(game, ["Ann", "Bob"])).status_code == 403
    client.force_login(make_user("stranger"))
    assert client.get("/leagues/nope/nights/new/").status_code == 404


def test_the_form_shows_the_rules_defaults_and_the_roster(client, game):
    client.force_login(game.keeper)
    page = client.get(f"/leagues/{game.league.slug}/nights/new/").content.decode()
    for name in ("Ann", "Bob", "Cat", "Dee", "Eve", "Fay"):
        assert f"<span>{name}</span>" in page
    assert f'value="{rules.STARTING_CHIPS}"' in page
    assert f'value="{rules.HANDS_PER_LEVEL}"' in page
    assert f'value="{rules.HAND_LIMIT}"' in page
    assert "4 10 20 40\n6 15 30 60" in page


def test_starting_a_night_in_the_chosen_order_lands_on_its_page(client, game):
    client.force_login(game.keeper)
    players = roster(game)
    data = form_data(
        game,
        ["Fay", "Ann", "Dee"],
        first_dealer=str(players["Dee"].pk),
        counts_toward_standings="",
        default_variant="low_hole",
    )
    r = client.post(f"/leagues/{game.league.slug}/nights/new/", data)
    t = Tournament.objects.get(name="Friday")
    assert r.status_code == 302 and r["Location"] == t.get_absolute_url()
    assert [s.player.name for s in t.seats.order_by("number")] == ["Fay", "Ann", "Dee"]
    assert t.first_dealer_seat == 2 and not t.seats_drawn
    assert t.counts_toward_standings is False and t.default_variant == "low_hole"
    page = text(client.get(t.get_absolute_url()))
    assert "Seats, clockwise: 1. Fay · 2. Ann · 3. Dee" in page
    assert "not counted in the standings" in page
    assert "Dee deals the next hand" in page.replace("Dealer Dee", "Dee")


def test_a_random_draw_is_said_on_the_page_to_everyone(client, game):
    client.force_login(game.keeper)
    data = form_data(game, ["Ann", "Bob", "Cat", "Dee"], seating="random")
    client.post(f"/leagues/{game.league.slug}/nights/new/", data)
    t = Tournament.objects.get(name="Friday")
    assert t.seats_drawn
    client.logout()
    page = text(client.get(t.get_absolute_url()))
    order = " · ".join(
        f"{i}. {s.player.name}" for i, s in enumerate(t.seats.order_by("number"), start=1)
    )
    assert f"Seats drawn at random , clockwise: {order}" in page


def test_unnumbered_players_sit_after_the_numbered_ones(client, game):
    client.force_login(game.keeper)
    players = roster(game)
    data = form_data(game, ["Eve"])
    data[f"play_{players['Bob'].pk}"] = "on"
    data[f"play_{players['Ann'].pk}"] = "on"
    client.post(f"/leagues/{game.league.slug}/nights/new/", data)
    t = Tournament.objects.get(name="Friday")
    assert [s.player.name for s in t.seats.order_by("number")] == ["Eve", "Ann", "Bob"]


def test_two_players_in_one_seat_are_refused(client, game):
    client.force_login(game.keeper)
    players = roster(game)
    data = form_data(game, ["Ann", "Bob", "Cat"])
    data[f"seat_{players['Cat'].pk}"] = "2"
    r = client.post(f"/leagues/{game.league.slug}/nights/new/", data)
    assert "Seat 2 is already Bob's." in text(r).replace("&#x27;", "'")
    assert not Tournament.objects.filter(name="Friday").exists()


def test_a_custom_schedule_is_taken_row_by_row(client, game):
    client.force_login(game.keeper)
    data = form_data(game, ["Ann", "Bob"], stakes="custom", stakes_rows="1 2 4 8\n\n2, 4, 8, 16\n")
    client.post(f"/leagues/{game.league.slug}/nights/new/", data)
    assert Tournament.objects.get(name="Friday").stakes_schedule == [[1, 2, 4, 8], [2, 4, 8, 16]]


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ("1 2 4 8\n2 4 8", "Row 2: four whole numbers"),
        ("1 2 4 8\n\n2 4 8 17", "Row 3: the big bet must be twice the small bet"),
        ("2 4 8 16\n1 2 4 8", "Row 2: level 2: stakes may not go down"),
        ("", "Give at least one level"),
        # Digits only, ASCII: str.isdigit() accepts a superscript two and other scripts' digits.
        ("4 10 20 40\n4 10 20 4\u00b2", "Row 2: four whole numbers"),
        ("\u0664 10 20 40", "Row 1: four whole numbers"),
        ("4 10 20 " + "9" * 5000, "Row 1: 5000 digits is no chip amount"),
        # Bounded: every chip of a full table (8 x 1000 here).
        ("4 10 20 40\n10 20 9000 18000", "Row 2: the small bet may be at most 8,000 chips"),
        # At most the levels the night reaches (50 hands, 5 a level: 10).
        ("4 10 20 40\n" * 20_000, "Row 11: a night of 50 hands, 5 a level, reaches 10 levels"),
    ],
    ids=["short", "big-bet", "down", "empty", "superscript", "arabic", "digits", "chips", "rows"],
)
def test_a_bad_schedule_names_the_row_and_starts_nothing(client, game, rows, message):
    client.force_login(game.keeper)
    data = form_data(game, ["Ann", "Bob"], stakes="custom", stakes_rows=rows)
    r = client.post(f"/leagues/{game.league.slug}/nights/new/", data)
    assert r.status_code == 400  # as the site's other forms answer their errors
    assert message in text(r)
    assert not Tournament.objects.filter(name="Friday").exists()


def test_many_bad_rows_are_named_five_at_most(client, game):
    client.force_login(game.keeper)
    data = form_data(game, ["Ann", "Bob"], stakes="custom", stakes_rows="x\n" * 500)
    r = client.post(f"/leagues/{game.league.slug}/nights/new/", data)
    page = text(r)
    assert r.status_code == 400
    assert "Row 5: four whole numbers" in page and "Row 6:" not in page
    assert "495 more rows like these." in page


def test_a_longer_night_takes_more_levels_and_more_chips_larger_stakes(client, game):
    client.force_login(game.keeper)
    rows = "4 10 20 40\n" * 19 + "100 5000 10000 20000"
    data = form_data(
        game,
        ["Ann", "Bob"],
        stakes="custom",
        stakes_rows=rows,
        hand_limit="100",
        starting_chips="5000",
    )
    r = client.post(f"/leagues/{game.league.slug}/nights/new/", data)
    assert r.status_code == 302
    night = Tournament.objects.get(name="Friday")
    assert len(night.stakes_schedule) == 20 and night.stakes_schedule[-1][3] == 20_000


def test_too_few_and_too_many_players_are_refused(client, game):
    client.force_login(game.keeper)
    r = client.post(f"/leagues/{game.league.slug}/nights/new/", form_data(game, ["Ann"]))
    assert "Pick at least 2 players." in text(r)
    for name in ("Gus", "Hal"):
        player_create(league=game.league, name=name, by=game.admin)
    eight = ["Ann", "Bob", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
    r = client.post(
        f"/leagues/{game.league.slug}/nights/new/",
        form_data(game, eight, default_variant="seven_card_stud"),
    )
    assert "is dealt to at most 7 players" in text(r)
    assert not Tournament.objects.filter(name="Friday").exists()


# --------------------------------------------------------------------------
# The table screen


def test_the_table_screen_shows_the_state_of_play(client, game, django_capture_on_commit_callbacks):
    t = game.tournament
    page = text(client.get(f"/tournaments/{t.pk}/table/"))
    assert "Hand 1 of 50" in page
    assert "Level 1 4 / 10 / 20 / 40" in page
    assert "Next level in 5 hands then 6 / 15 / 30 / 60" in page
    assert "Dealer Ann" in page and "3 players in" in page
    assert "No hand yet." in page
    with django_capture_on_commit_callbacks(execute=True):
        record_walk(game)
    fragment = text(client.get(f"/tournaments/{t.pk}/table/live/"))
    # Bob (left of the dealer) brings in, the others fold: he takes the 3 antes of 4.
    assert "Hand 2 of 50" in fragment and "Next level in 4 hands" in fragment
    assert "Hand 1 · Seven-Card Stud verified" in fragment
    assert "Bob takes 12" in fragment
    assert "Dealer Bob" in fragment
    assert "2 Bob D (dealer) 1008" in fragment and "1 Ann 996" in fragment


def _poll_queries(client, t, **headers) -> list[str]:
    """The statements one poll of the table screen runs (transaction control left out)."""
    with CaptureQueriesContext(connection) as captured:
        response = client.get(f"/tournaments/{t.pk}/table/live/", headers=headers)
        assert response.status_code == (304 if headers else 200)
    control = ("SET TRANSACTION", "SAVEPOINT", "RELEASE SAVEPOINT", "BEGIN", "COMMIT")
    return [q["sql"] for q in captured.captured_queries if not q["sql"].startswith(control)]


VERSION = 4  # the night's cheap version: its row with the ledger, its hands, its seats, its money


def test_a_table_screen_poll_reads_each_thing_once(
    client, game, django_capture_on_commit_callbacks
):
    """The version (the tournament with the ledger's count, its hands per status, its
    seats), then the tournament (with its league, the visibility checked in the same
    statement), its seats, its hands not settled with the latest and the ledger sums (one
    statement), the settled seats for the standings, the latest hand's pots: 4 + 5
    statements after one hand or after five; a poll that finds nothing changed runs the
    version's 4 alone (304)."""
    t = game.tournament

    def record(n):
        for _ in range(n):
            with django_capture_on_commit_callbacks(execute=True):
                record_walk(game)

    record(1)
    after_one = _poll_queries(client, t)
    assert len(after_one) == VERSION + 5, after_one
    assert sum('FROM "tracker_tournament"' in q for q in after_one) == 2
    assert sum('FROM "tracker_seat"' in q for q in after_one) == 2
    record(4)
    assert len(_poll_queries(client, t)) == VERSION + 5
    etag = client.get(f"/tournaments/{t.pk}/table/live/").headers["ETag"]
    assert len(_poll_queries(client, t, if_none_match=etag)) == VERSION
    client.force_login(game.member)  # logged in: the session and the user, then the same
    # and for a member the money: their roles, the night's money rules, the league's locale
    # (read with the rules when the night has them; this night was made without)
    assert len(_poll_queries(client, t)) == VERSION + 5 + 2 + 3


def test_the_table_screen_of_a_private_league_is_hidden(client):
    secret = make_game(slug="secret", public=False)
    assert client.get(f"/tournaments/{secret.tournament.pk}/table/").status_code == 404
    assert client.get(f"/tournaments/{secret.tournament.pk}/table/live/").status_code == 404
    client.force_login(secret.member)
    assert client.get(f"/tournaments/{secret.tournament.pk}/table/live/").status_code == 200


def test_the_table_screen_after_the_last_hand(client, django_capture_on_commit_callbacks):
    from tests.factories import make_league, make_tournament

    league, admin = make_league(slug="short")
    t, _ = make_tournament(league=league, by=admin, hand_limit=1)
    with django_capture_on_commit_callbacks(execute=True):
        hand_record(
            tournament=t, by=admin, entry_mode="quick", entry=fold_entry(t), variant="low_hole"
        )
    page = text(client.get(f"/tournaments/{t.pk}/table/live/"))
    assert "Game over 1 hand the final chips below" in page
    assert "Dealer" not in page and "Level" not in page
    assert "Hand 1 · Low Hole" in page
