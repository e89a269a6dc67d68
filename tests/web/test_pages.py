"""The pages through Django's test client: status, permissions and what they show."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from django.urls import reverse

from tests.factories import make_user
from tests.support.hands import heads_up, phh_hand
from tests.support.nights import all_in_night
from tests.support.pages import form_data, html, text
from tests.support.recording import record, record_showdown
from tests.web.conftest import KLO_ACTIONS, make_game, record_sample_hands, walk_entry
from tracker.engine.errors import DomainError
from tracker.hands.models import Hand, HandStatus
from tracker.hands.services.recording import hand_record
from tracker.tournaments.selectors import tournament_state
from web.forms.hands import HandEntry
from web.presenters.charts import Series, line_chart, nice_step
from web.presenters.hands import hand_replay
from web.templatetags.cards import card

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(settle):
    g = make_game()
    with settle():
        hands = record_sample_hands(g)
    for h in hands.values():
        h.refresh_from_db()
    g.hands = hands
    return g


@pytest.fixture
def secret():
    return make_game(slug="secret", public=False)


# --------------------------------------------------------------------------
# Visibility


def test_home_lists_public_leagues_and_the_private_ones_of_members(client, game, secret):
    page = text(client.get("/"))
    assert "Friday" in page and "Secret" not in page and "Not logged in" in page
    client.force_login(secret.member)
    page = text(client.get("/"))
    assert "Your leagues" in page and "Secret" in page and "Friday" in page
    assert "Logged in as secret-member" in page


@pytest.mark.parametrize("who", [None, "outsider"])
def test_a_private_league_does_not_exist_for_outsiders(client, secret, settle, who):
    with settle():
        hand = hand_record(
            tournament=secret.tournament,
            by=secret.admin,
            entry_mode="quick",
            entry=walk_entry(secret.tournament),
            variant="seven_card_stud",
        )
    if who:
        client.force_login(make_user(who))
    urls = [
        reverse("league", kwargs={"slug": "secret"}),
        reverse("tournament", kwargs={"pk": secret.tournament.pk}),
        reverse("player", kwargs={"pk": secret.players[0].pk}),
        reverse("hand", kwargs={"pk": hand.pk}),
        reverse("hand-new", kwargs={"pk": secret.tournament.pk}),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 404, url
        assert "Nothing here" in text(response)  # the site's 404 page, with the layout
        assert "homegame" in text(response)
    client.force_login(secret.member)
    for url in urls[:4]:
        assert client.get(url).status_code == 200, url


def test_unknown_pages_are_404_with_the_layout(client):
    response = client.get("/tournaments/999999/")
    assert response.status_code == 404
    page = text(response)
    assert "Nothing here" in page and "Not logged in" in page and "log in" in page


# --------------------------------------------------------------------------
# League, player and tournament pages


def test_league_page_shows_standings_tournaments_and_players(client, game):
    response = client.get(reverse("league", kwargs={"slug": "friday"}))
    assert response.status_code == 200
    page = text(response)
    assert "Game night" in page and "running" in page and "Chip leader" in page
    for p in game.players:
        assert reverse("player", kwargs={"pk": p.pk}) in html(response)
    # One standings concept, the league table's: the running night is not counted yet.
    page = response.context["page"]
    assert page.finished == 0 and page.standings == []
    assert "No finished game night counts in" in text(response)
    assert [p.name for p in page.players] == sorted(p.name for p in game.players)


def test_league_page_standings_are_the_league_tables(client, game):
    """ "Played" means finished nights on the league page as on the league table: a finished
    night counts, a running one does not."""
    from tests.factories import make_tournament
    from tracker.tournaments.models import TournamentStatus
    from tracker.tournaments.services import final_standings_write

    league = game.tournament.league
    game.tournament.status = TournamentStatus.FINISHED
    game.tournament.save(update_fields=["status"])
    final_standings_write(tournament=game.tournament)
    make_tournament(league=league, by=game.admin, names=("Dee", "Eve"))
    league = client.get(reverse("league", kwargs={"slug": "friday"}))
    table = client.get(reverse("league-table", kwargs={"slug": "friday"}))
    rows = league.context["page"].standings
    assert league.context["page"].finished == 1
    assert rows == table.context["page"].standings
    assert [r.events for r in rows] == [1, 1, 1]
    assert sum(r.net_chips for r in rows) == 0
    assert 'data-testid="league-standings"' in html(league)


def _won(hand, pid) -> bool:
    return any(int(k) == pid and v for pot in hand.pots.all() for k, v in pot.award.items())


def test_player_page(client, game):
    player = game.players[0]
    response = client.get(reverse("player", kwargs={"pk": player.pk}))
    assert response.status_code == 200
    page = response.context["page"]
    assert page.hands_played == 4
    assert page.showdowns == 2  # the two quick showdowns; hand 4 went to Bob and Cat
    assert page.hands_won == sum(_won(h, player.pk) for h in game.hands.values())
    assert page.tournaments[0].tournament == game.tournament
    assert "Hands played" in text(response) and "Game night" in text(response)


def test_tournament_page_shows_state_standings_chart_and_hands(client, game):
    url = reverse("tournament", kwargs={"pk": game.tournament.pk})
    response = client.get(url)
    assert response.status_code == 200
    page = text(response)
    assert "Next hand 5 of 50 46 hands left" in page
    assert "Level 1 4 / 10 / 20 / 40" in page
    assert page.count(" in ") >= 3  # everyone still in
    assert "verified" in page and "disputed" in page
    assert "Kings and Little Ones" in page
    # The chart: inline SVG, one line per player, a legend with each name.
    svg = re.search(r"<svg.*?</svg>", html(response), flags=re.S).group(0)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    assert len(root.findall(f"{ns}polyline")) == 3
    labels = " ".join(t.text or "" for t in root.iter(f"{ns}text"))
    assert all(name in labels for name in ("Ann", "Bob", "Cat"))
    # Standings add up to the chips in play.
    standings = response.context["page"].standings
    assert sum(s.row.chips for s in standings) == 3000
    assert [s.row.place for s in standings] == sorted(s.row.place for s in standings)


@pytest.mark.parametrize(
    ("role", "sees_button"),
    [(None, False), ("member", False), ("keeper", True), ("admin", True)],
)
def test_only_scorekeepers_and_admins_see_the_record_button(client, game, role, sees_button):
    if role:
        client.force_login(getattr(game, role))
    response = client.get(reverse("tournament", kwargs={"pk": game.tournament.pk}))
    new = reverse("hand-new", kwargs={"pk": game.tournament.pk})
    assert (new in html(response)) is sees_button


def test_a_pending_hand_shows_as_recorded(client):
    g = make_game()
    hand_record(
        tournament=g.tournament,
        by=g.admin,
        entry_mode="quick",
        entry=walk_entry(g.tournament),
        variant="seven_card_stud",
    )  # not settled: no on-commit callbacks run here
    page = text(client.get(reverse("tournament", kwargs={"pk": g.tournament.pk})))
    assert "recorded" in page and "waiting for the engine" in page
    hand = Hand.objects.get()
    page = text(client.get(reverse("hand", kwargs={"pk": hand.pk})))
    assert "has not settled this hand yet" in page


# --------------------------------------------------------------------------
# The hand page


def test_replayer_walks_a_full_history_street_by_street(client, game):
    hand = game.hands["full"]
    assert hand.status == HandStatus.VERIFIED
    response = client.get(reverse("hand", kwargs={"pk": hand.pk}))
    assert response.status_code == 200
    replay = response.context["replay"]
    assert [s.number for s in replay.streets] == [3, 4, 5, 6, 7, 8]
    assert [s.pot for s in replay.streets] == [72, 132, 212, 372, 372, 372]
    assert replay.current == 3  # the replayer opens at third street
    # The walk agrees with the engine on what each player put in.
    final = {s.player_id: s.total for s in replay.streets[-1].seats}
    reading = hand.engine_reading
    assert [final[pid] for pid in reading["players"]] == reading["contributions"]
    third = replay.streets[0]
    assert any("brings in 10" in a for a in third.actions)
    assert any("completes to 20" in a for a in third.actions)
    # Each player's cards: two down and the door card up on third street.
    assert [[c.up for c in s.cards] for s in third.seats] == [[False, False, True]] * 3
    # Every street can be reached without JavaScript.
    for number in (3, 4, 5, 6, 7, 8):
        assert f"?street={number}#replay" in html(response)
    page = text(client.get(reverse("hand", kwargs={"pk": hand.pk}) + "?street=5"))
    assert "Fifth street" in page
    body = html(client.get(reverse("hand", kwargs={"pk": hand.pk}) + "?street=5"))
    fifth = re.search(r'<section class="street" data-street="5"[^>]*>', body).group(0)
    assert "hidden" not in fifth
    third_tag = re.search(r'<section class="street" data-street="3"[^>]*>', body).group(0)
    assert "hidden" in third_tag


def test_the_replayers_last_step_says_who_took_the_pot_and_repeats_nothing(client, game):
    hand = game.hands["full"]
    response = client.get(reverse("hand", kwargs={"pk": hand.pk}) + "?step=0")
    replay = response.context["replay"]
    last = replay.steps[-1]
    pot = hand.pots.get()
    (winner_id,) = [pid for pid, chips in pot.award_chips.items() if chips]
    winner = {s.player_id: s.name for s in last.seats}[winner_id]
    assert last.actions == [
        f"{winner} takes the pot ({pot.amount}) with four fours, jack kicker (K♦ as 4♥, 2♣ as 4♦)."
    ]
    assert {s.name: s.last_action for s in last.seats if s.last_action} == {
        winner: f"takes {pot.amount}"
    }
    assert replay.streets[-1].actions[-1] == last.actions[0]  # the end of the hand, the same
    for before, after in zip(replay.steps, replay.steps[1:], strict=False):
        assert before.actions != after.actions, after.actions
    body = html(response)
    assert f"{winner} takes the pot ({pot.amount})" in body
    assert body.count(f"{winner} takes the pot ({pot.amount})") == 2  # the step and the street


def test_the_last_step_names_the_result_that_stands(client, settle):
    """The table paid the pot otherwise: the replayer says what stands (the table's result
    until the authority rules), without the engine's hand for a winner it does not name."""
    g = make_game()
    t = g.tournament
    with settle():
        hand = hand_record(
            tournament=t,
            by=g.admin,
            entry_mode="full",
            entry={"actions": KLO_ACTIONS},
            variant="kings_and_little_ones",
            table_result={"winners": [tournament_state(t).next_positions()[1].player_id]},
        )
    hand.refresh_from_db()
    assert hand.status == HandStatus.DISPUTED
    replay = hand_replay(g.admin, hand.pk)
    pot = hand.pots.get()
    (stands,) = [pid for pid, chips in pot.award_chips.items() if chips]
    (engine,) = [pid for pid, chips in pot.engine_chips.items() if chips]
    assert stands != engine
    names = {s.player_id: s.name for s in replay.steps[-1].seats}
    assert replay.steps[-1].actions == [f"{names[stands]} takes the pot ({pot.amount})."]


def test_hand_page_shows_wild_cards_and_both_readings(client, game):
    page = text(client.get(reverse("hand", kwargs={"pk": game.hands["full"].pk})))
    assert "four fours, jack kicker" in page
    assert "as 4♥" in page and "as 4♦" in page  # the K♦ and the 2♣, and what they stood for
    assert "king required: yes" in page
    response = client.get(reverse("hand", kwargs={"pk": game.hands["disputed"].pk}))
    page = text(response)
    assert "disputed" in page and "The table said" in page
    pots = response.context["replay"].pots
    assert pots[0].disputed and pots[0].engine != pots[0].table and pots[0].stands == pots[0].table


def test_quick_entry_hand_shows_what_was_entered(client, game):
    response = client.get(reverse("hand", kwargs={"pk": game.hands["showdown"].pk}))
    replay = response.context["replay"]
    assert not replay.streets and len(replay.entry_seats) == 3
    assert sorted(s.put_in for s in replay.entry_seats) == [4, 24, 24]
    page = text(response)
    assert "folded on 3rd street" in page and "three aces" in page and "wins" in page


def test_every_recorded_sample_replays_consistently(game):
    """The walk and the engine agree on contributions for every full-history hand."""
    for hand in Hand.objects.filter(entry_mode="full"):
        replay = hand_replay(game.admin, hand.pk)
        final = {s.player_id: s.total for s in replay.streets[-1].seats}
        assert [final[p] for p in hand.positions] == hand.engine_reading["contributions"]


# --------------------------------------------------------------------------
# The hand entry form


def test_form_needs_a_login_and_a_recording_role(client, game):
    url = reverse("hand-new", kwargs={"pk": game.tournament.pk})
    response = client.get(url)
    assert response.status_code == 302 and reverse("login") in response["Location"]
    for user in (game.member, make_user("stranger")):
        client.force_login(user)
        for method in (client.get, client.post):
            response = method(url)
            assert response.status_code == 403
            assert "Not your deal" in text(response)
            assert "Only a league admin or scorekeeper may record hands" in text(response)
    client.force_login(game.keeper)
    assert client.get(url).status_code == 200


def test_form_is_filled_from_the_tournament(client, game):
    client.force_login(game.keeper)
    response = client.get(reverse("hand-new", kwargs={"pk": game.tournament.pk}))
    page = text(response)
    state = tournament_state(game.tournament)
    names = [s.player.name for s in state.next_positions()]
    assert "Record hand 5" in page and "Level 1" in page and "4/10/20/40" in page
    legends = re.findall(r'<legend><span class="seat-name">([^<]+)</span>', html(response))
    assert legends == names  # seats from the dealer's left, the dealer last
    assert f"Dealer {names[-1]}" in page
    # Announcements from the engine's metadata, one fieldset per variant.
    assert 'name="opt-kings_and_little_ones__king_required"' in html(response)
    assert "a player needs a king" in page


def test_form_records_a_hand_and_redirects(client, game):
    client.force_login(game.keeper)
    t = game.tournament
    data = form_data(
        t,
        [
            {"put_in": 24, "d1": "As", "d2": "Ah", "u1": "Ad", "u2": "3c", "u3": "4c",
             "u4": "9d", "c7": "2c", "result": "won"},
            {"put_in": 24, "d1": "K♠", "d2": "kh", "u1": "Kd", "u2": "3d", "u3": "4d",
             "u4": "5h", "c7": "2d"},
            {"put_in": 4, "folded": "third"},
        ],
        variant="seven_card_stud",
    )  # fmt: skip
    response = client.post(reverse("hand-new", kwargs={"pk": t.pk}), data)
    assert response.status_code == 302
    assert response["Location"] == t.get_absolute_url()
    hand = Hand.objects.get(tournament=t, number=5)
    assert hand.table_result == {"winners": [hand.positions[0]]}
    assert hand.entry["seats"][1]["down"] == ["Ks", "Kh", "2d"]
    page = text(client.get(response["Location"]))
    assert "Hand 5 recorded" in page


def test_form_errors_sit_beside_the_field_and_keep_what_was_typed(client, game):
    client.force_login(game.keeper)
    t = game.tournament
    url = reverse("hand-new", kwargs={"pk": t.pk})
    seats = [
        {"put_in": 24, "d1": "As", "d2": "Zz", "u1": "Ad", "u2": "3c", "u3": "4c", "u4": "9d",
         "c7": "2c"},
        {"put_in": 24, "d1": "As", "d2": "Kh", "u1": "Kd", "u2": "3d", "u3": "4d", "u4": "5h",
         "c7": "2d"},
        {"put_in": 4, "folded": "third"},
    ]  # fmt: skip
    response = client.post(url, form_data(t, seats, variant="seven_card_stud"))
    assert response.status_code == 200
    form = response.context["form"]
    first, second, _ = form.seats
    assert "is not a card" in first.errors["d2"][0]
    assert "entered twice" in first.errors["d1"][0] and "entered twice" in second.errors["d1"][0]
    body = html(response)
    assert 'value="Zz"' in body and 'value="9d"' in body and 'value="24"' in body
    assert Hand.objects.filter(tournament=t).count() == 4

    # An error from the engine: more chips than the stack.
    seats[0]["d2"] = "Qh"
    seats[1]["d1"] = "Ks"
    seats[0]["put_in"] = 5000
    response = client.post(url, form_data(t, seats, variant="seven_card_stud"))
    form = response.context["form"]
    assert "put_in" in form.seats[0].errors
    assert form.seats[0].errors["put_in"][0].startswith(f"{form.seats[0].name} put in 5000")
    assert "not recorded" in form.message
    assert 'value="5000"' in html(response) and 'value="Qh"' in html(response)

    # Dealer's choice: the variant is needed.
    seats[0]["put_in"] = 24
    response = client.post(url, form_data(t, seats))
    assert "variant" in response.context["form"].hand.errors
    assert Hand.objects.filter(tournament=t).count() == 4


def test_a_seat_at_the_showdown_without_cards_is_flagged_on_its_seat(client, game):
    client.force_login(game.keeper)
    t = game.tournament
    seats = [{"put_in": 24}, {"put_in": 24}, {"put_in": 4, "folded": "third"}]
    response = client.post(
        reverse("hand-new", kwargs={"pk": t.pk}), form_data(t, seats, variant="seven_card_stud")
    )
    form = response.context["form"]
    assert "cards are needed" in " ".join(form.seats[0].non_field_errors())


def test_service_error_paths_map_to_inputs(game):
    state = tournament_state(game.tournament)
    entry = HandEntry(tournament=game.tournament, state=state, data=None)
    entry.variant = "kings_and_little_ones"
    for form in [entry.hand, entry.announcements, *entry.seats]:
        form.cleaned_data = {}  # as after validation
    entry.seats[1].paths = {"down[0]": "d1", "up[4]": "c7"}
    exc = DomainError(
        "bad",
        fields={
            "entry.seats[1].down[0]": ["not a card"],
            "entry.seats[1].up[4]": ["twice"],
            "entry.seats[0].put_in": ["too many chips"],
            "entry.seats[2]": ["cards needed"],
            "variant": ["pick one"],
            "options.king_required": ["must be true or false"],
            "table_result.winners": ["not eligible"],
            "entry.community": ["no community card"],
            "something.else": ["odd"],
        },
    )
    entry.add_domain_error(exc)
    assert entry.seats[1].errors["d1"] == ["not a card"]
    assert entry.seats[1].errors["c7"] == ["twice"]
    assert entry.seats[0].errors["put_in"] == ["too many chips"]
    assert entry.seats[2].non_field_errors() == ["cards needed"]
    assert entry.hand.errors["variant"] == ["pick one"]
    assert entry.hand.errors["community"] == ["no community card"]
    assert "something.else" in entry.hand.non_field_errors()[0]
    assert entry.announcements.errors["kings_and_little_ones__king_required"] == [
        "must be true or false"
    ]
    assert entry.result_errors == ["not eligible"]


def test_a_finished_tournament_has_no_form(client, settle):
    from tests.factories import make_league, make_tournament

    league, admin = make_league(slug="short")
    t, _ = make_tournament(
        league=league, by=admin, names=("A", "B"), default_variant="seven_card_stud", hand_limit=1
    )
    with settle():
        hand_record(tournament=t, by=admin, entry_mode="quick", entry=walk_entry(t))
    client.force_login(admin)
    response = client.get(reverse("hand-new", kwargs={"pk": t.pk}))
    assert response.status_code == 302
    page = text(client.get(response["Location"]))
    assert "is over" in page and "Game over" in page


# --------------------------------------------------------------------------
# The calculator


KLO_EXAMPLE = {
    "variant": "kings_and_little_ones",
    "opt-kings_and_little_ones__king_required": "yes",
    "players": "2",
    "pl0-name": "Rob",
    "pl0-d1": "K♦",
    "pl0-d2": "4♣",
    "pl0-u1": "4♠",
    "pl0-u2": "7♥",
    "pl0-u3": "9♥",
    "pl0-u4": "J♦",
    "pl0-c7": "2♣",
    "pl1-d1": "As",
    "pl1-d2": "Ah",
    "pl1-u1": "3d",
    "pl1-u2": "5c",
    "pl1-u3": "6c",
    "pl1-u4": "8s",
    "pl1-c7": "7c",
}


def test_calculator_reads_the_kings_and_little_ones_example(client):
    response = client.get(reverse("calculator"), KLO_EXAMPLE)
    assert response.status_code == 200
    result = response.context["result"]
    assert result.high_winners == ["Rob"]
    rob = result.seats[0]
    assert rob.high.text.startswith("four fours, jack kicker")
    wild = {c.code: c.wild_as for c in rob.cards if c.wild_as}
    assert wild == {"Kd": "4♥", "2c": "4♦"}
    page = text(response)
    assert "Rob wins" in page and "four fours, jack kicker" in page


def test_calculator_without_the_king_required_reads_differently(client):
    # Player 2 holds no king: with king_required off, the 3♦ is wild for them too
    # and stands for the 4 of a 4-to-8 straight.
    data = {**KLO_EXAMPLE, "opt-kings_and_little_ones__king_required": "no"}
    result = client.get(reverse("calculator"), data).context["result"]
    assert result.seats[1].high.category == "straight"
    assert result.high_winners == ["Rob"]


def test_calculator_errors_name_the_card(client):
    data = {**KLO_EXAMPLE, "pl1-d1": "K♦"}  # the K♦ twice
    response = client.get(reverse("calculator"), data)
    assert response.context["result"] is None
    players = response.context["calc"].players
    assert "entered twice" in players[0].errors["d1"][0]
    assert "entered twice" in players[1].errors["d1"][0]
    data = {**KLO_EXAMPLE, "pl1-c7": ""}  # six cards
    response = client.get(reverse("calculator"), data)
    calc = response.context["calc"]
    assert response.context["result"] is None
    assert "6 cards" in " ".join(calc.players[1].non_field_errors())


def test_calculator_adds_player_rows_up_to_eight(client):
    response = client.get(reverse("calculator"), {**KLO_EXAMPLE, "add": "1"})
    assert len(response.context["calc"].players) == 3
    response = client.get(reverse("calculator"), {**KLO_EXAMPLE, "players": "8", "add": "1"})
    calc = response.context["calc"]
    assert len(calc.players) == 8 and not calc.can_add
    assert response.context["result"] is not None  # empty rows are left out


def test_calculator_high_low(client):
    data = {
        "variant": "low_hole",
        "opt-low_hole__game": "high_low",
        "pl0-d1": "As",
        "pl0-d2": "2c",
        "pl0-u1": "3d",
        "pl0-u2": "4h",
        "pl0-u3": "5s",
        "pl0-u4": "Kd",
        "pl0-c7": "Kh",
        "pl1-d1": "Qs",
        "pl1-d2": "Qh",
        "pl1-u1": "Qd",
        "pl1-u2": "9c",
        "pl1-u3": "9d",
        "pl1-u4": "Jc",
        "pl1-c7": "Jd",
    }
    result = client.get(reverse("calculator"), data).context["result"]
    assert result.has_high and result.has_low
    assert result.low_winners == ["Player 1"]


# --------------------------------------------------------------------------
# Helpers


def test_card_filter_renders_suits_with_red_hearts_and_diamonds():
    assert 'class="card red"' in card("Kd") and "K" in card("Kd") and "♦" in card("Kd")
    assert 'class="card"' in card("Tc") and "10" in card("Tc")
    assert "card back" in card("??")
    assert "card red down wild" in card("Ah", "down,wild")
    assert "bad" in card("<b>")
    assert "<b>" not in card("<b>")


def test_chart_is_valid_svg_and_escapes_labels():
    assert nice_step(3000) == 1000 and nice_step(7) == 2
    svg = line_chart(
        [Series("<Ann>", [1000, 1200, None, 900]), Series("Bob", [1000, 800, 700, 1100])],
        title="Stacks",
        markers=[(2, "L2")],
    )
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    assert "&lt;Ann&gt;" in svg and "<Ann>" not in svg
    assert len(root.findall("{http://www.w3.org/2000/svg}polyline")) == 2  # gap: 1 + 1 dot
    assert line_chart([]).startswith("<svg")


def test_klo_history_is_the_worked_example():
    assert KLO_ACTIONS[0] == "d dh p1 Kd4c4s"


def _walk_contributions(variant, options, actions, stacks, **entry):
    """The replayer's frames (an observer of the engine's walk) and the engine's replay."""
    from tracker.engine.procedure import replay_hand
    from tracker.hands.selectors.replay import street_frames

    n = len(stacks)
    hand = Hand(
        number=1,
        level=1,
        ante=4,
        bring_in=10,
        small_bet=20,
        big_bet=40,
        dealer_seat=0,
        variant=variant,
        options=options,
        entry_mode="full",
        entry={"actions": actions, **entry},
        positions=list(range(1, n + 1)),
        starting_stacks=list(stacks),
    )
    views = street_frames(hand, {}, {}, actions)
    walked = [s.total for s in views[-1].seats]
    engine = replay_hand(
        phh_hand(
            actions,
            stacks,
            variant=variant,
            options=options,
            **{f"_{k}": v for k, v in entry.items()},
        )
    )
    return walked, engine.contributions, views


def test_walk_counts_low_hold_buys_and_the_seventh_card_face():
    low_hold = heads_up(
        "4s9d4h 4c Ah Ad 2c", "KcKdKs Kh Qs Qd Jc",
        "p1 pb, p2 cc", "p2 cc, p1 cc", "p2 cc, p1 cc", "p1 cc, p2 cc", "p1 cbr 40, p2 cc",
    )  # fmt: skip
    walked, engine, views = _walk_contributions(
        "low_hold",
        {"same_rank_wild": "all", "buy_version": "contributed"},
        low_hold,
        (1000, 1000),
        buys=[True, False],
    )
    assert walked == engine == [94, 54]
    seventh = views[4]
    assert seventh.number == 7 and seventh.pot == 148
    assert seventh.seats[0].cards[-1].up and not seventh.seats[1].cards[-1].up
    assert any("pays 40" in a for a in seventh.actions)

    kings = heads_up(
        "Kd4c9c 7d 5h 3s 9d", "QsQhTc 8d 6h 2s Ac",
        "p1 pb, p2 cc", "p2 cc, p1 cc", "p2 cc, p1 cc", "p2 cc, p1 cc", "p1 cc, p2 cc",
    )  # fmt: skip
    walked, engine, views = _walk_contributions(
        "kings_and_little_ones", {}, kings, (1000, 1000), seventh_card=["up", None]
    )
    assert walked == engine
    assert views[-1].seats[0].cards[-1].up and not views[-1].seats[1].cards[-1].up


def test_walk_follows_an_all_in_runout_and_returns_uncalled_chips():
    third = ["d dh p1 AsKs9c", "d dh p2 AhKh2c"]
    runout = [
        "d dh p1 Qs", "d dh p2 Qh", "d dh p1 Js", "d dh p2 Jh",
        "d dh p1 3s", "d dh p2 3d", "d dh p1 4s", "d dh p2 4d",
    ]  # fmt: skip
    actions = third + ["p2 pb", "p1 cbr 20", "p2 cc", "p1 sm AsKs9c", "p2 sm AhKh2c"] + runout
    walked, engine, views = _walk_contributions("seven_card_stud", {}, actions, (1000, 24))
    assert walked == engine == [24, 24]
    assert [v.number for v in views] == [3, 4, 5, 6, 7, 8]
    assert "all in" in " ".join(views[0].actions)
    # p1's raise to 20 was called only for the 20 p2 had left after the ante.
    bet = ["d dh p1 AsKs9c", "d dh p2 AhKh2c", "p2 pb", "p1 cbr 20", "p2 f"]
    walked, engine, views = _walk_contributions("seven_card_stud", {}, bet, (1000, 1000))
    assert walked == engine == [14, 14]
    assert any("uncalled" in a for a in views[0].actions)


def test_a_player_who_busts_shows_as_out(client, settle):
    admin, t = all_in_night(slug="bust")
    with settle():
        record_showdown(t, admin)
    page = text(client.get(reverse("tournament", kwargs={"pk": t.pk})))
    assert "out in hand 1" in page


def test_a_hand_recorded_meanwhile_keeps_the_form_and_moves_on(client, game, settle):
    client.force_login(game.keeper)
    t = game.tournament
    seats = [{"put_in": 14}, {"put_in": 4, "folded": "third"}, {"put_in": 4, "folded": "third"}]
    data = form_data(t, seats, variant="seven_card_stud")
    with settle():  # another scorekeeper is quicker
        record(t, game.admin, walk_entry(t), variant="seven_card_stud")
    response = client.post(reverse("hand-new", kwargs={"pk": t.pk}), data)
    assert response.status_code == 200
    form = response.context["form"]
    assert "already recorded" in form.message and "as hand 6" in form.message
    assert 'name="number" value="6"' in html(response)
    # What was typed stays with each player.
    for seat in form.seats:
        assert seat["put_in"].value() == data[f"p{seat.player_id}-put_in"]


def test_house_rules_fill_in_the_announcements(client):
    from tests.factories import add_member, make_league, make_tournament

    league, admin = make_league(
        slug="house", house_rules={"kings_and_little_ones": {"king_required": False}}
    )
    keeper = add_member(league, "house-keeper", "scorekeeper")
    t, _ = make_tournament(league=league, by=admin, default_variant="kings_and_little_ones")
    client.force_login(keeper)
    response = client.get(reverse("hand-new", kwargs={"pk": t.pk}))
    form = response.context["form"]
    assert form.hand["variant"].value() == "kings_and_little_ones"
    assert form.announcements["kings_and_little_ones__king_required"].value() == "no"
    assert form.announcements["low_hole__game"].value() == "high"
