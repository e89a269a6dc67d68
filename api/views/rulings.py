"""Disputes, rulings, engine evaluations, house rules and the audit log over REST.

Thin: the services in tracker.rulings.services do the writes, the selectors in
tracker.rulings.selectors and the presenters in web.presenters.rulings the reads. Private
leagues do not exist for outsiders.
"""

from __future__ import annotations

import datetime as dt

import django_filters
from django import forms
from django.shortcuts import get_object_or_404
from django_filters.fields import IsoDateTimeField
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.response import Response
from rest_framework.views import APIView

from api.idempotency import HEADER, idempotent
from api.serializers.rulings import (
    AuditEntrySerializer,
    DisputeCreateSerializer,
    DisputedPotSerializer,
    EvaluationSerializer,
    HouseRulesSerializer,
    RulingCreateSerializer,
    RulingSerializer,
)
from api.views.core import WriteThrottled, authorize_first, body_hand_league
from tracker.audit.models import AuditEntry
from tracker.core.permissions import Capability, require
from tracker.engine.errors import Code
from tracker.hands.models import Evaluation, EvaluationSource, Pot
from tracker.leagues.models import League
from tracker.leagues.selectors.visibility import leagues_visible_to, visible_league
from tracker.rulings.models import Ruling
from tracker.rulings.selectors import OPEN, STATES, audit_log, pots_in_question, visible_pot
from tracker.rulings.services import dispute_raise, house_rules_set, ruling_make
from web.presenters.rulings import pot_case, pot_cases

IDEMPOTENCY = OpenApiParameter(
    HEADER,
    str,
    OpenApiParameter.HEADER,
    required=False,
    description="retry-safe key: a retry returns the first response and writes nothing",
)


class IdFilter(django_filters.NumberFilter):
    """A row id: a whole number within the database's range (anything else is a 400)."""

    field_class = forms.IntegerField

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", 2**63 - 1)
        super().__init__(*args, **kwargs)


class DisputeFilter(django_filters.FilterSet):
    league = django_filters.CharFilter(
        field_name="hand__tournament__league__slug", help_text="the league's slug"
    )
    tournament = IdFilter(field_name="hand__tournament_id")
    hand = IdFilter(field_name="hand_id")

    class Meta:
        model = Pot
        fields = ["league", "tournament", "hand"]


class DisputeViewSet(
    WriteThrottled,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """The dispute queue: pots put to the league's authority, both readings side by side.

    ``state``: ``open`` (default: waiting for a ruling), ``ruled`` or ``all``. Any member of
    a league may dispute a settled pot of it, with a reason (POST).
    """

    serializer_class = DisputedPotSerializer
    filterset_class = DisputeFilter
    permission_classes = [IsAuthenticatedOrReadOnly]

    def get_queryset(self):
        state = self.request.query_params.get("state", OPEN)
        if self.action != "list" or state not in STATES:
            state = "all"
        leagues = leagues_visible_to(self.request.user)
        return pots_in_question(leagues, state).select_related("hand__tournament__league")

    @extend_schema(
        parameters=[
            OpenApiParameter(
                "state",
                str,
                enum=list(STATES),
                description="open (default): waiting for a ruling; ruled; all",
            )
        ]
    )
    def list(self, request, *args, **kwargs):
        queryset = self.filter_queryset(self.get_queryset())
        page = self.paginate_queryset(queryset)
        cases = pot_cases(page if page is not None else queryset)
        data = DisputedPotSerializer(cases, many=True).data
        return self.get_paginated_response(data) if page is not None else Response(data)

    def retrieve(self, request, *args, **kwargs):
        pot = self.get_object()
        return Response(DisputedPotSerializer(pot_cases([pot])[0]).data)

    @extend_schema(
        request=DisputeCreateSerializer,
        responses={201: DisputedPotSerializer},
        parameters=[IDEMPOTENCY],
    )
    def create(self, request, *args, **kwargs):
        def produce():
            league = body_hand_league(request)
            authorize_first(request, league, Capability.DISPUTE, "dispute a pot")
            data = DisputeCreateSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            values = data.validated_data
            pot = visible_pot(request.user, values["hand"], values["pot"])
            dispute_raise(
                pot=pot,
                by=request.user,
                reason=values["reason"],
                base_url=request.build_absolute_uri("/"),
            )
            case = pot_case(request.user, values["hand"], values["pot"])
            return Response(DisputedPotSerializer(case).data, status=status.HTTP_201_CREATED)

        return idempotent(request, produce)


class RulingFilter(django_filters.FilterSet):
    league = django_filters.CharFilter(
        field_name="hand__tournament__league__slug", help_text="the league's slug"
    )
    tournament = IdFilter(field_name="hand__tournament_id")
    hand = IdFilter(field_name="hand_id")
    pot = IdFilter(field_name="pot_id", help_text="the pot's id")

    class Meta:
        model = Ruling
        fields = ["league", "tournament", "hand", "pot", "result", "override"]


class RulingViewSet(
    WriteThrottled,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    viewsets.GenericViewSet,
):
    """Rulings: append-only, newest first. Only the league's authority rules (POST).

    A ruling names the result that stands (``engine``, ``table``, or ``award`` with the chips
    per player), and a reason. Chips it moves are written to the ledger as corrections.
    """

    serializer_class = RulingSerializer
    filterset_class = RulingFilter
    permission_classes = [IsAuthenticatedOrReadOnly]

    def get_queryset(self):
        return (
            Ruling.objects.filter(
                hand__tournament__league__in=leagues_visible_to(self.request.user)
            )
            .select_related("pot", "hand__tournament__league", "ruled_by", "superseded_by")
            .order_by("-id")
        )

    @extend_schema(
        request=RulingCreateSerializer,
        responses={201: RulingSerializer},
        parameters=[IDEMPOTENCY],
    )
    def create(self, request, *args, **kwargs):
        def produce():
            league = body_hand_league(request)
            authorize_first(request, league, Capability.RULE, "rule on a pot")
            data = RulingCreateSerializer(data=request.data)
            data.is_valid(raise_exception=True)
            values = data.validated_data
            pot = visible_pot(request.user, values["hand"], values["pot"])
            ruling = ruling_make(
                pot=pot,
                by=request.user,
                result=values["result"],
                reason=values["reason"],
                award=values.get("award"),
                base_url=request.build_absolute_uri("/"),
            )
            ruling = self.get_queryset().get(pk=ruling.pk)
            return Response(RulingSerializer(ruling).data, status=status.HTTP_201_CREATED)

        return idempotent(request, produce)


class EvaluationFilter(django_filters.FilterSet):
    league = django_filters.CharFilter(field_name="hand__tournament__league__slug")
    tournament = IdFilter(field_name="hand__tournament_id")
    hand = IdFilter(field_name="hand_id")
    source = django_filters.ChoiceFilter(choices=EvaluationSource.choices)

    class Meta:
        model = Evaluation
        fields = ["league", "tournament", "hand", "engine_version", "source"]


class EvaluationViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """What each engine version read, hand by hand (every settlement and re-evaluation)."""

    serializer_class = EvaluationSerializer
    filterset_class = EvaluationFilter

    def get_queryset(self):
        return Evaluation.objects.filter(
            hand__tournament__league__in=leagues_visible_to(self.request.user)
        ).order_by("-id")


class HouseRulesView(WriteThrottled, APIView):
    """A league's house rules: its default announcements per variant (RULES.md names).

    Anyone who can see the league reads them; its authority and admins change them (PUT). A hand
    keeps the announcements it was dealt under: changing house rules changes no recorded hand.
    """

    permission_classes = [IsAuthenticatedOrReadOnly]
    serializer_class = HouseRulesSerializer

    def _league(self, request, slug) -> League:
        return visible_league(request.user, slug)

    @extend_schema(responses=HouseRulesSerializer)
    def get(self, request, slug):
        league = self._league(request, slug)
        return Response({"league": league.slug, "house_rules": league.house_rules or {}})

    @extend_schema(request=HouseRulesSerializer, responses=HouseRulesSerializer)
    def put(self, request, slug):
        league = self._league(request, slug)
        require(request.user, league, Capability.EDIT_HOUSE_RULES, "set the house rules")
        data = HouseRulesSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        league = house_rules_set(
            league=league, house_rules=data.validated_data["house_rules"], by=request.user
        )
        return Response({"league": league.slug, "house_rules": league.house_rules})


class UtcDateTimeField(IsoDateTimeField):
    """An ISO 8601 date and time, taken to UTC before it reaches the database (PostgreSQL
    refuses offsets beyond 15:59 that Python accepts)."""

    def to_python(self, value):
        value = super().to_python(value)
        if value is None:
            return None
        try:
            return value.astimezone(dt.UTC)
        except (OverflowError, ValueError):
            raise forms.ValidationError("out of range", code=Code.INVALID) from None


class UtcDateTimeFilter(django_filters.IsoDateTimeFilter):
    field_class = UtcDateTimeField


class AuditFilter(django_filters.FilterSet):
    action = django_filters.CharFilter(help_text="e.g. hand.record, ruling.make")
    action_prefix = django_filters.CharFilter(
        field_name="action", lookup_expr="startswith", help_text="e.g. ruling."
    )
    actor = django_filters.CharFilter(help_text="a username, or system")
    channel = django_filters.ChoiceFilter(
        choices=[(c, c) for c in ("session", "token", "password", "system", "anonymous")]
    )
    target_type = django_filters.CharFilter()
    target_id = django_filters.CharFilter()
    since = UtcDateTimeFilter(field_name="created_at", lookup_expr="gte")
    until = UtcDateTimeFilter(field_name="created_at", lookup_expr="lt")

    class Meta:
        model = AuditEntry
        fields = [
            "action",
            "action_prefix",
            "actor",
            "channel",
            "target_type",
            "target_id",
            "since",
            "until",
        ]


class AuditViewSet(mixins.ListModelMixin, viewsets.GenericViewSet):
    """The audit log, newest first: every write, who, when, through which channel, from where.

    ``league``: a league's entries (its admins and authority only). Without it: the entries of
    every league where you are admin or authority, and your own entries outside any league
    (API tokens).
    """

    serializer_class = AuditEntrySerializer
    filterset_class = AuditFilter
    permission_classes = [IsAuthenticated]

    def get_queryset(self):
        slug = self.request.query_params.get("league")
        league = None
        if slug is not None:
            league = get_object_or_404(leagues_visible_to(self.request.user), slug=slug)
        return audit_log(self.request.user, league).order_by("-id")

    @extend_schema(parameters=[OpenApiParameter("league", str, description="the league's slug")])
    def list(self, request, *args, **kwargs):
        return super().list(request, *args, **kwargs)
