"""Nights scheduled ahead: list, schedule (admins and scorekeepers), read who comes, answer."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from api.serializers.schedule import (
    AnswerSerializer,
    NightCancelSerializer,
    NightCreateSerializer,
    NightDetailSerializer,
    NightEditSerializer,
    NightSerializer,
    RsvpSerializer,
)
from api.views.core import WriteThrottled, authorize_first, body_league, visible_league
from tracker.core.permissions import Capability
from tracker.leagues.selectors import leagues_visible_to
from tracker.schedule.models import ScheduledNight
from tracker.schedule.services import night_cancel, night_edit, night_schedule, rsvp_answer


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
        league = visible_league(request, values.pop("league"))
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
