"""Reads of the mail feature: a user's choices, and the outbox rows a sweep must look at."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from tracker.mail.models import MailKind, MailOptOut, OutboxMessage, OutboxStatus


def mail_kinds_on(user) -> frozenset[str]:
    """The kinds of mail ``user`` receives (every kind unless turned off)."""
    off = set(MailOptOut.objects.filter(user=user).values_list("kind", flat=True))
    return frozenset(k for k in MailKind.values if k not in off)


def mail_wanted(user, kind: str) -> bool:
    return not MailOptOut.objects.filter(user=user, kind=kind).exists()


def outbox_due_ids(*, grace_seconds: int, now=None) -> list[int]:
    """Rows the sweep sends again: pending longer than ``grace_seconds`` (their task was lost
    or the broker was away), or ``sending`` with their lease over (their worker died)."""
    now = now or timezone.now()
    stale = Q(status=OutboxStatus.PENDING, created_at__lt=now - timedelta(seconds=grace_seconds))
    expired = Q(status=OutboxStatus.SENDING, lease_until__lt=now)
    return list(
        OutboxMessage.objects.filter(stale | expired).order_by("pk").values_list("pk", flat=True)
    )
