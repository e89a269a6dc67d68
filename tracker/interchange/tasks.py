"""Celery task of the hand-history import: a thin wrapper over the import service."""

from __future__ import annotations

from celery import shared_task

from tracker.core.jobs import TRANSIENT
from tracker.interchange.services.imports import imports_sweep, phh_import_run


@shared_task(
    name="tracker.phh_import_run",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    max_retries=5,
)
def phh_import_task(job_id: int) -> dict:
    """Run a hand-history import job (idempotent: files already read are not read again)."""
    return phh_import_run(job_id=job_id)


@shared_task(name="tracker.imports_sweep", ignore_result=True)
def imports_sweep_task() -> dict:
    """Beat: resume or fail import jobs whose worker stopped sending heartbeats."""
    return imports_sweep()
