"""Hands as recorded, their seats and pots; the engine's evaluations, disputes on pots and
re-evaluation jobs.

Evaluations and disputes are append-only (tracker/core/models.py); their foreign keys to
hands, pots and users are ``PROTECT``, so nothing of a hand's history can be lost.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from tracker.core.models import AppendOnlyModel, Job
from tracker.core.models import JobStatus as JobStatus  # the jobs' status, also named here
from tracker.core.typed import chips_property
from tracker.engine.stakes import Stakes
from tracker.leagues.models import League, Player
from tracker.tournaments.models import VARIANT_CHOICES, Tournament

#: What a hand's ``variant`` holds for a league's house game (its ``game_version`` says which).
HOUSE_VARIANT = "house"
#: A hand's variant: one of today's variants, or a house game.
HAND_VARIANT_CHOICES = [*VARIANT_CHOICES, (HOUSE_VARIANT, "House game")]


class HandStatus(models.TextChoices):
    RECORDED = "recorded", "Pending"  # stored, waiting for the worker to settle it
    VERIFIED = (
        "verified",
        "Verified",
    )  # the engine agrees with the table (or there was no table result)
    DISPUTED = "disputed", "Disputed"  # the engine and the table disagree on at least one pot
    INVALID = "invalid", "Invalid"  # the stacks do not allow what the hand records
    VOID = "void", "Void"  # an invalid hand the authority or an admin declared void: no chips move


#: The statuses of a settled hand: its chips moved as the engine read it (the statistics, the
#: standings and the rulings count these hands).
SETTLED: tuple[HandStatus, ...] = (HandStatus.VERIFIED, HandStatus.DISPUTED)


class EntryMode(models.TextChoices):
    FULL = "full", "Full history"
    QUICK = "quick", "Quick entry"


class DealtAt:
    """The stakes a hand (or a live draft) is dealt at, from its four stake columns and its
    level: the one place a row's columns become the engine's :class:`Stakes`."""

    @property
    def stakes(self) -> Stakes:
        return Stakes(self.ante, self.bring_in, self.small_bet, self.big_bet, level=self.level)

    @staticmethod
    def stakes_of(values: Mapping[str, Any]) -> Stakes:
        """The stakes of a row read as plain values (its columns by attribute name)."""
        ante, bring_in, small, big = (
            values[k] for k in ("ante", "bring_in", "small_bet", "big_bet")
        )
        return Stakes(ante, bring_in, small, big, level=values["level"])


class Hand(DealtAt, models.Model):
    """One hand of a tournament, as recorded, with the engine's reading once settled."""

    # No index of its own: hand_number_unique (tournament, number) serves every lookup by
    # tournament, and one index less is one less to write a hand.
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="hands", db_index=False
    )
    number = models.PositiveIntegerField()
    level = models.PositiveIntegerField()
    ante = models.PositiveIntegerField()
    bring_in = models.PositiveIntegerField()
    small_bet = models.PositiveIntegerField()
    big_bet = models.PositiveIntegerField()
    dealer_seat = models.PositiveSmallIntegerField()
    variant = models.CharField(max_length=32, choices=HAND_VARIANT_CHOICES)
    # Every announcement the hand was dealt under, defaults filled in (never changes).
    options = models.JSONField(default=dict)
    # The league's house game version the hand was dealt under (tracker/games/models.py),
    # kept as its announcements are (variant "house"); null for the variants of today.
    game_version = models.ForeignKey(
        "tracker.LeagueGameVersion",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="hands",
    )
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
    # SHA-256 of the hand as imported from a hand history file, to refuse importing it twice
    # (looked up within its tournament: the index hand_tournament_hash).
    content_hash = models.CharField(max_length=64, blank=True)
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
        indexes = [
            models.Index(fields=["tournament", "status"]),
            # An import batch's hashes already in the tournament: by the tournament's index
            # alone the server read every hand of the tournament for each batch.
            models.Index(fields=["tournament", "content_hash"], name="hand_tournament_hash"),
        ]

    projected_net_chips = chips_property("projected_net", "Expected net chips by player id.")

    def __str__(self) -> str:
        return Hand.label(str(self.tournament), self.number)

    def get_absolute_url(self) -> str:
        return reverse("hand", kwargs={"pk": self.pk})

    @staticmethod
    def label(tournament: str, number: int) -> str:
        """How a hand is named (``str(hand)``) from its tournament's name and its number."""
        return f"{tournament} · hand {number}"

    @property
    def audit_label(self) -> str:
        return f"{self.tournament.name} · hand {self.number}"


class HandSeat(models.Model):
    """A player dealt into a hand: position, chips put in, how far they got, cards shown."""

    # No index of its own: the unique (hand, player) and (hand, position) serve it.
    hand = models.ForeignKey(
        Hand, on_delete=models.CASCADE, related_name="hand_seats", db_index=False
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="hand_seats")
    seat = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField()  # 0 = dealer's left; the dealer is last
    starting_stack = models.PositiveIntegerField()
    contributed = models.PositiveIntegerField(default=0)
    # 3..7, the street of a fold; None to the end (a muck at the showdown is no fold)
    folded_street = models.PositiveSmallIntegerField(null=True, blank=True)
    down = models.JSONField(default=list, blank=True)
    up = models.JSONField(default=list, blank=True)
    won = models.PositiveIntegerField(null=True, blank=True)  # set at settlement
    # Per-seat facts the statistics sum (tracker/engine/facts.py), written at settlement.
    facts = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["hand", "position"]
        constraints = [
            models.UniqueConstraint(fields=["hand", "player"], name="hand_seat_unique_player"),
            models.UniqueConstraint(fields=["hand", "position"], name="hand_seat_unique_position"),
        ]
        # A player's all-in hands (the statistics page lists the latest) without reading
        # every hand of the player.
        indexes = [
            models.Index(
                fields=["player", "hand"], condition=models.Q(facts__ai=1), name="hand_seat_allin"
            )
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.hand}"


class Pot(models.Model):
    """A main or side pot of a settled hand, with the engine's and the table's awards.

    Awards are ``{player_id: chips}`` (JSON keys are strings). ``award`` is the
    result that stands: the engine's, unless the table's differs (then the
    table's stands until the authority rules).
    """

    # No index of its own: pot_index_unique (hand, index) serves it.
    hand = models.ForeignKey(Hand, on_delete=models.CASCADE, related_name="pots", db_index=False)
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
        # The open pots (the league page's "N open"): as many as wait for an authority,
        # whatever the number of pots.
        indexes = [
            models.Index(fields=["hand"], condition=models.Q(disputed=True), name="pot_open")
        ]

    engine_chips = chips_property("engine_award", "The engine's award by player id.")
    table_chips = chips_property("table_award", "The table's award by player id, or None.")
    award_chips = chips_property("award", "The award that stands, by player id.")

    def __str__(self) -> str:
        return f"pot {self.index} of {self.hand} ({self.amount})"

    @property
    def audit_label(self) -> str:
        return f"{self.hand.tournament.name} · hand {self.hand.number} · pot {self.index}"


class ReevaluationJob(Job):
    """Re-run the engine over a tournament or a whole league, with progress."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    total = models.PositiveIntegerField(default=0)
    done = models.PositiveIntegerField(default=0)
    changed = models.PositiveIntegerField(default=0)
    # The job is split into this many chunks (ReevaluationChunk) when it first runs; 0 before.
    chunk_count = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"re-evaluation {self.pk} ({self.status})"


class ReevaluationChunk(models.Model):
    """A part of a re-evaluation job that any worker may take: the job's hands (in its scope)
    whose ids lie in ``first_id``..``last_id``. A chunk is ``done`` once every one of those
    hands has been read by the job; the job is done when its last chunk is."""

    job = models.ForeignKey(ReevaluationJob, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    first_id = models.BigIntegerField()
    last_id = models.BigIntegerField()
    hands = models.PositiveIntegerField()
    done = models.BooleanField(default=False)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["job", "index"]
        constraints = [
            models.UniqueConstraint(fields=["job", "index"], name="reevaluation_chunk_unique")
        ]

    def __str__(self) -> str:
        return f"chunk {self.index} of re-evaluation {self.job_id}"


class EvaluationSource(models.TextChoices):
    SETTLEMENT = "settlement", "Settlement"
    REEVALUATION = "reevaluation", "Re-evaluation"


class Evaluation(AppendOnlyModel):
    """One reading of a hand by one engine version (every settlement and re-evaluation)."""

    hand = models.ForeignKey("tracker.Hand", on_delete=models.PROTECT, related_name="evaluations")
    engine_version = models.CharField(max_length=32)
    source = models.CharField(max_length=16, choices=EvaluationSource.choices)
    # The engine's full reading (as Hand.engine_reading), or null when the engine refused the hand.
    reading = models.JSONField(null=True, blank=True)
    # The engine's award per pot, [{player_id: chips}, ...], for a quick comparison of versions.
    awards = models.JSONField(default=list, blank=True)
    error = models.TextField(blank=True)
    # The re-evaluation job that made it (a plain id: jobs are not part of the record).
    job_id = models.BigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["hand", "id"]
        indexes = [models.Index(fields=["engine_version"])]

    def __str__(self) -> str:
        return f"{self.hand} read by engine {self.engine_version} ({self.source})"


class DisputeSource(models.TextChoices):
    SETTLEMENT = "settlement", "Flagged at settlement"
    REEVALUATION = "reevaluation", "Flagged by a re-evaluation"
    MEMBER = "member", "Raised by a member"


class Dispute(AppendOnlyModel):
    """A pot put to the league's authority: flagged by the engine, or raised by a member."""

    pot = models.ForeignKey("tracker.Pot", on_delete=models.PROTECT, related_name="disputes")
    hand = models.ForeignKey("tracker.Hand", on_delete=models.PROTECT, related_name="disputes")
    source = models.CharField(max_length=16, choices=DisputeSource.choices)
    reason = models.TextField()
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    engine_version = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["pot", "id"]

    def __str__(self) -> str:
        return f"dispute on {self.pot} ({self.source})"


class DraftStatus(models.TextChoices):
    OPEN = "open", "Open"
    RECORDED = "recorded", "Recorded"
    DISCARDED = "discarded", "Discarded"


class DraftHand(DealtAt, models.Model):
    """A hand being logged live at the table, step by step (tracker/engine/live.py).

    Each accepted step is saved at once, so a reload, a dropped connection or a second
    phone loses nothing; ``version`` grows with every change and a change made against an
    older version is refused, so two phones cannot overwrite each other. Finishing records
    the hand as a full history through the recording service."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="drafts")
    number = models.PositiveIntegerField()  # the hand number it will be recorded as
    variant = models.CharField(max_length=32, choices=HAND_VARIANT_CHOICES)
    options = models.JSONField(default=dict)
    # The players dealt in, clockwise from the dealer's left, and their stacks then.
    positions = models.JSONField()
    starting_stacks = models.JSONField()
    ante = models.PositiveIntegerField()
    bring_in = models.PositiveIntegerField()
    small_bet = models.PositiveIntegerField()
    big_bet = models.PositiveIntegerField()
    level = models.PositiveIntegerField()
    # The house game version the draft deals (variant "house"), null for today's variants.
    game_version = models.ForeignKey(
        "tracker.LeagueGameVersion",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="drafts",
    )
    steps = models.JSONField(default=list)  # event_to_json() of each event, in order
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=12, choices=DraftStatus.choices, default=DraftStatus.OPEN)
    hand = models.OneToOneField(
        Hand, on_delete=models.SET_NULL, null=True, blank=True, related_name="draft"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament"],
                condition=models.Q(status="open"),
                name="one_open_draft_per_tournament",
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament} · hand {self.number} (live)"

    def get_absolute_url(self) -> str:
        return reverse("live-hand", kwargs={"pk": self.tournament_id})


class DraftChange(models.Model):
    """One change of a draft, as it was made: the version it made, the events before it (so
    "keep mine" can put the draft back where a phone left it) and, when it came from the
    logger's outbox, the phone's client id, which makes a re-sent change a no-op. A change
    the scorekeeper chose to drop ("keep theirs") is kept too, marked dropped, so a re-send
    of it is never applied."""

    class Outcome(models.TextChoices):
        APPLIED = "applied", "Applied"
        DROPPED = "dropped", "Dropped (the other screen's version kept)"

    draft = models.ForeignKey(DraftHand, on_delete=models.CASCADE, related_name="changes")
    client_id = models.UUIDField(null=True, blank=True, unique=True)
    op = models.CharField(max_length=16)  # "events", "check_around", "undo", "finish", ...
    base = models.PositiveIntegerField()  # the draft's version the change was made against
    version = models.PositiveIntegerField()  # the draft's version after it
    steps_before = models.JSONField(default=list)
    outcome = models.CharField(max_length=8, choices=Outcome.choices, default=Outcome.APPLIED)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes = [models.Index(fields=["draft", "base"])]

    def __str__(self) -> str:
        return f"{self.draft} · {self.op} at version {self.base}"
