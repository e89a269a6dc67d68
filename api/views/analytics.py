"""Statistics over REST: league standings with points, player statistics, hands with
all-in luck, and the league's points formula. Every read answers JSON, or CSV with
``?format=csv``. Private leagues answer 404 to outsiders."""

from __future__ import annotations

from django.urls import path
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.analytics import (
    PlayerHandLuckSerializer,
    PlayerStatsSerializer,
    PointsFormulaSerializer,
    PointsStandingSerializer,
    TournamentHandRowSerializer,
)
from api.views.core import WriteThrottled
from tracker.core.permissions import Capability, capabilities, require
from tracker.engine.points import describe, normalize_formula
from tracker.leagues.selectors.seasons import league_season
from tracker.leagues.selectors.table import league_standings
from tracker.leagues.selectors.visibility import visible_league, visible_player, visible_tournament
from tracker.stats import selectors as sel
from tracker.stats.services import league_points_formula_set
from web.presenters import stats as pages


class CSVRenderer(BaseRenderer):
    """A list of flat objects (or one object) as CSV; nested objects become
    ``parent.key`` columns."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None:
            return b""
        rows = data if isinstance(data, list) else [data]
        flat = []
        for row in rows:
            out = {}
            for key, value in row.items():
                if isinstance(value, dict):
                    for k, v in value.items():
                        out[f"{key}.{k}"] = v
                else:
                    out[key] = value
            flat.append(out)
        columns: list[str] = []
        for row in flat:
            for key in row:
                if key not in columns:
                    columns.append(key)
        return pages.csv_text(flat, columns).encode(self.charset)


RENDERERS = [JSONRenderer, CSVRenderer, BrowsableAPIRenderer]
VARIANT = OpenApiParameter("variant", str, description="only hands of this game")
TOURNAMENT = OpenApiParameter("tournament", int, description="only this tournament")
FORMAT = OpenApiParameter("format", str, enum=["json", "csv"], description="csv: a CSV file")
SEASON = OpenApiParameter(
    "season",
    str,
    description="the season's key (2026, 2026-Q4, 2026-11) or 'all'; default: the current one",
)


def _stats_data(stats: sel.Stats, **lead) -> dict:
    return {**lead, **stats.as_row()}


class AnalyticsView(APIView):
    renderer_classes = RENDERERS
    permission_classes = [IsAuthenticatedOrReadOnly]


class LeagueStandingsView(AnalyticsView):
    """The league table of a season (the current one by default): points by the league's
    formula, events, wins, average place, net chips, over its finished tournaments that
    count."""

    @extend_schema(
        parameters=[SEASON, FORMAT], responses={200: PointsStandingSerializer(many=True)}
    )
    def get(self, request, slug):
        league = visible_league(request.user, slug)
        season = league_season(league, request.query_params.get("season"))
        standings = league_standings(league, season=season)
        money = pages.visible_money_table(capabilities(request.user, league), league, season)
        found = money.rows if money is not None else {}
        rows = [
            {"place": k + 1, **r.__dict__, "money": found.get(r.player_id)}
            for k, r in enumerate(standings)
        ]
        return Response(PointsStandingSerializer(rows, many=True).data)


class LeagueStatsView(AnalyticsView):
    """Every player of the league side by side (optionally one game), over a season: the
    current one by default, as the standings."""

    @extend_schema(
        parameters=[VARIANT, SEASON, FORMAT], responses={200: PlayerStatsSerializer(many=True)}
    )
    def get(self, request, slug):
        league = visible_league(request.user, slug)
        page = pages.league_stats_of(
            league,
            variant=request.query_params.get("variant"),
            season=league_season(league, request.query_params.get("season")),
        )
        return Response([_stats_data(s, player=s.key, name=s.label) for s in page.rows])


class LeaguePointsFormulaView(WriteThrottled, AnalyticsView):
    """How the league's tournaments score. A league admin or authority sets it (PUT)."""

    renderer_classes = [JSONRenderer, BrowsableAPIRenderer]

    def _data(self, league) -> dict:
        spec = normalize_formula(league.points_formula or None)
        return {**spec, "description": describe(spec)}

    @extend_schema(responses={200: PointsFormulaSerializer})
    def get(self, request, slug):
        return Response(self._data(visible_league(request.user, slug)))

    @extend_schema(request=PointsFormulaSerializer, responses={200: PointsFormulaSerializer})
    def put(self, request, slug):
        league = visible_league(request.user, slug)
        # Authorize before validating: a member gets 403 whatever the body.
        require(request.user, league, Capability.SET_POINTS, "choose the points formula")
        body = PointsFormulaSerializer(data=request.data)
        body.is_valid(raise_exception=True)
        spec = {k: v for k, v in body.validated_data.items() if v is not None}
        league = league_points_formula_set(league=league, formula=spec, by=request.user)
        return Response(self._data(league))


class TournamentStatsView(AnalyticsView):
    """Every player of one tournament side by side."""

    @extend_schema(parameters=[FORMAT], responses={200: PlayerStatsSerializer(many=True)})
    def get(self, request, pk):
        tournament = visible_tournament(request.user, pk)
        rows = sel.tally_table(sel.tournament_tallies(tournament=tournament))
        return Response([_stats_data(s, player=s.key, name=s.label) for s in rows])


class TournamentHandsView(AnalyticsView):
    """One row per player per settled hand: chips, showdown, all-in equity and luck."""

    @extend_schema(parameters=[FORMAT], responses={200: TournamentHandRowSerializer(many=True)})
    def get(self, request, pk):
        tournament = visible_tournament(request.user, pk)
        return Response(sel.tournament_hand_rows(tournament))


class PlayerStatsView(AnalyticsView):
    """One player's statistics: all time, one tournament or one game."""

    @extend_schema(parameters=[TOURNAMENT, VARIANT, FORMAT], responses={200: PlayerStatsSerializer})
    def get(self, request, pk):
        player = visible_player(request.user, pk)
        scope = sel.player_scope(
            request.user,
            player,
            tournament=request.query_params.get("tournament"),
            variant=request.query_params.get("variant"),
        )
        stats = sel.tally_stats(sel.scope_tallies(scope))
        return Response(_stats_data(stats, player=player.pk, name=player.name, scope=scope.title))


class PlayerHandsView(AnalyticsView):
    """The player's settled hands in playing order, with the all-in equity and luck
    (``all_in=1``: only the all-in hands)."""

    @extend_schema(
        parameters=[
            TOURNAMENT,
            VARIANT,
            OpenApiParameter("all_in", bool, description="only hands with an all-in"),
            FORMAT,
        ],
        responses={200: PlayerHandLuckSerializer(many=True)},
    )
    def get(self, request, pk):
        player = visible_player(request.user, pk)
        scope = sel.player_scope(
            request.user,
            player,
            tournament=request.query_params.get("tournament"),
            variant=request.query_params.get("variant"),
        )
        hands = sel.player_hands(scope)
        if request.query_params.get("all_in") in ("1", "true", "yes"):
            hands = [h for h in hands if h.allin]
        return Response(sel.player_hand_rows(hands))


# Included under /api/v1/analytics/ by api/urls.py.
routes = [
    path(
        "leagues/<slug:slug>/standings/",
        LeagueStandingsView.as_view(),
        name="analytics-league-standings",
    ),
    path("leagues/<slug:slug>/stats/", LeagueStatsView.as_view(), name="analytics-league-stats"),
    path(
        "leagues/<slug:slug>/points-formula/",
        LeaguePointsFormulaView.as_view(),
        name="analytics-points-formula",
    ),
    path(
        "tournaments/<int:pk>/stats/",
        TournamentStatsView.as_view(),
        name="analytics-tournament-stats",
    ),
    path(
        "tournaments/<int:pk>/hands/",
        TournamentHandsView.as_view(),
        name="analytics-tournament-hands",
    ),
    path("players/<int:pk>/stats/", PlayerStatsView.as_view(), name="analytics-player-stats"),
    path("players/<int:pk>/hands/", PlayerHandsView.as_view(), name="analytics-player-hands"),
]
