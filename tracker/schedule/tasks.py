"""Celery task of scheduled nights: the reminders the day before (beat; a thin wrapper)."""

from __future__ import annotations

from celery import shared_task

from tracker.schedule.services import night_reminders_send


@shared_task(name="tracker.night_reminders", ignore_result=True)
def night_reminders_task() -> list[int]:
    """Remind the players of every night starting within a day (idempotent)."""
    return night_reminders_send()
