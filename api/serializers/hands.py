"""Serializers for hands and re-evaluation jobs."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.core import NextHandSerializer, next_hand_data
from tracker.hands.models import EntryMode, Hand, Pot, ReevaluationJob
from tracker.tournaments.models import VARIANT_CHOICES


class HandCreateSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    number = serializers.IntegerField(
        required=False,
        min_value=1,
        help_text=(
            "the hand number you mean to record; another hand sent with a taken number gets "
            "409, the same hand sent again (a retry) gets 200 with the hand it recorded"
        ),
    )
    variant = serializers.ChoiceField(
        choices=VARIANT_CHOICES,
        required=False,
        help_text="required when the tournament is dealer's choice",
    )
    options = serializers.DictField(required=False, help_text="announcements (RULES.md names)")
    game = serializers.SlugField(
        required=False,
        help_text="a house game of the tournament's league (its slug), instead of a variant",
    )
    game_version = serializers.IntegerField(
        required=False, min_value=1, help_text="the house game's version (default: the latest)"
    )
    entry_mode = serializers.ChoiceField(choices=EntryMode.choices)
    entry = serializers.DictField(
        help_text=(
            'quick: {"seats": [{"player", "put_in", "folded", "down", "up", "bought", '
            '"declare", "seventh"}], "community"}; full: {"actions": [PHH actions, p1 = '
            'first player left of the dealer], "seventh_card", "buys", "declarations"}'
        )
    )
    table_result = serializers.DictField(
        required=False,
        allow_null=True,
        help_text='who the table awarded the pots to: {"winners": [ids]}, {"high": [...], '
        '"low": [...]}, or {"pots": [one of those per pot]}',
    )


class HandVoidSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=500)


class PotSerializer(serializers.ModelSerializer):
    class Meta:
        model = Pot
        fields = ["index", "amount", "eligible", "engine_award", "table_award", "award", "disputed"]


class HandSeatSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    seat = serializers.IntegerField()
    position = serializers.IntegerField()
    starting_stack = serializers.IntegerField()
    contributed = serializers.IntegerField()
    won = serializers.IntegerField(allow_null=True)
    folded_street = serializers.IntegerField(allow_null=True)
    down = serializers.ListField(child=serializers.CharField())
    up = serializers.ListField(child=serializers.CharField())


class HandGameSerializer(serializers.Serializer):
    slug = serializers.CharField()
    version = serializers.IntegerField()


class HandSerializer(serializers.ModelSerializer):
    seats = HandSeatSerializer(source="hand_seats", many=True, read_only=True)
    pots = PotSerializer(many=True, read_only=True)
    stakes = serializers.SerializerMethodField()
    game = serializers.SerializerMethodField()

    class Meta:
        model = Hand
        fields = [
            "id",
            "tournament",
            "number",
            "level",
            "stakes",
            "dealer_seat",
            "variant",
            "options",
            "game",
            "entry_mode",
            "entry",
            "table_result",
            "status",
            "status_reason",
            "needs_review",
            "review_reason",
            "seats",
            "pots",
            "engine_reading",
            "engine_version",
            "recorded_at",
            "settled_at",
        ]
        read_only_fields = fields

    @extend_schema_field(HandGameSerializer(allow_null=True))
    def get_game(self, obj) -> dict | None:
        """The house game the hand was dealt under (its slug and version), or null."""
        version = obj.game_version if obj.game_version_id else None
        if version is None:
            return None
        return {"slug": version.game.slug, "version": version.number}

    def get_stakes(self, obj) -> dict:
        return {
            "ante": obj.ante,
            "bring_in": obj.bring_in,
            "small_bet": obj.small_bet,
            "big_bet": obj.big_bet,
        }


class HandRecordedSerializer(HandSerializer):
    """A hand as recording answers it: the hand, and the next hand to deal as the tournament's
    detail gives it (null when the tournament is over)."""

    # From the state of play after the hand, in context["state"].
    next_hand = serializers.SerializerMethodField()

    class Meta(HandSerializer.Meta):
        fields = HandSerializer.Meta.fields + ["next_hand"]
        read_only_fields = fields

    @extend_schema_field(NextHandSerializer(allow_null=True))
    def get_next_hand(self, obj) -> dict | None:
        return next_hand_data(self.context["state"])


class HandListSerializer(serializers.ModelSerializer):
    class Meta:
        model = Hand
        fields = [
            "id",
            "tournament",
            "number",
            "level",
            "variant",
            "entry_mode",
            "status",
            "status_reason",
            "needs_review",
            "dealer_seat",
            "recorded_at",
            "settled_at",
        ]
        read_only_fields = fields


class ReevaluationCreateSerializer(serializers.Serializer):
    league = serializers.SlugField()
    tournament = serializers.IntegerField(required=False, allow_null=True)


class ReevaluationJobSerializer(serializers.ModelSerializer):
    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    progress = serializers.SerializerMethodField()
    chunks = serializers.SerializerMethodField()

    class Meta:
        model = ReevaluationJob
        fields = [
            "id",
            "league",
            "tournament",
            "status",
            "total",
            "done",
            "changed",
            "progress",
            "chunks",
            "error",
            "created_at",
            "started_at",
            "finished_at",
        ]
        read_only_fields = fields

    @extend_schema_field(
        {
            "type": "object",
            "properties": {"total": {"type": "integer"}, "done": {"type": "integer"}},
        }
    )
    def get_chunks(self, obj) -> dict:
        """The parts the job is split into, which any worker takes, and how many are done."""
        return {"total": obj.chunk_count, "done": obj.chunks.filter(done=True).count()}

    def get_progress(self, obj) -> float:
        return (
            round(obj.done / obj.total, 4) if obj.total else (1.0 if obj.status == "done" else 0.0)
        )
