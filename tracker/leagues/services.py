"""Leagues, players, roles (memberships) and invites."""

from __future__ import annotations

import secrets
from datetime import timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from tracker.accounts.selectors import sign_in_account, token_digest, verified_email_of
from tracker.audit.services import audit_record
from tracker.core.errors import Conflict, NotFound, PermissionDenied
from tracker.core.permissions import Capability, require
from tracker.engine.announcements import VARIANTS, normalize_announcements
from tracker.engine.errors import Code, DomainError
from tracker.engine.points import normalize_formula
from tracker.engine.tournament import MAX_SEATS as MAX_PLAYERS
from tracker.leagues.models import (
    CalendarFeed,
    Invite,
    League,
    Membership,
    Player,
    Role,
    invite_path,
)
from tracker.leagues.seasons import DEFAULT_MIN_PLAYERS, DEFAULT_SEASON_LENGTH, SEASON_LENGTHS
from tracker.leagues.selectors.people import league_account, league_accounts
from tracker.mail.models import MailKind
from tracker.mail.services import outbox_enqueue


def house_rules_check(house_rules: object) -> dict:
    """House rules are {variant: {announcement: value}}; each is checked by the engine."""
    if house_rules is None:
        return {}
    if not isinstance(house_rules, dict):
        raise DomainError("must be an object keyed by variant", field="house_rules")
    out = {}
    for variant, options in house_rules.items():
        if variant not in VARIANTS:
            raise DomainError(
                f"{variant!r} is not a variant (one of {', '.join(VARIANTS)})",
                code=Code.INVALID_VARIANT,
                field=f"house_rules.{variant}",
            )
        normalize_announcements(variant, options, field=f"house_rules.{variant}")
        out[variant] = dict(options or {})
    return out


@transaction.atomic
def league_create(
    *,
    name: str,
    slug: str | None = None,
    is_public: bool = True,
    house_rules: dict | None = None,
    points_formula: dict | None = None,
    season_length: str = DEFAULT_SEASON_LENGTH,
    min_players: int = DEFAULT_MIN_PLAYERS,
    creator_is_authority: bool = False,
    created_by,
) -> League:
    """Create a league; its creator becomes its admin (and its authority too, if asked)."""
    name = (name or "").strip()
    if not name:
        raise DomainError("a league needs a name", field="name")
    slug = slugify(slug or name)[:60]
    if not slug:
        raise DomainError("the name gives no usable slug; give one", field="slug")
    if League.objects.filter(slug=slug).exists():
        raise Conflict(f"a league with slug {slug!r} exists", code=Code.DUPLICATE, field="slug")
    if season_length not in dict(SEASON_LENGTHS):
        lengths = ", ".join(dict(SEASON_LENGTHS))
        raise DomainError(
            f"{season_length!r} is not a season length (one of {lengths})", field="season_length"
        )
    if not isinstance(min_players, int) or not 2 <= min_players <= MAX_PLAYERS:
        raise DomainError(
            f"the minimum players must be a whole number from 2 to {MAX_PLAYERS}",
            field="min_players",
        )
    formula = normalize_formula(points_formula) if points_formula else {}
    league = League.objects.create(
        name=name,
        slug=slug,
        is_public=is_public,
        house_rules=house_rules_check(house_rules),
        points_formula=formula,
        season_length=season_length,
        min_players=min_players,
    )
    if created_by is not None:
        Membership.objects.create(league=league, user=created_by, role=Role.ADMIN)
        if creator_is_authority:
            Membership.objects.create(league=league, user=created_by, role=Role.AUTHORITY)
    audit_record(
        action="league.create",
        target=league,
        league=league,
        actor=created_by,
        data={
            "name": league.name,
            "slug": league.slug,
            "is_public": league.is_public,
            "house_rules": league.house_rules,
            "points_formula": league.points_formula,
            "season_length": league.season_length,
            "min_players": league.min_players,
            "creator_roles": ["admin", "authority"] if creator_is_authority else ["admin"],
        },
    )
    return league


@transaction.atomic
def player_create(*, league: League, name: str, user=None, by) -> Player:
    require(by, league, Capability.RECORD_HAND, "add players")
    name = (name or "").strip()
    if not name:
        raise DomainError("a player needs a name", field="name")
    if Player.objects.filter(league=league, name__iexact=name).exists():
        raise Conflict(
            f"{name!r} is already a player in {league.name}", code=Code.DUPLICATE, field="name"
        )
    player = Player.objects.create(league=league, name=name, user=user)
    audit_record(
        action="player.create",
        target=player,
        league=league,
        actor=by,
        data={"name": name, "user": user.get_username() if user is not None else None},
    )
    return player


# The one answer for an account that cannot be given a role here: the same whether it does
# not exist or exists but has nothing to do with the league, and naming no one.
NOT_IN_LEAGUE = (
    "no account of this league by that name: a role goes only to a member or to the account "
    "linked to one of its players; invite anyone else (an invite link, which they accept)"
)


NOT_LINKABLE = (
    "no account of this league by that name: a player is linked to the account of a member "
    "(invite them first)"
)


def _require_in_league(league: League, user) -> None:
    """Refuse ``user`` (None: an account that could not be named) unless it is related to
    ``league`` (``league_accounts``): roles are given only with consent, through invites."""
    if user is None or not league_accounts(league).filter(pk=user.pk).exists():
        raise DomainError(NOT_IN_LEAGUE, code=Code.NOT_IN_LEAGUE, field="username")


def _admins_left(league: League, *, without) -> bool:
    return Membership.objects.filter(league=league, role=Role.ADMIN).exclude(user=without).exists()


@transaction.atomic
def role_grant(*, league: League, user, role: str, by) -> Membership:
    """Give ``user`` the role ``role`` in ``league`` (admins only); roles they hold already
    stay (a user may be admin and authority). Granting a role held already changes nothing.

    Only an account already related to the league (holding a role there, or linked to one of
    its players: ``league_accounts``) may be given a role; anyone else, and ``user=None`` (an
    account the caller could not name), is refused alike with ``not_in_league``, naming no one:
    others join by accepting an invite."""
    require(by, league, Capability.MANAGE_MEMBERS, "change roles")
    if role not in Role.values:
        raise DomainError(f"{role!r} is not a role (one of {', '.join(Role.values)})", field="role")
    _require_in_league(league, user)
    League.objects.select_for_update().filter(pk=league.pk).first()  # one role change at a time
    membership, created = Membership.objects.get_or_create(league=league, user=user, role=role)
    if created:
        audit_record(
            action="role.grant",
            target=membership,
            league=league,
            actor=by,
            data={"user": user.get_username(), "role": role},
        )
    return membership


@transaction.atomic
def role_revoke(*, league: League, user, role: str, by) -> None:
    """Take the role ``role`` from ``user`` in ``league`` (admins only). A league keeps at
    least one admin: removing the last admin's admin role is refused."""
    require(by, league, Capability.MANAGE_MEMBERS, "change roles")
    League.objects.select_for_update().filter(pk=league.pk).first()  # one role change at a time
    membership = Membership.objects.filter(league=league, user=user, role=role).first()
    if membership is None:
        raise NotFound(f"{user.get_username()} is not {role} in {league.name}")
    if role == Role.ADMIN and not _admins_left(league, without=user):
        raise Conflict(
            f"{user.get_username()} is the last admin of {league.name}: "
            "make someone else admin first",
            code=Code.LAST_ADMIN,
            field="role",
        )
    membership.delete()
    audit_record(
        action="role.revoke",
        target=league,
        league=league,
        actor=by,
        data={"user": user.get_username(), "role": role},
    )


def roles_set(*, league: League, user, roles, by) -> tuple[str, ...]:
    """Make ``user``'s roles in ``league`` exactly ``roles`` (admins only; one transaction):
    grants the new ones, revokes the others. The last admin keeps the admin role. Only for
    an account related to the league, as ``role_grant`` (``user=None`` is refused alike)."""
    wanted = set(roles)
    unknown = wanted - set(Role.values)
    if unknown:
        raise DomainError(f"{sorted(unknown)!r} are not roles", field="roles")
    with transaction.atomic():
        require(by, league, Capability.MANAGE_MEMBERS, "change roles")
        _require_in_league(league, user)
        held = set(
            Membership.objects.filter(league=league, user=user).values_list("role", flat=True)
        )
        for role in sorted(wanted - held):
            role_grant(league=league, user=user, role=role, by=by)
        # Revoke admin last, so that a refusal leaves every other change undone too.
        for role in sorted(held - wanted, key=lambda r: r == Role.ADMIN):
            role_revoke(league=league, user=user, role=role, by=by)
    return tuple(sorted(wanted))


@transaction.atomic
def player_link(*, league: League, player: Player, username: str | None, by) -> Player:
    """Link ``player`` to the account ``username`` (or unlink with an empty one): the
    scorekeepers and admins keep the roster. An account is at most one player of a league,
    and only an account of the league (``league_accounts``: a member) is linked; anyone else,
    and an unknown name, is refused alike with ``not_in_league``."""
    require(by, league, Capability.RECORD_HAND, "link players to accounts")
    if player.league_id != league.pk:
        raise NotFound("No such player.")
    username = (username or "").strip()
    user = None
    if username:
        # Only an account of the league (a member, or linked to a player already): a link
        # would otherwise make a stranger's account one a role may be given to. Any other
        # name, existing or not, gets the same answer, naming no one.
        user = league_account(league, username=username)
        if user is None:
            raise DomainError(NOT_LINKABLE, code=Code.NOT_IN_LEAGUE, field="username")
        other = Player.objects.filter(league=league, user=user).exclude(pk=player.pk).first()
        if other is not None:
            raise Conflict(
                f"{user.get_username()} is already the player {other.name}",
                code=Code.DUPLICATE,
                field="username",
            )
    previous = player.user.get_username() if player.user_id else None
    player.user = user
    player.save(update_fields=["user"])
    audit_record(
        action="player.link",
        target=player,
        league=league,
        actor=by,
        data={"user": user.get_username() if user else None, "previous_user": previous},
    )
    return player


INVITE_DAYS_MAX = 90


def _new_invite_token() -> str:
    # 32 random bytes (256 bits), 43 URL-safe characters. Only its SHA-256 is stored
    # (token_digest, as for the API tokens): a token this random cannot be guessed nor
    # brute-forced from its digest, so a keyed or slow hash (HMAC, PBKDF2) would add nothing.
    return secrets.token_urlsafe(32)


@transaction.atomic
def invite_create(
    *,
    league: League,
    role: str,
    single_use: bool = True,
    days: int = 7,
    by,
    mail_to: str = "",
    base_url: str = "",
) -> tuple[Invite, str]:
    """A link that gives ``role`` in ``league`` to whoever accepts it within ``days`` days
    (admins only). Single use: the first to accept uses it up. Returns the invite and its
    token: only the token's digest is stored, so this is the one time it can be shown.

    With ``mail_to`` (a username) the link is also mailed, through the outbox, to that
    account's verified address (to ``base_url``'s site); refused when the account has none."""
    require(by, league, Capability.MANAGE_MEMBERS, "invite people")
    if role not in Role.values:
        raise DomainError(f"{role!r} is not a role (one of {', '.join(Role.values)})", field="role")
    if not isinstance(days, int) or not 1 <= days <= INVITE_DAYS_MAX:
        raise DomainError(
            f"an invite lasts from 1 to {INVITE_DAYS_MAX} days",
            field="days",
            code=Code.INVALID_DAYS,
        )
    mail_user = None
    mail_to = (mail_to or "").strip()
    if mail_to:
        # One answer whether no account has that name or it has no verified address, so the
        # form tells nothing of which accounts exist (the roles rule, docs/rulings.md).
        mail_user = sign_in_account(mail_to)
        if mail_user is None or verified_email_of(mail_user) is None:
            raise DomainError(
                f"cannot mail an invite to {mail_to!r}: no account of that name with a "
                "verified e-mail address; send them the link yourself",
                field="mail_to",
                code=Code.NO_VERIFIED_ADDRESS,
            )
    token = _new_invite_token()
    invite = Invite.objects.create(
        league=league,
        role=role,
        digest=token_digest(token),
        single_use=single_use,
        expires_at=timezone.now() + timedelta(days=days),
        created_by=by,
    )
    audit_record(
        action="invite.create",
        target=invite,
        league=league,
        actor=by,
        data={
            "role": role,
            "single_use": single_use,
            "expires_at": invite.expires_at,
            "fingerprint": invite.fingerprint,
            "mailed_to": mail_to or None,
        },
    )
    if mail_user is not None:
        outbox_enqueue(
            kind=MailKind.LEAGUE_INVITE,
            user=mail_user,
            subject_key=f"invite:{invite.pk}",
            template="league_invite",
            context={
                "league": league,
                "role": invite.get_role_display().lower(),
                "by": by.get_username(),
                "expires": invite.expires_at,
                "link": base_url.rstrip("/") + invite_path(token),
            },
            base_url=base_url,
        )
    return invite, token


@transaction.atomic
def invite_revoke(*, invite: Invite, by) -> Invite:
    """Stop an invite from working (admins only)."""
    require(by, invite.league, Capability.MANAGE_MEMBERS, "revoke invites")
    invite = Invite.objects.select_for_update().get(pk=invite.pk)
    if not invite.revoked:
        invite.revoked = True
        invite.save(update_fields=["revoked"])
        audit_record(
            action="invite.revoke",
            target=invite,
            league=invite.league,
            actor=by,
            data={"role": invite.role, "uses": invite.uses},
        )
    return invite


@transaction.atomic
def invite_accept(*, token: str, user) -> Membership:
    """``user`` accepts the invite ``token``: they get its role in its league (their other
    roles stay). Refused once the invite is used up (single use), expired or revoked."""
    if user is None or not user.is_authenticated:
        raise PermissionDenied("Log in or sign up to accept an invite.")
    invite = (
        Invite.objects.select_for_update()
        .select_related("league")
        .filter(digest=token_digest(token or ""))
        .first()
    )
    if invite is None:
        raise NotFound("No such invite.")
    state = invite.state()
    if state != "open":
        words = {"used": "was used already", "expired": "has expired", "revoked": "was revoked"}
        raise Conflict(f"This invite {words[state]}.", code=f"invite_{state}")
    membership, created = Membership.objects.get_or_create(
        league=invite.league, user=user, role=invite.role
    )
    invite.uses += 1
    invite.save(update_fields=["uses"])
    audit_record(
        action="invite.accept",
        target=invite,
        league=invite.league,
        actor=user,
        data={"user": user.get_username(), "role": invite.role, "new_role": created},
    )
    return membership


# --------------------------------------------------------------------------
# The league's calendar: its time zone and its feed links (docs/nights.md, "Calendars")


def time_zone_check(name: object) -> str:
    """``name`` if it is an IANA time zone name zoneinfo knows (``Europe/Paris``, ``UTC``),
    else a DomainError naming the field."""
    if not isinstance(name, str) or not name.strip():
        raise DomainError("choose a time zone", field="time_zone", code=Code.INVALID_TIME_ZONE)
    name = name.strip()
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise DomainError(
            f"{name[:64]!r} is not a time zone (an IANA name such as Europe/Paris)",
            field="time_zone",
            code=Code.INVALID_TIME_ZONE,
        ) from None
    if name not in available_timezones() and name != "UTC":
        raise DomainError(
            f"{name[:64]!r} is not a time zone (an IANA name such as Europe/Paris)",
            field="time_zone",
            code=Code.INVALID_TIME_ZONE,
        )
    return name


@transaction.atomic
def league_time_zone_set(*, league: League, time_zone: str, by) -> League:
    """Where the league plays (admins): its calendar's times are in this zone."""
    require(by, league, Capability.CALENDAR, "set the league's time zone")
    name = time_zone_check(time_zone)
    if name != league.time_zone:
        before = league.time_zone
        league.time_zone = name
        league.save(update_fields=["time_zone"])
        audit_record(
            action="league.time_zone",
            target=league,
            league=league,
            actor=by,
            data={"from": before, "to": name},
        )
    return league


@transaction.atomic
def calendar_feed_create(*, league: League, by) -> tuple[CalendarFeed, str]:
    """A secret address of the league's calendar feed (admins). Returns the feed and its
    token: only the token's digest is stored, so this is the one time it can be shown."""
    require(by, league, Capability.CALENDAR, "make a calendar link")
    token = secrets.token_urlsafe(32)
    feed = CalendarFeed.objects.create(league=league, digest=token_digest(token), created_by=by)
    audit_record(
        action="calendar_feed.create",
        target=feed,
        league=league,
        actor=by,
        data={"fingerprint": feed.fingerprint},
    )
    return feed, token


@transaction.atomic
def calendar_feed_revoke(*, feed: CalendarFeed, by) -> CalendarFeed:
    """Stop a calendar feed link from working (admins): it answers 404 from now on."""
    require(by, feed.league, Capability.CALENDAR, "revoke a calendar link")
    feed = CalendarFeed.objects.select_for_update().select_related("league").get(pk=feed.pk)
    if feed.revoked_at is None:
        feed.revoked_at = timezone.now()
        feed.save(update_fields=["revoked_at"])
        audit_record(
            action="calendar_feed.revoke",
            target=feed,
            league=feed.league,
            actor=by,
            data={"fingerprint": feed.fingerprint},
        )
    return feed
