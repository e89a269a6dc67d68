"""The results form (catching up a hand afterwards), server side: the variant it opens
with, "folded on 3rd street", and every error of the hand at once."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.support.pages import form_data, html
from tests.web.conftest import CHROMIUM, log_in, make_game, record_sample_hands
from tests.web.targets import page_problems
from tracker.games.services import league_game_archive, league_game_create
from tracker.hands.models import Hand
from tracker.hands.services.recording import hand_check
from tracker.tournaments.selectors import tournament_state

pytestmark = pytest.mark.django_db

ACES = {"d1": "As", "d2": "Ah", "u1": "Ad", "u2": "3c", "u3": "4c", "u4": "9d", "c7": "2c"}
KINGS = {"d1": "Ks", "d2": "Kh", "u1": "Kd", "u2": "3d", "u3": "4d", "u4": "5h", "c7": "2d"}
# A seven-card house game's slots (street k, card j), in the order of CARD_SLOTS.
HOUSE_SLOTS = {
    "d1": "s0_0", "d2": "s0_1", "u1": "s0_2", "u2": "s1_0", "u3": "s2_0", "u4": "s3_0",
    "c7": "s4_0",
}  # fmt: skip


def house(cards: dict) -> dict:
    """A seven-card hand typed in a house game's slots."""
    return {HOUSE_SLOTS.get(k, k): v for k, v in cards.items()}


@pytest.fixture
def game(played):
    return played


def url(t) -> str:
    return reverse("hand-new", kwargs={"pk": t.pk})


def test_the_variant_is_the_last_hands(client, game, settle):
    client.force_login(game.keeper)
    t = game.tournament
    # The latest sample hand is Kings and Little Ones; the tournament names none.
    assert not t.default_variant
    form = client.get(url(t)).context["form"]
    assert form.hand["variant"].value() == "kings_and_little_ones"
    assert tournament_state(t).last_variant == "kings_and_little_ones"

    # A tournament with a default and no hand yet opens with its default, then follows.
    other = make_game(slug="other", variant="low_hole")
    client.force_login(other.keeper)
    assert client.get(url(other.tournament)).context["form"].hand["variant"].value() == "low_hole"
    with settle():
        record_sample_hands(other)
    form = client.get(url(other.tournament)).context["form"]
    assert form.hand["variant"].value() == "kings_and_little_ones"


def test_folded_on_third_fills_the_ante_and_reads_no_cards(client, game):
    client.force_login(game.keeper)
    t = game.tournament
    seats = [
        {"put_in": 24, **ACES, "result": "won"},
        {"put_in": 24, **KINGS},
        # Blank chips, a leftover card typed before the box was ticked, a stale choice.
        {"fold3": "on", "d1": "Zz", "u1": "As", "folded": "fifth"},
    ]
    response = client.post(url(t), form_data(t, seats, variant="seven_card_stud"))
    assert response.status_code == 302, response.context["form"].summary()
    hand = Hand.objects.get(tournament=t, number=5)
    folded = hand.entry["seats"][2]
    assert folded["put_in"] == hand.ante == 4
    assert folded["folded"] == "third"
    assert "down" not in folded and "up" not in folded


def test_folded_on_third_keeps_typed_chips_and_the_engine_checks_them(client, game):
    client.force_login(game.keeper)
    t = game.tournament
    # The seat that brought in types ante and bring-in: recorded as typed.
    seats = [{"put_in": 24, **ACES, "result": "won"}, {"put_in": 24, **KINGS}]
    seats.append({"fold3": "on", "put_in": 14})
    response = client.post(url(t), form_data(t, seats, variant="seven_card_stud"))
    assert response.status_code == 302
    assert Hand.objects.get(tournament=t, number=5).entry["seats"][2]["put_in"] == 14

    # More than anyone still in: the engine refuses it, on that seat's chips.
    seats[2]["put_in"] = 50
    response = client.post(url(t), form_data(t, seats, variant="seven_card_stud"))
    assert response.status_code == 200
    form = response.context["form"]
    assert "folded but put in 50" in form.seats[2].errors["put_in"][0]
    assert Hand.objects.filter(tournament=t).count() == 5


def test_the_ticked_box_shows_without_javascript(client, game):
    client.force_login(game.keeper)
    t = game.tournament
    seats = [{"put_in": 24}, {"put_in": 24}, {"fold3": "on"}]
    response = client.post(url(t), form_data(t, seats, variant="seven_card_stud"))
    body = html(response)
    assert len(re.findall(r'class="[^"]*fold3-input[^"]*"[^>]*checked', body)) == 1
    assert body.count("is-fold3") == 1
    assert 'data-ante="4"' in body


def test_every_error_of_the_hand_at_once(client, game):
    client.force_login(game.keeper)
    t = game.tournament
    # A mistyped card, and chips that do not add up (a folder put in more than the others).
    seats = [
        {"put_in": 24, **ACES, "c7": "Zz", "result": "won"},
        {"put_in": 24, **KINGS},
        {"put_in": 30, "folded": "third"},
    ]
    response = client.post(url(t), form_data(t, seats, variant="seven_card_stud"))
    assert response.status_code == 200
    form = response.context["form"]
    first, _, third = form.seats
    assert "is not a card" in first.errors["c7"][0]
    assert "folded but put in 30" in third.errors["put_in"][0]
    items = form.summary()
    assert [i.target for i in items] == [first["c7"].auto_id, third["put_in"].auto_id]
    body = html(response)
    summary = re.search(r'<ul class="error-summary".*?</ul>', body, re.S).group(0)
    assert f'href="#{first["c7"].auto_id}"' in summary
    assert f'href="#{third["put_in"].auto_id}"' in summary
    assert "is not a card" in summary and "folded but put in 30" in summary
    # The first input at fault has the focus.
    assert re.search(rf'<input[^>]*autofocus[^>]*id="{first["c7"].auto_id}"', body)
    assert body.count("autofocus") == 1
    assert Hand.objects.filter(tournament=t).count() == 4


def test_the_engine_is_not_asked_twice_about_what_the_form_flagged(client, game):
    client.force_login(game.keeper)
    t = game.tournament
    seats = [
        {"put_in": 24, **ACES, "result": "won"},
        {"put_in": 24, **KINGS, "d1": "As"},  # the A♠ twice
        {"put_in": 4, "folded": "third"},
    ]
    response = client.post(url(t), form_data(t, seats, variant="seven_card_stud"))
    form = response.context["form"]
    messages = [i.message for i in form.summary()]
    assert messages == ["As is entered twice.", "As is entered twice."]
    # Missing chips: the engine cannot be asked; the form says so.
    seats[1]["d1"] = "Ks"
    seats[1]["put_in"] = ""
    response = client.post(url(t), form_data(t, seats, variant="seven_card_stud"))
    form = response.context["form"]
    assert [i.target for i in form.summary()] == [form.seats[1]["put_in"].auto_id]


def test_hand_check_stores_nothing(game):
    t = game.tournament
    state = tournament_state(t)
    a, b, c = (s.player_id for s in state.next_positions())
    outcome = hand_check(
        tournament=t,
        by=game.keeper,
        entry_mode="quick",
        entry={
            "seats": [
                {"player": a, "put_in": 4, "folded": "third"},
                {"player": b, "put_in": 4, "folded": "third"},
                {"player": c, "put_in": 14},
            ]
        },
        variant="seven_card_stud",
    )
    assert outcome.net()
    assert Hand.objects.filter(tournament=t).count() == 4


def test_an_empty_post_shows_the_form(client, game):
    client.force_login(game.keeper)
    response = client.post(url(game.tournament), {})
    assert response.status_code == 200
    assert not response.context["form"].summary()


def test_the_form_posted_twice_records_one_hand_and_answers_the_first(client, game):
    client.force_login(game.keeper)
    t = game.tournament
    token = client.get(url(t)).context["form"].hand["token"].value()
    assert token
    seats = [{"put_in": 24, **ACES, "result": "won"}, {"put_in": 24, **KINGS}, {"fold3": "on"}]
    data = form_data(t, seats, variant="seven_card_stud", token=token)
    first = client.post(url(t), data, follow=True)
    again = client.post(url(t), data, follow=True)  # a reload that posts again
    said = [[str(m) for m in r.context["messages"]] for r in (first, again)]
    assert said[0] == said[1] and said[0][0].startswith("Hand 5 recorded.")
    assert Hand.objects.filter(tournament=t).count() == 5
    # Another form (another token) with the same number is the conflict, as before.
    other = {**data, "token": client.get(url(t)).context["form"].hand["token"].value()}
    refused = client.post(url(t), other)
    assert refused.status_code == 200 and "hand 6" in refused.context["form"].message
    assert Hand.objects.filter(tournament=t).count() == 5


def test_the_form_offers_the_leagues_house_games_and_records_one(client, game, settle):
    deuces = league_game_create(
        league=game.league, by=game.admin, name="Deuces Wild", preset="deuces_wild"
    )
    client.force_login(game.keeper)
    t = game.tournament
    choices = dict(client.get(url(t)).context["form"].hand.fields["variant"].choices)
    assert choices["House games"] == [("game:deuces-wild", "Deuces Wild")]
    # The 2c and 2d are wild: four aces against four kings.
    seats = [
        {"put_in": 24, **house(ACES), "result": "won"},
        {"put_in": 24, **house(KINGS)},
        {"fold3": "on"},
    ]
    with settle():
        response = client.post(url(t), form_data(t, seats, variant="game:deuces-wild"))
    assert response.status_code == 302, response.context["form"].summary()
    hand = Hand.objects.get(tournament=t, number=5)
    assert hand.game_version.game == deuces and hand.options == {}
    assert hand.status == "verified", hand.status_reason
    players = hand.engine_reading["showdown"]["players"]
    assert [p["high"]["category"] for p in players[:2]] == ["four_of_a_kind"] * 2
    assert [p["wild"] for p in players[:2]] == [["2c"], ["2d"]]

    # An archived game is refused on the variant field, nothing stored.
    league_game_archive(game=deuces, by=game.admin)
    response = client.post(url(t), form_data(t, seats, variant="game:deuces-wild"))
    assert response.status_code == 200
    assert response.context["form"].hand.errors["variant"]
    assert Hand.objects.filter(tournament=t).count() == 5


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium")
def test_a_baseball_hand_recorded_through_the_form_at_phone_size(site, phone, tmp_path):
    """At 375x740: Baseball from the league's games, a four up with its extra card, two
    threes up paid, a seat folded on third street giving its door card; axe-clean.
    Screenshot: the test's tmp dir (results-baseball.png)."""
    game = make_game(slug="results")
    league_game_create(league=game.league, by=game.admin, name="Baseball", preset="baseball")
    t = game.tournament
    state = tournament_state(t)
    ann, bob, cat = (s.player_id for s in state.next_positions())
    antes = 3 * state.next_stakes.ante
    page = phone
    log_in(page, site, game.keeper.username, next_url=f"{url(t)}?variant=game:baseball")
    assert "Laid out now for Baseball" in page.inner_text("main")

    def fill(pid, cards):
        for slot, card in cards.items():
            page.fill(f"#id_p{pid}-{slot}", card)

    # Ann pays the antes for her door three, then at least twice that for the next.
    first, second = antes, 2 * antes + 4
    bets = 10
    fill(ann, {"s0_0": "As", "s0_1": "Ah", "s0_2": "3c", "s1_0": "3h", "s2_0": "9d"})
    fill(ann, {"s3_0": "2c", "s4_0": "5d"})
    page.fill(f"#id_p{ann}-put_in", str(state.next_stakes.ante + first + second + bets))
    page.fill(f"#id_p{ann}-paid", f"{first}, {second}")
    fill(bob, {"s0_0": "Ks", "s0_1": "Kh", "s0_2": "4d", "x1": "8s", "s1_0": "Kd"})
    fill(bob, {"s2_0": "5h", "s3_0": "6h", "s4_0": "7d"})
    page.fill(f"#id_p{bob}-put_in", str(state.next_stakes.ante + bets))
    page.check(f"#id_p{cat}-fold3")
    assert page.is_visible(f"#id_p{cat}-s0_2") and not page.is_visible(f"#id_p{cat}-s0_0")
    page.fill(f"#id_p{cat}-s0_2", "7c")
    found = page_problems(page, "results-baseball")
    page.screenshot(path=str(tmp_path / "results-baseball.png"), full_page=True)
    page.click("[data-testid=submit-hand]")
    page.wait_for_load_state()
    assert not page.query_selector("[data-testid=form-error]"), page.inner_text("main")
    hand = Hand.objects.get(tournament=t, number=state.next_number)
    seats = {s["player"]: s for s in hand.entry["seats"]}
    assert seats[ann]["paid"] == [first, second]
    assert seats[bob]["up"][:2] == ["4d", "8s"] and seats[cat]["up"] == ["7c"]
    assert hand.status == "verified", hand.status_reason
    assert not found, found
