"""Deals: what each option pays the players still in, and the agreement that ends the night."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.deals import DealCreateSerializer, DealOfferSerializer, DealSerializer
from api.views.core import WriteThrottled, authorize_first
from tracker.core.permissions import Capability, require
from tracker.leagues.selectors.visibility import tournaments_visible_to
from tracker.money.deal_selectors import deal_offer
from tracker.money.deal_services import deal_record


def _visible_tournament(request, pk: int):
    return get_object_or_404(tournaments_visible_to(request.user).select_related("league"), pk=pk)


class TournamentDealView(WriteThrottled, APIView):
    """GET: the players still in, the prize money of the places still open and what the ICM
    (exact Malmuth-Harville), chip-count and even deals pay each (``refusal`` says why no
    deal can be made now; ``deal`` is the one that ended the night). Members of the league.

    POST (admins): record the deal every player still in agreed to; it ends the night, and
    its amounts are those players' payouts. A refusal names the rule in its code
    (``night_over``, ``hands_pending``, ``not_still_in``, ``deal_needs_everyone``,
    ``invalid_deal``: amounts not adding up to the pool)."""

    permission_classes = [IsAuthenticatedOrReadOnly]

    @extend_schema(responses=DealOfferSerializer)
    def get(self, request, pk: int):
        tournament = _visible_tournament(request, pk)
        require(request.user, tournament.league, Capability.VIEW_MONEY, "see the night's money")
        offer = deal_offer(tournament)
        summary = offer.summary
        return Response(
            DealOfferSerializer(
                {
                    "tournament": tournament.pk,
                    "currency": summary.money.currency,
                    "unit": offer.unit,
                    "players": offer.players,
                    "payouts": offer.payouts,
                    "pool": offer.pool,
                    "options": offer.options,
                    "refusal": (
                        {"code": offer.refusal[0], "message": offer.refusal[1]}
                        if offer.refusal
                        else None
                    ),
                    "deal": summary.deal,
                }
            ).data
        )

    @extend_schema(request=DealCreateSerializer, responses={201: DealSerializer})
    def post(self, request, pk: int):
        tournament = _visible_tournament(request, pk)
        authorize_first(request, tournament.league, Capability.SET_DEAL, "record a deal")
        data = DealCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        deal = deal_record(
            tournament=tournament,
            by=request.user,
            option=data.validated_data["option"],
            agreed_by=data.validated_data["agreed_by"],
            amounts=data.validated_data.get("amounts"),
        )
        return Response(DealSerializer(deal).data, status=status.HTTP_201_CREATED)
