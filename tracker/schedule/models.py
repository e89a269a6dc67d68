"""Nights scheduled ahead and the roster's answers (yes, no, maybe; a waitlist when full)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from tracker.leagues.models import League, Player
from tracker.tournaments.models import VARIANT_CHOICES, Tournament


class ScheduledNight(models.Model):
    """A game night announced ahead: when, where, how many seats, and a note. The roster's
    members are invited by e-mail when it is made; a reminder goes the day before
    (``reminded_at`` says it went). An organiser may change it (``sequence`` counts the
    changes) or cancel it (``cancelled_at``); the invited players are told by e-mail."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="scheduled_nights")
    starts_at = models.DateTimeField()
    place = models.CharField(max_length=200)
    seats = models.PositiveSmallIntegerField()
    variant = models.CharField(max_length=32, choices=VARIANT_CHOICES, blank=True)
    note = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True
    )
    created_at = models.DateTimeField(default=timezone.now)
    # The site the mails link to (the address the night was made on).
    base_url = models.CharField(max_length=300, blank=True)
    reminded_at = models.DateTimeField(null=True, blank=True)
    # Bumped by every change of the time, place, seats or note (the calendar's SEQUENCE).
    sequence = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(default=timezone.now)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    cancel_reason = models.CharField(max_length=500, blank=True)
    # Set when the night is started at the door (``night_start``): the tournament its
    # checked-in players sit at. Answers and check-in are closed from then on.
    tournament = models.OneToOneField(
        Tournament,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="scheduled_night",
    )
    started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["starts_at", "id"]
        indexes = [models.Index(fields=["league", "starts_at"], name="night_league_starts")]

    def __str__(self) -> str:
        return f"{self.league} night at {self.place}, {self.starts_at:%Y-%m-%d %H:%M}"

    @property
    def cancelled(self) -> bool:
        return self.cancelled_at is not None


class Answer(models.TextChoices):
    YES = "yes", "Yes"
    NO = "no", "No"
    MAYBE = "maybe", "Maybe"


class Seat(models.TextChoices):
    GOING = "going", "Has a seat"
    WAITLIST = "waitlist", "On the waitlist"
    NONE = "", "No seat"


class Rsvp(models.Model):
    """One roster player's answer to one night. A yes takes a seat while there is one
    (``seat`` going), otherwise joins the waitlist (``waitlisted_at`` orders it); a going
    player's no or maybe frees the seat for the first on the waitlist (``promotions``
    counts how often this player was promoted, one e-mail each)."""

    night = models.ForeignKey(ScheduledNight, on_delete=models.CASCADE, related_name="rsvps")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rsvps")
    answer = models.CharField(max_length=8, choices=Answer.choices)
    seat = models.CharField(max_length=8, choices=Seat.choices, blank=True, default=Seat.NONE)
    waitlisted_at = models.DateTimeField(null=True, blank=True)
    promotions = models.PositiveSmallIntegerField(default=0)
    answered_at = models.DateTimeField(default=timezone.now)
    # Set when the night starts: a yes with a seat whose player was not checked in.
    no_show = models.BooleanField(default=False)

    class Meta:
        ordering = ["night_id", "answered_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="rsvp_one_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.answer} to {self.night_id} ({self.seat or 'no seat'})"


class CheckIn(models.Model):
    """A roster player who came to a scheduled night, tapped in at the door before it
    starts (a yes, a maybe, someone off the waitlist or a walk-in). ``buy_in`` says they
    paid the buy-in at the door: it is recorded (``entry_record``) when the night starts,
    if the night has one."""

    night = models.ForeignKey(ScheduledNight, on_delete=models.CASCADE, related_name="check_ins")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="check_ins")
    buy_in = models.BooleanField(default=True)
    checked_in_at = models.DateTimeField(default=timezone.now)
    checked_in_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["night_id", "checked_in_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["night", "player"], name="check_in_one_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} here for {self.night_id}"
