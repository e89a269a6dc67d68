"""A night's read-only live view link (tracker/tournaments services and selectors), and the
cheap version of the night's state the table screen's poll compares."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core import signing
from django.utils import timezone

from tests.factories import add_member, fold_entry, make_league, make_tournament
from tests.support.recording import record, record_disputed
from tracker.audit.models import AuditEntry
from tracker.core.errors import NotFound, PermissionDenied
from tracker.hands.models import Pot
from tracker.hands.services.settlement import tournament_settle
from tracker.leagues.models import Player
from tracker.rulings.services import dispute_raise, ruling_make
from tracker.tournaments.models import LedgerEntry, TableLink, Tournament
from tracker.tournaments.selectors import (
    table_link_current,
    table_link_open,
    table_link_token,
    table_screen_version,
)
from tracker.tournaments.services import table_link_create, table_link_revoke

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    league, admin = make_league(slug="links", public=False)
    t, players = make_tournament(league=league, by=admin)
    t.admin = admin
    t.keeper = add_member(league, "links-keeper", "scorekeeper")
    t.member = add_member(league, "links-member", "member")
    t.authority = add_member(league, "links-authority", "authority")
    t.players_ = players
    return t


def test_a_scorekeeper_makes_the_link_and_making_it_again_gives_the_same(night):
    link = table_link_create(tournament=night, by=night.keeper)
    assert link.is_open()
    hours = (link.expires_at - link.created_at) / dt.timedelta(hours=1)
    assert hours == TableLink.LINK_HOURS
    assert table_link_create(tournament=night, by=night.admin) == link
    assert TableLink.objects.count() == 1
    assert table_link_current(night) == link
    entry = AuditEntry.objects.get(action="table_link.create")
    assert entry.league_id == night.league_id and entry.actor == "links-keeper"


def test_the_token_opens_its_night_and_nothing_once_tampered_with(night):
    link = table_link_create(tournament=night, by=night.admin)
    token = table_link_token(link)
    assert table_link_open(token) == link
    assert table_link_open(token).tournament == night
    pk, signature = token.split(":", 1)
    other = TableLink.objects.create(
        tournament=make_tournament(league=night.league, by=night.admin, names=("Dee", "Eve"))[0],
        expires_at=timezone.now() + dt.timedelta(hours=1),
    )
    for bad in (
        f"{other.pk}:{signature}",  # another row's id under this row's signature
        token[:-1] + ("A" if token[-1] != "A" else "B"),
        pk,
        "",
        signing.Signer(salt="another.use").sign(pk),  # signed, but for something else
        signing.Signer(key="not-the-site-key", salt="tracker.tournaments.table-link").sign(pk),
    ):
        with pytest.raises(NotFound):
            table_link_open(bad)


def test_only_an_admin_revokes_and_then_the_link_is_gone(night):
    link = table_link_create(tournament=night, by=night.keeper)
    token = table_link_token(link)
    for who in (night.keeper, night.member, night.authority):
        with pytest.raises(PermissionDenied, match="Only a league admin may revoke"):
            table_link_revoke(link=link, by=who)
    assert table_link_open(token) == link
    table_link_revoke(link=link, by=night.admin)
    with pytest.raises(NotFound, match="revoked or has expired"):
        table_link_open(token)
    assert table_link_current(night) is None
    table_link_revoke(link=link, by=night.admin)  # again: nothing more happens
    assert AuditEntry.objects.filter(action="table_link.revoke").count() == 1
    fresh = table_link_create(tournament=night, by=night.keeper)  # a new link, a new token
    assert fresh != link and table_link_token(fresh) != token


def test_members_and_outsiders_make_no_link(night):
    outsider = add_member(make_league(slug="elsewhere")[0], "elsewhere-keeper", "scorekeeper")
    with pytest.raises(PermissionDenied, match="scorekeeper"):
        table_link_create(tournament=night, by=night.member)
    with pytest.raises(NotFound):  # a private league does not exist for an outsider
        table_link_create(tournament=night, by=outsider)
    assert not TableLink.objects.exists()


def test_an_expired_link_opens_nothing(night):
    link = table_link_create(tournament=night, by=night.admin)
    TableLink.objects.filter(pk=link.pk).update(expires_at=timezone.now() - dt.timedelta(1))
    with pytest.raises(NotFound):
        table_link_open(table_link_token(link))
    assert table_link_current(night) is None
    assert table_link_create(tournament=night, by=night.admin) != link


# --------------------------------------------------------------------------
# The version the poll compares


def test_the_version_changes_with_everything_the_screen_shows(
    night, django_capture_on_commit_callbacks
):
    """Each write that changes the table screen changes the version, and reading changes
    nothing."""
    t = night
    seen = [table_screen_version(t.pk)]

    def changed():
        now = table_screen_version(t.pk)
        assert now != seen[-1], "the version did not change"
        assert table_screen_version(t.pk) == now  # the same state, the same version
        seen.append(now)

    # A hand recorded (not settled yet: the worker has not run).
    hand = record_disputed(t, t.admin, variant="seven_card_stud")
    changed()
    # Settled: the engine disagrees with the table, the pot is disputed.
    tournament_settle(tournament_id=t.pk)
    hand.refresh_from_db()
    assert hand.status == "disputed"
    changed()
    # The authority upholds the engine: the pot moves, corrections in the ledger.
    pot = Pot.objects.get(hand=hand)
    ruling_make(pot=pot, by=t.authority, result="engine", reason="the engine reads the cards")
    assert LedgerEntry.objects.filter(tournament=t, kind="correction").exists()
    changed()
    # A member disputes the pot again: the hand's status moves.
    dispute_raise(pot=pot, by=t.member, reason="I saw something else")
    changed()
    # A player is renamed.
    Player.objects.filter(pk=t.players_[0].pk).update(name="Annie")
    changed()
    # The night's schedule or status changes.
    Tournament.objects.filter(pk=t.pk).update(hand_limit=40)
    changed()
    # The next hand, recorded and settled.
    with django_capture_on_commit_callbacks(execute=True):
        record(t, t.admin, fold_entry(t), variant="seven_card_stud")
    changed()


def test_the_version_is_only_for_whom_may_see_the_night(night):
    with pytest.raises(NotFound):
        table_screen_version(night.pk, among=Tournament.objects.none())
    with pytest.raises(NotFound):
        table_screen_version(10**9)
