"""Append-only records: rows written once and never changed or deleted.

- ``save()`` refuses to update a stored row and ``delete()`` refuses outright;
- their querysets refuse ``update()``, ``delete()`` and ``bulk_update()``;
- on PostgreSQL a trigger (migration ``rulings_audit``) raises on any UPDATE or
  DELETE of their rows, whatever client writes to the database.

Evaluations and disputes (tracker/hands/models.py), rulings
(tracker/rulings/models.py) and the audit log (tracker/audit/models.py) are
append-only.

Jobs: :class:`Job` is the abstract base of the worker's long jobs (a re-evaluation, a PHH
import): their :class:`JobStatus`, error, times and the heartbeat the sweeps read
(tracker/core/jobs.py ``stale_jobs_restart``).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class AppendOnlyError(RuntimeError):
    """A stored append-only row was about to be changed or deleted."""


class AppendOnlyQuerySet(models.QuerySet):
    def _refuse(self, what: str):
        raise AppendOnlyError(f"{self.model.__name__} rows are append-only: {what} refused")

    def update(self, **kwargs):
        self._refuse("update")

    def delete(self):
        self._refuse("delete")

    def bulk_update(self, objs, fields, batch_size=None):
        self._refuse("bulk_update")

    def update_or_create(self, defaults=None, create_defaults=None, **kwargs):
        self._refuse("update_or_create")


class AppendOnlyModel(models.Model):
    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnlyError(
                f"{type(self).__name__} rows are append-only: a stored row cannot be changed"
            )
        kwargs["force_insert"] = True
        kwargs.pop("force_update", None)
        kwargs.pop("update_fields", None)
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError(f"{type(self).__name__} rows are append-only: delete refused")


class JobStatus(models.TextChoices):
    QUEUED = "queued", "Queued"
    RUNNING = "running", "Running"
    DONE = "done", "Done"  # the work ran to its end (some parts may have failed: see the job)
    FAILED = "failed", "Failed"  # the job itself failed (its error says why)


class Job(models.Model):
    """What every long job of the worker holds: its status, its error, who started it, when
    it was created, started and finished, and its heartbeat.

    The heartbeat is written as the job progresses (and when it is queued); the sweep resumes
    a queued or running job that has been silent for ``JOB_HEARTBEAT_TIMEOUT`` seconds, and
    fails it after ``JOB_MAX_RESTARTS`` restarts of a running job."""

    status = models.CharField(max_length=16, choices=JobStatus.choices, default=JobStatus.QUEUED)
    error = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    heartbeat_at = models.DateTimeField(default=timezone.now, db_index=True)
    restarts = models.PositiveSmallIntegerField(default=0)

    class Meta:
        abstract = True
        ordering = ["-id"]

    @property
    def is_active(self) -> bool:
        return self.status in (JobStatus.QUEUED, JobStatus.RUNNING)
