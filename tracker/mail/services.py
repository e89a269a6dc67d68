"""The e-mail outbox: ask for a message (a row, rendered from templates), send it once.

Asking (``outbox_enqueue``) writes one row per (kind, recipient, subject object) in the
caller's transaction and sends the task ``tracker.outbox_send`` when it commits. The task
(``outbox_message_send``) claims the row with a conditional UPDATE (``pending``, or
``sending`` with an expired lease, to ``sending`` with a new lease), which only one worker
wins, sends it through Django's e-mail framework to the user's verified address
(``user_mail_send``), and marks it ``sent``. The beat sweep (``outbox_sweep``) sends again
what was never claimed or whose lease ran out.

At the SMTP boundary the outbox is **at least once**: a worker that dies after the SMTP
server took the message and before the row says ``sent`` leaves a ``sending`` row whose
lease expires, and the sweep sends it again. That window is the few milliseconds between
the server's answer and the UPDATE; every attempt carries the same Message-ID, so a
receiving system may fold the two. The other choice (mark ``sent`` before sending) would lose
the message instead; for an invitation a rare duplicate is the lesser harm. Two tasks for
one row, or a task delivered twice, send once: the claim is the guard.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from tracker.accounts.selectors import verified_email_of
from tracker.accounts.services import user_mail_send
from tracker.core.jobs import enqueue_on_commit, send
from tracker.engine.errors import Code, DomainError
from tracker.mail.models import MailKind, MailOptOut, OutboxMessage, OutboxStatus
from tracker.mail.selectors import mail_wanted, outbox_due_ids

log = logging.getLogger(__name__)

SEND_TASK = "tracker.outbox_send"
UNSUBSCRIBE_SALT = "tracker.mail.unsubscribe"


def unsubscribe_token(*, user_id: int, kind: str) -> str:
    """The signed token of a one-click unsubscribe link (no expiry: the link in an old mail
    keeps working).

    >>> t = unsubscribe_token(user_id=3, kind="night_reminder")
    >>> unsubscribe_read(t)
    (3, 'night_reminder')
    """
    return signing.Signer(salt=UNSUBSCRIBE_SALT).sign_object({"u": user_id, "k": kind})


def unsubscribe_read(token: str) -> tuple[int, str]:
    """The (user id, kind) an unsubscribe token names; refused when tampered with."""
    try:
        data = signing.Signer(salt=UNSUBSCRIBE_SALT).unsign_object(token)
    except signing.BadSignature:
        raise DomainError(
            "this unsubscribe link is not valid", code=Code.LINK_INVALID, field="token"
        ) from None
    kind = data.get("k")
    if kind not in MailKind.values or not isinstance(data.get("u"), int):
        raise DomainError(
            "this unsubscribe link is not valid", code=Code.LINK_INVALID, field="token"
        )
    return data["u"], kind


@transaction.atomic
def outbox_enqueue(
    *,
    kind: str,
    user,
    subject_key: str,
    template: str,
    context: dict,
    base_url: str,
) -> OutboxMessage:
    """Ask for one message of ``kind`` to ``user`` about ``subject_key``: rendered now from
    ``mail/<template>_subject.txt``, ``.txt`` and ``.html``, sent after the commit. Asking
    again for the same (kind, user, subject_key) returns the row already there and sends
    nothing more."""
    if kind not in MailKind.values:
        raise DomainError(f"{kind!r} is not a kind of mail", field="kind")
    existing = OutboxMessage.objects.filter(kind=kind, user=user, subject_key=subject_key).first()
    if existing is not None:
        return existing
    unsubscribe = base_url.rstrip("/") + reverse(
        "mail-unsubscribe", kwargs={"token": unsubscribe_token(user_id=user.pk, kind=kind)}
    )
    context = {
        **context,
        "user": user,
        "unsubscribe_url": unsubscribe,
        "kind_label": MailKind(kind).label,
    }
    row = OutboxMessage(
        kind=kind,
        user=user,
        subject_key=subject_key,
        subject=render_to_string(f"mail/{template}_subject.txt", context).strip()[:200],
        body_text=render_to_string(f"mail/{template}.txt", context),
        body_html=render_to_string(f"mail/{template}.html", context),
        unsubscribe_url=unsubscribe,
    )
    try:
        with transaction.atomic():
            row.save()
    except IntegrityError:  # the same message, asked for at the same moment elsewhere
        return OutboxMessage.objects.get(kind=kind, user=user, subject_key=subject_key)
    enqueue_on_commit(SEND_TASK, row.pk)
    return row


def _claim(message_id: int, now) -> bool:
    """Take the row for this worker: one conditional UPDATE, which one caller wins."""
    claimable = Q(status=OutboxStatus.PENDING) | Q(status=OutboxStatus.SENDING, lease_until__lt=now)
    return bool(
        OutboxMessage.objects.filter(claimable, pk=message_id).update(
            status=OutboxStatus.SENDING,
            lease_until=now + timedelta(seconds=settings.MAIL_LEASE_SECONDS),
            attempts=F("attempts") + 1,
        )
    )


def outbox_message_send(*, message_id: int) -> bool:
    """Send one outbox row (the task's work); True if an e-mail went out.

    Not one transaction, on purpose: the claim commits before the SMTP conversation, so a
    second worker sees it, and the row is marked ``sent`` after. A row turned off by its user
    meanwhile, or whose user has no verified address, is ``skipped``. A failed send puts the
    row back to ``pending`` (the task retries) until MAIL_MAX_ATTEMPTS, then ``failed``."""
    now = timezone.now()
    if not _claim(message_id, now):
        return False  # sent already, or another worker holds it
    row = OutboxMessage.objects.select_related("user").get(pk=message_id)
    mine = OutboxMessage.objects.filter(pk=row.pk, status=OutboxStatus.SENDING)
    if not mail_wanted(row.user, row.kind):
        mine.update(status=OutboxStatus.SKIPPED, error="turned off by the user", lease_until=None)
        return False
    headers = {"Message-ID": row.message_id}
    if row.unsubscribe_url:
        headers["List-Unsubscribe"] = f"<{row.unsubscribe_url}>"
        headers["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    address = verified_email_of(row.user) or ""
    try:
        sent = user_mail_send(
            user=row.user,
            subject=row.subject,
            body=row.body_text,
            html=row.body_html or None,
            headers=headers,
        )
    except Exception as exc:
        failed = row.attempts >= settings.MAIL_MAX_ATTEMPTS
        mine.update(
            status=OutboxStatus.FAILED if failed else OutboxStatus.PENDING,
            lease_until=None,
            error=f"{type(exc).__name__}: {exc}"[:2000],
        )
        if failed:
            log.warning("mail failed", extra={"outbox": row.pk, "attempts": row.attempts})
            return False
        raise
    if not sent:
        mine.update(status=OutboxStatus.SKIPPED, error="no verified address", lease_until=None)
        return False
    # The bodies go once sent: their links act without a password (an invite, an RSVP).
    mine.update(
        status=OutboxStatus.SENT,
        sent_at=timezone.now(),
        lease_until=None,
        address=address,
        body_text="",
        body_html="",
    )
    return True


def outbox_sweep() -> list[int]:
    """Send again every row never claimed within MAIL_SWEEP_GRACE seconds and every row whose
    worker's lease ran out (the beat task's work). Returns the ids sent to the worker."""
    due = outbox_due_ids(grace_seconds=settings.MAIL_SWEEP_GRACE)
    for message_id in due:
        send(SEND_TASK, message_id)
    if due:
        log.warning("outbox sweep", extra={"outbox": due})
    return due


@transaction.atomic
def mail_kinds_set(*, user, kinds_on) -> frozenset[str]:
    """``user`` receives exactly ``kinds_on`` (the others are turned off)."""
    kinds_on = set(kinds_on)
    unknown = kinds_on - set(MailKind.values)
    if unknown:
        raise DomainError(
            f"{', '.join(sorted(unknown))} is not a kind of mail", field="kinds", code=Code.INVALID
        )
    MailOptOut.objects.filter(user=user, kind__in=kinds_on).delete()
    for kind in set(MailKind.values) - kinds_on:
        MailOptOut.objects.get_or_create(user=user, kind=kind)
    return frozenset(kinds_on)


@transaction.atomic
def mail_unsubscribe(*, token: str) -> tuple[int, str]:
    """Turn off the kind of mail a signed unsubscribe link names (no login: the signature is
    the authority). Doing it twice changes nothing. Returns (user id, kind)."""
    user_id, kind = unsubscribe_read(token)
    if not get_user_model().objects.filter(pk=user_id).exists():
        raise DomainError(
            "this unsubscribe link is not valid", code=Code.LINK_INVALID, field="token"
        )
    MailOptOut.objects.get_or_create(user_id=user_id, kind=kind)
    return user_id, kind
