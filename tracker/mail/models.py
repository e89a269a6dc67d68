"""The e-mail outbox: one row per message, sent exactly once by the worker, and each user's
choice of which kinds of mail they receive."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class MailKind(models.TextChoices):
    """The kinds of mail a user may turn off one by one (profile page, unsubscribe link)."""

    LEAGUE_INVITE = "league_invite", "Invites to a league"
    NIGHT_INVITATION = "night_invitation", "Invitations to scheduled nights"
    NIGHT_REMINDER = "night_reminder", "Reminders the day before a night"
    WAITLIST_PROMOTION = "waitlist_promotion", "A seat freed for you from the waitlist"
    NIGHT_UPDATED = "night_updated", "A scheduled night's time, place or seats changed"
    NIGHT_CANCELLED = "night_cancelled", "A scheduled night cancelled"
    NIGHT_RESULTS = "night_results", "Results and league standings after a night"
    POT_DISPUTE = "pot_dispute", "A pot you played in disputed, and its ruling"


class OutboxStatus(models.TextChoices):
    PENDING = "pending", "Waiting to be sent"
    SENDING = "sending", "Claimed by a worker"
    SENT = "sent", "Sent"
    SKIPPED = "skipped", "Not sent (no verified address, or turned off)"
    FAILED = "failed", "Failed"


class OutboxMessage(models.Model):
    """One message to one user, rendered when it was asked for (tracker/mail/services.py).

    ``(kind, user, subject_key)`` is unique: asking twice for the same message (a request
    retried, a task run twice) keeps one row, so one e-mail. A worker claims the row with a
    conditional UPDATE to ``sending`` holding a lease (``lease_until``); a row still
    ``sending`` after its lease ended belongs to a worker that died and is claimed again by
    the sweep."""

    kind = models.CharField(max_length=32, choices=MailKind.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="outbox_messages"
    )
    subject_key = models.CharField(max_length=80)  # the object the mail is about, e.g. night:7
    subject = models.CharField(max_length=200)
    body_text = models.TextField()
    body_html = models.TextField(blank=True)
    unsubscribe_url = models.CharField(max_length=500, blank=True)
    status = models.CharField(
        max_length=8, choices=OutboxStatus.choices, default=OutboxStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    lease_until = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)
    address = models.EmailField(max_length=254, blank=True)  # where it went
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "user", "subject_key"], name="outbox_one_message_per_key"
            )
        ]
        indexes = [models.Index(fields=["status", "lease_until"], name="outbox_status_lease")]

    def __str__(self) -> str:
        return f"{self.kind} to {self.user} ({self.subject_key}, {self.status})"

    @property
    def message_id(self) -> str:
        """The Message-ID every attempt at this message carries (the same on a re-send, so a
        receiving system may fold a duplicate)."""
        domain = settings.DEFAULT_FROM_EMAIL.rsplit("@", 1)[-1].strip("> ") or "localhost"
        return f"<outbox-{self.pk}@{domain}>"


class MailOptOut(models.Model):
    """A kind of mail ``user`` turned off (no row: they receive it)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="mail_opt_outs"
    )
    kind = models.CharField(max_length=32, choices=MailKind.choices)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "kind"], name="mail_opt_out_once")]

    def __str__(self) -> str:
        return f"{self.user} turned off {self.kind}"
