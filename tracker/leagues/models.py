"""Leagues, their players and who holds which role in them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from tracker.leagues.seasons import DEFAULT_MIN_PLAYERS, DEFAULT_SEASON_LENGTH, SEASON_LENGTHS


def default_time_zone() -> str:
    """A new league's time zone: the site's (``TIME_ZONE``)."""
    return settings.TIME_ZONE


class League(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    is_public = models.BooleanField(default=True)
    # House rules: default announcements per variant, {variant: {announcement: value}}.
    house_rules = models.JSONField(default=dict, blank=True)
    # The league's points formula (tracker/engine/points.py); empty: the default (linear).
    points_formula = models.JSONField(default=dict, blank=True)
    # Seasons (tracker/leagues/seasons.py): standings per year, quarter, month or all time.
    season_length = models.CharField(
        max_length=8, choices=SEASON_LENGTHS, default=DEFAULT_SEASON_LENGTH
    )
    # A finished night counts toward the standings only with at least this many players.
    min_players = models.PositiveSmallIntegerField(default=DEFAULT_MIN_PLAYERS)
    # Where the league plays: an IANA name (``Europe/Paris``), the zone of its calendar's times.
    time_zone = models.CharField(max_length=64, default=default_time_zone)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("league", kwargs={"slug": self.slug})


class Role(models.TextChoices):
    ADMIN = "admin", "Admin"
    SCOREKEEPER = "scorekeeper", "Scorekeeper"
    AUTHORITY = "authority", "Authority"
    MEMBER = "member", "Member"


class Membership(models.Model):
    """One role of a user in a league. A user may hold several roles in a league (one row
    each, e.g. admin and authority); they may do what any of their roles may do."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["league", "user", "role"], name="one_membership_per_league_role"
            )
        ]
        ordering = ["league_id", "user_id", "role"]

    def __str__(self) -> str:
        return f"{self.user} ({self.role}) in {self.league}"


class Player(models.Model):
    """A person at the table, in one league (optionally linked to a user account)."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=80)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="players",
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["name"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="player_name_unique_in_league")
        ]

    def __str__(self) -> str:
        return self.name


def invite_path(token: str) -> str:
    """The path of an invite's link (``/invites/<token>/``); only its maker ever has it."""
    return reverse("invite", kwargs={"token": token})


class Invite(models.Model):
    """A link that gives its holder a role in a league when they accept it (after signing up
    or logging in). Single use (the first to accept uses it up) or multi use, until it
    expires or an admin revokes it.

    The link's token itself is never stored: ``digest`` is its SHA-256 (hex, the same
    ``token_digest`` as the API tokens'), and the link is shown once, when the invite is
    made. ``fingerprint`` (``inv_`` and the digest's first 12 characters) names an invite in
    listings without giving its link away.
    """

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invites")
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    digest = models.CharField(max_length=64, unique=True)
    single_use = models.BooleanField(default=True)
    expires_at = models.DateTimeField()
    uses = models.PositiveIntegerField(default=0)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="invites_made",
    )
    created_at = models.DateTimeField(default=timezone.now)
    revoked = models.BooleanField(default=False)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.role} invite to {self.league}"

    @property
    def fingerprint(self) -> str:
        return "inv_" + self.digest[:12]

    def state(self, now=None) -> str:
        """``open``, ``used`` (a single-use invite accepted), ``expired`` or ``revoked``."""
        now = now or timezone.now()
        if self.revoked:
            return "revoked"
        if self.single_use and self.uses:
            return "used"
        if now >= self.expires_at:
            return "expired"
        return "open"


class CalendarFeed(models.Model):
    """A secret address of the league's iCalendar feed (its game nights), for a calendar app
    to subscribe to without an account, until an admin revokes it.

    As for invites, the token itself is never stored: ``digest`` is its SHA-256 (hex), and
    the address is shown once, when the feed link is made; ``fingerprint`` names it."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="calendar_feeds")
    digest = models.CharField(max_length=64, unique=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"calendar feed of {self.league}"

    @property
    def fingerprint(self) -> str:
        return "cal_" + self.digest[:12]
