"""Serializers for disputes, rulings, evaluations, house rules, the audit log and API tokens.

Input serializers check shapes only; the services enforce the rules.
"""

from __future__ import annotations

from rest_framework import serializers

from tracker.audit.models import AuditEntry
from tracker.hands.models import Dispute, Evaluation
from tracker.rulings.models import Ruling, RulingResult

MAX_ID = 2**63 - 1
AWARD_HELP = '{"<player id>": chips, ...}: the chips each player gets; they add up to the pot'


class PotRefSerializer(serializers.Serializer):
    hand = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text="the hand's id")
    pot = serializers.IntegerField(
        min_value=0,
        max_value=MAX_ID,
        default=0,
        help_text="the pot's index in the hand: 0 is the main pot",
    )


class DisputeCreateSerializer(PotRefSerializer):
    reason = serializers.CharField(max_length=2000, help_text="why the result is wrong")


class RulingCreateSerializer(PotRefSerializer):
    result = serializers.ChoiceField(
        choices=RulingResult.choices,
        help_text="engine: the engine's award stands; table: the table's; award: the one given",
    )
    award = serializers.DictField(
        child=serializers.IntegerField(min_value=0, max_value=MAX_ID),
        required=False,
        allow_empty=True,
        help_text=AWARD_HELP + " (with result 'award' only)",
    )
    reason = serializers.CharField(max_length=2000, help_text="required: why this result stands")


class ChipsSerializer(serializers.DictField):
    """{player id: chips}"""

    child = serializers.IntegerField()


class DisputeSerializer(serializers.ModelSerializer):
    raised_by = serializers.SerializerMethodField()
    pot = serializers.IntegerField(source="pot.index", read_only=True)

    class Meta:
        model = Dispute
        fields = [
            "id",
            "hand",
            "pot",
            "source",
            "reason",
            "raised_by",
            "engine_version",
            "created_at",
        ]
        read_only_fields = fields

    def get_raised_by(self, obj) -> str | None:
        return obj.raised_by.get_username() if obj.raised_by_id else None


class RulingSerializer(serializers.ModelSerializer):
    pot = serializers.IntegerField(source="pot.index", read_only=True)
    pot_id = serializers.IntegerField(read_only=True)
    league = serializers.CharField(source="hand.tournament.league.slug", read_only=True)
    tournament = serializers.IntegerField(source="hand.tournament_id", read_only=True)
    hand_number = serializers.IntegerField(source="hand.number", read_only=True)
    ruled_by = serializers.CharField(source="ruled_by.username", read_only=True)
    award = ChipsSerializer(read_only=True)
    previous_award = ChipsSerializer(read_only=True)
    correction = ChipsSerializer(read_only=True)
    engine_award = ChipsSerializer(read_only=True)
    table_award = ChipsSerializer(read_only=True, allow_null=True)
    superseded_by = serializers.SerializerMethodField()
    flagged_hands = serializers.ListField(child=serializers.IntegerField(), read_only=True)

    class Meta:
        model = Ruling
        fields = [
            "id",
            "league",
            "tournament",
            "hand",
            "hand_number",
            "pot",
            "pot_id",
            "result",
            "award",
            "previous_award",
            "correction",
            "engine_award",
            "table_award",
            "engine_version",
            "override",
            "reason",
            "ruled_by",
            "created_at",
            "supersedes",
            "superseded_by",
            "dispute",
            "flagged_hands",
        ]
        read_only_fields = fields

    def get_superseded_by(self, obj) -> int | None:
        try:
            return obj.superseded_by.pk
        except Ruling.superseded_by.RelatedObjectDoesNotExist:
            return None


class ReadHandValueSerializer(serializers.Serializer):
    text = serializers.CharField(required=False)
    category = serializers.CharField(required=False)
    cards = serializers.ListField(child=serializers.CharField(), required=False)
    wild = serializers.ListField(
        child=serializers.DictField(child=serializers.CharField()),
        required=False,
        help_text='[{"card": the wild card, "as": the card it stood for}]',
    )


class PlayerReadingSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    eligible = serializers.BooleanField()
    down = serializers.SerializerMethodField()
    up = serializers.SerializerMethodField()
    high = ReadHandValueSerializer(allow_null=True)
    low = ReadHandValueSerializer(allow_null=True)
    declare = serializers.CharField(allow_null=True)
    high_winner = serializers.BooleanField()
    low_winner = serializers.BooleanField()
    engine = serializers.IntegerField(help_text="chips the engine awards this player")
    table = serializers.IntegerField(allow_null=True, help_text="chips the table awarded")
    stands = serializers.IntegerField(help_text="chips awarded by the result that stands")

    def get_down(self, obj) -> list[str]:
        return [c.code for c in obj.cards if not c.up]

    def get_up(self, obj) -> list[str]:
        return [c.code for c in obj.cards if c.up]


class DisputedPotSerializer(serializers.Serializer):
    """A pot put to the authority: both readings side by side, the disputes and the rulings."""

    id = serializers.IntegerField(source="pot.pk", help_text="the pot's id")
    league = serializers.CharField(source="hand.tournament.league.slug")
    tournament = serializers.IntegerField(source="hand.tournament_id")
    tournament_name = serializers.CharField(source="hand.tournament.name")
    hand = serializers.IntegerField(source="hand.pk")
    hand_number = serializers.IntegerField(source="hand.number")
    pot = serializers.IntegerField(source="pot.index")
    amount = serializers.IntegerField(source="pot.amount")
    eligible = serializers.ListField(child=serializers.IntegerField(), source="pot.eligible")
    state = serializers.ChoiceField(choices=[("open", "open"), ("ruled", "ruled"), ("", "none")])
    variant = serializers.CharField(source="hand.variant")
    options = serializers.DictField(source="hand.options", help_text="announcements of the hand")
    engine_version = serializers.CharField(source="hand.engine_version")
    engine_award = ChipsSerializer(source="pot.engine_award")
    table_award = ChipsSerializer(source="pot.table_award", allow_null=True)
    award = ChipsSerializer(source="pot.award", help_text="the result that stands")
    disputed = serializers.BooleanField(source="pot.disputed")
    overridden = serializers.BooleanField(source="pot.overridden")
    community = serializers.CharField(allow_null=True)
    players = PlayerReadingSerializer(many=True)
    disputes = serializers.SerializerMethodField()
    rulings = serializers.SerializerMethodField()

    def get_disputes(self, obj) -> list[dict]:
        return DisputeSerializer([d.dispute for d in obj.disputes], many=True).data

    def get_rulings(self, obj) -> list[dict]:
        return RulingSerializer([r.ruling for r in obj.rulings], many=True).data


class EvaluationSerializer(serializers.ModelSerializer):
    class Meta:
        model = Evaluation
        fields = [
            "id",
            "hand",
            "engine_version",
            "source",
            "awards",
            "reading",
            "error",
            "job_id",
            "created_at",
        ]
        read_only_fields = fields


class HouseRulesSerializer(serializers.Serializer):
    league = serializers.CharField(read_only=True)
    house_rules = serializers.DictField(
        child=serializers.DictField(),
        help_text="{variant: {announcement: value}} with RULES.md names; {} for the defaults",
    )


class AuditEntrySerializer(serializers.ModelSerializer):
    league = serializers.CharField(source="league_slug")

    class Meta:
        model = AuditEntry
        fields = [
            "id",
            "created_at",
            "action",
            "actor",
            "actor_id",
            "channel",
            "token_id",
            "ip",
            "league",
            "target_type",
            "target_id",
            "target",
            "data",
        ]
        read_only_fields = fields


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(max_length=4096, trim_whitespace=False)


class TokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="send it as `Authorization: Token <token>`")
    token_id = serializers.CharField(
        help_text="a fingerprint of the token, as the audit log shows it"
    )
    username = serializers.CharField()
    created = serializers.DateTimeField()
