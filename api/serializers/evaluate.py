"""Request and response shapes of POST /api/v1/evaluate/ (for the schema; the engine
checks the request itself and names the field at fault)."""

from __future__ import annotations

from rest_framework import serializers

from tracker.tournaments.models import VARIANT_CHOICES


class ShowdownPlayerSerializer(serializers.Serializer):
    down = serializers.ListField(
        child=serializers.CharField(),
        help_text="face-down cards in the order dealt (first, second, then the seventh if it "
        'came down), e.g. ["Kd", "4c", "2c"]; K♦, KD, 10♣ and Tc also parse',
    )
    up = serializers.ListField(
        child=serializers.CharField(),
        help_text="face-up cards in the order dealt, door card first (a seventh card taken "
        "or bought face up comes last)",
    )
    declare = serializers.ChoiceField(
        choices=["high", "low", "both"],
        required=False,
        help_text="required when the hand is high_low with declaration = declare",
    )


class EvaluateShowdownSerializer(serializers.Serializer):
    variant = serializers.ChoiceField(choices=VARIANT_CHOICES)
    options = serializers.DictField(
        required=False,
        help_text="announcements by their RULES.md names; omitted ones take their defaults",
    )
    community = serializers.CharField(
        required=False,
        allow_null=True,
        help_text="the shared face-up seventh card when the deck ran short (players then hold 6)",
    )
    players = ShowdownPlayerSerializer(many=True)


class WildCardSerializer(serializers.Serializer):
    card = serializers.CharField(help_text="the wild card held")
    locals()["as"] = serializers.CharField(help_text="the card it stands for")


class HandValueSerializer(serializers.Serializer):
    category = serializers.ChoiceField(
        choices=[
            "five_of_a_kind",
            "straight_flush",
            "four_of_a_kind",
            "full_house",
            "flush",
            "straight",
            "three_of_a_kind",
            "two_pair",
            "one_pair",
            "high_card",
        ]
    )
    ranks = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="five tie-break ranks, 2..14 (ace 14, or 1 where it plays low); equal "
        "category and ranks tie",
    )
    cards = serializers.ListField(
        child=serializers.CharField(),
        help_text="the five cards as played, wild cards as what they stand for",
    )
    wild = WildCardSerializer(many=True)
    text = serializers.CharField()
    qualifies = serializers.BooleanField(required=False, help_text="low hands only")


class PlayerResultSerializer(serializers.Serializer):
    high = HandValueSerializer(allow_null=True)
    low = HandValueSerializer(allow_null=True)
    declare = serializers.CharField(required=False)


class ShowdownResultSerializer(serializers.Serializer):
    players = PlayerResultSerializer(many=True)
    high_winners = serializers.ListField(child=serializers.IntegerField())
    low_winners = serializers.ListField(
        child=serializers.IntegerField(), help_text="only qualifying lows; empty when none"
    )
