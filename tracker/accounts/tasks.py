"""Celery tasks of the accounts: the verification mail and the password reset mail, thin
wrappers over their services."""

from __future__ import annotations

from smtplib import SMTPException

from celery import shared_task

from tracker.accounts.services import email_verification_send, password_reset_send
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


@shared_task(
    name="tracker.password_reset_send",
    autoretry_for=(*TRANSIENT, SMTPException, OSError),
    retry_backoff=True,
    max_retries=5,
    ignore_result=True,
)
def password_reset_send_task(user_ids: list[int], base_url: str, request_id: str) -> int:
    """Mail the accounts of one reset request their links (idempotent: a repeated delivery
    sends no mail twice)."""
    return password_reset_send(user_ids=user_ids, base_url=base_url, request_id=request_id)
