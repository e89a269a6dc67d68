"""The permissions table (tracker/core/permissions.py) names every league role, and the
capabilities object answers the way templates and views ask it."""

from __future__ import annotations

from tracker.core.permissions import (
    NOBODY,
    ROLE_CAPABILITIES,
    Capabilities,
    Capability,
    roles_with,
)
from tracker.leagues.models import Role


def test_the_table_has_a_row_for_every_role_and_for_anyone_else():
    assert {r for r in ROLE_CAPABILITIES if r is not None} == set(Role.values)
    assert ROLE_CAPABILITIES[None] == frozenset()


def test_roles_with_a_capability():
    assert roles_with(Capability.RECORD_HAND) == ("admin", "scorekeeper")
    assert roles_with(Capability.RULE) == ("authority",)
    assert roles_with(Capability.VIEW_AUDIT) == ("admin", "authority")
    assert set(roles_with(Capability.DISPUTE)) == set(Role.values)
    assert set(roles_with(Capability.VIEW_MONEY)) == set(Role.values)
    assert roles_with(Capability.RECORD_MONEY) == ("admin", "scorekeeper")
    assert roles_with(Capability.SET_MONEY) == ("admin",)
    assert roles_with(Capability.MARK_PAID) == ("admin",)
    assert roles_with(Capability.CHECK_IN) == ("admin", "scorekeeper")
    assert roles_with(Capability.CORRECT_MONEY) == ("admin",)


def test_capabilities_read_as_attributes_items_and_membership():
    can = Capabilities.of_role("authority")
    assert can.rule and can["void_hand"] and Capability.EDIT_HOUSE_RULES in can
    assert not can.record_hand and not NOBODY.dispute


def test_docstring_examples():
    import doctest

    from tracker.core import permissions

    result = doctest.testmod(permissions)
    assert result.attempted >= 2 and result.failed == 0
