"""Nights scheduled ahead: list, schedule (admins and scorekeepers), read who comes, answer;
check-in at the door and the start of the night; a user's own nights."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.schedule import (
    AnswerSerializer,
    CheckInRequestSerializer,
    CheckInSerializer,
    CheckOutRequestSerializer,
    MyNightsSerializer,
    NightCancelSerializer,
    NightCreateSerializer,
    NightDetailSerializer,
    NightEditSerializer,
    NightSerializer,
    NightStartedSerializer,
    RsvpSerializer,
)
from api.views.core import WriteThrottled, authorize_first, body_league
from tracker.core.permissions import Capability, require
from tracker.leagues.selectors.visibility import leagues_visible_to, visible_league
from tracker.schedule.models import CheckIn, Rsvp, ScheduledNight
from tracker.schedule.selectors import my_nights
from tracker.schedule.services import (
    night_cancel,
    night_check_in,
    night_check_out,
    night_edit,
    night_schedule,
    night_start,
    rsvp_answer,
)


class NightViewSet(
    WriteThrottled, mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet
):
    """Game nights scheduled ahead (filter ``league__slug``). Scheduling one (POST) invites
    the roster by e-mail; ``answer`` records a yes, no or maybe (a yes past the seats goes on
    the waitlist; a seat given up goes to the first on it). An organiser changes a night
    (PATCH) or cancels it (``cancel``); the invited players are told by e-mail."""

    permission_classes = [IsAuthenticatedOrReadOnly]
    filterset_fields = {"league__slug": ["exact"]}
    lookup_value_regex = r"\d+"

    def get_queryset(self):
        return ScheduledNight.objects.filter(
            league__in=leagues_visible_to(self.request.user)
        ).select_related("league")

    def get_serializer_class(self):
        return NightDetailSerializer if self.action == "retrieve" else NightSerializer

    @extend_schema(request=NightCreateSerializer, responses={201: NightDetailSerializer})
    def create(self, request, *args, **kwargs):
        authorize_first(
            request, body_league(request), Capability.SCHEDULE_NIGHT, "schedule a night"
        )
        data = NightCreateSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        values = dict(data.validated_data)
        league = visible_league(request.user, values.pop("league"))
        night = night_schedule(
            league=league, by=request.user, base_url=request.build_absolute_uri("/"), **values
        )
        return Response(NightDetailSerializer(night).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=NightEditSerializer, responses={200: NightDetailSerializer})
    def partial_update(self, request, pk=None):
        night = self.get_object()
        authorize_first(request, night.league, Capability.SCHEDULE_NIGHT, "change a night")
        data = NightEditSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        night = night_edit(night=night, by=request.user, **data.validated_data)
        return Response(NightDetailSerializer(night).data)

    @extend_schema(request=NightCancelSerializer, responses={200: NightDetailSerializer})
    @action(detail=True, methods=["post"], filterset_fields=None)
    def cancel(self, request, pk=None):
        night = self.get_object()
        authorize_first(request, night.league, Capability.SCHEDULE_NIGHT, "cancel a night")
        data = NightCancelSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        night = night_cancel(night=night, by=request.user, reason=data.validated_data["reason"])
        return Response(NightDetailSerializer(night).data)

    @extend_schema(request=AnswerSerializer, responses={200: RsvpSerializer})
    @action(detail=True, methods=["post"], filterset_fields=None)
    def answer(self, request, pk=None):
        night = self.get_object()
        data = AnswerSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        rsvp = rsvp_answer(
            night=night,
            player_id=data.validated_data["player"],
            answer=data.validated_data["answer"],
            by=request.user,
        )
        return Response(RsvpSerializer(rsvp).data)

    @extend_schema(methods=["get"], request=None, responses={200: CheckInSerializer(many=True)})
    @extend_schema(
        methods=["post"], request=CheckInRequestSerializer, responses={201: CheckInSerializer}
    )
    @action(detail=True, methods=["get", "post"], url_path="check-in", filterset_fields=None)
    def check_in(self, request, pk=None):
        """GET: who is checked in so far (admins and scorekeepers). POST: check a roster
        player in at the door (a yes, a maybe, the waitlist or a walk-in); past the seats,
        off the roster or once the night has started it is refused."""
        night = self.get_object()
        require(request.user, night.league, Capability.CHECK_IN, "check players in")
        if request.method == "GET":
            rows = CheckIn.objects.filter(night=night).select_related("player")
            return Response(CheckInSerializer(rows, many=True).data)
        data = CheckInRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        row = night_check_in(
            night=night,
            player_id=data.validated_data["player"],
            buy_in=data.validated_data["buy_in"],
            by=request.user,
        )
        return Response(CheckInSerializer(row).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=CheckOutRequestSerializer, responses={200: CheckInSerializer(many=True)})
    @action(detail=True, methods=["post"], url_path="check-out", filterset_fields=None)
    def check_out(self, request, pk=None):
        """Undo a check-in before the night starts; answers who is still checked in."""
        night = self.get_object()
        require(request.user, night.league, Capability.CHECK_IN, "undo a check-in")
        data = CheckOutRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        night_check_out(night=night, player_id=data.validated_data["player"], by=request.user)
        rows = CheckIn.objects.filter(night=night).select_related("player")
        return Response(CheckInSerializer(rows, many=True).data)

    @extend_schema(request=None, responses={201: NightStartedSerializer})
    @action(detail=True, methods=["post"], filterset_fields=None)
    def start(self, request, pk=None):
        """Start the night: the checked-in players sit at a new tournament (seats drawn),
        the buy-ins paid at the door are recorded, the yeses who did not come are no-shows."""
        night = self.get_object()
        tournament = night_start(night=night, by=request.user)
        seats = list(tournament.seats.order_by("number").values_list("player_id", flat=True))
        no_shows = list(
            Rsvp.objects.filter(night=night, no_show=True).values_list("player_id", flat=True)
        )
        body = {"night": night.pk, "tournament": tournament.pk, "seats": seats}
        return Response(
            NightStartedSerializer(body | {"no_shows": no_shows}).data,
            status=status.HTTP_201_CREATED,
        )


class MyNightsView(APIView):
    """Your nights, over the roster players linked to your account in every league: the
    upcoming scheduled nights with your answer, the nights you sat at with your finish and
    your money result and settle-up transfers, and what you still owe and are owed."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses=MyNightsSerializer)
    def get(self, request):
        mine = my_nights(request.user)
        body = {
            "upcoming": [
                {
                    "night": u.night.pk,
                    "league": u.night.league.slug,
                    "starts_at": u.night.starts_at,
                    "place": u.night.place,
                    "player": u.player.pk,
                    "answer": u.rsvp.answer if u.rsvp else "",
                    "seat": u.rsvp.seat if u.rsvp else "",
                }
                for u in mine.upcoming
            ],
            "past": [
                {
                    "tournament": p.tournament_id,
                    "name": p.name,
                    "date": p.date,
                    "league": p.league.slug,
                    "player": p.player.pk,
                    "finished": p.finished,
                    "place": p.place,
                    "entrants": p.entrants,
                    "result": p.result,
                    "result_text": p.result_text,
                    "debts": [vars(d) for d in p.debts],
                }
                for p in mine.past
            ],
            "owe": mine.owe,
            "owed": mine.owed,
            "missed": [n.pk for n in mine.missed],
        }
        return Response(MyNightsSerializer(body).data)
