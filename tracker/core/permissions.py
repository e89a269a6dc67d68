"""Who may do what in a league: one role -> capability table, used everywhere.

Services check it before every write (:func:`require`), the API answers with what the
services decide, and the page views resolve a user's :class:`Capabilities` in a league once
per request and hand them to the templates (``{% if can.rule %}``), which decide nothing.

Reading: a public league is open to everyone (anonymous visitors included); a private league
does not exist for outsiders (:func:`require_view` raises NotFound, not PermissionDenied).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from tracker.core.errors import NotFound, PermissionDenied

if TYPE_CHECKING:  # for annotations only: the table is about roles, not about leagues' rows
    from tracker.leagues.models import League

# The roles of a league (tracker.leagues.models.Role holds the same values with labels).
ADMIN, SCOREKEEPER, AUTHORITY, MEMBER = "admin", "scorekeeper", "authority", "member"


class Capability(StrEnum):
    RECORD_HAND = "record_hand"  # record and import hands, create tournaments, add players
    MANAGE_MEMBERS = "manage_members"  # give and change roles
    VIEW_AUDIT = "view_audit"  # read the league's audit log
    RULE = "rule"  # rule on a disputed pot ("Rob is right")
    DISPUTE = "dispute"  # put a pot to the authority
    VOID_HAND = "void_hand"  # declare an invalid hand void
    EDIT_HOUSE_RULES = "edit_house_rules"  # default announcements per variant
    SET_POINTS = "set_points"  # choose the league's points formula
    REEVALUATE = "reevaluate"  # re-run the engine over settled hands


C = Capability

# The table. ``None`` is anyone else: an anonymous visitor, or a user with no role in the
# league (they may read a public league, and do nothing else).
ROLE_CAPABILITIES: dict[str | None, frozenset[Capability]] = {
    ADMIN: frozenset(
        {
            C.RECORD_HAND,
            C.MANAGE_MEMBERS,
            C.VIEW_AUDIT,
            C.DISPUTE,
            C.VOID_HAND,
            C.SET_POINTS,
            C.REEVALUATE,
        }
    ),
    SCOREKEEPER: frozenset({C.RECORD_HAND, C.DISPUTE}),
    # The authority reads the audit log too: a ruling is judged against what was recorded.
    AUTHORITY: frozenset(
        {
            C.RULE,
            C.DISPUTE,
            C.VOID_HAND,
            C.EDIT_HOUSE_RULES,
            C.SET_POINTS,
            C.REEVALUATE,
            C.VIEW_AUDIT,
        }
    ),
    MEMBER: frozenset({C.DISPUTE}),
    None: frozenset(),
}


def roles_with(capability: Capability) -> tuple[str, ...]:
    """The roles that hold ``capability``, in the table's order (e.g. for ``role__in=``)."""
    return tuple(
        str(role) for role, caps in ROLE_CAPABILITIES.items() if role and capability in caps
    )


@dataclass(frozen=True)
class Capabilities:
    """What one user may do in one league. ``can.rule``, ``can["rule"]`` and
    ``Capability.RULE in can`` all answer; templates use ``{% if can.rule %}``."""

    role: str | None
    allowed: frozenset[Capability]

    @classmethod
    def of_role(cls, role: str | None) -> Capabilities:
        return cls(role=role, allowed=ROLE_CAPABILITIES.get(role, frozenset()))

    def __contains__(self, capability: object) -> bool:
        return capability in self.allowed

    def __getitem__(self, name: str) -> bool:
        try:
            return Capability(name) in self.allowed
        except ValueError:
            raise KeyError(name) from None

    def __getattr__(self, name: str) -> bool:
        try:
            return Capability(name) in self.allowed
        except ValueError:
            raise AttributeError(name) from None


NOBODY = Capabilities.of_role(None)


def role_of(user, league: League) -> str | None:
    if user is None or not user.is_authenticated:
        return None
    return league.memberships.filter(user=user).values_list("role", flat=True).first()


def capabilities(user, league: League) -> Capabilities:
    """The user's capabilities in ``league`` (one query; none for anonymous visitors)."""
    return Capabilities.of_role(role_of(user, league))


def can(user, league: League, capability: Capability) -> bool:
    return capability in capabilities(user, league)


def can_view(user, league: League) -> bool:
    return league.is_public or role_of(user, league) is not None


def require_view(user, league: League) -> None:
    """Private leagues do not exist for outsiders: 404, not 403."""
    if not can_view(user, league):
        raise NotFound("No such league.")


def require(user, league: League, capability: Capability, action: str) -> str | None:
    """Refuse unless ``user`` may see ``league`` and holds ``capability`` in it; their role."""
    require_view(user, league)
    role = role_of(user, league)
    if capability not in ROLE_CAPABILITIES.get(role, frozenset()):
        who = (
            "you are not logged in"
            if role is None and not getattr(user, "is_authenticated", False)
            else f"your role is {role or 'none'}"
        )
        allowed = " or ".join(roles_with(capability))
        raise PermissionDenied(f"Only a league {allowed} may {action} ({who}).")
    return role
