"""Celery task of the accounts: the verification mail, a thin wrapper over its service."""

from __future__ import annotations

from smtplib import SMTPException

from celery import shared_task

from tracker.accounts.services import email_verification_send
from tracker.core.jobs import TRANSIENT


@shared_task(
    name="tracker.email_verification_send",
    autoretry_for=(*TRANSIENT, SMTPException, OSError),
    retry_backoff=True,
    max_retries=5,
    ignore_result=True,
)
def email_verification_send_task(email_id: int, base_url: str) -> bool:
    """Mail one address its verification link (idempotent: a repeated delivery sends
    nothing more)."""
    return email_verification_send(email_id=email_id, base_url=base_url)
