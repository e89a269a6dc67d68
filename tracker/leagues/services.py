"""Leagues, players and memberships."""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.text import slugify

from tracker.audit.services import audit_record
from tracker.core.errors import Conflict
from tracker.core.permissions import Capability, require
from tracker.engine.announcements import VARIANTS, normalize_announcements
from tracker.engine.errors import DomainError
from tracker.leagues.models import League, Membership, Player, Role


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
                code="invalid_variant",
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
    created_by,
) -> League:
    """Create a league; its creator becomes its admin."""
    name = (name or "").strip()
    if not name:
        raise DomainError("a league needs a name", field="name")
    slug = slugify(slug or name)[:60]
    if not slug:
        raise DomainError("the name gives no usable slug; give one", field="slug")
    if League.objects.filter(slug=slug).exists():
        raise Conflict(f"a league with slug {slug!r} exists", code="duplicate", field="slug")
    league = League.objects.create(
        name=name, slug=slug, is_public=is_public, house_rules=house_rules_check(house_rules)
    )
    if created_by is not None:
        Membership.objects.create(league=league, user=created_by, role=Role.ADMIN)
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
            f"{name!r} is already a player in {league.name}", code="duplicate", field="name"
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


@transaction.atomic
def membership_set(*, league: League, user, role: str, by) -> Membership:
    """Give ``user`` a role in ``league`` (admins only). A league keeps at least one admin."""
    require(by, league, Capability.MANAGE_MEMBERS, "change memberships")
    if role not in Role.values:
        raise DomainError(f"{role!r} is not a role (one of {', '.join(Role.values)})", field="role")
    membership = Membership.objects.select_for_update().filter(league=league, user=user).first()
    if membership and membership.role == Role.ADMIN and role != Role.ADMIN:
        if (
            not Membership.objects.filter(league=league, role=Role.ADMIN)
            .exclude(pk=membership.pk)
            .exists()
        ):
            raise Conflict("a league must keep at least one admin", field="role")
    previous = membership.role if membership else None
    try:
        membership, _ = Membership.objects.update_or_create(
            league=league, user=user, defaults={"role": role}
        )
    except IntegrityError:  # pragma: no cover - concurrent create of the same membership
        raise Conflict("that membership changed at the same time; try again") from None
    audit_record(
        action="membership.set",
        target=membership,
        league=league,
        actor=by,
        data={"user": user.get_username(), "role": role, "previous_role": previous},
    )
    return membership
