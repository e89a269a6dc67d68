"""The league's people: members and their roles, accounts, the roster and invites."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Q, QuerySet

from tracker.accounts.selectors import token_digest
from tracker.core.errors import NotFound
from tracker.core.permissions import Capabilities, Capability, roles_with
from tracker.leagues.models import Invite, League, Membership, Player


@dataclass(frozen=True)
class MemberRow:
    user_id: int
    username: str
    roles: tuple[str, ...]  # in display order (admin, authority, scorekeeper, member)
    player: str | None  # the roster name linked to this account, if any


def league_members(league: League) -> list[MemberRow]:
    """Every account with a role in ``league``, by username, with all its roles (two queries)."""
    held: dict[int, set[str]] = {}
    names: dict[int, str] = {}
    for user_id, username, role in Membership.objects.filter(league=league).values_list(
        "user_id", "user__username", "role"
    ):
        held.setdefault(user_id, set()).add(role)
        names[user_id] = username
    players = dict(
        Player.objects.filter(league=league, user_id__in=held).values_list("user_id", "name")
    )
    rows = [
        MemberRow(uid, names[uid], Capabilities.of_roles(roles).roles, players.get(uid))
        for uid, roles in held.items()
    ]
    return sorted(rows, key=lambda r: r.username.casefold())


def league_players_without_role(league: League) -> list[MemberRow]:
    """The accounts linked to a player of ``league`` that hold no role there, by username
    (one query): an admin may give them a role directly (``league_accounts``)."""
    rows = (
        Player.objects.filter(league=league, user__isnull=False)
        .exclude(Exists(Membership.objects.filter(league=league, user=OuterRef("user"))))
        .values_list("user_id", "user__username", "name")
    )
    return sorted(
        (MemberRow(uid, username, (), name) for uid, username, name in rows),
        key=lambda r: r.username.casefold(),
    )


def league_accounts(league: League) -> QuerySet:
    """The accounts related to ``league``: those holding a role there and those linked to one
    of its players. Only they may be given a role directly; anyone else comes in through an
    invite, which they accept themselves."""
    User = get_user_model()
    return User.objects.filter(
        Q(Exists(Membership.objects.filter(league=league, user=OuterRef("pk"))))
        | Q(Exists(Player.objects.filter(league=league, user=OuterRef("pk"))))
    )


def league_account(league: League, *, pk: object = None, username: object = None):
    """The account related to ``league`` (``league_accounts``) with id ``pk`` or username
    ``username`` (exactly, else ignoring case when that names one account), or None: for an
    account that does not exist and for one that has nothing to do with the league alike, so
    the answer tells an admin nothing about accounts outside their league."""
    accounts = league_accounts(league)
    if pk is not None:
        if isinstance(pk, bool) or not isinstance(pk, int):
            return None
        return accounts.filter(pk=pk).first()
    if not isinstance(username, str) or not username.strip():
        return None
    field = get_user_model().USERNAME_FIELD
    exact = accounts.filter(**{field: username}).first()
    if exact is not None:
        return exact
    folded = list(accounts.filter(**{f"{field}__iexact": username.strip()})[:2])
    return folded[0] if len(folded) == 1 else None


def league_roster(league: League) -> list[Player]:
    """The league's players by name, with their linked account (``user``) if any (who can
    be seated at a new game night)."""
    return list(Player.objects.filter(league=league).select_related("user").order_by("name", "pk"))


def league_invites(league: League) -> list[Invite]:
    """The league's invites, newest first, with who made them."""
    return list(
        Invite.objects.filter(league=league).select_related("created_by").order_by("-created_at")
    )


def invites_managed_by(user) -> QuerySet[Invite]:
    """The invites of every league where ``user`` may manage members (its admins), newest
    first, with their league and who made them; none for an anonymous visitor."""
    if user is None or not user.is_authenticated:
        return Invite.objects.none()
    managed = Membership.objects.filter(
        user=user, role__in=roles_with(Capability.MANAGE_MEMBERS)
    ).values("league_id")
    return (
        Invite.objects.filter(league_id__in=managed)
        .select_related("league", "created_by")
        .order_by("-created_at", "-id")
    )


def invite_by_token(token: str) -> Invite:
    """The invite of a link (any state), with its league; NotFound for an unknown token.
    Looked up by the token's digest: the token itself is not stored."""
    invite = (
        Invite.objects.select_related("league", "created_by")
        .filter(digest=token_digest(token or ""))
        .first()
    )
    if invite is None:
        raise NotFound("No such invite.")
    return invite
