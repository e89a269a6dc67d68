"""Serializers of scheduled nights and their answers."""

from __future__ import annotations

from rest_framework import serializers

from tracker.engine.schedule import ANSWERS
from tracker.schedule.models import Rsvp, ScheduledNight
from tracker.schedule.selectors import night_answers


class RsvpSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Rsvp
        fields = ["player", "player_name", "answer", "seat", "waitlisted_at", "answered_at"]
        read_only_fields = fields


class NightSerializer(serializers.ModelSerializer):
    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)

    class Meta:
        model = ScheduledNight
        fields = [
            "id",
            "league",
            "starts_at",
            "place",
            "seats",
            "variant",
            "note",
            "created_at",
            "sequence",
            "cancelled_at",
            "cancel_reason",
        ]
        read_only_fields = fields


class NightDetailSerializer(NightSerializer):
    """A night with who comes: seated, the waitlist in order, maybe, no."""

    answers = serializers.SerializerMethodField()

    class Meta(NightSerializer.Meta):
        fields = [*NightSerializer.Meta.fields, "answers"]
        read_only_fields = fields

    def get_answers(self, obj) -> dict:
        a = night_answers(obj)
        return {
            "going": RsvpSerializer(a.going, many=True).data,
            "waitlist": RsvpSerializer(a.waitlist, many=True).data,
            "maybe": RsvpSerializer(a.maybe, many=True).data,
            "no": RsvpSerializer(a.no, many=True).data,
            "unanswered": [p.pk for p in a.unanswered],
        }


class NightCreateSerializer(serializers.Serializer):
    league = serializers.SlugField()
    starts_at = serializers.DateTimeField(help_text="ISO 8601 with its offset")
    place = serializers.CharField(max_length=200, allow_blank=True)
    seats = serializers.IntegerField(help_text="2 to the game's player limit")
    variant = serializers.CharField(
        default="", allow_blank=True, help_text="empty: dealer's choice"
    )
    note = serializers.CharField(default="", allow_blank=True, max_length=1000)


class NightEditSerializer(serializers.Serializer):
    """What changes (every field optional: those left out stay)."""

    starts_at = serializers.DateTimeField(required=False, help_text="ISO 8601 with its offset")
    place = serializers.CharField(required=False, max_length=200, allow_blank=True)
    seats = serializers.IntegerField(
        required=False, help_text="2 to the game's player limit, not below the players seated"
    )
    note = serializers.CharField(required=False, allow_blank=True, max_length=1000)


class NightCancelSerializer(serializers.Serializer):
    reason = serializers.CharField(
        required=False, default="", allow_blank=True, max_length=500, help_text="told by mail"
    )


class AnswerSerializer(serializers.Serializer):
    player = serializers.IntegerField(
        help_text="a roster player's id (your own, or any for an organiser)"
    )
    answer = serializers.ChoiceField(choices=ANSWERS)
