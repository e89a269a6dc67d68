"""A league's house games and the versions of their definitions.

``LeagueGame`` is one game of a league: its name, the address it is found at (``slug``,
unique in the league, never changed), the preset it was made from (blank: from scratch)
and whether it is archived. ``LeagueGameVersion`` is one version of its definition, the
JSON ``dump_game`` writes (every field explicit), with the SHA-256 of its canonical JSON
(tracker/core/digest.py). Versions are append-only: a change makes a new version, numbered
from 1, so a hand dealt under a version keeps it (``Hand.game_version``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from tracker.core.models import AppendOnlyModel
from tracker.engine.games import GameDefinition, load_game
from tracker.leagues.models import League


class LeagueGame(models.Model):
    """One house game of a league."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="games")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60)
    # The preset it was made from (tracker/engine/game_presets.py), blank: from scratch.
    preset = models.CharField(max_length=40, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    # Set when archived: no longer offered, its versions and hands kept.
    archived_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["league_id", "name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["league", "slug"], name="league_game_slug"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.league})"

    @property
    def archived(self) -> bool:
        return self.archived_at is not None


class LeagueGameVersion(AppendOnlyModel):
    """One version of a house game's definition (append-only)."""

    game = models.ForeignKey(LeagueGame, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    # The definition as ``tracker.engine.games.dump_game`` writes it.
    definition = models.JSONField()
    # SHA-256 of the definition's canonical JSON (tracker.core.digest).
    digest = models.CharField(max_length=64)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="league_game_version_number"),
        ]

    def __str__(self) -> str:
        return f"{self.game.name} v{self.number}"

    @property
    def game_definition(self) -> GameDefinition:
        """The stored definition, loaded (it was valid when stored)."""
        return load_game(self.definition)
