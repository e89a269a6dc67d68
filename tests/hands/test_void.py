"""An invalid hand blocks the hands after it until the authority or an admin voids it."""

import pytest

from tests.factories import add_member, make_league, make_tournament
from tests.factories import fold_entry as walk
from tests.support.recording import record
from tracker.core.errors import Conflict, PermissionDenied
from tracker.engine.errors import DomainError
from tracker.hands.models import Hand, HandStatus
from tracker.hands.services.recording import hand_void
from tracker.hands.services.settlement import tournament_settle
from tracker.tournaments.models import LedgerEntry, LedgerKind
from tracker.tournaments.selectors import tournament_stacks

pytestmark = pytest.mark.django_db


@pytest.fixture
def blocked():
    """Hands 1 and 2 recorded; a correction leaves hand 1 impossible, so it settles invalid."""
    league, admin = make_league()
    tournament, _ = make_tournament(league=league, by=admin, default_variant="seven_card_stud")
    for _ in range(2):
        record(tournament, admin, walk(tournament))
    first = Hand.objects.get(tournament=tournament, number=1)
    victim, other = first.positions[0], first.positions[1]
    LedgerEntry.objects.create(
        tournament=tournament, player_id=victim, kind=LedgerKind.CORRECTION, amount=-995
    )
    LedgerEntry.objects.create(
        tournament=tournament, player_id=other, kind=LedgerKind.CORRECTION, amount=995
    )
    assert tournament_settle(tournament_id=tournament.pk) == 0
    first.refresh_from_db()
    assert first.status == HandStatus.INVALID
    return league, admin, tournament, first


def test_voiding_an_invalid_hand_lets_the_next_ones_settle(
    blocked, django_capture_on_commit_callbacks
):
    league, admin, tournament, first = blocked
    before = tournament_stacks(tournament)
    rob = add_member(league, "rob", "authority")
    with django_capture_on_commit_callbacks(execute=True):
        hand_void(hand=first, reason="the stacks were logged wrong", by=rob)
    first.refresh_from_db()
    assert first.status == HandStatus.VOID and "logged wrong" in first.status_reason
    assert not LedgerEntry.objects.filter(hand=first).exists()  # a void hand moves no chips
    # Hand 2 waited behind hand 1; the short-stacked player only antes in it, so it settles.
    second = Hand.objects.get(tournament=tournament, number=2)
    assert second.status == HandStatus.VERIFIED
    after = tournament_stacks(tournament)
    assert after != before and sum(after.values()) == sum(before.values())


def test_only_authority_or_admin_void_and_only_invalid_hands(blocked):
    league, admin, tournament, first = blocked
    keeper = add_member(league, "keeper", "scorekeeper")
    with pytest.raises(PermissionDenied):
        hand_void(hand=first, reason="x", by=keeper)
    with pytest.raises(DomainError) as err:
        hand_void(hand=first, reason="  ", by=admin)
    assert "reason" in err.value.fields
    second = Hand.objects.get(tournament=tournament, number=2)
    with pytest.raises(Conflict):
        hand_void(hand=second, reason="not invalid", by=admin)


def test_void_over_the_api_and_the_page(blocked, client, django_capture_on_commit_callbacks):
    from tests.factories import api_client

    league, admin, tournament, first = blocked
    api = api_client(admin)
    r = api.post(f"/api/v1/hands/{first.pk}/void/", {}, format="json")
    assert r.status_code == 400 and "reason" in r.json()["error"]["fields"]
    page = client
    page.force_login(admin)
    html = page.get(f"/hands/{first.pk}/").content.decode()
    assert 'data-testid="void-form"' in html
    with django_capture_on_commit_callbacks(execute=True):
        r = page.post(f"/hands/{first.pk}/void/", {"reason": "misdeal"})
    assert r.status_code == 302
    first.refresh_from_db()
    assert first.status == HandStatus.VOID
    assert api.get(f"/api/v1/hands/{first.pk}/").json()["status"] == "void"


def test_void_of_a_malformed_id_is_404(client):
    from rest_framework.test import APIClient

    from tests.factories import make_user

    api = APIClient()
    api.force_authenticate(make_user("someone"))
    r = api.post("/api/v1/hands/null/void/", {"reason": "x"}, format="json")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"


def test_voiding_the_last_hand_of_the_night_finishes_the_tournament(monkeypatch):
    from tracker.core import jobs
    from tracker.tournaments.models import TournamentStatus

    monkeypatch.setattr(jobs, "send", lambda name, *args: None)  # settle by hand below
    league, admin = make_league()
    tournament, _ = make_tournament(
        league=league, by=admin, default_variant="seven_card_stud", hand_limit=2
    )
    for _ in range(2):
        record(tournament, admin, walk(tournament))
    last = Hand.objects.get(tournament=tournament, number=2)
    entry = last.entry
    entry["seats"][0]["put_in"] = 5000  # more than anyone holds: it settles invalid
    Hand.objects.filter(pk=last.pk).update(entry=entry)
    assert tournament_settle(tournament_id=tournament.pk) == 1
    tournament.refresh_from_db()
    assert tournament.status != TournamentStatus.FINISHED  # the invalid hand holds it open
    hand_void(hand=Hand.objects.get(pk=last.pk), reason="logged wrong", by=admin)
    tournament.refresh_from_db()
    assert tournament.status == TournamentStatus.FINISHED  # nothing is left to settle
