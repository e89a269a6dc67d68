"""Serializers for leagues, players, memberships and tournaments.

Input serializers check shapes only; the services enforce the rules.
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from api.serializers.analytics import MONEY_HELP
from api.serializers.money import MoneyRulesSerializer, MoneyTotalsSerializer
from tracker.engine.tournament import MAX_SEATS
from tracker.leagues.models import Invite, League, Membership, Player, Role, invite_path
from tracker.leagues.seasons import DEFAULT_MIN_PLAYERS, DEFAULT_SEASON_LENGTH, SEASON_LENGTHS
from tracker.leagues.services import INVITE_DAYS_MAX
from tracker.tournaments.models import VARIANT_CHOICES, Tournament
from tracker.tournaments.selectors import TournamentState


class LeagueSerializer(serializers.ModelSerializer):
    class Meta:
        model = League
        fields = [
            "id",
            "name",
            "slug",
            "is_public",
            "house_rules",
            "season_length",
            "min_players",
            "created_at",
        ]
        read_only_fields = fields


class LeagueStandingSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    events = serializers.IntegerField()
    wins = serializers.IntegerField()
    average_place = serializers.FloatField()
    net_chips = serializers.IntegerField(
        help_text="final chips less the starting chips and the chips bought (rebuys, add-ons)"
    )
    money = MoneyTotalsSerializer(allow_null=True, required=False, help_text=MONEY_HELP)


class LeagueCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    slug = serializers.SlugField(max_length=60, required=False)
    is_public = serializers.BooleanField(default=True)
    house_rules = serializers.DictField(child=serializers.DictField(), required=False)
    season_length = serializers.ChoiceField(
        choices=SEASON_LENGTHS,
        default=DEFAULT_SEASON_LENGTH,
        help_text="how the standings are grouped: a year, a quarter, a month, or all time",
    )
    min_players = serializers.IntegerField(
        default=DEFAULT_MIN_PLAYERS,
        min_value=2,
        max_value=MAX_SEATS,
        help_text="a finished night counts toward the standings with at least this many players",
    )
    creator_is_authority = serializers.BooleanField(
        default=False,
        help_text=(
            "true: the caller becomes the league's authority (role authority: rules on "
            "disputed pots) as well as its admin; false or absent: its admin only"
        ),
    )


class PlayerSerializer(serializers.ModelSerializer):
    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    username = serializers.SerializerMethodField(
        help_text="the account this player is linked to, if any"
    )

    class Meta:
        model = Player
        fields = ["id", "league", "name", "username", "created_at"]
        read_only_fields = fields

    def get_username(self, obj) -> str | None:
        return obj.user.get_username() if obj.user_id else None


class PlayerCreateSerializer(serializers.Serializer):
    league = serializers.SlugField()
    name = serializers.CharField(max_length=80)


class PlayerLinkSerializer(serializers.Serializer):
    username = serializers.CharField(
        max_length=150,
        allow_blank=True,
        allow_null=True,
        help_text="the account to link the player to; empty or null unlinks the player",
    )


class MembershipSerializer(serializers.ModelSerializer):
    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    username = serializers.CharField(source="user.username", read_only=True)

    class Meta:
        model = Membership
        fields = ["id", "league", "username", "role", "created_at"]
        read_only_fields = fields


class MembershipSetSerializer(serializers.Serializer):
    league = serializers.SlugField()
    username = serializers.CharField(
        max_length=150,
        help_text="a member of the league or the account linked to one of its players; "
        "anyone else is invited (POST /invites/)",
    )
    role = serializers.ChoiceField(choices=Role.choices)


class InviteSerializer(serializers.ModelSerializer):
    """An invite, without its link: the token is stored only as its digest, so it is shown
    once, in the answer that makes the invite (InviteCreatedSerializer). ``fingerprint``
    names it (not secret)."""

    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    state = serializers.SerializerMethodField(help_text="open, used, expired or revoked")
    created_by = serializers.SerializerMethodField()
    fingerprint = serializers.CharField(
        read_only=True,
        help_text="names the invite: inv_ and 12 hex digits of its token's SHA-256 (not secret)",
    )

    class Meta:
        model = Invite
        fields = [
            "id",
            "league",
            "role",
            "single_use",
            "uses",
            "expires_at",
            "state",
            "created_by",
            "created_at",
            "fingerprint",
        ]
        read_only_fields = fields

    def get_state(self, obj) -> str:
        return obj.state()

    def get_created_by(self, obj) -> str | None:
        return obj.created_by.get_username() if obj.created_by_id else None


class InviteCreatedSerializer(InviteSerializer):
    """A new invite with its token and link: shown this once (only their digest is stored;
    the list and revoke answers do not carry them)."""

    token = serializers.SerializerMethodField(
        help_text="the invite's secret: shown only in this answer, never again"
    )
    url = serializers.SerializerMethodField(
        help_text="the link to send (carries the token): shown only in this answer"
    )

    class Meta(InviteSerializer.Meta):
        fields = [*InviteSerializer.Meta.fields, "token", "url"]
        read_only_fields = fields

    def get_token(self, obj) -> str:
        return self.context["token"]

    def get_url(self, obj) -> str:
        request = self.context.get("request")
        path = invite_path(self.context["token"])
        return request.build_absolute_uri(path) if request is not None else path


class InviteCreateSerializer(serializers.Serializer):
    league = serializers.SlugField()
    role = serializers.ChoiceField(choices=Role.choices, help_text="the role the invite gives")
    single_use = serializers.BooleanField(
        default=True, help_text="true: the first to accept uses it up; false: many may accept"
    )
    days = serializers.IntegerField(
        default=7, min_value=1, max_value=INVITE_DAYS_MAX, help_text="it expires after this"
    )
    mail_to = serializers.CharField(
        default="",
        allow_blank=True,
        max_length=150,
        help_text="a username: the link is also mailed to that account's verified address",
    )


class InviteAcceptSerializer(serializers.Serializer):
    token = serializers.CharField(max_length=64, help_text="the invite's token (from its link)")


class StakesSerializer(serializers.Serializer):
    level = serializers.IntegerField()
    ante = serializers.IntegerField()
    bring_in = serializers.IntegerField()
    small_bet = serializers.IntegerField()
    big_bet = serializers.IntegerField()


class NextHandSerializer(serializers.Serializer):
    """What the table needs to deal the next hand."""

    number = serializers.IntegerField()
    dealer_seat = serializers.IntegerField()
    stakes = StakesSerializer()
    players = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="player ids dealt in, in position order: first left of the dealer, dealer last",
    )


def next_hand_data(state: TournamentState) -> dict | None:
    """The next hand of ``state`` as the API shows it (NextHandSerializer), or None when the
    tournament is over."""
    if state.over:
        return None
    return {
        "number": state.next_number,
        "dealer_seat": state.next_dealer,
        "stakes": {"level": state.next_stakes.level, **state.next_stakes.as_dict()},
        "players": [s.player_id for s in state.next_positions()],
    }


class StandingSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField()
    seat = serializers.IntegerField()
    chips = serializers.IntegerField()
    place = serializers.IntegerField()
    out = serializers.BooleanField(source="is_out")
    out_hand = serializers.IntegerField(allow_null=True)


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(source="number")
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")


class TournamentSerializer(serializers.ModelSerializer):
    league = serializers.SlugRelatedField(slug_field="slug", read_only=True)
    seats = SeatSerializer(many=True, read_only=True)
    # "" is dealer's choice (declared here: a read-only model field would lose allow_blank,
    # and the schema would then refuse the empty value the API answers with).
    default_variant = serializers.ChoiceField(
        choices=VARIANT_CHOICES, allow_blank=True, read_only=True
    )

    class Meta:
        model = Tournament
        fields = [
            "id",
            "league",
            "name",
            "date",
            "status",
            "starting_chips",
            "hands_per_level",
            "hand_limit",
            "stakes_schedule",
            "default_variant",
            "default_options",
            "counts_toward_standings",
            "seats_drawn",
            "first_dealer_seat",
            "seats",
            "created_at",
            "finished_at",
        ]
        read_only_fields = fields


class TournamentLiveSerializer(TournamentSerializer):
    """A tournament with its live state: standings, stakes now, hands left."""

    hands_recorded = serializers.IntegerField(source="state.hands_recorded", read_only=True)
    hands_pending = serializers.IntegerField(source="state.pending", read_only=True)
    hands_left = serializers.IntegerField(source="state.hands_left", read_only=True)
    next_hand = serializers.SerializerMethodField()
    standings = StandingSerializer(many=True, read_only=True)

    class Meta(TournamentSerializer.Meta):
        fields = TournamentSerializer.Meta.fields + [
            "hands_recorded",
            "hands_pending",
            "hands_left",
            "next_hand",
            "standings",
        ]
        read_only_fields = fields

    @extend_schema_field(NextHandSerializer(allow_null=True))
    def get_next_hand(self, obj) -> dict | None:
        return next_hand_data(obj.state)


@extend_schema_field(
    {
        "type": "array",
        "items": {
            "type": "array",
            "items": {"type": "integer", "minimum": 0},
            "minItems": 4,
            "maxItems": 4,
        },
    }
)
class StakesScheduleField(serializers.JSONField):
    """A stakes schedule, taken as sent: ``tournament_create`` checks it in one place with
    the page's rows (tracker.engine.tournament.check_schedule: whole numbers of chips, at most
    every chip of a full table, at most the levels the night reaches)."""


class TournamentCreateSerializer(serializers.Serializer):
    league = serializers.SlugField()
    name = serializers.CharField(max_length=120)
    date = serializers.DateField(required=False)
    players = serializers.ListField(
        child=serializers.IntegerField(),
        min_length=2,
        max_length=8,
        help_text="player ids in seat order, clockwise",
    )
    starting_chips = serializers.IntegerField(default=1000, min_value=1)
    hands_per_level = serializers.IntegerField(default=5, min_value=1)
    hand_limit = serializers.IntegerField(default=50, min_value=1)
    stakes_schedule = StakesScheduleField(
        required=False,
        help_text="[[ante, bring_in, small_bet, big_bet], ...] per level, whole numbers of "
        "chips, each at most every chip of a full table (8 x max(starting_chips, 1000)), at "
        "most ceil(hand_limit / hands_per_level) levels; default: the house schedule",
    )
    default_variant = serializers.ChoiceField(
        choices=[("", "Dealer's choice"), *VARIANT_CHOICES], default="", allow_blank=True
    )
    default_options = serializers.DictField(required=False)
    seating = serializers.ChoiceField(
        choices=[("chosen", "In the order of players"), ("random", "Drawn at random")],
        default="chosen",
        help_text="'random' draws the seats on the server (the tournament says seats_drawn)",
    )
    first_dealer = serializers.IntegerField(
        required=False, help_text="the player id who deals the first hand; default: seat 0"
    )
    counts_toward_standings = serializers.BooleanField(
        default=True, help_text="off: a friendly night, left out of the league's standings"
    )
    money = MoneyRulesSerializer(
        required=False,
        help_text="the night's money rules; the league's defaults for any left out (an admin "
        "may change them)",
    )
