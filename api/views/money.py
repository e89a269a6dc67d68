"""Money: a league's money settings, a night's money (rules, entries, pool, payouts)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.money import LeagueMoneySerializer
from api.views.core import WriteThrottled, visible_league
from tracker.core.permissions import Capability, require
from tracker.money.models import RULE_FIELDS
from tracker.money.selectors import league_money
from tracker.money.services import league_money_set


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
        league = visible_league(request, slug)
        require(request.user, league, Capability.VIEW_MONEY, "see the league's money")
        return Response(league_money_data(league_money(league)))

    @extend_schema(request=LeagueMoneySerializer, responses=LeagueMoneySerializer)
    def put(self, request, slug):
        league = visible_league(request, slug)
        require(request.user, league, Capability.SET_MONEY, "set the league's money rules")
        data = LeagueMoneySerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = league_money_set(league=league, by=request.user, values=dict(data.validated_data))
        return Response(league_money_data(row))
