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
            '"declare", "seventh", "paid"}], "community"}; full: {"actions": [PHH actions, p1 = '
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
        return hand_game_data(obj)

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


# The recorded hand's answer, written out: the same body as HandRecordedSerializer (the
# schema's), without building DRF's fields for each POST (a few ms of it, the largest part
# of the answer's time). test_the_recorded_answer_is_the_serializers pins the two together.
_DATETIME = serializers.DateTimeField()


def _int_or_none(value) -> int | None:
    return None if value is None else int(value)


def hand_game_data(hand: Hand) -> dict | None:
    """The house game ``hand`` was dealt under (its slug and version), or None."""
    if not hand.game_version_id:
        return None
    version = hand.game_version
    return {"slug": version.game.slug, "version": version.number}


def hand_recorded_data(hand: Hand, seats, state) -> dict:
    """The body of :class:`HandRecordedSerializer` for ``hand`` just recorded: its ``seats``
    (HandSeat rows with their players, as written) and no pots (settlement makes them), the
    next hand from ``state``, the state of play after the hand."""
    return {
        "id": hand.pk,
        "tournament": hand.tournament_id,
        "number": int(hand.number),
        "level": int(hand.level),
        "stakes": {
            "ante": hand.ante,
            "bring_in": hand.bring_in,
            "small_bet": hand.small_bet,
            "big_bet": hand.big_bet,
        },
        "dealer_seat": int(hand.dealer_seat),
        "variant": str(hand.variant),
        "options": hand.options,
        "game": hand_game_data(hand),
        "entry_mode": str(hand.entry_mode),
        "entry": hand.entry,
        "table_result": hand.table_result,
        "status": str(hand.status),
        "status_reason": str(hand.status_reason),
        "needs_review": bool(hand.needs_review),
        "review_reason": str(hand.review_reason),
        "seats": [
            {
                "player": seat.player_id,
                "name": str(seat.player.name),
                "seat": int(seat.seat),
                "position": int(seat.position),
                "starting_stack": int(seat.starting_stack),
                "contributed": int(seat.contributed),
                "won": _int_or_none(seat.won),
                "folded_street": _int_or_none(seat.folded_street),
                "down": [str(card) for card in seat.down],
                "up": [str(card) for card in seat.up],
            }
            for seat in seats
        ],
        "pots": [],
        "engine_reading": hand.engine_reading,
        "engine_version": str(hand.engine_version),
        "recorded_at": _DATETIME.to_representation(hand.recorded_at),
        "settled_at": _DATETIME.to_representation(hand.settled_at),
        "next_hand": next_hand_data(state),
    }


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
