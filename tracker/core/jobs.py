"""The one way services hand work to the worker: by task name, after the transaction commits.

Services never import tasks (tasks import services): they call
``enqueue_on_commit("tracker.tournament_settle", tournament_id)`` and the task registered
under that name (tracker/<feature>/tasks.py) is sent once the surrounding transaction
commits, or at once outside a transaction. With no broker configured Celery runs it eagerly
in-process.

Sending never raises into the caller when a broker is configured: the transaction has
committed by then (a hand is recorded), so a broker that is away is logged and left to the
periodic sweeps, which find the work in the database (recorded hands, jobs without a recent
heartbeat) and send it again. Broker timeouts are short (settings ``CELERY_BROKER_TIMEOUT``).
Eagerly (no broker) a task runs in-process and its errors propagate, as before.

``TRANSIENT`` is the tuple of errors a task retries (the database or the broker going away);
services that must tell a transient failure from a real one import it from here too.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from datetime import timedelta

from celery import current_app, group
from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone

from tracker.core.models import Job, JobStatus

TRANSIENT = (OperationalError, InterfaceError, ConnectionError)

log = logging.getLogger(__name__)


def enqueue_on_commit(task_name: str, *args) -> None:
    """Send the task ``task_name`` with ``args`` when the current transaction commits."""
    transaction.on_commit(lambda: send(task_name, *args))


def send(task_name: str, *args):
    """Send a registered task by name now (``delay``, so eager mode runs it in-process).

    Returns the AsyncResult, or None when the broker could not take it (logged; the sweeps
    send it again).
    """
    task = current_app.tasks[task_name]
    if current_app.conf.task_always_eager:
        return task.delay(*args)
    try:
        return task.delay(*args)
    except Exception as exc:  # the broker or the result store is away: never fail the caller
        log.warning(
            "task not sent; the sweep will send it",
            extra={
                "task": task_name,
                "task_args": list(args),
                "error": f"{type(exc).__name__}: {exc}",
            },
        )
        return None


def send_group(task_name: str, calls: Sequence[tuple]) -> None:
    """Send the task ``task_name`` once per argument tuple of ``calls``, as one Celery group
    (any number of workers take its parts; eagerly they run here, in order). A broker that
    is away is logged, as in :func:`send`, and left to the sweeps."""
    parts = group(current_app.signature(task_name, args=args) for args in calls)
    if current_app.conf.task_always_eager:
        parts.apply_async()
        return
    try:
        parts.apply_async()
    except Exception as exc:  # the broker is away: never fail the caller
        log.warning(
            "task group not sent; the sweep will send it",
            extra={"task": task_name, "parts": len(calls), "error": f"{type(exc).__name__}: {exc}"},
        )


def stale_jobs_restart(
    model: type[Job],
    task_name: str,
    *,
    busy: Callable[[Job], bool] | None = None,
) -> dict:
    """Send ``task_name`` again for every job of ``model`` (a :class:`~tracker.core.models.Job`)
    that is queued or running but whose
    ``heartbeat_at`` is older than ``JOB_HEARTBEAT_TIMEOUT`` seconds (its task was lost, or its
    worker died); a running job restarted ``JOB_MAX_RESTARTS`` times already is failed instead.

    The job's task must resume safely (every job task here is idempotent). ``busy(job)`` may
    say that a silent job is still being worked on (e.g. a lock held by a live worker).
    Returns the ids restarted and failed.
    """
    now = timezone.now()
    cutoff = now - timedelta(seconds=settings.JOB_HEARTBEAT_TIMEOUT)
    queued, running = JobStatus.QUEUED, JobStatus.RUNNING
    restarted, failed_ids = [], []
    stale = model.objects.filter(status__in=(queued, running), heartbeat_at__lt=cutoff)
    for job_id in stale.order_by("pk").values_list("pk", flat=True):
        with transaction.atomic():
            job = model.objects.select_for_update().get(pk=job_id)
            if job.status not in (queued, running) or job.heartbeat_at >= cutoff:
                continue
            if busy is not None and busy(job):
                continue
            if job.status == running and job.restarts >= settings.JOB_MAX_RESTARTS:
                job.status = JobStatus.FAILED
                job.error = (
                    f"the worker stopped {job.restarts + 1} times during this job; "
                    "start it again to retry"
                )
                job.finished_at = now
                job.save(update_fields=["status", "error", "finished_at"])
                failed_ids.append(job.pk)
                continue
            if job.status == running:
                job.restarts += 1
            job.heartbeat_at = now
            job.save(update_fields=["restarts", "heartbeat_at"])
        send(task_name, job.pk)  # after the commit: the job's row is no longer locked
        restarted.append(job.pk)
    if restarted or failed_ids:
        log.warning(
            "stale jobs",
            extra={"model": model.__name__, "restarted": restarted, "failed": failed_ids},
        )
    return {"restarted": restarted, "failed": failed_ids}
