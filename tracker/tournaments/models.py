"""Tournaments (game nights): seats, final standings and the chip ledger.

Stacks are never stored: a player's stack in a tournament is the sum of their
ledger entries (the starting chips, then per settled hand their contribution
as a negative entry and their pot awards as positive ones, then any ruling
corrections, and the chips of rebuys and add-ons bought between hands). Every
settled hand's entries sum to zero, so the stacks of a tournament always add up
to its starting chips times its players plus the chips of its rebuys and add-ons.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.urls import reverse
from django.utils import timezone

from tracker.engine.announcements import VARIANT_TITLES, VARIANTS
from tracker.leagues.models import League, Player

VARIANT_CHOICES = [(v, VARIANT_TITLES[v]) for v in VARIANTS]


class TournamentStatus(models.TextChoices):
    RUNNING = "running", "Running"
    FINISHED = "finished", "Finished"


class Tournament(models.Model):
    """A game night: players in seat order, a stakes schedule and at most ``hand_limit`` hands."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="tournaments")
    name = models.CharField(max_length=120)
    date = models.DateField(default=timezone.localdate)
    starting_chips = models.PositiveIntegerField(default=1000)
    hands_per_level = models.PositiveIntegerField(default=5)
    hand_limit = models.PositiveIntegerField(default=50)
    # [[ante, bring_in, small_bet, big_bet], ...] per level.
    stakes_schedule = models.JSONField()
    # Empty: dealer's choice (each hand names its variant).
    default_variant = models.CharField(max_length=32, choices=VARIANT_CHOICES, blank=True)
    default_options = models.JSONField(default=dict, blank=True)
    status = models.CharField(
        max_length=16, choices=TournamentStatus.choices, default=TournamentStatus.RUNNING
    )
    # Off: a friendly night, kept and shown, but left out of the league's standings.
    counts_toward_standings = models.BooleanField(default=True)
    # The seat that deals the first hand (then the deal moves clockwise).
    first_dealer_seat = models.PositiveSmallIntegerField(default=0)
    # True: the seats were drawn at random on the server (the page says so to everyone).
    seats_drawn = models.BooleanField(default=False)
    # True: a settlement task has been sent for this tournament and has not started yet, so
    # recording another hand sends none (tracker/hands/services/settlement.py, "Sending
    # settlement once"). Not editable: only recording and settlement change it.
    settle_queued = models.BooleanField(default=False, editable=False)
    # How many players the night's final standings place: written with them, in the same
    # transaction (``tracker.tournaments.services.final_standings_write``, their only
    # writer); 0 until then, so "finished" reads ``entrants > 0``. The league table reads
    # which nights count (switched on, at least the league's minimum of players) from here,
    # not by counting final standings. Not editable; ``manage.py rebuild_stats`` recomputes
    # it from the final standings.
    entrants = models.PositiveSmallIntegerField(default=0, editable=False)
    finished_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-date", "-id"]
        indexes = [
            # The league table of a season reads its nights by league and date range.
            models.Index(fields=["league", "date"], name="tournament_league_date"),
            # The nights a table lists as left out (switched off, or fewer players than the
            # league's minimum), found without reading those that count: the two arms of
            # ``season_nights(..., left_out_only=True)``.
            models.Index(
                fields=["league", "date"],
                condition=models.Q(counts_toward_standings=False),
                name="tournament_league_off",
            ),
            models.Index(fields=["league", "entrants", "date"], name="tournament_entrants"),
        ]

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
    out_hand = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "place"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="one_final_standing")
        ]

    def __str__(self) -> str:
        return f"{self.player}: place {self.place} in {self.tournament}"


class LedgerKind(models.TextChoices):
    START = "start", "Starting chips"
    CONTRIBUTION = "contribution", "Put into the pot"
    AWARD = "award", "Pot awarded"
    CORRECTION = "correction", "Ruling correction"
    REBUY = "rebuy", "Rebuy"
    ADDON = "addon", "Add-on"


class LedgerEntry(models.Model):
    """One movement of chips. Stacks are sums of entries; entries are never changed."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="ledger")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="ledger")
    hand = models.ForeignKey(
        "tracker.Hand", on_delete=models.CASCADE, null=True, blank=True, related_name="ledger"
    )
    pot = models.ForeignKey(
        "tracker.Pot", on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    kind = models.CharField(max_length=16, choices=LedgerKind.choices)
    amount = models.IntegerField()
    # Chips given between hands (a rebuy or an add-on, and their reversals): the number of
    # the first hand they play in. Settlement adds them to the stacks it carries forward
    # just before that hand; null for every other entry.
    from_hand = models.PositiveIntegerField(null=True, blank=True)
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


class StandingTally(models.Model):
    """Running totals of the league table: how many counted nights of one month ``player``
    finished at ``place`` of ``entrants`` players, ``sharing`` that place with that many
    (themselves included), and the net chips of those nights (final chips − starting chips).

    Only nights switched to count toward the standings are added; the league's minimum of
    players is applied when the rows are read (``entrants`` is in the key), and a season of
    any length sums its months, so changing either needs no rebuild. A formula's points
    depend on (place, entrants, sharing) alone, so a table is scored from these rows
    (tracker/leagues/selectors/table.py). Kept in step wherever final standings are written
    (``tracker.tournaments.services.final_standings_write``) or a night's date or switch
    changes, inside ``tracker.core.totals.totals_kept``; ``manage.py rebuild_stats`` recomputes them from the final standings. A row
    whose ``nights`` fall to 0 is deleted.
    """

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    month = models.DateField()  # the first day of the month
    place = models.PositiveSmallIntegerField()
    entrants = models.PositiveSmallIntegerField()
    sharing = models.PositiveSmallIntegerField()
    nights = models.PositiveIntegerField(default=0)
    net_chips = models.BigIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["league", "month", "player", "place", "entrants", "sharing"],
                name="standing_tally_unique",
            )
        ]

    def __str__(self) -> str:
        return f"{self.player_id}: place {self.place} of {self.entrants}, {self.month:%Y-%m}"


class TableLink(models.Model):
    """A link that opens one night's table screen read-only, without an account: the QR code
    on the table screen (docs/nights.md, "The live view").

    The link carries a value signed with the site's ``SECRET_KEY`` (``django.core.signing``,
    salted for this use) that names this row; the row says whether it still works. It opens
    that night's table screen alone, until ``expires_at`` (the night's length,
    ``LINK_HOURS``) or until an admin revokes it; then it answers 404. Nothing else is
    reachable through it.
    """

    LINK_HOURS = 12

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="links")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["tournament", "expires_at"], name="table_link_open")]

    def __str__(self) -> str:
        return f"live view of {self.tournament_id}"

    def is_open(self, now=None) -> bool:
        return self.revoked_at is None and (now or timezone.now()) < self.expires_at
