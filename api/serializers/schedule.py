"""Serializers of scheduled nights and their answers."""

from __future__ import annotations

from rest_framework import serializers

from tracker.engine.schedule import ANSWERS
from tracker.schedule.models import CheckIn, Rsvp, ScheduledNight
from tracker.schedule.selectors import night_answers


class RsvpSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Rsvp
        fields = [
            "player",
            "player_name",
            "answer",
            "seat",
            "waitlisted_at",
            "answered_at",
            "no_show",
        ]
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
            "started_at",
            "tournament",
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


class CheckInSerializer(serializers.ModelSerializer):
    player_name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = CheckIn
        fields = ["player", "player_name", "buy_in", "checked_in_at"]
        read_only_fields = fields


class CheckInRequestSerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="a roster player's id")
    buy_in = serializers.BooleanField(
        default=True,
        help_text="paid the buy-in at the door (recorded when the night starts, if it has one)",
    )


class CheckOutRequestSerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="a checked-in player's id")


class NightStartedSerializer(serializers.Serializer):
    night = serializers.IntegerField()
    tournament = serializers.IntegerField()
    seats = serializers.ListField(
        child=serializers.IntegerField(), help_text="player ids in seat order (drawn)"
    )
    no_shows = serializers.ListField(child=serializers.IntegerField())


class MyUpcomingNightSerializer(serializers.Serializer):
    night = serializers.IntegerField()
    league = serializers.CharField()
    starts_at = serializers.DateTimeField()
    place = serializers.CharField()
    player = serializers.IntegerField()
    answer = serializers.CharField(allow_blank=True, help_text="yes, no, maybe or empty")
    seat = serializers.CharField(allow_blank=True, help_text="going, waitlist or empty")


class MyDebtSerializer(serializers.Serializer):
    other = serializers.CharField(help_text="the other party's name (or 'the house')")
    amount = serializers.IntegerField(help_text="minor units")
    amount_text = serializers.CharField()
    owes = serializers.BooleanField(help_text="true: the player pays it; false: is paid")
    paid = serializers.BooleanField()


class MyPastNightSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    name = serializers.CharField()
    date = serializers.DateField()
    league = serializers.CharField()
    player = serializers.IntegerField()
    finished = serializers.BooleanField()
    place = serializers.IntegerField(allow_null=True)
    entrants = serializers.IntegerField()
    result = serializers.IntegerField(allow_null=True, help_text="minor units")
    result_text = serializers.CharField(allow_null=True)
    debts = MyDebtSerializer(many=True)


class MyNightsSerializer(serializers.Serializer):
    upcoming = MyUpcomingNightSerializer(many=True)
    past = MyPastNightSerializer(many=True)
    owe = serializers.ListField(child=serializers.CharField(), help_text="per currency, unpaid")
    owed = serializers.ListField(child=serializers.CharField(), help_text="per currency, unpaid")
    missed = serializers.ListField(
        child=serializers.IntegerField(), help_text="scheduled nights said yes to and missed"
    )
