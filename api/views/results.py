"""A finished night's money results: bounties, results and the settle-up (docs/money.md)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.results import NightResultsSerializer
from api.views.core import WriteThrottled
from api.views.money import _visible_tournament
from tracker.core.permissions import Capability, require
from tracker.money.results import NightResults, night_results
from tracker.money.settle import transfer_mark_paid


def night_results_data(tournament, results: NightResults) -> dict:
    fmt = results.summary.fmt
    return {
        "tournament": tournament.pk,
        "final": results.final,
        "currency": results.summary.money.currency,
        "fees": results.fees,
        "bounties": [
            {
                "busted": b.busted,
                "amount": b.amount,
                "hand": b.hand_id,
                "hand_number": b.hand_number,
                "pot": b.pot_index,
                "shares": [{"player": p, "amount": a} for p, a in b.shares.items()],
            }
            for b in results.bounties
        ],
        "results": [
            {
                "player": r.player_id,
                "paid": r.paid,
                "payout": r.payout,
                "bounties": r.bounties,
                "bounty_back": r.bounty_back,
                "result": r.result,
                "result_text": fmt(r.result),
            }
            for r in results.players.values()
        ],
        "transfers": [
            {
                "position": k,
                "payer": str(t.payer),
                "payee": str(t.payee),
                "amount": t.amount,
                "amount_text": fmt(t.amount),
                "paid_at": results.paid_at.get(k),
            }
            for k, t in enumerate(results.transfers)
        ],
        "minimal": results.minimal,
    }


class TournamentResultsView(APIView):
    """A night's money results once it is finished (``final``): the bounties paid for the
    players who went out, each player's result (payout and bounties less what they paid,
    fees included) and the settle-up, the fewest transfers that square everyone (the house,
    ``"house"``, is owed the fees). Before the end: ``final`` false and nothing listed.
    Members of the league only."""

    @extend_schema(responses=NightResultsSerializer)
    def get(self, request, pk: int):
        tournament = _visible_tournament(request, pk)
        require(request.user, tournament.league, Capability.VIEW_MONEY, "see the night's money")
        data = night_results_data(tournament, night_results(tournament))
        return Response(NightResultsSerializer(data).data)


class TransferPaidView(WriteThrottled, APIView):
    """Mark the transfer at ``position`` of a finished night's settle-up paid: its payer,
    its payee (an account linked to that player) or an admin of the league. The first mark
    stores the night's settle-up; marking a paid transfer again changes nothing. Answers
    the night's results."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses=NightResultsSerializer)
    def post(self, request, pk: int, position: int):
        tournament = _visible_tournament(request, pk)
        transfer_mark_paid(tournament=tournament, position=position, by=request.user)
        data = night_results_data(tournament, night_results(tournament))
        return Response(NightResultsSerializer(data).data)
