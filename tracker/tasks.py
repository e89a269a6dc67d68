"""Every Celery task of the tracker app, imported from its feature package.

Celery's autodiscovery and the app's ``ready()`` import this module, so every task is
registered under its name in the web process and in the worker. Import tasks from their
feature package, not from here.
"""

from tracker.accounts.tasks import email_verification_send_task, password_reset_send_task
from tracker.core.tasks import health_ping
from tracker.hands.tasks import (
    hands_sweep_task,
    reevaluation_chunk_task,
    reevaluation_run_task,
    tournament_settle_task,
)
from tracker.interchange.tasks import imports_sweep_task, phh_import_task
from tracker.mail.tasks import outbox_send_task, outbox_sweep_task
from tracker.money.tasks import night_results_mail_task, night_results_sweep_task
from tracker.schedule.tasks import night_reminders_task

__all__ = [
    "email_verification_send_task",
    "hands_sweep_task",
    "health_ping",
    "imports_sweep_task",
    "password_reset_send_task",
    "night_reminders_task",
    "night_results_mail_task",
    "night_results_sweep_task",
    "outbox_send_task",
    "outbox_sweep_task",
    "phh_import_task",
    "reevaluation_chunk_task",
    "reevaluation_run_task",
    "tournament_settle_task",
]
