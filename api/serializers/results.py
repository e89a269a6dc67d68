"""A finished night's money results: bounties, each player's result, the settle-up."""

from __future__ import annotations

from rest_framework import serializers


class BountySerializer(serializers.Serializer):
    busted = serializers.IntegerField(help_text="the player who went out")
    amount = serializers.IntegerField(help_text="their bounty, minor units")
    hand = serializers.IntegerField(help_text="the hand's id")
    hand_number = serializers.IntegerField()
    pot = serializers.IntegerField(help_text="the pot that took their last chips (0: main)")
    shares = serializers.ListField(
        child=serializers.DictField(), help_text="[{player, amount}] the pot's winners"
    )


class PlayerMoneyResultSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    paid = serializers.IntegerField(help_text="buy-in, rebuys, add-ons, fees and bounty paid")
    payout = serializers.IntegerField()
    bounties = serializers.IntegerField(help_text="bounties won off the players they busted")
    bounty_back = serializers.IntegerField(help_text="their own bounty, if never out")
    result = serializers.IntegerField(help_text="payout + bounties + bounty_back - paid")
    result_text = serializers.CharField()


class TransferSerializer(serializers.Serializer):
    position = serializers.IntegerField(help_text="in the settle-up, from 0 (to mark it paid)")
    payer = serializers.CharField(help_text='a player id, or "house" (which keeps the fees)')
    payee = serializers.CharField(help_text='a player id, or "house"')
    amount = serializers.IntegerField()
    amount_text = serializers.CharField()
    paid_at = serializers.DateTimeField(allow_null=True, help_text="null until marked paid")


class NightResultsSerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    final = serializers.BooleanField(help_text="false until the night is finished")
    currency = serializers.CharField()
    fees = serializers.IntegerField(help_text="kept by the house")
    bounties = BountySerializer(many=True)
    results = PlayerMoneyResultSerializer(many=True)
    transfers = TransferSerializer(many=True)
    minimal = serializers.BooleanField(
        help_text="the transfers are proven the fewest (always up to 16 parties)"
    )
