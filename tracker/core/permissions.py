"""Who may do what in a league. Services call these before any write."""

from __future__ import annotations

from collections.abc import Iterable

from tracker.engine.errors import NotFound, PermissionDenied
from tracker.leagues.models import League, Membership, Role

# Which roles may perform each kind of write.
CAN_RECORD = (Role.ADMIN, Role.SCOREKEEPER)
CAN_MANAGE = (Role.ADMIN,)
CAN_RULE = (Role.AUTHORITY,)
CAN_VOID = (Role.AUTHORITY, Role.ADMIN)  # declare an invalid hand void


def role_of(user, league: League) -> str | None:
    if user is None or not user.is_authenticated:
        return None
    return (
        Membership.objects.filter(league=league, user=user).values_list("role", flat=True).first()
    )


def can_view(user, league: League) -> bool:
    return league.is_public or role_of(user, league) is not None


def require_view(user, league: League) -> None:
    """Private leagues do not exist for outsiders: 404, not 403."""
    if not can_view(user, league):
        raise NotFound("No such league.")


def require_role(user, league: League, roles: Iterable[str], action: str) -> str:
    require_view(user, league)
    role = role_of(user, league)
    if role not in set(roles):
        who = (
            "you are not logged in"
            if role is None and not getattr(user, "is_authenticated", False)
            else f"your role is {role or 'none'}"
        )
        allowed = " or ".join(str(r) for r in roles)
        raise PermissionDenied(f"Only a league {allowed} may {action} ({who}).")
    return role
