"""Who may do what in a league: one role -> capability table, used everywhere.

One account may hold several roles in a league (one membership row per role); what it may do
is the union of its roles' capabilities.

Services check it before every write (:func:`require`), the API answers with what the
services decide, and the page views resolve a user's :class:`Capabilities` in a league once
per request and hand them to the templates (``{% if can.rule %}``), which decide nothing.

Reading: a public league is open to everyone (anonymous visitors included); a private league
does not exist for outsiders (:func:`require_view` raises NotFound, not PermissionDenied).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
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
    SHARE_TABLE = "share_table"  # put a night's read-only live view link (QR code) on its screen
    REVOKE_TABLE_LINK = "revoke_table_link"  # stop a live view link from working
    CALENDAR = "calendar"  # the league's time zone and its calendar feed links
    # see money: a night's rules, entries, pool and payouts; the standings' money columns,
    # their CSV and a player's money (page and API)
    VIEW_MONEY = "view_money"
    RECORD_MONEY = "record_money"  # record buy-ins, rebuys and add-ons at the table
    SET_MONEY = "set_money"  # the league's currency and money rules, a night's own rules
    # schedule a night ahead, change or cancel it; see and record every answer
    SCHEDULE_NIGHT = "schedule_night"
    CHECK_IN = "check_in"  # check players in at the door and start a scheduled night
    # mark any transfer of a night's settle-up paid (its payer and payee mark their own)
    MARK_PAID = "mark_paid"
    SET_DEAL = "set_deal"  # record the deal the players still in agreed (it ends the night)
    CORRECT_MONEY = "correct_money"  # add a correction entry to the league's money ledger
    # the league's house games: create, change (a new version of the definition), archive
    GAMES_MANAGE = "games_manage"


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
            C.EDIT_HOUSE_RULES,
            C.SET_POINTS,
            C.REEVALUATE,
            C.SHARE_TABLE,
            C.REVOKE_TABLE_LINK,
            C.CALENDAR,
            C.VIEW_MONEY,
            C.RECORD_MONEY,
            C.SET_MONEY,
            C.SCHEDULE_NIGHT,
            C.CHECK_IN,
            C.MARK_PAID,
            C.SET_DEAL,
            C.CORRECT_MONEY,
            C.GAMES_MANAGE,
        }
    ),
    SCOREKEEPER: frozenset(
        {
            C.RECORD_HAND,
            C.DISPUTE,
            C.SHARE_TABLE,
            C.VIEW_MONEY,
            C.RECORD_MONEY,
            C.SCHEDULE_NIGHT,
            C.CHECK_IN,
        }
    ),
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
            C.VIEW_MONEY,
        }
    ),
    # Money is the members' business: a public league's visitors see its nights, not its money.
    MEMBER: frozenset({C.DISPUTE, C.VIEW_MONEY}),
    None: frozenset(),
}


def roles_with(capability: Capability) -> tuple[str, ...]:
    """The roles that hold ``capability``, in the table's order (e.g. for ``role__in=``)."""
    return tuple(
        str(role) for role, caps in ROLE_CAPABILITIES.items() if role and capability in caps
    )


ROLE_ORDER: tuple[str, ...] = (ADMIN, AUTHORITY, SCOREKEEPER, MEMBER)  # how roles are listed


def roles_sorted(roles) -> tuple[str, ...]:
    """``roles`` in the table's display order (admin, authority, scorekeeper, member).

    >>> roles_sorted({"member", "admin"})
    ('admin', 'member')
    """
    return tuple(r for r in ROLE_ORDER if r in roles)


def capabilities_of(roles) -> frozenset[Capability]:
    """The union of the capabilities of ``roles``.

    >>> sorted(capabilities_of({"authority", "member"}) - capabilities_of({"authority"}))
    []
    >>> sorted(capabilities_of({"scorekeeper", "member"}))  # doctest: +NORMALIZE_WHITESPACE
    [<Capability.CHECK_IN: 'check_in'>, <Capability.DISPUTE: 'dispute'>,
     <Capability.RECORD_HAND: 'record_hand'>,
     <Capability.RECORD_MONEY: 'record_money'>, <Capability.SCHEDULE_NIGHT: 'schedule_night'>,
     <Capability.SHARE_TABLE: 'share_table'>, <Capability.VIEW_MONEY: 'view_money'>]
    """
    out: frozenset[Capability] = frozenset()
    for role in roles:
        out |= ROLE_CAPABILITIES.get(role, frozenset())
    return out


@dataclass(frozen=True)
class Capabilities:
    """What one user may do in one league: the union over their roles. ``can.rule``,
    ``can["rule"]`` and ``Capability.RULE in can`` all answer; templates use
    ``{% if can.rule %}`` and show ``can.role`` (the roles in words, or None)."""

    roles: tuple[str, ...]
    allowed: frozenset[Capability]

    @classmethod
    def of_roles(cls, roles) -> Capabilities:
        roles = roles_sorted(set(roles))
        return cls(roles=roles, allowed=capabilities_of(roles))

    @classmethod
    def of_role(cls, role: str | None) -> Capabilities:
        return cls.of_roles({role} if role else set())

    @property
    def role(self) -> str | None:
        """The roles in words ("admin and authority"), or None without any."""
        if not self.roles:
            return None
        if len(self.roles) == 1:
            return self.roles[0]
        return ", ".join(self.roles[:-1]) + " and " + self.roles[-1]

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


NOBODY = Capabilities.of_roles(())


# Inside ``roles_remembered()``: the roles already read, by (user id, league id).
_remembered: ContextVar[dict[tuple[int, int], tuple[str, ...]] | None] = ContextVar(
    "league_roles_remembered", default=None
)


@contextmanager
def roles_remembered() -> Iterator[None]:
    """Within the block, each user's roles in a league are read once (a request that checks
    them before validating its body and again in the service, say). Only for a block that
    changes no roles: what was read is kept until the block ends."""
    token = _remembered.set({})
    try:
        yield
    finally:
        _remembered.reset(token)


def roles_of(user, league: League) -> tuple[str, ...]:
    """``user``'s roles in ``league``, in display order (one query, none when remembered
    already; none when anonymous)."""
    if user is None or not user.is_authenticated:
        return ()
    remembered = _remembered.get()
    key = (user.pk, league.pk)
    if remembered is not None and key in remembered:
        return remembered[key]
    roles = roles_sorted(set(league.memberships.filter(user=user).values_list("role", flat=True)))
    if remembered is not None:
        remembered[key] = roles
    return roles


def roles_remember(user, league: League, roles) -> None:
    """Keep ``roles`` (read with the league's row, say) as ``user``'s roles in ``league`` for
    the rest of the ``roles_remembered()`` block: :func:`roles_of` answers them without a
    query. Nothing is kept outside such a block, nor for an anonymous user."""
    remembered = _remembered.get()
    if remembered is not None and user is not None and user.is_authenticated:
        remembered[(user.pk, league.pk)] = roles_sorted(set(roles))


def capabilities(user, league: League) -> Capabilities:
    """The user's capabilities in ``league`` (one query; none for anonymous visitors)."""
    return Capabilities.of_roles(roles_of(user, league))


def can(user, league: League, capability: Capability) -> bool:
    return capability in capabilities(user, league)


def can_view(user, league: League) -> bool:
    return league.is_public or bool(roles_of(user, league))


def require_view(user, league: League) -> None:
    """Private leagues do not exist for outsiders: 404, not 403."""
    if not can_view(user, league):
        raise NotFound("No such league.")


def denial(user, can: Capabilities, capability: Capability, action: str) -> PermissionDenied:
    """The one refusal of an action the table does not allow, in the one wording every
    service, API view and page shows: who may, and what the user is.

    >>> class Member:
    ...     is_authenticated = True
    >>> denial(Member(), Capabilities.of_role("member"), Capability.RECORD_HAND, "record hands").message
    'Only a league admin or scorekeeper may record hands (your role is member).'
    """
    who = (
        "you are not logged in"
        if not can.roles and not getattr(user, "is_authenticated", False)
        else f"your role is {can.role or 'none'}"
    )
    allowed = " or ".join(roles_with(capability))
    return PermissionDenied(f"Only a league {allowed} may {action} ({who}).")


def require(user, league: League, capability: Capability, action: str) -> Capabilities:
    """Refuse unless ``user`` may see ``league`` and holds ``capability`` in it (through any
    of their roles); their capabilities."""
    require_view(user, league)
    can = capabilities(user, league)
    if capability not in can:
        raise denial(user, can, capability, action)
    return can
