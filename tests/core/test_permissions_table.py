"""The permissions table (tracker/core/permissions.py) names every league role, and the
capabilities object answers the way templates and views ask it."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404

from tracker.core.errors import Conflict, NotFound, PermissionDenied, Refusal
from tracker.core.permissions import (
    NOBODY,
    ROLE_CAPABILITIES,
    Capabilities,
    Capability,
    denial,
    roles_with,
)
from tracker.engine.errors import DomainError
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
    assert roles_with(Capability.GAMES_MANAGE) == ("admin",)


def test_capabilities_read_as_attributes_items_and_membership():
    can = Capabilities.of_role("authority")
    assert can.rule and can["void_hand"] and Capability.EDIT_HOUSE_RULES in can
    assert not can.record_hand and not NOBODY.dispute


def test_docstring_examples():
    import doctest

    from tracker.core import permissions

    result = doctest.testmod(permissions)
    assert result.attempted >= 2 and result.failed == 0


def test_one_wording_for_every_refusal_the_table_makes():
    class Anonymous:
        is_authenticated = False

    class Member:
        is_authenticated = True

    refused = denial(Member(), Capabilities.of_role("member"), Capability.RULE, "rule on a pot")
    assert refused.message == "Only a league authority may rule on a pot (your role is member)."
    refused = denial(Anonymous(), NOBODY, Capability.SET_MONEY, "set the league's money rules")
    assert refused.message == (
        "Only a league admin may set the league's money rules (you are not logged in)."
    )


def test_not_found_and_permission_denied_are_djangos_and_no_domain_errors():
    # A page's ``except DomainError`` around its form never catches them: Django answers 404
    # and 403 with their message; the API gives them the same body as any refusal.
    for cls, django_cls in ((NotFound, Http404), (PermissionDenied, DjangoPermissionDenied)):
        exc = cls("No such league.", field="league")
        assert isinstance(exc, Refusal) and isinstance(exc, django_cls)
        assert not isinstance(exc, DomainError)
        assert exc.as_dict() == {
            "code": cls.code,
            "message": "No such league.",
            "fields": {"league": ["No such league."]},
        }
    assert issubclass(Conflict, DomainError)
