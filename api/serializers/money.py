"""Money: a league's settings, a night's rules, entries, pool and payouts (docs/money.md)."""

from __future__ import annotations

from rest_framework import serializers

from tracker.money.models import PAYOUT_CHOICES, REBUY_WHEN_CHOICES

AMOUNT = "in minor units (cents); a whole number of the league's unit"


class MoneyRulesSerializer(serializers.Serializer):
    """A night's money rules; in a request every field is optional (the league's default)."""

    buy_in = serializers.IntegerField(min_value=0, required=False, help_text=AMOUNT)
    fee = serializers.IntegerField(
        min_value=0,
        required=False,
        help_text=f"kept out of the pool, per entry, rebuy and add-on; {AMOUNT}",
    )
    bounty = serializers.IntegerField(min_value=0, required=False, help_text=f"per entry; {AMOUNT}")
    rebuy_price = serializers.IntegerField(
        min_value=0, required=False, help_text=f"0: no rebuys; {AMOUNT}"
    )
    rebuy_chips = serializers.IntegerField(min_value=0, required=False)
    rebuy_until_hand = serializers.IntegerField(
        min_value=0, required=False, help_text="rebuys are allowed before this hand, and no later"
    )
    rebuy_max = serializers.IntegerField(min_value=0, required=False, help_text="per player")
    rebuy_when = serializers.ChoiceField(choices=REBUY_WHEN_CHOICES, required=False)
    addon_price = serializers.IntegerField(
        min_value=0, required=False, help_text=f"0: no add-on; {AMOUNT}"
    )
    addon_chips = serializers.IntegerField(min_value=0, required=False)
    addon_at_hand = serializers.IntegerField(
        min_value=0, required=False, help_text="the add-on is taken when this hand is next"
    )
    payout_template = serializers.ChoiceField(choices=PAYOUT_CHOICES, required=False)
    payout_custom = serializers.ListField(
        child=serializers.IntegerField(min_value=0),
        required=False,
        max_length=50,
        help_text="custom percentages (adding up to 100) or fixed amounts, first place first",
    )


class LeagueMoneySerializer(MoneyRulesSerializer):
    """A league's currency, payout unit, locale and the default money rules of its nights."""

    league = serializers.CharField(source="league.slug", read_only=True)
    currency = serializers.CharField(required=False, max_length=3, help_text="ISO 4217, e.g. USD")
    unit = serializers.IntegerField(
        min_value=1,
        required=False,
        help_text="payouts round to this many minor units (100: whole dollars)",
    )
    locale = serializers.CharField(
        required=False, max_length=16, help_text="how amounts are written, e.g. en_US, de_DE"
    )


class NightMoneySerializer(MoneyRulesSerializer):
    currency = serializers.CharField(read_only=True)
    unit = serializers.IntegerField(read_only=True)


class EntryCreateSerializer(serializers.Serializer):
    player = serializers.IntegerField(help_text="the id of a player seated at the night")
    kind = serializers.ChoiceField(
        choices=[("buy_in", "Buy-in"), ("rebuy", "Rebuy"), ("addon", "Add-on")]
    )


class EntrySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    kind = serializers.CharField()
    paid = serializers.IntegerField(help_text="the fee and bounty included; minor units")
    fee = serializers.IntegerField()
    bounty = serializers.IntegerField()
    chips = serializers.IntegerField()
    before_hand = serializers.IntegerField(
        source="at_hand", help_text="the chips play from this hand"
    )
    recorded_at = serializers.DateTimeField(source="created_at")
    undone_at = serializers.DateTimeField(allow_null=True)


class PlayerMoneySerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    bought_in = serializers.BooleanField()
    rebuys = serializers.IntegerField()
    addon = serializers.BooleanField()
    paid = serializers.IntegerField()


class PoolSerializer(serializers.Serializer):
    paid_in = serializers.IntegerField()
    fees = serializers.IntegerField()
    bounties = serializers.IntegerField()
    prize_pool = serializers.IntegerField()
    prize_pool_text = serializers.CharField(
        help_text="the prize pool as the league's locale writes it"
    )


class PayoutSerializer(serializers.Serializer):
    player = serializers.IntegerField()
    place = serializers.IntegerField(help_text="the final place (tied players share one)")
    amount = serializers.IntegerField(help_text="minor units, a whole number of the unit")
    amount_text = serializers.CharField()


class NightMoneySummarySerializer(serializers.Serializer):
    tournament = serializers.IntegerField()
    currency = serializers.CharField()
    unit = serializers.IntegerField()
    locale = serializers.CharField()
    rules = NightMoneySerializer()
    players = PlayerMoneySerializer(many=True)
    entries = EntrySerializer(many=True)
    pool = PoolSerializer()
    place_payouts = serializers.ListField(
        child=serializers.IntegerField(), help_text="what each place pays, first place first"
    )
    payouts = PayoutSerializer(many=True, help_text="empty until the night is finished")


MINOR = "in minor units of the currency (cents)"


class MoneyTotalsSerializer(serializers.Serializer):
    """A player's money over nights (docs/money.md, "Standings and statistics"): the finished
    nights with money, in the league's currency."""

    currency = serializers.CharField(help_text="ISO 4217")
    nights = serializers.IntegerField(help_text="finished nights with money played")
    net = serializers.IntegerField(
        help_text=f"payouts and bounties less buy-ins, rebuys, add-ons and fees; {MINOR}"
    )
    net_text = serializers.CharField(help_text="the net as the league's locale writes money")
    paid = serializers.IntegerField(help_text=f"everything paid in, fees included; {MINOR}")
    payouts = serializers.IntegerField(help_text=MINOR)
    bounties = serializers.IntegerField(
        help_text=f"the bounties won off the players they busted; {MINOR}"
    )
    in_the_money = serializers.IntegerField(help_text="nights with a payout")
    in_the_money_pct = serializers.FloatField(
        source="itm_pct", allow_null=True, help_text="in_the_money over nights, in percent"
    )
    roi_pct = serializers.FloatField(
        allow_null=True, help_text="net over paid, in percent; null when nothing was paid"
    )


class NightMoneyResultSerializer(serializers.Serializer):
    tournament = serializers.IntegerField(source="tournament_id")
    name = serializers.CharField()
    date = serializers.DateField()
    paid = serializers.IntegerField(help_text=MINOR)
    payout = serializers.IntegerField(help_text=MINOR)
    bounties = serializers.IntegerField(help_text=MINOR)
    bounty_back = serializers.IntegerField(
        help_text=f"their own bounty, when they never went out; {MINOR}"
    )
    result = serializers.IntegerField(help_text=f"payout + bounties + bounty_back - paid; {MINOR}")
    cumulative = serializers.IntegerField(help_text=f"the sum of the results so far; {MINOR}")


class PlayerMoneyNightsSerializer(serializers.Serializer):
    """A player's money night by night, over every finished night with money of their league
    that they played (friendly nights too), in playing order."""

    player = serializers.IntegerField()
    currency = serializers.CharField()
    locale = serializers.CharField()
    totals = MoneyTotalsSerializer(allow_null=True, help_text="null: no night with money")
    nights = NightMoneyResultSerializer(many=True)
