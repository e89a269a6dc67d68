"""Celery tasks of hands: settlement and re-evaluation, thin wrappers over services.

Every task is idempotent (settling an already settled tournament does
nothing), so a duplicated delivery or a retry after a lost worker is safe.
Only transient errors (the database or broker going away) are retried.
Services send them by name through tracker/core/jobs.py.
"""

from __future__ import annotations

from celery import shared_task

from tracker.core.jobs import TRANSIENT
from tracker.hands.services.reevaluation import reevaluation_chunk_run, reevaluation_run
from tracker.hands.services.settlement import tournament_settle
from tracker.hands.services.sweep import hands_sweep


@shared_task(
    name="tracker.tournament_settle",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=8,
)
def tournament_settle_task(tournament_id: int) -> int:
    """Settle every recorded hand of a tournament, in hand order."""
    return tournament_settle(tournament_id=tournament_id)


@shared_task(
    name="tracker.reevaluation_run",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    max_retries=5,
)
def reevaluation_run_task(job_id: int) -> dict:
    """Run a re-evaluation job (progress is kept on the job row)."""
    return reevaluation_run(job_id=job_id)


@shared_task(
    name="tracker.reevaluation_chunk",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    max_retries=5,
)
def reevaluation_chunk_task(job_id: int, index: int) -> dict:
    """Re-read one chunk of a re-evaluation job (any worker may take any chunk)."""
    return reevaluation_chunk_run(job_id=job_id, index=index)


@shared_task(name="tracker.hands_sweep", ignore_result=True)
def hands_sweep_task() -> dict:
    """Beat: settle recorded hands no task settled; resume stale re-evaluation jobs."""
    return hands_sweep()
