"""Celery tasks of a night's results mail and its beat sweep (thin wrappers)."""

from __future__ import annotations

from celery import shared_task

from tracker.core.jobs import TRANSIENT
from tracker.money.results_mail import night_results_mail, night_results_sweep


@shared_task(
    name="tracker.night_results_mail",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    max_retries=5,
    ignore_result=True,
)
def night_results_mail_task(tournament_id: int) -> int:
    """Ask for the results mail of a finished night (idempotent: one mail per player)."""
    return night_results_mail(tournament_id=tournament_id)


@shared_task(name="tracker.night_results_sweep", ignore_result=True)
def night_results_sweep_task() -> list[int]:
    """Ask for the results mail of the nights whose task was lost (idempotent)."""
    return night_results_sweep()
