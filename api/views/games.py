"""A league's house games over REST: list and create, read, change (a new version),
archive, and a preview dealing sample hands under a definition."""

from __future__ import annotations

import random

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.games import (
    GamePreviewRequestSerializer,
    GamePreviewSerializer,
    LeagueGameCreateSerializer,
    LeagueGameDetailSerializer,
    LeagueGameSerializer,
    LeagueGameUpdateSerializer,
)
from api.views.core import WriteThrottled, authorize_first, visible_league
from tracker.core.permissions import Capability
from tracker.engine.games import load_game
from tracker.games.selectors import (
    MAX_SEED,
    game_latest,
    game_preview,
    game_versions,
    league_game,
    league_games,
)
from tracker.games.services import (
    definition_checked,
    definition_digest,
    league_game_archive,
    league_game_create,
    league_game_update,
)

ACTION = "manage the league's games"


def game_data(game, version, *, versions=None) -> dict:
    data = {
        "slug": game.slug,
        "name": game.name,
        "preset": game.preset or None,
        "archived": game.archived,
        "loggable_live": not game.archived,
        "version": version.number,
        "digest": version.digest,
        "definition": version.definition,
    }
    if versions is not None:
        data["versions"] = [
            {
                "number": v.number,
                "digest": v.digest,
                "created_by": v.created_by.get_username() if v.created_by else None,
                "created_at": v.created_at,
            }
            for v in versions
        ]
    return data


def _detail(game) -> dict:
    versions = game_versions(game)
    return game_data(game, versions[0], versions=versions)


ARCHIVED = OpenApiParameter("archived", bool, description="include archived games")


class LeagueGamesView(WriteThrottled, APIView):
    """The league's house games (GET: its viewers; archived ones with ``?archived=true``).
    POST (its admins) makes one from a preset (``preset``, its house choices changed in
    ``definition`` if given) or from scratch (``definition``): version 1."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = LeagueGameSerializer

    @extend_schema(parameters=[ARCHIVED], responses=LeagueGameSerializer(many=True))
    def get(self, request, slug):
        league = visible_league(request.user, slug)
        archived = request.query_params.get("archived") in ("true", "1")
        rows = league_games(league, archived=archived)
        return Response([game_data(r.game, r.version) for r in rows])

    @extend_schema(
        operation_id="league_games_create",
        request=LeagueGameCreateSerializer,
        responses={201: LeagueGameDetailSerializer},
    )
    def post(self, request, slug):
        league = visible_league(request.user, slug)
        authorize_first(request, league, Capability.GAMES_MANAGE, ACTION)
        body = LeagueGameCreateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        game = league_game_create(league=league, by=request.user, **body.validated_data)
        return Response(_detail(game), status=status.HTTP_201_CREATED)


class LeagueGameView(WriteThrottled, APIView):
    """One house game with every version (GET); PUT (its admins) changes its name or
    definition: a new version, the old ones kept (the same definition again: none)."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = LeagueGameDetailSerializer

    @extend_schema(responses=LeagueGameDetailSerializer)
    def get(self, request, slug, game):
        return Response(_detail(league_game(visible_league(request.user, slug), game)))

    @extend_schema(request=LeagueGameUpdateSerializer, responses=LeagueGameDetailSerializer)
    def put(self, request, slug, game):
        league = visible_league(request.user, slug)
        authorize_first(request, league, Capability.GAMES_MANAGE, ACTION)
        row = league_game(league, game)
        body = LeagueGameUpdateSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        league_game_update(game=row, by=request.user, **body.validated_data)
        return Response(_detail(league_game(league, game)))


class LeagueGameArchiveView(WriteThrottled, APIView):
    """Archive a house game (its admins): no longer offered nor changed; its versions stay."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = LeagueGameDetailSerializer

    @extend_schema(request=None, responses=LeagueGameDetailSerializer)
    def post(self, request, slug, game):
        league = visible_league(request.user, slug)
        authorize_first(request, league, Capability.GAMES_MANAGE, ACTION)
        row = league_game_archive(game=league_game(league, game), by=request.user)
        return Response(_detail(row))


class LeagueGamePreviewView(APIView):
    """Sample hands dealt under the game's current version, or under the ``definition``
    posted (checked as a change would be; nothing stored), with every hand valued and
    explained. Anyone who can see the league may ask."""

    permission_classes = [AllowAny]
    serializer_class = GamePreviewSerializer

    @extend_schema(request=GamePreviewRequestSerializer, responses=GamePreviewSerializer)
    def post(self, request, slug, game):
        row = league_game(visible_league(request.user, slug), game)
        body = GamePreviewRequestSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        if "definition" in data:
            stored = definition_checked(data["definition"], slug=row.slug, title=row.name)
        else:
            stored = game_latest(row).definition
        seed = data.get("seed", random.randint(0, MAX_SEED))
        hands = game_preview(load_game(stored), seed=seed)
        return Response({"seed": seed, "digest": definition_digest(stored), "hands": hands})
