"""Hand-history import jobs.

An :class:`ImportJob` is one upload of PHH files into a tournament (through the
API or ``manage.py import_phh``); each file is an :class:`ImportFile`, imported
whole or not at all. Small uploads run at once, large ones on the worker; the
counters on the job are the progress (``done`` of ``total`` hands read).
"""

from __future__ import annotations

from django.db import models

from tracker.core.models import Job, JobStatus

__all__ = ["ImportFile", "ImportFileStatus", "ImportJob", "ImportStatus"]


# A job's status (tracker/core/models.py): DONE, every file was read (some may have failed:
# see the files); FAILED, nothing was imported and something was wrong.
ImportStatus = JobStatus


class ImportFileStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    DONE = "done", "Imported"
    FAILED = "failed", "Failed"


class ImportJob(Job):
    """One upload of PHH files into a tournament, with its progress and report."""

    tournament = models.ForeignKey(
        "tracker.Tournament", on_delete=models.CASCADE, related_name="imports"
    )
    source = models.CharField(max_length=16, default="api")  # "api", "command" or "page"
    total = models.PositiveIntegerField(default=0)  # hands in the files that could be read
    done = models.PositiveIntegerField(default=0)  # hands read so far
    imported = models.PositiveIntegerField(default=0)
    skipped = models.PositiveIntegerField(default=0)  # already in the tournament
    # ``error``: an unexpected failure of the run itself.

    def __str__(self) -> str:
        return f"import {self.pk} into {self.tournament_id} ({self.status})"

    @property
    def progress(self) -> float:
        if self.total:
            return round(min(self.done, self.total) / self.total, 4)
        return 0.0 if self.is_active else 1.0

    def file_list(self) -> list[ImportFile]:
        """The files in upload order (uses a prefetch when there is one)."""
        return sorted(self.files.all(), key=lambda f: f.index)

    @property
    def errors(self) -> list[dict]:
        """One entry per failed file: the file, its place in the upload and the located error."""
        out = []
        for f in self.file_list():
            if f.error:
                out.append({"file": f.name, "index": f.index, **f.error})
        if self.error:
            out.append({"file": None, "index": None, "message": self.error})
        return out

    @property
    def summary(self) -> str:
        """E.g. ``3 hands already imported, 0 new``."""
        text = f"{self.skipped} hand{'' if self.skipped == 1 else 's'} already imported, "
        text += f"{self.imported} new"
        failed = sum(1 for f in self.file_list() if f.status == ImportFileStatus.FAILED)
        if failed:
            text += f"; {failed} file{'' if failed == 1 else 's'} failed"
        return text


class ImportFile(models.Model):
    """One uploaded file of an import: imported whole (``done``) or not at all (``failed``)."""

    job = models.ForeignKey(ImportJob, on_delete=models.CASCADE, related_name="files")
    index = models.PositiveSmallIntegerField()  # its place in the upload (files[index])
    name = models.CharField(max_length=255)
    # The file's text while it waits to be imported; emptied when the file is rejected (a
    # rejected file keeps only its name, size and hash).
    text = models.TextField(blank=True)
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField(default=0)  # bytes as uploaded
    hands = models.PositiveIntegerField(default=0)
    status = models.CharField(
        max_length=16, choices=ImportFileStatus.choices, default=ImportFileStatus.PENDING
    )
    imported = models.PositiveIntegerField(default=0)
    skipped = models.PositiveIntegerField(default=0)
    # {"message", "code", "hand", "field", "action_index", "action"} when the file failed.
    error = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["job", "index"]
        constraints = [
            models.UniqueConstraint(fields=["job", "index"], name="import_file_index_unique")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"
