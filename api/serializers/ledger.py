"""A league's money ledger: its entries, the balances and the league's settle-up."""

from __future__ import annotations

from rest_framework import serializers


class LedgerEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.CharField(help_text='a player id, or "house" (which keeps the fees)')
    kind = serializers.CharField(help_text="night, restated, payment or correction")
    amount = serializers.IntegerField(
        help_text="minor units: what the league owes the party goes up by it (down if negative)"
    )
    currency = serializers.CharField()
    tournament = serializers.IntegerField(allow_null=True)
    transfer = serializers.IntegerField(allow_null=True, help_text="a night's settle-up transfer")
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()


class BalanceSerializer(serializers.Serializer):
    player = serializers.CharField(help_text='a player id, or "house"')
    balance = serializers.IntegerField(help_text="positive: owed to them; negative: they owe")
    balance_text = serializers.CharField()


class LedgerTransferSerializer(serializers.Serializer):
    payer = serializers.CharField(help_text='a player id, or "house"')
    payee = serializers.CharField(help_text='a player id, or "house"')
    amount = serializers.IntegerField()
    amount_text = serializers.CharField()


class LeagueLedgerSerializer(serializers.Serializer):
    league = serializers.CharField()
    currency = serializers.CharField()
    balances = BalanceSerializer(many=True, help_text="they add up to zero")
    transfers = LedgerTransferSerializer(many=True, help_text="the league's settle-up")
    minimal = serializers.BooleanField(help_text="the fewest transfers (always up to 16 parties)")
    entries = LedgerEntrySerializer(many=True)


class CorrectionSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    amount = serializers.IntegerField(help_text="minor units, not 0; negative lowers the balance")
    reason = serializers.CharField(max_length=300)


class LedgerPaymentSerializer(serializers.Serializer):
    payer = serializers.CharField(help_text='a player id, or "house"')
    payee = serializers.CharField(help_text='a player id, or "house"')
    amount = serializers.IntegerField(min_value=1)
