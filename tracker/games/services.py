"""Writes of a league's house games: create (from a preset or from scratch), change (a new
version of the definition) and archive. Each needs the ``games_manage`` capability; an
invalid definition is refused with a DomainError naming the part at fault
(``definition.pot.low``, ``definition.wild[0].rank``) and nothing is stored."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import slugify

from tracker.audit.services import audit_record
from tracker.core.digest import canonical_json, sha256_hex
from tracker.core.errors import Conflict
from tracker.core.permissions import Capability, require
from tracker.engine.errors import Code, DomainError
from tracker.engine.games import GameDefinitionError, dump_game, load_game
from tracker.games.models import LeagueGame, LeagueGameVersion
from tracker.games.selectors import HOUSE_PRESETS, game_latest
from tracker.leagues.models import League

NAME_MAX = 120
SLUG_MAX = 50


def definition_digest(definition: dict) -> str:
    """The SHA-256 of a stored definition's canonical JSON (tracker/core/digest.py)."""
    return sha256_hex(canonical_json(definition))


def _at(path: str) -> str:
    return "definition" if path in ("", "definition") else f"definition.{path}"


def definition_checked(raw: Any, *, slug: str, title: str) -> dict:
    """``raw`` as a stored definition: loaded (every omitted field defaulted), its ``name``
    the game's slug and its ``title`` the game's name, dumped again. A DomainError names
    the part at fault under ``definition``."""
    if not isinstance(raw, dict):
        raise DomainError("a game definition is an object", field="definition")
    try:
        game = load_game({**raw, "name": slug, "title": title})
    except GameDefinitionError as exc:
        fields = {_at(path): msgs for path, msgs in exc.fields.items()} or {
            "definition": [exc.message]
        }
        raise GameDefinitionError(exc.message, code=exc.code, fields=fields) from None
    return dump_game(game)


def _name_checked(league: League, name: Any, *, game: LeagueGame | None = None) -> str:
    if not isinstance(name, str) or not name.strip():
        raise DomainError("a game needs a name", code=Code.REQUIRED, field="name")
    name = " ".join(name.split())
    if len(name) > NAME_MAX:
        raise DomainError(f"at most {NAME_MAX} characters", field="name")
    others = LeagueGame.objects.filter(league=league, name__iexact=name, archived_at__isnull=True)
    if game is not None:
        others = others.exclude(pk=game.pk)
    if others.exists():
        raise Conflict(f"the league already has a game called {name!r}", field="name")
    return name


def _free_slug(league: League, name: str) -> str:
    base = slugify(name)[:SLUG_MAX].strip("-") or "game"
    taken = set(
        LeagueGame.objects.filter(league=league, slug__startswith=base).values_list(
            "slug", flat=True
        )
    )
    slug, n = base, 2
    while slug in taken:
        slug = f"{base[: SLUG_MAX - len(str(n)) - 1]}-{n}"
        n += 1
    return slug


def _version_add(game: LeagueGame, definition: dict, *, by, number: int) -> LeagueGameVersion:
    return LeagueGameVersion.objects.create(
        game=game,
        number=number,
        definition=definition,
        digest=definition_digest(definition),
        created_by=by if getattr(by, "is_authenticated", False) else None,
    )


@transaction.atomic
def league_game_create(
    *,
    league: League,
    by,
    name: str,
    preset: str | None = None,
    definition: dict | None = None,
) -> LeagueGame:
    """A new house game of ``league`` and its version 1: the ``definition`` given (from
    scratch, or a preset with its house choices changed when ``preset`` names it too), else
    the ``preset``'s definition as it is."""
    require(by, league, Capability.GAMES_MANAGE, "manage the league's games")
    if preset is not None and preset not in HOUSE_PRESETS:
        raise DomainError(
            f"{preset!r} is not a preset ({', '.join(HOUSE_PRESETS)})",
            code=Code.INVALID_CHOICE,
            field="preset",
        )
    if definition is None:
        if preset is None:
            raise DomainError(
                "a preset to start from or a definition", code=Code.REQUIRED, field="definition"
            )
        definition = dump_game(HOUSE_PRESETS[preset])
    name = _name_checked(league, name)
    slug = _free_slug(league, name)
    stored = definition_checked(definition, slug=slug, title=name)
    game = LeagueGame.objects.create(
        league=league,
        name=name,
        slug=slug,
        preset=preset or "",
        created_by=by if getattr(by, "is_authenticated", False) else None,
    )
    version = _version_add(game, stored, by=by, number=1)
    audit_record(
        action="game.create",
        target=game,
        league=league,
        actor=by,
        data={"slug": slug, "name": name, "preset": preset, "digest": version.digest},
    )
    return game


@transaction.atomic
def league_game_update(
    *, game: LeagueGame, by, definition: dict | None = None, name: str | None = None
) -> LeagueGameVersion:
    """A new version of ``game``'s definition (and its name, if given); the versions before
    stay as they were. Nothing changed: the current version, no new one."""
    league = game.league
    require(by, league, Capability.GAMES_MANAGE, "manage the league's games")
    game = LeagueGame.objects.select_for_update().get(pk=game.pk)
    if game.archived:
        raise Conflict("the game is archived; it can no longer change", field="game")
    latest = game_latest(game)
    new_name = game.name if name is None else _name_checked(league, name, game=game)
    raw = latest.definition if definition is None else definition
    stored = definition_checked(raw, slug=game.slug, title=new_name)
    if definition_digest(stored) == latest.digest:
        return latest
    if new_name != game.name:
        LeagueGame.objects.filter(pk=game.pk).update(name=new_name)
        game.name = new_name
    version = _version_add(game, stored, by=by, number=latest.number + 1)
    audit_record(
        action="game.update",
        target=game,
        league=league,
        actor=by,
        data={"slug": game.slug, "version": version.number, "digest": version.digest},
    )
    return version


@transaction.atomic
def league_game_archive(*, game: LeagueGame, by) -> LeagueGame:
    """Archive ``game``: no longer offered or changed; its versions (and the hands dealt
    under them) stay. Archiving an archived game changes nothing."""
    require(by, game.league, Capability.GAMES_MANAGE, "manage the league's games")
    game = LeagueGame.objects.select_for_update().get(pk=game.pk)
    if game.archived:
        return game
    game.archived_at = timezone.now()
    game.save(update_fields=["archived_at"])
    audit_record(
        action="game.archive", target=game, league=game.league, actor=by, data={"slug": game.slug}
    )
    return game
