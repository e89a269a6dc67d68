"""Several roles per account in a league: capabilities are the union; admins change roles;
a league always keeps an admin."""

from __future__ import annotations

import pytest

from tests.factories import add_member, make_league, make_user
from tracker.audit.models import AuditEntry
from tracker.core.errors import Conflict, NotFound, PermissionDenied
from tracker.core.permissions import Capabilities, capabilities
from tracker.leagues.models import Membership
from tracker.leagues.selectors import roles_by_league
from tracker.leagues.services import league_create, role_grant, role_revoke, roles_set

pytestmark = pytest.mark.django_db


def test_capabilities_are_the_union_of_the_roles():
    both = Capabilities.of_roles({"authority", "admin"})
    assert both.rule and both.manage_members and both.view_audit and both.edit_house_rules
    assert not both.__contains__("nothing")
    assert both.roles == ("admin", "authority") and both.role == "admin and authority"
    assert Capabilities.of_roles(()).role is None


def test_the_admin_may_also_be_the_authority():
    league, admin = make_league()
    role_grant(league=league, user=admin, role="authority", by=admin)
    can = capabilities(admin, league)
    assert can.rule and can.manage_members
    assert roles_by_league(admin)[league.pk].roles == ("admin", "authority")
    # Granting a role held already changes nothing and writes nothing.
    before = AuditEntry.objects.count()
    role_grant(league=league, user=admin, role="authority", by=admin)
    assert AuditEntry.objects.count() == before
    assert Membership.objects.filter(league=league, user=admin).count() == 2


def test_the_creator_may_tick_authority_at_creation():
    creator = make_user("creator")
    league = league_create(name="Tuesday", created_by=creator, creator_is_authority=True)
    assert capabilities(creator, league).roles == ("admin", "authority")


def test_only_admins_change_roles():
    league, admin = make_league()
    rob = add_member(league, "rob", "authority")
    with pytest.raises(PermissionDenied):
        role_grant(league=league, user=rob, role="admin", by=rob)
    with pytest.raises(PermissionDenied):
        role_revoke(league=league, user=admin, role="admin", by=rob)


def test_the_last_admin_cannot_be_removed():
    league, admin = make_league()
    with pytest.raises(Conflict) as refused:
        role_revoke(league=league, user=admin, role="admin", by=admin)
    assert refused.value.code == "last_admin" and "last admin" in refused.value.message
    # With a second admin, the first may step down.
    sam = add_member(league, "sam", "admin")
    role_revoke(league=league, user=admin, role="admin", by=sam)
    assert capabilities(admin, league).roles == ()
    with pytest.raises(NotFound):
        role_revoke(league=league, user=admin, role="admin", by=sam)


def test_roles_set_makes_the_roles_exactly_those_given_or_nothing_at_all():
    league, admin = make_league()
    jo = add_member(league, "jo", "member")
    assert roles_set(league=league, user=jo, roles={"scorekeeper", "authority"}, by=admin) == (
        "authority",
        "scorekeeper",
    )
    assert capabilities(jo, league).roles == ("authority", "scorekeeper")
    # The last admin taking every role from themselves: refused, and nothing changed.
    with pytest.raises(Conflict):
        roles_set(league=league, user=admin, roles={"member"}, by=admin)
    assert capabilities(admin, league).roles == ("admin",)
    actions = list(
        AuditEntry.objects.filter(league_id=league.pk, action__startswith="role.").values_list(
            "action", "data"
        )
    )
    assert ("role.revoke", {"user": "jo", "role": "member"}) in actions


def test_roles_are_read_once_inside_roles_remembered_and_afresh_outside():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from tracker.core.permissions import roles_of, roles_remembered

    league, admin = make_league()
    other, _ = make_league(slug="other", admin=make_user("other-admin"))
    keeper = add_member(league, "keeper", "scorekeeper")
    with CaptureQueriesContext(connection) as queries, roles_remembered():
        assert roles_of(admin, league) == roles_of(admin, league) == ("admin",)
        assert roles_of(keeper, league) == ("scorekeeper",)  # another user: read
        assert roles_of(admin, other) == ()  # another league: read
        assert roles_of(keeper, league) == ("scorekeeper",)
    assert len(queries) == 3
    role_grant(league=league, user=admin, role="authority", by=admin)
    with CaptureQueriesContext(connection) as queries:
        assert roles_of(admin, league) == ("admin", "authority")  # nothing kept after the block
        assert roles_of(admin, league) == ("admin", "authority")
    assert len(queries) == 2
