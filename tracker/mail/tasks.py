"""Celery tasks of the outbox: send one message, and the beat sweep (thin wrappers)."""

from __future__ import annotations

from smtplib import SMTPException

from celery import shared_task

from tracker.core.jobs import TRANSIENT
from tracker.mail.services import outbox_message_send, outbox_sweep


@shared_task(
    name="tracker.outbox_send",
    autoretry_for=(*TRANSIENT, SMTPException, OSError),
    retry_backoff=True,
    max_retries=5,
    ignore_result=True,
)
def outbox_send_task(message_id: int) -> bool:
    """Send one outbox row (idempotent: a second delivery, or a second task, sends nothing)."""
    return outbox_message_send(message_id=message_id)


@shared_task(name="tracker.outbox_sweep", ignore_result=True)
def outbox_sweep_task() -> list[int]:
    """Send again the rows never claimed, or whose worker's lease ran out."""
    return outbox_sweep()
