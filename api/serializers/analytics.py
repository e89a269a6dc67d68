"""Shapes of the statistics endpoints (docs/analytics.md defines every figure)."""

from __future__ import annotations

from rest_framework import serializers

from api.serializers.money import MoneyTotalsSerializer
from tracker.engine.points import FORMULAS

MONEY_HELP = (
    "the season's money over its finished nights with money that count (docs/money.md); "
    "null for a viewer who is not a member of the league, for a player with no such night, "
    "and when no night of the season had money"
)


class PointsStandingSerializer(serializers.Serializer):
    place = serializers.IntegerField()
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    points = serializers.FloatField(help_text="By the league's points formula")
    events = serializers.IntegerField(help_text="Finished tournaments played")
    events_counted = serializers.IntegerField(
        source="counted", help_text="Events counted in the points (all, or the best N)"
    )
    wins = serializers.IntegerField()
    average_place = serializers.FloatField()
    net_chips = serializers.IntegerField(
        help_text="final chips less the starting chips and the chips bought (rebuys, add-ons)"
    )
    money = MoneyTotalsSerializer(allow_null=True, required=False, help_text=MONEY_HELP)


class PointsFormulaSerializer(serializers.Serializer):
    """The league's points formula; parameters depend on the formula."""

    formula = serializers.ChoiceField(choices=FORMULAS)
    best = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, help_text="Count only the best N events"
    )
    table = serializers.ListField(
        child=serializers.FloatField(min_value=0),
        required=False,
        help_text="formula 'table': points by place, first place first",
    )
    buy_in = serializers.FloatField(
        required=False, min_value=0, help_text="formula 'pokerstars_tlb': the buy-in b"
    )
    top_fraction = serializers.FloatField(
        required=False,
        allow_null=True,
        help_text="formula 'pokerstars_tlb': only places k <= n x top_fraction score",
    )
    description = serializers.CharField(read_only=True)


class PlayerStatsSerializer(serializers.Serializer):
    """One player's statistics over a scope (or one row of a table)."""

    player = serializers.IntegerField(required=False, allow_null=True)
    name = serializers.CharField(required=False)
    scope = serializers.CharField(required=False)
    hands = serializers.IntegerField()
    full_hands = serializers.IntegerField(help_text="Hands recorded as full histories")
    quick_hands = serializers.IntegerField(help_text="Hands recorded as quick entries")
    vpip_pct = serializers.FloatField(allow_null=True)
    complete_pct = serializers.FloatField(allow_null=True)
    raise3_pct = serializers.FloatField(allow_null=True)
    aggression = serializers.FloatField(allow_null=True)
    bets_raises = serializers.IntegerField()
    calls = serializers.IntegerField()
    saw4_pct = serializers.FloatField(allow_null=True)
    saw5_pct = serializers.FloatField(allow_null=True)
    saw6_pct = serializers.FloatField(allow_null=True)
    saw7_pct = serializers.FloatField(allow_null=True)
    showdowns = serializers.IntegerField()
    wtsd_pct = serializers.FloatField(allow_null=True)
    showdowns_won = serializers.IntegerField()
    wsd_pct = serializers.FloatField(allow_null=True)
    net = serializers.IntegerField()
    net_per_hand = serializers.FloatField(allow_null=True)
    chips_won = serializers.IntegerField()
    chips_lost = serializers.IntegerField()
    won_per_hand = serializers.FloatField(allow_null=True)
    lost_per_hand = serializers.FloatField(allow_null=True)
    biggest_pot = serializers.IntegerField()
    five_of_a_kind = serializers.IntegerField()
    wild_per_hand = serializers.FloatField(allow_null=True)
    bring_ins = serializers.IntegerField()
    steal_tries = serializers.IntegerField()
    steals = serializers.IntegerField()
    allin_hands = serializers.IntegerField()
    allin_expected = serializers.FloatField()
    allin_actual = serializers.IntegerField()
    luck = serializers.FloatField(help_text="allin_actual - allin_expected")
    luck_error = serializers.FloatField(help_text="Standard error of the luck (Monte Carlo)")
    categories = serializers.DictField(
        child=serializers.IntegerField(), help_text="Showdown high-hand categories reached"
    )


class PlayerHandLuckSerializer(serializers.Serializer):
    tournament = serializers.CharField()
    tournament_id = serializers.IntegerField()
    date = serializers.DateField(allow_null=True)
    hand = serializers.IntegerField()
    variant = serializers.CharField()
    won = serializers.IntegerField()
    net = serializers.IntegerField()
    all_in_street = serializers.IntegerField(allow_null=True)
    equity = serializers.FloatField(allow_null=True)
    expected = serializers.FloatField(allow_null=True)
    luck = serializers.FloatField(allow_null=True)
    luck_error = serializers.FloatField(allow_null=True)
    method = serializers.CharField(allow_null=True, help_text="exact or mc (Monte Carlo)")


class TournamentHandRowSerializer(serializers.Serializer):
    hand = serializers.IntegerField()
    variant = serializers.CharField()
    level = serializers.IntegerField()
    entry = serializers.CharField()
    status = serializers.CharField()
    player = serializers.CharField()
    player_id = serializers.IntegerField()
    position = serializers.IntegerField()
    starting_stack = serializers.IntegerField()
    put_in = serializers.IntegerField()
    won = serializers.IntegerField()
    net = serializers.IntegerField()
    folded_street = serializers.IntegerField(allow_null=True)
    showdown = serializers.IntegerField(allow_null=True)
    category = serializers.CharField(allow_null=True)
    wild_cards = serializers.IntegerField(allow_null=True)
    vpip = serializers.IntegerField(allow_null=True)
    all_in_street = serializers.IntegerField(allow_null=True)
    equity = serializers.FloatField(allow_null=True)
    expected = serializers.FloatField(allow_null=True)
    luck = serializers.FloatField(allow_null=True)
