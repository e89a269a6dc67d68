"""The results form for a league's house games: each seat laid out by the game's
definition (its streets and faces, extra cards, pays, a choice card, the up cards a
follow-the-X rule needs), and bad input refused on the field at fault, keeping what was
typed."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.support.pages import form_data, html
from tracker.games.services import league_game_create
from tracker.hands.models import Hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(played):
    return played


def url(t) -> str:
    return reverse("hand-new", kwargs={"pk": t.pk})


def add(game, name: str, preset: str | None = None, definition: dict | None = None) -> str:
    created = league_game_create(
        league=game.league, by=game.admin, name=name, preset=preset, definition=definition
    )
    return f"game:{created.slug}"


def post(client, t, seats, variant, settle=None, **extra):
    data = form_data(t, seats, variant=variant, shape=variant, **extra)
    if settle is None:
        return client.post(url(t), data)
    with settle():
        return client.post(url(t), data)


def test_five_card_stud_seats_have_five_cards(client, game, settle):
    variant = add(game, "Five-Card Stud", "five_card_stud")
    client.force_login(game.keeper)
    t = game.tournament
    form = client.get(url(t) + f"?variant={variant}").context["form"]
    seat = form.seats[0]
    assert [seat[s].label for s in seat.slots] == [
        "2nd down",
        "2nd up",
        "3rd up",
        "4th up",
        "5th up",
    ]
    assert [c for c, _ in seat.fields["folded"].choices] == [
        "", "third", "fourth", "fifth", "sixth", "showdown",
    ]  # fmt: skip
    aces = {"s0_0": "As", "s0_1": "Ad", "s1_0": "Ac", "s2_0": "Ah", "s3_0": "2c"}
    kings = {"s0_0": "Ks", "s0_1": "Kd", "s1_0": "Kc", "s2_0": "Kh", "s3_0": "2d"}
    seats = [{"put_in": 24, **aces, "result": "won"}, {"put_in": 24, **kings}, {"fold3": "on"}]
    response = post(client, t, seats, variant, settle)
    assert response.status_code == 302, response.context["form"].summary()
    hand = Hand.objects.get(tournament=t, number=5)
    assert hand.entry["seats"][0]["down"] == ["As"]
    assert hand.entry["seats"][0]["up"] == ["Ad", "Ac", "Ah", "2c"]
    assert hand.status == "verified", hand.status_reason


BASEBALL_ANN = {  # two threes up, each paid; the 9d and the threes wild
    "s0_0": "As", "s0_1": "Ah", "s0_2": "3c", "s1_0": "3h", "s2_0": "9d", "s3_0": "2c",
    "s4_0": "5d",
}  # fmt: skip
BASEBALL_BOB = {  # a four up: the extra card, 8s, comes right after it
    "s0_0": "Ks", "s0_1": "Kh", "s0_2": "4d", "x1": "8s", "s1_0": "Kd", "s2_0": "5h",
    "s3_0": "6h", "s4_0": "7d",
}  # fmt: skip


def test_baseball_with_a_four_up_and_two_threes_up_paid(client, game, settle):
    variant = add(game, "Baseball", "baseball")
    client.force_login(game.keeper)
    t = game.tournament
    # The antes are 12: the first three pays 12, the second at least 24 (here 40).
    seats = [
        {"put_in": 76, **BASEBALL_ANN, "paid": "12, 40", "result": "won"},
        {"put_in": 24, **BASEBALL_BOB},
        {"fold3": "on", "s0_2": "7c"},  # the door card: Baseball's rules act on up cards
    ]
    response = post(client, t, seats, variant, settle)
    assert response.status_code == 302, response.context["form"].summary()
    hand = Hand.objects.get(tournament=t, number=5)
    ann, bob, cat = hand.entry["seats"]
    assert ann["paid"] == [12, 40] and ann["up"] == ["3c", "3h", "9d", "2c"]
    assert bob["up"] == ["4d", "8s", "Kd", "5h", "6h"] and bob["down"] == ["Ks", "Kh", "7d"]
    assert cat["up"] == ["7c"] and cat["folded"] == "third"
    assert hand.status == "verified", hand.status_reason

    # Hand 6 (antes of 6 each, 18): the second pay under the pot then (at least 36) is
    # refused on Ann's pay, naming the card; everything typed is kept.
    seats[0].update(put_in=64, paid="18, 20")
    seats[1]["put_in"] = 26
    response = post(client, t, seats, variant)
    assert response.status_code == 200
    form = response.context["form"]
    [message] = form.seats[0].errors["paid"]
    assert "Ann paid 20 for the 3h up on fourth street" in message and "at least 36" in message
    assert form.seats[0]["paid"].value() == "18, 20"
    assert form.seats[1]["x1"].value() == "8s"
    assert 'value="8s"' in html(response)
    assert Hand.objects.filter(tournament=t).count() == 5

    # Pays that are not chips: refused by the form itself.
    seats[0]["paid"] = "twelve"
    form = post(client, t, seats, variant).context["form"]
    assert "Type each pay as chips" in form.seats[0].errors["paid"][0]

    # An extra card typed with no four up to set it off.
    seats[0].update(put_in=84, paid="18, 40")
    seats[1]["s0_2"] = "Qd"
    form = post(client, t, seats, variant).context["form"]
    assert "No card up set off this extra card." in form.seats[1].errors["x1"]


def test_a_choice_street_takes_the_players_choice(client, game, settle):
    streets = [
        {"faces": ["down", "down", "up"], "unit": "small"},
        *({"faces": ["up"], "unit": u} for u in ("small", "big", "big")),
        {"faces": ["choice"], "unit": "big"},
    ]
    definition = {"name": "seven_choice", "title": "Seven, the last by choice", "streets": streets}
    variant = add(game, "Seven by choice", definition=definition)
    client.force_login(game.keeper)
    t = game.tournament
    form = client.get(url(t) + f"?variant={variant}").context["form"]
    seat = form.seats[0]
    assert seat["s4_0"].label == "7th choice" and seat.fields["seventh"].label == "The choice card"
    aces = {"s0_0": "As", "s0_1": "Ah", "s0_2": "Ad", "s1_0": "3c", "s2_0": "4c", "s3_0": "9d"}
    kings = {"s0_0": "Ks", "s0_1": "Kh", "s0_2": "Kd", "s1_0": "3d", "s2_0": "4d", "s3_0": "5h"}
    seats = [
        {"put_in": 24, **aces, "s4_0": "Ac", "seventh": "up", "result": "won"},
        {"put_in": 24, **kings, "s4_0": "2d", "seventh": "down"},
        {"fold3": "on"},
    ]
    response = post(client, t, seats, variant, settle)
    assert response.status_code == 302, response.context["form"].summary()
    ann, bob, _ = Hand.objects.get(tournament=t, number=5).entry["seats"]
    assert ann["seventh"] == "up" and ann["up"][-1] == "Ac" and ann["down"] == ["As", "Ah"]
    assert bob["seventh"] == "down" and bob["down"][-1] == "2d"


def test_follow_the_queen_asks_the_door_card_of_a_seat_folded_on_third(client, game, settle):
    variant = add(game, "Follow the Queen", "follow_the_queen")
    client.force_login(game.keeper)
    t = game.tournament
    seat = client.get(url(t) + f"?variant={variant}").context["form"].seats[2]
    assert seat.kept_slots == ("s0_2",)
    # Deuces Wild acts on no up card: nothing is asked of a seat folded on third.
    deuces = add(game, "Deuces Wild", "deuces_wild")
    assert client.get(url(t) + f"?variant={deuces}").context["form"].seats[2].kept_slots == ()
    # Ann's queen up is followed by Bob's seven: the sevens are wild.
    ann = {"s0_0": "As", "s0_1": "Ah", "s0_2": "Qh", "s1_0": "Ad", "s2_0": "5c", "s3_0": "6c"}
    bob = {"s0_0": "Ks", "s0_1": "Kh", "s0_2": "7c", "s1_0": "Kd", "s2_0": "5d", "s3_0": "6d"}
    seats = [
        {"put_in": 24, **ann, "s4_0": "2d"},
        {"put_in": 24, **bob, "s4_0": "7h", "result": "won"},
        {"fold3": "on"},  # the door card left out: the order of the up cards is not known
    ]
    response = post(client, t, seats, variant)
    assert response.status_code == 200
    form = response.context["form"]
    assert form.seats[2].errors, form.summary()
    assert form.seats[1]["s0_2"].value() == "7c"
    seats[2]["s0_2"] = "8d"
    response = post(client, t, seats, variant, settle)
    assert response.status_code == 302, response.context["form"].summary()
    hand = Hand.objects.get(tournament=t, number=5)
    assert hand.entry["seats"][2]["up"] == ["8d"]
    players = hand.engine_reading["showdown"]["players"]
    assert sorted(players[1]["wild"]) == ["7c", "7h"]


def test_another_game_chosen_lays_the_seats_out_again_keeping_the_chips(client, game):
    variant = add(game, "Five-Card Stud", "five_card_stud")
    client.force_login(game.keeper)
    t = game.tournament
    seats = [{"put_in": 24, "d1": "As"}, {"put_in": 24}, {"fold3": "on"}]
    response = client.post(url(t), form_data(t, seats, variant=variant, shape=""))
    assert response.status_code == 200
    form = response.context["form"]
    assert "laid out for the game chosen now" in form.message
    assert form.seats[0].slots[0] == "s0_0" and form.seats[0]["put_in"].value() == "24"
    assert Hand.objects.filter(tournament=t).count() == 4


def test_the_seat_layouts_docstring_examples():
    import doctest

    import web.forms.house_seats

    assert doctest.testmod(web.forms.house_seats).failed == 0
