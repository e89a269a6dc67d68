"""Domain models: leagues, players, tournaments, hands, pots and the chip ledger.

Stacks are never stored: a player's stack in a tournament is the sum of their
ledger entries (the starting chips, then per settled hand their contribution
as a negative entry and their pot awards as positive ones, then any ruling
corrections). Every settled hand's entries sum to zero, so the stacks of a
tournament always add up to its starting chips times its players.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from tracker.engine.announcements import VARIANT_TITLES, VARIANTS

VARIANT_CHOICES = [(v, VARIANT_TITLES[v]) for v in VARIANTS]


class League(models.Model):
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=60, unique=True)
    is_public = models.BooleanField(default=True)
    # House rules: default announcements per variant, {variant: {announcement: value}}.
    house_rules = models.JSONField(default=dict, blank=True)
    # The league's points formula (tracker/engine/points.py); empty: the default (linear).
    points_formula = models.JSONField(default=dict, blank=True)
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
    """A user's role in a league."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="memberships"
    )
    role = models.CharField(max_length=16, choices=Role.choices, default=Role.MEMBER)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["league", "user"], name="one_membership_per_league")
        ]

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


class TournamentStatus(models.TextChoices):
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"


class Tournament(models.Model):
    """A game night: players in seat order, a stakes schedule and at most ``hand_limit`` hands."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(max_length=120)
    date = models.DateField(default=timezone.localdate)
    starting_chips = models.PositiveIntegerField(default=1000)
    hands_per_level = models.PositiveSmallIntegerField(default=5)
    hand_limit = models.PositiveSmallIntegerField(default=50)
    # [[ante, bring_in, small_bet, big_bet], ...] per level.
    stakes_schedule = models.JSONField()
    # Empty: dealer's choice (each hand names its variant).
    default_variant = models.CharField(max_length=32, choices=VARIANT_CHOICES, blank=True)
    default_options = models.JSONField(default=dict, blank=True)
    status = models.CharField(
        max_length=16, choices=TournamentStatus.choices, default=TournamentStatus.RUNNING
    )
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-date", "-id"]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("tournament", kwargs={"pk": self.pk})


class Seat(models.Model):
    """A player's seat at a tournament's table; seats are numbered clockwise from 0."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    number = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="seat_number_unique"),
            models.UniqueConstraint(fields=["tournament", "player"], name="one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"seat {self.number}: {self.player}"


class FinalStanding(models.Model):
    """A player's final place in a finished tournament (written when it finishes)."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="final_standings"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="final_standings")
    place = models.PositiveSmallIntegerField()
    chips = models.PositiveIntegerField()
    out_hand = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "place"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_final_standing")
        ]

    def __str__(self) -> str:
        return f"{self.player}: place {self.place} in {self.tournament}"


class HandStatus(models.TextChoices):
    RECORDED = "recorded", "Pending"  # stored, waiting for the worker to settle it
    VERIFIED = (
        "verified",
        "Verified",
    )  # the engine agrees with the table (or there was no table result)
    DISPUTED = "disputed", "Disputed"  # the engine and the table disagree on at least one pot
    INVALID = "invalid", "Invalid"  # the stacks do not allow what the hand records
    VOID = "void", "Void"  # an invalid hand the authority or an admin declared void: no chips move


class EntryMode(models.TextChoices):
    FULL = "full", "Full history"
    QUICK = "quick", "Quick entry"


class Hand(models.Model):
    """One hand of a tournament, as recorded, with the engine's reading once settled."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    level = models.PositiveSmallIntegerField()
    ante = models.PositiveIntegerField()
    bring_in = models.PositiveIntegerField()
    small_bet = models.PositiveIntegerField()
    big_bet = models.PositiveIntegerField()
    dealer_seat = models.PositiveSmallIntegerField()
    variant = models.CharField(max_length=32, choices=VARIANT_CHOICES)
    # Every announcement the hand was dealt under, defaults filled in (never changes).
    options = models.JSONField(default=dict)
    entry_mode = models.CharField(max_length=8, choices=EntryMode.choices)
    # The hand as entered: a full history or a quick entry (see docs/recording.md).
    entry = models.JSONField()
    # Who the table awarded each pot to, as entered, or null.
    table_result = models.JSONField(null=True, blank=True)
    # The players dealt in, by seat number, clockwise from the dealer's left.
    positions = models.JSONField()
    # The stacks the hand was recorded against (projected from earlier hands).
    starting_stacks = models.JSONField()
    status = models.CharField(
        max_length=16, choices=HandStatus.choices, default=HandStatus.RECORDED, db_index=True
    )
    status_reason = models.TextField(blank=True)
    # The engine's last reading (contributions, pots, showdown, payouts) and its version.
    engine_reading = models.JSONField(null=True, blank=True)
    engine_version = models.CharField(max_length=32, blank=True)
    # Each player's expected net chips (by player id), computed when recorded; the stacks of
    # hands not yet settled are projected from it, so the next hand can be checked at once.
    projected_net = models.JSONField(default=dict)
    # Set when a ruling on an earlier hand leaves this hand's chips in doubt (never auto-fixed).
    needs_review = models.BooleanField(default=False)
    review_reason = models.TextField(blank=True)
    # SHA-256 of the hand as imported from a hand history file, to refuse importing it twice.
    content_hash = models.CharField(max_length=64, blank=True, db_index=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)
    settled_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="hand_number_unique")
        ]
        indexes = [models.Index(fields=["tournament", "status"])]

    def __str__(self) -> str:
        return f"{self.tournament} · hand {self.number}"

    def get_absolute_url(self) -> str:
        return reverse("hand", kwargs={"pk": self.pk})


class HandSeat(models.Model):
    """A player dealt into a hand: position, chips put in, how far they got, cards shown."""

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="hand_seats")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="hand_seats")
    seat = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField()  # 0 = dealer's left; the dealer is last
    starting_stack = models.PositiveIntegerField()
    contributed = models.PositiveIntegerField(default=0)
    folded_street = models.PositiveSmallIntegerField(null=True, blank=True)  # 3..7
    down = models.JSONField(default=list, blank=True)
    up = models.JSONField(default=list, blank=True)
    won = models.PositiveIntegerField(null=True, blank=True)  # set at settlement
    # Per-seat facts the statistics sum (tracker/analytics.py), written at settlement.
    facts = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["hand", "position"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "player"], name="hand_seat_unique_player"),
            models.UniqueConstraint(fields=["hand", "position"], name="hand_seat_unique_position"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.hand}"


class Pot(models.Model):
    """A main or side pot of a settled hand, with the engine's and the table's awards.

    Awards are ``{player_id: chips}`` (JSON keys are strings). ``award`` is the
    result that stands: the engine's, unless the table's differs (then the
    table's stands until the authority rules).
    """

    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="pots")
    index = models.PositiveSmallIntegerField()
    amount = models.PositiveIntegerField()
    eligible = models.JSONField()  # player ids
    engine_award = models.JSONField()
    table_award = models.JSONField(null=True, blank=True)
    award = models.JSONField()
    disputed = models.BooleanField(default=False)
    # A ruling kept a result the engine disagrees with ("Rob is right"): re-evaluation leaves it.
    overridden = models.BooleanField(default=False)

    class Meta:
        ordering = ["hand", "index"]
        constraints = [models.UniqueConstraint(fields=["hand", "index"], name="pot_index_unique")]

    def __str__(self) -> str:
        return f"pot {self.index} of {self.hand} ({self.amount})"


class LedgerKind(models.TextChoices):
    START = "start", "Starting chips"
    CONTRIBUTION = "contribution", "Put into the pot"
    AWARD = "award", "Pot awarded"
    CORRECTION = "correction", "Ruling correction"


class LedgerEntry(models.Model):
    """One movement of chips. Stacks are sums of entries; entries are never changed."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="ledger")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="ledger")
    hand = models.ForeignKey(
        Hand, on_delete=models.CASCADE, null=True, blank=True, related_name="ledger"
    )
    pot = models.ForeignKey(Pot, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    kind = models.CharField(max_length=16, choices=LedgerKind.choices)
    amount = models.IntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["id"]
        constraints = [
            # Settlement writes each hand's contributions and awards exactly once.
            models.UniqueConstraint(
                fields=["hand", "player"],
                condition=models.Q(kind="contribution"),
                name="one_contribution_entry_per_hand",
            ),
            models.UniqueConstraint(
                fields=["pot", "player"],
                condition=models.Q(kind="award"),
                name="one_award_entry_per_pot",
            ),
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=models.Q(kind="start"),
                name="one_start_entry",
            ),
        ]
        indexes = [models.Index(fields=["tournament", "player"])]

    def __str__(self) -> str:
        return f"{self.kind} {self.amount:+d} for {self.player}"


class IdempotencyRecord(models.Model):
    """The first response to a request sent with an Idempotency-Key, to replay on retries."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=128)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_unique")
        ]

    def __str__(self) -> str:
        return f"idempotency key {self.key}"


class JobStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"
    FAILED = "failed", "Failed"


class ReevaluationJob(models.Model):
    """Re-run the engine over a tournament or a whole league, with progress."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    status = models.CharField(max_length=16, choices=JobStatus.choices, default=JobStatus.QUEUED)
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    changed = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]

    def __str__(self) -> str:
        return f"re-evaluation {self.pk} ({self.status})"


# Models of the rulings/audit and the hand-history import live in their own modules.
from tracker.models_imports import *  # noqa: E402,F401,F403
from tracker.models_rulings import *  # noqa: E402,F401,F403
