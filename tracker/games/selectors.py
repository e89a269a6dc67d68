"""Reads about a league's house games: the list, one game, its versions, a preview."""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

from django.db.models import Prefetch

from tracker.core.digest import canonical_json
from tracker.core.errors import NotFound
from tracker.engine.errors import Code, DomainError
from tracker.engine.game_presets import PRESETS
from tracker.engine.game_preview import preview_hands
from tracker.engine.games import GameDefinition, load_game
from tracker.games.models import LeagueGame, LeagueGameVersion
from tracker.leagues.models import League

# The presets a league may start a game from: the house games of docs/games/ (today's four
# games are played as variants, with their announcements).
TODAYS_GAMES = ("seven_card_stud", "kings_and_little_ones", "low_hole", "low_hold")
HOUSE_PRESETS: dict[str, GameDefinition] = {
    name: game for name, game in PRESETS.items() if name not in TODAYS_GAMES
}


@dataclass(frozen=True)
class GameRow:
    """One game of the league's list, with its latest version."""

    game: LeagueGame
    version: LeagueGameVersion

    @property
    def definition(self) -> GameDefinition:
        return self.version.game_definition


def _with_versions(rows):
    return rows.prefetch_related(
        Prefetch("versions", queryset=LeagueGameVersion.objects.order_by("-number"))
    )


def league_games(league: League, *, archived: bool = False) -> list[GameRow]:
    """The league's games by name, each with its latest version (archived ones only if
    asked: then all of them)."""
    rows = LeagueGame.objects.filter(league=league)
    if not archived:
        rows = rows.filter(archived_at__isnull=True)
    out = []
    for game in _with_versions(rows.order_by("name", "id")):
        versions = list(game.versions.all())
        if versions:
            out.append(GameRow(game, versions[0]))
    return out


def league_game(league: League, slug: str) -> LeagueGame:
    """The league's game at ``slug`` (archived ones too), else NotFound."""
    game = LeagueGame.objects.filter(league=league, slug=slug).first()
    if game is None:
        raise NotFound("No such game in this league.", field="game")
    return game


def game_latest(game: LeagueGame) -> LeagueGameVersion:
    """The game's current version (the highest number)."""
    return LeagueGameVersion.objects.filter(game=game).order_by("-number").first()


def game_versions(game: LeagueGame) -> list[LeagueGameVersion]:
    """Every version of the game, the newest first."""
    return list(
        LeagueGameVersion.objects.filter(game=game).select_related("created_by").order_by("-number")
    )


@lru_cache(maxsize=256)
def _loaded(text: str) -> GameDefinition:
    return load_game(json.loads(text))


def version_definition(version: LeagueGameVersion) -> GameDefinition:
    """The definition of a game version, loaded once per process for each definition (a
    version never changes): a hand's evaluation reads its game through it."""
    return _loaded(canonical_json(version.definition))


def game_version(game: LeagueGame, number: int) -> LeagueGameVersion:
    version = LeagueGameVersion.objects.filter(game=game, number=number).first()
    if version is None:
        raise NotFound(f"No version {number} of this game.", field="version")
    return version


#: How many sample hands a preview deals, and the seeds it takes.
PREVIEW_HANDS = 3
MAX_SEED = 2**31 - 1


def game_preview(definition: GameDefinition, *, seed: int, hands: int = PREVIEW_HANDS) -> list:
    """Sample hands dealt under ``definition`` (tracker/engine/game_preview.py), seeded."""
    return preview_hands(definition, seed=seed, hands=hands)


def league_game_version(league: League, slug: str, number: int | None = None) -> LeagueGameVersion:
    """The version a hand of the league's game ``slug`` is dealt under: ``number``, or the
    latest. A DomainError naming ``game`` (or ``game_version``) for a game the league does
    not have, an archived one, or a version it does not have."""
    game = LeagueGame.objects.filter(league=league, slug=slug).first()
    if game is None:
        raise DomainError(
            f"{league.name} has no game {slug!r}", code=Code.UNKNOWN_GAME, field="game"
        )
    if game.archived:
        raise DomainError(
            f"{game.name} is archived: it is no longer dealt", code=Code.UNKNOWN_GAME, field="game"
        )
    versions = LeagueGameVersion.objects.filter(game=game).select_related("game")
    version = (
        versions.order_by("-number").first()
        if number is None
        else versions.filter(number=number).first()
    )
    if version is None:
        raise DomainError(
            f"{game.name} has no version {number}", code=Code.UNKNOWN_GAME, field="game_version"
        )
    return version


def league_version_by_digest(league: League, digest: str) -> LeagueGameVersion | None:
    """The league's game version (of a game not archived) whose definition has ``digest``:
    the latest such, or None."""
    return (
        LeagueGameVersion.objects.filter(
            game__league=league, game__archived_at__isnull=True, digest=digest
        )
        .select_related("game")
        .order_by("-number", "-pk")
        .first()
    )
