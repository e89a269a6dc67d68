"""Hands and re-evaluation jobs over REST."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.response import Response

from api.idempotency import HEADER, idempotent
from api.serializers.hands import (
    HandCreateSerializer,
    HandListSerializer,
    HandRecordedSerializer,
    HandSerializer,
    HandVoidSerializer,
    ReevaluationCreateSerializer,
    ReevaluationJobSerializer,
    hand_recorded_data,
)
from api.views.core import (
    WriteThrottled,
    authorize_first,
    body_league,
    body_tournament_by_roles,
)
from tracker.core.permissions import Capability, require, roles_remembered
from tracker.hands.models import Hand, ReevaluationJob
from tracker.hands.requests import HandRequest
from tracker.hands.services.recording import hand_record_with_state, hand_void
from tracker.hands.services.reevaluation import reevaluation_start
from tracker.leagues.selectors.visibility import (
    leagues_visible_to,
    tournaments_visible_to,
    visible_league,
)

QUICK_EXAMPLE = {
    "tournament": 1,
    "number": 1,
    "variant": "kings_and_little_ones",
    "options": {"king_required": True},
    "entry_mode": "quick",
    "entry": {
        "seats": [
            {"player": 2, "put_in": 64, "down": ["Kd", "4c", "2c"], "up": ["4s", "7h", "9h", "Jd"]},
            {"player": 3, "put_in": 64, "down": ["3d", "5s", "Qd"], "up": ["5h", "7c", "9c", "Tc"]},
            {"player": 1, "put_in": 4, "folded": "third"},
        ]
    },
    "table_result": {"winners": [2]},
}
FULL_EXAMPLE = {
    "tournament": 1,
    "number": 2,
    "variant": "seven_card_stud",
    "entry_mode": "full",
    "entry": {
        "actions": [
            "d dh p1 AsKs2c",
            "d dh p2 QhQd3c",
            "d dh p3 7d8d9h",
            "p1 pb",
            "p2 f",
            "p3 f",
        ]
    },
}


class HandViewSet(
    WriteThrottled,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Hands of the tournaments you can see. Recording needs the scorekeeper or admin role."""

    filterset_fields = {
        "tournament": ["exact"],
        "variant": ["exact"],
        "status": ["exact"],
        "hand_seats__player": ["exact"],
    }

    def get_queryset(self):
        qs = Hand.objects.filter(tournament__in=tournaments_visible_to(self.request.user))
        if self.action == "retrieve":
            qs = qs.prefetch_related("hand_seats__player", "pots")
        return qs.order_by("tournament_id", "number").distinct()

    def get_serializer_class(self):
        return HandListSerializer if self.action == "list" else HandSerializer

    @extend_schema(request=HandVoidSerializer, responses={200: HandSerializer})
    @action(detail=True, methods=["post"])
    def void(self, request, pk=None):
        """Declare an invalid hand void (authority or admin): no chips move, later hands settle."""
        target = self.get_object()  # visible hands only; a malformed id is a 404
        require(request.user, target.tournament.league, Capability.VOID_HAND, "void a hand")
        data = HandVoidSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        hand_void(hand=target, reason=data.validated_data["reason"], by=request.user)
        target = Hand.objects.prefetch_related("hand_seats__player", "pots").get(pk=target.pk)
        return Response(HandSerializer(target).data)

    @extend_schema(
        request=HandCreateSerializer,
        responses={
            201: HandRecordedSerializer,
            200: OpenApiResponse(
                HandRecordedSerializer,
                description="a retry: the same body from the same user, moments after it was "
                "recorded, without a hand number or with that hand's number; nothing is stored",
            ),
        },
        parameters=[
            OpenApiParameter(
                HEADER,
                str,
                OpenApiParameter.HEADER,
                required=False,
                description="retry-safe key: a retry returns the first response",
            )
        ],
        examples=[
            OpenApiExample("Quick entry", value=QUICK_EXAMPLE, request_only=True),
            OpenApiExample("Full history", value=FULL_EXAMPLE, request_only=True),
        ],
    )
    def create(self, request, *args, **kwargs):
        def produce():
            named = body_tournament_by_roles(request)  # read once: to authorize and to record
            league = named.league if named is not None else None
            authorize_first(request, league, Capability.RECORD_HAND, "record hands")
            data = HandCreateSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            values = dict(data.validated_data)
            pk = values.pop("tournament")
            tournament = (
                named
                if named is not None and named.pk == pk
                else get_object_or_404(
                    tournaments_visible_to(request.user).select_related("league"), pk=pk
                )
            )
            hand, seats, state = hand_record_with_state(
                tournament=tournament, by=request.user, asked=HandRequest(**values)
            )
            # The hand as recorded, from memory: its seats as written, no pots before settlement
            # (which follows the commit; GET /hands/{id}/ shows it), the next hand from the state.
            data = hand_recorded_data(hand, seats, state)
            return Response(data, status=status.HTTP_201_CREATED)

        with roles_remembered():  # read once: for authorizing first and in the service
            return idempotent(request, produce)


class ReevaluationViewSet(
    WriteThrottled,
    mixins.RetrieveModelMixin,
    mixins.ListModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Re-run the engine over a tournament or a league; poll the job for progress."""

    serializer_class = ReevaluationJobSerializer

    def get_queryset(self):
        return ReevaluationJob.objects.filter(
            league__in=leagues_visible_to(self.request.user)
        ).select_related("league")

    @extend_schema(request=ReevaluationCreateSerializer, responses={202: ReevaluationJobSerializer})
    def create(self, request, *args, **kwargs):
        league = body_league(request)
        authorize_first(request, league, Capability.REEVALUATE, "re-evaluate hands")
        data = ReevaluationCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        league = visible_league(request.user, data.validated_data["league"])
        tournament = None
        if data.validated_data.get("tournament"):
            tournament = get_object_or_404(league.tournaments, pk=data.validated_data["tournament"])
        job = reevaluation_start(league=league, tournament=tournament, by=request.user)
        job.refresh_from_db()
        return Response(ReevaluationJobSerializer(job).data, status=status.HTTP_202_ACCEPTED)
