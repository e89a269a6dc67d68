"""Deals: the options for the players still in, and the agreement (docs/money.md, "Deals")."""

from __future__ import annotations

from rest_framework import serializers

from tracker.money.models import DealOption


class DealPlayerSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    chips = serializers.IntegerField()


class DealRowSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    chips = serializers.IntegerField()
    amount = serializers.IntegerField(help_text="minor units")


class DealSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(source="tournament_id")
    option = serializers.CharField()
    amounts = DealRowSerializer(many=True, help_text="the players still in, seat order")
    agreed_by = serializers.ListField(child=serializers.IntegerField())
    after_hand = serializers.IntegerField(source="at_hand")
    agreed_at = serializers.DateTimeField()
    recorded_by = serializers.CharField(source="recorded_by.username", default=None)


class RefusalSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()


class DealOfferSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    currency = serializers.CharField()
    unit = serializers.IntegerField()
    players = DealPlayerSerializer(many=True, help_text="the players still in, seat order")
    payouts = serializers.ListField(
        child=serializers.IntegerField(), help_text="the places still open, first place first"
    )
    pool = serializers.IntegerField(help_text="the prize money the deal splits")
    options = serializers.DictField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="icm, chip_chop, even: each player's amount, in the order of players",
    )
    refusal = RefusalSerializer(allow_null=True, help_text="why no deal can be made now")
    deal = DealSerializer(allow_null=True, help_text="the deal that ended the night")


class DealCreateSerializer(serializers.Serializer):
    option = serializers.ChoiceField(choices=DealOption.values)
    agreed_by = serializers.ListField(
        child=serializers.IntegerField(), max_length=64, help_text="every player still in"
    )
    amounts = serializers.DictField(
        child=serializers.IntegerField(),
        required=False,
        help_text="custom only: player id -> minor units, adding up to the pool",
    )
