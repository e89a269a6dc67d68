"""A league's house games: the game, its versions, the preview's sample hands
(docs/games/README.md, "A league's games"; the definition format: docs/engine.md)."""

from __future__ import annotations

from rest_framework import serializers

from tracker.games.selectors import HOUSE_PRESETS, MAX_SEED

DEFINITION = (
    "a game definition (docs/engine.md, 'Game definitions'); omitted fields take their "
    "defaults; its name and title are the game's"
)


class GameVersionSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    digest = serializers.CharField(help_text="SHA-256 of the definition's canonical JSON")
    created_by = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()


class LeagueGameSerializer(serializers.Serializer):
    """A house game with its current version's definition (as stored: every field)."""

    slug = serializers.CharField()
    name = serializers.CharField()
    preset = serializers.CharField(allow_null=True, help_text="the preset it was made from")
    archived = serializers.BooleanField()
    loggable_live = serializers.BooleanField(
        help_text=(
            "whether hands of it can be logged live (on a dealer's choice night, while it "
            "is not archived)"
        )
    )
    version = serializers.IntegerField(help_text="the current version's number")
    digest = serializers.CharField()
    definition = serializers.JSONField()


class LeagueGameDetailSerializer(LeagueGameSerializer):
    versions = GameVersionSerializer(many=True, help_text="every version, the newest first")


class LeagueGameCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    preset = serializers.ChoiceField(
        choices=list(HOUSE_PRESETS), required=False, help_text="start from this preset"
    )
    definition = serializers.JSONField(
        required=False, help_text=f"{DEFINITION}; without it, the preset's"
    )


class LeagueGameUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    definition = serializers.JSONField(
        required=False, help_text=f"{DEFINITION}; a change makes a new version"
    )


class GamePreviewRequestSerializer(serializers.Serializer):
    definition = serializers.JSONField(
        required=False, help_text=f"{DEFINITION}; without it, the game's current version"
    )
    seed = serializers.IntegerField(
        min_value=0,
        max_value=MAX_SEED,
        required=False,
        help_text="the same seed deals the same hands; without it, a random one",
    )


class PreviewHandSerializer(serializers.Serializer):
    showdown = serializers.JSONField(help_text="the cards dealt, as POST /evaluate/ reads them")
    result = serializers.JSONField(
        help_text="every hand valued, what was wild, who wins each share, and why"
    )
    wild = serializers.CharField(help_text="what is wild in this hand, in words")


class GamePreviewSerializer(serializers.Serializer):
    seed = serializers.IntegerField()
    digest = serializers.CharField(help_text="of the definition dealt under")
    hands = PreviewHandSerializer(many=True)
