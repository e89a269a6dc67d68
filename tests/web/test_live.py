"""The live logger page without JavaScript: a POST per step, the engine's legal actions as
buttons, errors shown with nothing lost, undo, and a second screen's stale form refused."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_league, make_tournament
from tracker.engine.cards import format_card
from tracker.hands.models import DraftHand, Hand, HandStatus
from tracker.hands.services.recording import variant_resolve

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client):
    league, admin = make_league()
    tournament, _ = make_tournament(
        league=league, by=admin, names=("Ann", "Bob", "Cat"), default_variant="seven_card_stud"
    )
    client.force_login(admin)
    return tournament, reverse("live-hand", kwargs={"pk": tournament.pk})


def post(client, url, **data):
    draft = DraftHand.objects.filter(status="open").first()
    data.setdefault("version", draft.version if draft else 0)
    return client.post(url, data)


def test_a_hand_logged_step_by_step_without_javascript(
    client, table, django_capture_on_commit_callbacks
):
    tournament, url = table
    page = client.get(url)
    assert page.status_code == 200 and b"Start the hand" in page.content
    assert post(client, url, op="start").status_code == 302
    page = client.get(url)
    assert "Deal third street" in page.context["page"].prompt
    cards = {"card-0-2": "2c", "card-1-2": "Kd", "card-2-2": "Qh"}
    assert post(client, url, op="deal", **cards).status_code == 302
    page = client.get(url).context["page"]
    first = page.seats[0].name  # seat 0 sits left of the dealer; its 2c brings in
    assert page.prompt == f"{first} to act"
    assert [b.label for b in page.buttons] == ["Bring in 10", "Complete to 20"]
    for seat, verb in ((0, "bring_in"), (1, "complete"), (2, "fold"), (0, "fold")):
        assert post(client, url, op="act", seat=seat, verb=verb).status_code == 302
    page = client.get(url).context["page"]
    assert page.can_finish and page.log[-1].startswith(f"{first} folds.")
    with django_capture_on_commit_callbacks(execute=True):
        done = post(client, url, op="finish")
    hand = Hand.objects.get(tournament=tournament)
    assert done.status_code == 302 and done.url == hand.get_absolute_url()
    hand.refresh_from_db()
    assert hand.status == HandStatus.VERIFIED and hand.entry_mode == "full"
    assert client.get(hand.get_absolute_url()).context["replay"].logged_live


def test_errors_are_shown_and_nothing_is_lost(client, table):
    tournament, url = table
    post(client, url, op="start")
    bad = post(client, url, op="deal", **{"card-0-2": "2c", "card-1-2": "2c", "card-2-2": "Qh"})
    assert bad.status_code == 400
    assert "2c has already been dealt" in bad.context["error"]
    assert DraftHand.objects.get().steps == []  # the whole street is refused
    post(client, url, op="deal", **{"card-0-2": "2c", "card-1-2": "Kd", "card-2-2": "Qh"})
    stale = DraftHand.objects.get().version - 1
    response = client.post(url, {"op": "act", "seat": 0, "verb": "bring_in", "version": stale})
    assert response.status_code == 400 and "reload" in response.context["error"]
    post(client, url, op="undo")
    assert DraftHand.objects.get().steps == []  # the street went in as one change: all back
    page = client.get(url).context["page"]
    assert [d.seat for d in page.deals] == [0, 1, 2]  # every door card is asked again


def test_the_cards_seen_in_the_hand_are_handed_to_the_picker(client, table):
    """Every card face up on the table and every face-down card entered is in the page's
    seen lists (the picker greys them out): exactly the cards the engine would refuse as
    dealt already. Each step's answer lands on the prompt."""
    tournament, url = table
    post(client, url, op="start")
    page = client.get(url).context["page"]
    assert page.seen_up == [] and page.seen_down == []
    cards = {"card-0-0": "As", "card-0-2": "2c", "card-1-2": "Kd", "card-2-2": "Qh"}
    response = post(client, url, op="deal", **cards)
    assert response.status_code == 302 and response.url == f"{url}#prompt"
    response = client.get(url)
    page = response.context["page"]
    assert page.seen_up == ["2c", "Kd", "Qh"]  # the door cards
    assert page.seen_down == ["As"]  # Ann's first face-down card, seen and entered
    known = {format_card(c) for c in page.state.hand.known}  # what the engine refuses again
    assert set(page.seen_up) | set(page.seen_down) == known
    body = response.content.decode()
    assert 'data-seen-up="2c Kd Qh" data-seen-down="As"' in body
    assert 'id="prompt"' in body
    # A card seen is refused a street later, as the picker says.
    for seat, verb in ((0, "bring_in"), (1, "call"), (2, "call")):
        assert post(client, url, op="act", seat=seat, verb=verb).status_code == 302
    again = post(client, url, op="deal", **{"card-0-0": "Kd", "card-1-0": "3d", "card-2-0": "4d"})
    assert again.status_code == 400 and "Kd has already been dealt" in again.context["error"]


def test_the_start_form_takes_the_announcements(client, table):
    tournament, url = table
    page = client.get(url)
    assert b'name="opt-low_hole__declaration"' in page.content
    post(
        client,
        url,
        op="start",
        variant="low_hole",
        **{"opt-low_hole__game": "high_low", "opt-low_hole__declaration": "declare"},
    )
    draft = DraftHand.objects.get()
    assert draft.variant == "low_hole"
    assert draft.options["game"] == "high_low" and draft.options["declaration"] == "declare"


def test_the_table_result_is_recorded_with_the_hand(
    client, table, django_capture_on_commit_callbacks
):
    tournament, url = table
    post(client, url, op="start")
    post(client, url, op="deal", **{"card-0-2": "2c", "card-1-2": "Kd", "card-2-2": "Qh"})
    post(client, url, op="act", seat=0, verb="bring_in")
    post(client, url, op="act", seat=1, verb="call")
    post(client, url, op="act", seat=2, verb="fold")
    for street in ("4", "5", "6"):
        cards = {"card-0-0": f"{street}c", "card-1-0": f"{street}d"}
        post(client, url, op="deal", **cards)
        for seat in (0, 1):
            page = client.get(url).context["page"]
            seat = page.buttons[0].seat
            post(client, url, op="act", seat=seat, verb="check")
    for _ in range(2):
        page = client.get(url).context["page"]
        post(client, url, op="act", seat=page.buttons[0].seat, verb="check")
    post(client, url, op="show", seat=0, **{"show-0-0": "As", "show-0-1": "Ah", "show-0-6": "Ad"})
    post(client, url, op="show", seat=1, **{"show-1-0": "7s", "show-1-1": "8h", "show-1-6": "9h"})
    page = client.get(url).context["page"]
    assert page.can_finish and [s for s, _ in page.result_seats] == [0, 1]
    assert page.result_choices == [("won", "wins")]
    bad = post(client, url, op="finish", **{"result-0": "won", "result-1": "high"})
    assert bad.status_code == 400 and "not both ways" in bad.context["error"]
    assert not Hand.objects.exists()
    loser = DraftHand.objects.get().positions[0]
    with django_capture_on_commit_callbacks(execute=True):
        done = post(client, url, op="finish", **{"result-0": "won"})
    assert done.status_code == 302
    hand = Hand.objects.get()
    assert hand.table_result == {"winners": [loser]}
    assert hand.status == HandStatus.DISPUTED  # the 5-9 straight beats three aces


def test_one_tap_on_the_tournament_page_starts_the_hand(client, table):
    tournament, url = table
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert f'<form method="post" action="{url}">' in page and "Log hand 1 live" in page
    assert post(client, url, op="start").status_code == 302  # what that form sends
    draft = DraftHand.objects.get()
    assert (draft.variant, draft.options) == variant_resolve(tournament, None, None)
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert "Go on logging hand 1" in page and f'action="{url}"' not in page


def test_dealers_choice_asks_the_variant_first(client):
    league, admin = make_league()
    tournament, _ = make_tournament(league=league, by=admin, names=("Ann", "Bob"))
    client.force_login(admin)
    url = reverse("live-hand", kwargs={"pk": tournament.pk})
    page = client.get(tournament.get_absolute_url()).content.decode()
    assert f'href="{url}" data-testid="live-hand"' in page and f'action="{url}"' not in page
    assert b'name="variant"' in client.get(url).content


def play_to_showdown(client, url):
    """Ann, Bob and Cat all call the bring-in and check every street down (check around)."""
    post(client, url, op="start")
    post(client, url, op="deal", **{"card-0-2": "2c", "card-1-2": "Kd", "card-2-2": "Qh"})
    for seat, verb in ((0, "bring_in"), (1, "call"), (2, "call")):
        post(client, url, op="act", seat=seat, verb=verb)
    for street in "456":
        post(client, url, op="deal", **{f"card-{k}-0": f"{street}{'cdh'[k]}" for k in range(3)})
        page = client.get(url).context["page"]
        assert [b.label for b in page.buttons][::2] == ["Check", "Check around"]  # and a bet
        assert post(client, url, op="check_around").status_code == 302
    assert post(client, url, op="check_around").status_code == 302  # seventh street
    return client.get(url).context["page"]


def test_check_around_and_a_muck_without_javascript(
    client, table, django_capture_on_commit_callbacks
):
    tournament, url = table
    page = play_to_showdown(client, url)
    assert page.prompt.startswith("Showdown")
    assert sum(line.endswith("checks.") for line in page.log) == 12
    assert [b.seat for b in page.mucks] == [0, 1, 2]  # anyone may concede...
    post(client, url, op="muck", seat=0)
    post(client, url, op="muck", seat=1)
    page = client.get(url).context["page"]
    assert page.mucks == []  # ... but the last hand in must show
    assert post(client, url, op="muck", seat=2).status_code == 400
    page = client.get(url).context["page"]
    # Cat wins uncontested: the hand can be recorded, Cat's cards are optional.
    assert page.can_finish and [(x.seat, x.optional) for x in page.shows] == [(2, True)]
    assert page.result_seats == []  # no showdown to dispute
    with django_capture_on_commit_callbacks(execute=True):
        assert post(client, url, op="finish").status_code == 302
    hand = Hand.objects.get()
    assert hand.status == HandStatus.VERIFIED
    assert [a for a in hand.entry["actions"] if " sm" in a] == ["p1 sm", "p2 sm"]
    winner = hand.hand_seats.get(position=2)
    assert winner.won == hand.pots.get().amount


@pytest.mark.parametrize("version", [10**30, -1, "1e3", "9" * 5000, 2**31])
def test_a_version_out_of_range_is_refused_with_nothing_changed(client, table, version):
    tournament, url = table
    post(client, url, op="start")
    before = DraftHand.objects.get().version
    cards = {"card-0-2": "2c", "card-1-2": "Kd", "card-2-2": "Qh"}
    response = post(client, url, op="deal", version=version, **cards)
    assert response.status_code == 400
    assert "version is a whole number from 0 to 2147483647" in response.context["error"]
    draft = DraftHand.objects.get()
    assert draft.version == before and draft.steps == []


def test_a_version_ahead_of_the_draft_names_no_negative_count(client, table):
    tournament, url = table
    post(client, url, op="start")
    ahead = DraftHand.objects.get().version + 5
    cards = {"card-0-2": "2c", "card-1-2": "Kd", "card-2-2": "Qh"}
    response = post(client, url, op="deal", version=ahead, **cards)
    assert response.status_code == 400
    error = response.context["error"]
    assert "reload" in error and "-" not in error.split("(")[1]
    assert DraftHand.objects.get().steps == []


@pytest.mark.parametrize(
    "data",
    [
        {"op": "show", "seat": "7"},
        {"op": "show", "seat": "-1"},
        {"op": "act", "seat": "7", "verb": "fold"},
        {"op": "muck", "seat": "3"},
    ],
)
def test_a_seat_the_hand_has_not_is_refused_by_name(client, table, data):
    """A POST naming a seat beyond the table is a 400 naming the seat, never a 500."""
    _, url = table
    post(client, url, op="start")
    post(client, url, op="deal", **{"card-0-2": "2c", "card-1-2": "Kd", "card-2-2": "Qh"})
    before = DraftHand.objects.get()
    response = post(client, url, **data)
    assert response.status_code == 400
    assert f"there is no seat {data['seat']} (seats 0 to 2)" in response.context["error"]
    after = DraftHand.objects.get()
    assert (after.steps, after.version) == (before.steps, before.version)


def test_a_deal_when_no_card_is_due_changes_nothing(client, table):
    """Dealing while a seat is to act is refused: no step, and the version stays, so the
    other phone is not told that something changed."""
    _, url = table
    post(client, url, op="start")
    post(client, url, op="deal", **{"card-0-2": "2c", "card-1-2": "Kd", "card-2-2": "Qh"})
    before = DraftHand.objects.get()
    response = post(client, url, op="deal", **{"card-0-0": "As"})
    assert response.status_code == 400 and "no cards are due now" in response.context["error"]
    after = DraftHand.objects.get()
    assert (after.steps, after.version) == (before.steps, before.version)
    assert post(client, url, op="act", seat=0, verb="bring_in").status_code == 302
