"""Celery tasks: thin wrappers that take ids and call services.

Every task is idempotent (settling an already settled tournament does
nothing), so a duplicated delivery or a retry after a lost worker is safe.
Only transient errors (the database or broker going away) are retried.
"""

from __future__ import annotations

import os
import socket

from celery import shared_task
from django.db import InterfaceError, OperationalError

TRANSIENT = (OperationalError, InterfaceError, ConnectionError)


@shared_task(name="tracker.health_ping")
def health_ping(token: str) -> dict:
    """Answer a ping from whichever process runs the task (the worker, or in-process when eager)."""
    return {"token": token, "host": socket.gethostname(), "pid": os.getpid()}


@shared_task(
    name="tracker.tournament_settle",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=8,
)
def tournament_settle_task(tournament_id: int) -> int:
    """Settle every recorded hand of a tournament, in hand order."""
    from tracker.services.hands import tournament_settle

    return tournament_settle(tournament_id=tournament_id)


@shared_task(
    name="tracker.reevaluation_run",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    max_retries=5,
)
def reevaluation_run_task(job_id: int) -> dict:
    """Run a re-evaluation job (progress is kept on the job row)."""
    from tracker.services.reevaluation import reevaluation_run

    return reevaluation_run(job_id=job_id)


@shared_task(
    name="tracker.phh_import_run",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    max_retries=5,
)
def phh_import_task(job_id: int) -> dict:
    """Run a hand-history import job (idempotent: files already read are not read again)."""
    from tracker.services.phh_import import phh_import_run

    return phh_import_run(job_id=job_id)
