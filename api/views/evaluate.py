"""POST /api/v1/evaluate/: the hand-value engine as a public endpoint."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.evaluate import EvaluateShowdownSerializer, ShowdownResultSerializer
from tracker.engine import evaluate_showdown

_EXAMPLE_REQUEST = {
    "variant": "kings_and_little_ones",
    "options": {"king_required": True},
    "community": None,
    "players": [
        {"down": ["K♦", "4♣", "2♣"], "up": ["4♠", "7♥", "9♥", "J♦"]},
        {"down": ["3♦", "5♠", "5♥"], "up": ["7♣", "9♣", "10♣", "Q♦"]},
    ],
}


class EvaluateView(APIView):
    """Value every player's hand of a showdown and name the winners.

    Public: no login. The body is checked by the engine; a bad body answers
    400 with {"error": {"code", "message", "fields": {path: [messages]}}}.
    """

    permission_classes = [AllowAny]
    authentication_classes: list = []  # anonymous and stateless, so no CSRF

    @extend_schema(
        operation_id="evaluate_showdown",
        request=EvaluateShowdownSerializer,
        responses={200: ShowdownResultSerializer},
        examples=[
            OpenApiExample(
                "Kings and Little Ones",
                value=_EXAMPLE_REQUEST,
                request_only=True,
            ),
            OpenApiExample(
                "Kings and Little Ones",
                value=evaluate_showdown(_EXAMPLE_REQUEST),
                response_only=True,
                status_codes=["200"],
            ),
        ],
    )
    def post(self, request):
        return Response(evaluate_showdown(request.data))
