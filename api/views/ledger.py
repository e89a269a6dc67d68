"""A league's money ledger across nights (docs/money.md, "The league ledger")."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.ledger import (
    CorrectionSerializer,
    LeagueLedgerSerializer,
    LedgerPaymentSerializer,
)
from api.views.core import WriteThrottled
from tracker.core.permissions import Capability, require
from tracker.leagues.selectors.visibility import visible_league
from tracker.money.ledger_selectors import (
    league_ledger,
    ledger_entries,
    visible_party,
)
from tracker.money.ledger_services import ledger_correction_add, ledger_payment_record
from tracker.money.results import HOUSE


def _party(pid) -> str:
    return HOUSE if pid in (None, HOUSE) else str(pid)


def league_ledger_data(league, *, player: str | None = None) -> dict:
    ledger = league_ledger(league)
    if player == HOUSE:
        entries = ledger_entries(league, house=True)
    elif player is not None:
        entries = ledger_entries(league, player_id=visible_party(league, player))
    else:
        entries = ledger_entries(league)
    balances = ledger.balances
    if player is not None:
        key = HOUSE if player == HOUSE else int(player)
        balances = {key: balances.get(key, 0)}
    return {
        "league": league.slug,
        "currency": ledger.currency,
        "balances": [
            {"player": _party(p), "balance": b, "balance_text": ledger.fmt(b)}
            for p, b in balances.items()
        ],
        "transfers": [
            {
                "payer": _party(t.payer),
                "payee": _party(t.payee),
                "amount": t.amount,
                "amount_text": ledger.fmt(t.amount),
            }
            for t in ledger.transfers
        ],
        "minimal": ledger.minimal,
        "entries": [
            {
                "id": e.pk,
                "player": _party(e.player_id),
                "kind": e.kind,
                "amount": e.amount,
                "currency": e.currency,
                "tournament": e.tournament_id,
                "transfer": e.transfer_id,
                "reason": e.reason,
                "created_at": e.created_at,
            }
            for e in entries
        ],
    }


class LeagueLedgerView(APIView):
    """The league's money ledger: each party's balance (the sum of its entries; the house
    keeps the fees; they add up to zero), the league's settle-up (the fewest transfers that
    square every open balance) and the entries, oldest first. ``?player=<id>`` (or
    ``house``): that party's balance and entries only. The league's members only."""

    @extend_schema(
        parameters=[OpenApiParameter("player", str, description='a player id, or "house"')],
        responses=LeagueLedgerSerializer,
    )
    def get(self, request, slug):
        league = visible_league(request.user, slug)
        require(request.user, league, Capability.VIEW_MONEY, "see the league's money")
        player = request.query_params.get("player") or None
        return Response(LeagueLedgerSerializer(league_ledger_data(league, player=player)).data)


class LedgerCorrectionsView(WriteThrottled, APIView):
    """An admin's correction: ``amount`` (minor units, not 0) added to a player's balance,
    with a ``reason``; the house takes the other side. New entries, never an edit. Answers
    the ledger (201)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=CorrectionSerializer, responses={201: LeagueLedgerSerializer})
    def post(self, request, slug):
        league = visible_league(request.user, slug)
        require(request.user, league, Capability.CORRECT_MONEY, "correct the league's money ledger")
        data = CorrectionSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ledger_correction_add(
            league=league,
            player_id=data.validated_data["player"],
            amount=data.validated_data["amount"],
            reason=data.validated_data["reason"],
            by=request.user,
        )
        body = LeagueLedgerSerializer(league_ledger_data(league)).data
        return Response(body, status=status.HTTP_201_CREATED)


class LedgerPaymentView(WriteThrottled, APIView):
    """One transfer of the league's settle-up paid (payer, payee: a player id or "house";
    the amount as listed): by its payer, its payee (an account linked to that player) or an
    admin. Two ledger entries; answers the ledger (201). A transfer not in the settle-up as
    it stands is refused (``not_in_settle_up``)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=LedgerPaymentSerializer, responses={201: LeagueLedgerSerializer})
    def post(self, request, slug):
        league = visible_league(request.user, slug)
        require(request.user, league, Capability.VIEW_MONEY, "see the league's money")
        data = LedgerPaymentSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        ledger_payment_record(league=league, by=request.user, **data.validated_data)
        body = LeagueLedgerSerializer(league_ledger_data(league)).data
        return Response(body, status=status.HTTP_201_CREATED)
