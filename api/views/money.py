"""Money: a league's money settings, a night's money (rules, entries, pool, payouts)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.money import (
    EntryCreateSerializer,
    EntrySerializer,
    LeagueMoneySerializer,
    NightMoneySummarySerializer,
)
from api.views.core import WriteThrottled, authorize_first
from tracker.core.permissions import Capability, require
from tracker.leagues.selectors.visibility import tournaments_visible_to, visible_league
from tracker.money.models import RULE_FIELDS, MoneyEntry
from tracker.money.selectors import league_money, night_money_summary
from tracker.money.services import entry_record, entry_undo, league_money_set


def league_money_data(row) -> dict:
    return {
        "league": row.league.slug,
        "currency": row.currency,
        "unit": row.unit,
        "locale": row.locale,
        **{name: getattr(row, name) for name in RULE_FIELDS},
    }


class LeagueMoneyView(WriteThrottled, APIView):
    """A league's currency (ISO 4217), the unit its payouts round to (minor units), the locale
    its amounts are written in, and the default money rules of its nights.

    Its members read them; its admins change them (PUT: any of the fields, the others stay).
    A night keeps the rules, currency and unit it was created with."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = LeagueMoneySerializer

    @extend_schema(responses=LeagueMoneySerializer)
    def get(self, request, slug):
        league = visible_league(request.user, slug)
        require(request.user, league, Capability.VIEW_MONEY, "see the league's money")
        return Response(league_money_data(league_money(league)))

    @extend_schema(request=LeagueMoneySerializer, responses=LeagueMoneySerializer)
    def put(self, request, slug):
        league = visible_league(request.user, slug)
        require(request.user, league, Capability.SET_MONEY, "set the league's money rules")
        data = LeagueMoneySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = league_money_set(league=league, by=request.user, values=dict(data.validated_data))
        return Response(league_money_data(row))


def night_money_data(tournament, summary) -> dict:
    money = summary.money
    return {
        "tournament": tournament.pk,
        "currency": money.currency,
        "unit": money.unit,
        "locale": summary.locale,
        "rules": {
            "currency": money.currency,
            "unit": money.unit,
            **{name: getattr(money, name) for name in RULE_FIELDS},
        },
        "players": list(summary.players.values()),
        "entries": summary.entries,
        "pool": {
            "paid_in": summary.pool.paid_in,
            "fees": summary.pool.fees,
            "bounties": summary.pool.bounties,
            "prize_pool": summary.pool.prize_pool,
            "prize_pool_text": summary.fmt(summary.pool.prize_pool),
        },
        "place_payouts": summary.place_payouts,
        "payouts": [
            {
                "player": pid,
                "place": summary.places[pid],
                "amount": amount,
                "amount_text": summary.fmt(amount),
            }
            for pid, amount in sorted(summary.payouts.items(), key=lambda kv: summary.places[kv[0]])
        ],
    }


def _visible_tournament(request, pk: int):
    return get_object_or_404(tournaments_visible_to(request.user).select_related("league"), pk=pk)


class TournamentMoneyView(APIView):
    """A night's money as it stands: its rules, the entries recorded (buy-ins, rebuys,
    add-ons; not those undone), what each player paid, the pool, what each place pays of it
    (``place_payouts``, first place first) and, once the night is finished, each player's
    payout from the final standings (``payouts``; players tied for places share them).
    Members of the league only (a public league's visitors see the night, not its money)."""

    @extend_schema(responses=NightMoneySummarySerializer)
    def get(self, request, pk: int):
        tournament = _visible_tournament(request, pk)
        require(request.user, tournament.league, Capability.VIEW_MONEY, "see the night's money")
        summary = night_money_summary(tournament)
        return Response(NightMoneySummarySerializer(night_money_data(tournament, summary)).data)


class TournamentEntriesView(WriteThrottled, APIView):
    """Record a buy-in, a rebuy or an add-on of a seated player before the next hand
    (scorekeepers and admins). A refusal names the rule in its code: ``rebuy_window``,
    ``rebuy_limit``, ``rebuy_only_when_busted``, ``addon_window``, ``addon_taken``, ...
    (docs/money.md)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=EntryCreateSerializer, responses={201: EntrySerializer})
    def post(self, request, pk: int):
        tournament = _visible_tournament(request, pk)
        authorize_first(
            request,
            tournament.league,
            Capability.RECORD_MONEY,
            "record buy-ins, rebuys and add-ons",
        )
        data = EntryCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        entry = entry_record(
            tournament=tournament,
            player_id=data.validated_data["player"],
            kind=data.validated_data["kind"],
            by=request.user,
        )
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)


class EntryUndoView(WriteThrottled, APIView):
    """Undo an entry until the next hand is recorded (then it stands: ``entry_final``)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=EntrySerializer)
    def post(self, request, pk: int, entry_id: int):
        tournament = _visible_tournament(request, pk)
        authorize_first(
            request, tournament.league, Capability.RECORD_MONEY, "undo buy-ins, rebuys and add-ons"
        )
        entry = get_object_or_404(
            MoneyEntry.objects.select_related("player", "tournament"),
            pk=entry_id,
            tournament=tournament,
        )
        return Response(EntrySerializer(entry_undo(entry=entry, by=request.user)).data)
