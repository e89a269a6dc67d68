"""The live logger page without JavaScript: a POST per step, the engine's legal actions as
buttons, errors shown with nothing lost, undo, and a second screen's stale form refused."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.factories import make_league, make_tournament
from tracker.hands.models import DraftHand, Hand, HandStatus

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
    assert len(DraftHand.objects.get().steps) == 2  # the last deal (Cat's card) is taken back
