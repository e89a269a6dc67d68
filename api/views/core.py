"""Leagues, players, memberships and tournaments over REST. Thin: services and selectors do the work."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from api.serializers.core import (
    InviteAcceptSerializer,
    InviteCreatedSerializer,
    InviteCreateSerializer,
    InviteSerializer,
    LeagueCreateSerializer,
    LeagueSerializer,
    LeagueStandingSerializer,
    MembershipSerializer,
    MembershipSetSerializer,
    PlayerCreateSerializer,
    PlayerLinkSerializer,
    PlayerSerializer,
    TournamentCreateSerializer,
    TournamentLiveSerializer,
    TournamentSerializer,
)
from api.serializers.money import PlayerMoneyNightsSerializer
from api.throttles import WriteThrottle
from tracker.core.permissions import Capability, can_view, capabilities, require
from tracker.hands.models import Hand
from tracker.leagues.models import Invite, League, Membership
from tracker.leagues.selectors.people import invites_managed_by, league_account
from tracker.leagues.selectors.seasons import league_season
from tracker.leagues.selectors.table import league_standings
from tracker.leagues.selectors.visibility import (
    leagues_visible_to,
    players_visible_to,
    tournament_with_roles,
    tournaments_visible_to,
    visible_league,
)
from tracker.leagues.services import (
    invite_accept,
    invite_create,
    invite_revoke,
    league_create,
    player_create,
    player_link,
    role_grant,
    role_revoke,
)
from tracker.money.services import night_create
from tracker.money.standings import player_money
from tracker.tournaments.models import Tournament
from tracker.tournaments.selectors import tournament_live
from tracker.tournaments.services import TournamentSettings
from web.presenters.stats import visible_money_table

# Authorize before validating: a caller without the right to a write learns that (403)
# before anything about their body (400). Writes whose league is named in the body look it
# up from the raw body first; the service checks again when it acts.


def _peek(request, name: str):
    data = request.data
    return data.get(name) if hasattr(data, "get") else None


def _as_id(value) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.isascii() and value.isdigit() and len(value) < 19:
        return int(value)
    return None


def body_league(request, field: str = "league") -> League | None:
    """The visible league the raw body names by slug, if any."""
    slug = _peek(request, field)
    if not isinstance(slug, str):
        return None
    return leagues_visible_to(request.user).filter(slug=slug).first()


def body_tournament(request, field: str = "tournament") -> Tournament | None:
    """The visible tournament the raw body names by id (its league read with it), if any."""
    pk = _as_id(_peek(request, field))
    if pk is None:
        return None
    return tournaments_visible_to(request.user).select_related("league").filter(pk=pk).first()


def body_tournament_by_roles(request, field: str = "tournament") -> Tournament | None:
    """:func:`body_tournament`, read by id alone (with its league) and then checked: a public
    league, or one where the user holds a role. The roles are read in the same statement and,
    inside ``roles_remembered()``, kept for the checks the write makes next."""
    pk = _as_id(_peek(request, field))
    if pk is None:
        return None
    found = tournament_with_roles(request.user, pk)  # and the user's roles, remembered
    return found if found is not None and can_view(request.user, found.league) else None


def body_hand_league(request, field: str = "hand") -> League | None:
    """The league of the visible hand the raw body names by id, if any."""
    pk = _as_id(_peek(request, field))
    if pk is None:
        return None
    hand = (
        Hand.objects.filter(pk=pk, tournament__league__in=leagues_visible_to(request.user))
        .select_related("tournament__league")
        .first()
    )
    return hand.tournament.league if hand else None


def authorize_first(request, league: League | None, capability: Capability, action: str):
    """Refuse (403, or 404 for a private league) before the body is validated."""
    if league is not None:
        require(request.user, league, capability, action)


SEASON = OpenApiParameter(
    "season",
    str,
    description="the season's key in the league's season length (2026, 2026-Q4, 2026-11), "
    "or 'all' for all time; default: the current season",
)


class WriteThrottled:
    def get_throttles(self):
        if self.request.method in ("GET", "HEAD", "OPTIONS"):
            return []
        return [WriteThrottle()]


class LeagueViewSet(
    WriteThrottled,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Public leagues, and the private leagues you are a member of."""

    serializer_class = LeagueSerializer
    permission_classes = [IsAuthenticatedOrReadOnly]
    lookup_field = "slug"

    def get_queryset(self):
        return leagues_visible_to(self.request.user).order_by("name")

    @extend_schema(parameters=[SEASON], responses={200: LeagueStandingSerializer(many=True)})
    @action(detail=True, methods=["get"], pagination_class=None)  # a plain list, as documented
    def standings(self, request, slug=None):
        """The league table of a season (the current one by default) over its finished
        tournaments that count (switched on, with at least the league's minimum of players)."""
        league = self.get_object()
        season = league_season(league, request.query_params.get("season"))
        rows = league_standings(league, season=season)
        money = visible_money_table(capabilities(request.user, league), league, season)
        found = money.rows if money is not None else {}
        data = [{**r.__dict__, "money": found.get(r.player_id)} for r in rows]
        return Response(LeagueStandingSerializer(data, many=True).data)

    @extend_schema(request=LeagueCreateSerializer, responses={201: LeagueSerializer})
    def create(self, request, *args, **kwargs):
        """Start a league: the caller becomes its admin, and its authority too with
        ``creator_is_authority: true`` (as the box on the new-league page)."""
        data = LeagueCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        league = league_create(**data.validated_data, created_by=request.user)
        return Response(LeagueSerializer(league).data, status=status.HTTP_201_CREATED)


class PlayerViewSet(
    WriteThrottled,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """The players of the leagues you can see, with the account each is linked to (if any).
    Scorekeepers and admins add players (POST) and link them to accounts (``link``)."""

    serializer_class = PlayerSerializer
    filterset_fields = {"league__slug": ["exact"], "name": ["exact", "icontains"]}
    lookup_value_regex = r"\d+"

    def get_queryset(self):
        return (
            players_visible_to(self.request.user)
            .select_related("league", "user")
            .order_by("name", "id")
        )

    @extend_schema(request=PlayerCreateSerializer, responses={201: PlayerSerializer})
    def create(self, request, *args, **kwargs):
        authorize_first(request, body_league(request), Capability.RECORD_HAND, "add players")
        data = PlayerCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        league = visible_league(request.user, data.validated_data["league"])
        player = player_create(league=league, name=data.validated_data["name"], by=request.user)
        return Response(PlayerSerializer(player).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={200: PlayerMoneyNightsSerializer})
    @action(detail=True, methods=["get"], filterset_fields=None)
    def money(self, request, pk=None):
        """The player's money night by night and in total: every finished night with money
        of their league that they played (friendly nights too), in playing order, in the
        league's currency. The league's members only (403 for anyone else; a private
        league's players are a 404 to outsiders)."""
        player = self.get_object()
        require(request.user, player.league, Capability.VIEW_MONEY, "see the league's money")
        table = player_money(player)
        running = 0
        nights = []
        for n in table.by_night.get(player.pk, []):
            running += n.result
            nights.append({**n.__dict__, "cumulative": running})
        data = {
            "player": player.pk,
            "currency": table.currency,
            "locale": table.locale,
            "totals": table.rows.get(player.pk),
            "nights": nights,
        }
        return Response(PlayerMoneyNightsSerializer(data).data)

    @extend_schema(request=PlayerLinkSerializer, responses={200: PlayerSerializer})
    @action(detail=True, methods=["post"], filterset_fields=None)
    def link(self, request, pk=None):
        """Link the player to an account by username, or unlink it (empty or null): the
        scorekeepers and admins keep the roster. An account is at most one player of a league
        (409, code ``duplicate``); an unknown username is a 400."""
        player = self.get_object()  # visible players only; a private league's are a 404
        authorize_first(request, player.league, Capability.RECORD_HAND, "link players to accounts")
        data = PlayerLinkSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        player = player_link(
            league=player.league,
            player=player,
            username=data.validated_data["username"],
            by=request.user,
        )
        return Response(PlayerSerializer(player).data)


class MembershipViewSet(
    WriteThrottled,
    mixins.ListModelMixin,
    mixins.CreateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    """Roles in the leagues you belong to: one row per role (a user may hold several in a
    league). Admins give roles (POST adds one; giving a role held already changes nothing)
    and take them away (DELETE; a league keeps at least one admin)."""

    serializer_class = MembershipSerializer
    filterset_fields = {"league__slug": ["exact"], "role": ["exact"]}
    lookup_value_regex = r"\d+"  # /memberships/abc/ is a 404, not a lookup that fails

    def get_queryset(self):
        user = self.request.user
        if not user.is_authenticated:
            return Membership.objects.none()
        mine = Membership.objects.filter(user=user).values("league_id")
        return (
            Membership.objects.filter(league_id__in=mine)
            .select_related("league", "user")
            .order_by("league__name", "user__username")
        )

    @extend_schema(request=MembershipSetSerializer, responses={201: MembershipSerializer})
    def create(self, request, *args, **kwargs):
        authorize_first(
            request, body_league(request), Capability.MANAGE_MEMBERS, "change memberships"
        )
        data = MembershipSetSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        league = visible_league(request.user, data.validated_data["league"])
        membership = role_grant(
            league=league,
            # None for an account outside the league, existing or not: refused alike.
            user=league_account(league, username=data.validated_data["username"]),
            role=data.validated_data["role"],
            by=request.user,
        )
        return Response(MembershipSerializer(membership).data, status=status.HTTP_201_CREATED)

    @extend_schema(responses={204: None})
    def destroy(self, request, *args, **kwargs):
        # Any membership of a league the caller can see: role_revoke answers 403 to those
        # who may not change roles there (a private league stays a 404 for outsiders).
        membership = get_object_or_404(
            Membership.objects.select_related("league", "user").filter(
                league__in=leagues_visible_to(request.user)
            ),
            pk=kwargs["pk"],
        )
        role_revoke(
            league=membership.league, user=membership.user, role=membership.role, by=request.user
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class InviteViewSet(WriteThrottled, mixins.ListModelMixin, viewsets.GenericViewSet):
    """Invite links: each gives a role in a league to whoever accepts it (with an account),
    single or multi use, until it expires or is revoked.

    Admins list the invites of their leagues (filters ``league__slug``, ``role``), make them (POST)
    and revoke them (``revoke``); anyone with an account accepts one by its token
    (``accept``), which adds its role to the roles they hold in that league. Only a digest of
    each token is stored: the token and link are in the answer that makes the invite and
    nowhere else (the list names each invite by ``id`` and ``fingerprint``)."""

    serializer_class = InviteSerializer
    permission_classes = [IsAuthenticated]
    filterset_fields = {"league__slug": ["exact"], "role": ["exact"]}
    lookup_value_regex = r"\d+"

    def get_queryset(self):
        if self.action == "revoke":
            # Any invite of a league the caller can see: invite_revoke answers 403 to those
            # who may not manage members there (a private league stays a 404 for outsiders).
            return Invite.objects.filter(
                league__in=leagues_visible_to(self.request.user)
            ).select_related("league", "created_by")
        return invites_managed_by(self.request.user)

    @extend_schema(request=InviteCreateSerializer, responses={201: InviteCreatedSerializer})
    def create(self, request, *args, **kwargs):
        """Make an invite link (the league's admins). The answer carries its ``token`` and
        ``url``: copy them now, they are not stored and never shown again."""
        authorize_first(request, body_league(request), Capability.MANAGE_MEMBERS, "invite people")
        data = InviteCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        league = visible_league(request.user, values.pop("league"))
        invite, token = invite_create(
            league=league, by=request.user, base_url=request.build_absolute_uri("/"), **values
        )
        body = InviteCreatedSerializer(invite, context={"request": request, "token": token}).data
        return Response(body, status=status.HTTP_201_CREATED, headers={"Cache-Control": "no-store"})

    @extend_schema(request=None, responses={200: InviteSerializer})
    @action(detail=True, methods=["post"], filterset_fields=None)
    def revoke(self, request, pk=None):
        """Stop an invite from working (the league's admins); revoking it again changes
        nothing. The invite stays listed, revoked."""
        invite = invite_revoke(invite=self.get_object(), by=request.user)
        invite = Invite.objects.select_related("league", "created_by").get(pk=invite.pk)
        return Response(InviteSerializer(invite, context={"request": request}).data)

    @extend_schema(request=InviteAcceptSerializer, responses={200: MembershipSerializer})
    @action(detail=False, methods=["post"], filterset_fields=None)
    def accept(self, request):
        """Accept an invite by its token: you get its role in its league (your other roles
        stay). An unknown token is a 404; a used-up, expired or revoked invite a 409
        (codes ``invite_used``, ``invite_expired``, ``invite_revoked``)."""
        data = InviteAcceptSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        membership = invite_accept(token=data.validated_data["token"], user=request.user)
        membership = Membership.objects.select_related("league", "user").get(pk=membership.pk)
        return Response(MembershipSerializer(membership).data)


class TournamentViewSet(
    WriteThrottled,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Game nights. The detail carries live standings, the stakes now and the hands left."""

    filterset_fields = {"league__slug": ["exact"], "status": ["exact"], "date": ["gte", "lte"]}

    def get_queryset(self):
        tournaments = tournaments_visible_to(self.request.user).select_related("league")
        if self.action == "retrieve":
            return tournaments  # tournament_live reads the seats with the rest, in one snapshot
        return tournaments.prefetch_related("seats__player").order_by("-date", "-id")

    def get_serializer_class(self):
        return TournamentLiveSerializer if self.action == "retrieve" else TournamentSerializer

    def retrieve(self, request, *args, **kwargs):
        live = tournament_live(self.get_object())  # detail, state and standings: one snapshot
        tournament = live.tournament
        tournament.state = live.state
        tournament.standings = live.standings
        return Response(TournamentLiveSerializer(tournament).data)

    @extend_schema(request=TournamentCreateSerializer, responses={201: TournamentSerializer})
    def create(self, request, *args, **kwargs):
        authorize_first(request, body_league(request), Capability.RECORD_HAND, "create tournaments")
        data = TournamentCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        league = visible_league(request.user, values.pop("league"))
        money = values.pop("money", None)
        settings = TournamentSettings(player_ids=values.pop("players"), **values)
        tournament = night_create(league=league, by=request.user, settings=settings, money=money)
        return Response(TournamentSerializer(tournament).data, status=status.HTTP_201_CREATED)
