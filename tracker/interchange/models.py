"""Hand-history import jobs.

An :class:`ImportJob` is one upload of PHH files into a tournament (through the
API, the page or ``manage.py import_phh``); each file is an :class:`ImportFile`, its
text stored as :class:`ImportChunk` rows while it waits (in the database, so the web
process and the worker need share nothing but it), read a hand at a time and recorded
in batches, each whole or not at all. Small uploads run at once, large ones on the
worker; the counters on the job are the progress (``done`` of ``total`` hands read),
committed with each batch; ``ImportFile.position`` is how far a file got, so a job
resumed after its worker died goes on from there.
"""

from __future__ import annotations

from django.db import models

from tracker.core.models import Job, JobStatus

__all__ = ["ImportChunk", "ImportFile", "ImportFileStatus", "ImportJob", "ImportStatus"]


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
    """One uploaded file of an import: read to its end (``done``) or stopped by a fault
    (``failed``: the batches before the fault stay imported, nothing of the batch at fault)."""

    job = models.ForeignKey(ImportJob, on_delete=models.CASCADE, related_name="files")
    index = models.PositiveSmallIntegerField()  # its place in the upload (files[index])
    name = models.CharField(max_length=255)
    # The file's text is in its chunks while it waits to be imported; they are deleted when
    # the file is done or rejected (a file keeps only its name, size and hash).
    sha256 = models.CharField(max_length=64)
    size = models.PositiveIntegerField(default=0)  # bytes as uploaded
    hands = models.PositiveIntegerField(default=0)
    status = models.CharField(
        max_length=16, choices=ImportFileStatus.choices, default=ImportFileStatus.PENDING
    )
    imported = models.PositiveIntegerField(default=0)
    skipped = models.PositiveIntegerField(default=0)
    # Hands read and committed so far (imported or skipped): a resumed run starts after them.
    position = models.PositiveIntegerField(default=0)
    # {"message", "code", "hand", "line", "field", "action_index", "action"} when the file
    # failed ("hand" is the hand's label, "line" the file's line of its table header or of
    # the TOML fault).
    error = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["job", "index"]
        constraints = [
            models.UniqueConstraint(fields=["job", "index"], name="import_file_index_unique")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.status})"

    def pieces(self):
        """The stored text, chunk by chunk in order, one chunk in memory at a time."""
        ids = list(self.chunks.order_by("seq").values_list("pk", flat=True))
        for pk in ids:
            yield ImportChunk.objects.values_list("text", flat=True).get(pk=pk)

    @property
    def text(self) -> str:
        """The whole stored text ("" once the file is done or rejected); for small files
        and checks only: an import reads :meth:`pieces`."""
        return "".join(self.pieces())


class ImportChunk(models.Model):
    """A piece of an uploaded file's text (at most ``CHUNK_CHARS`` characters, cut anywhere),
    kept while the file waits to be imported."""

    file = models.ForeignKey(ImportFile, on_delete=models.CASCADE, related_name="chunks")
    seq = models.PositiveIntegerField()
    text = models.TextField()

    class Meta:
        ordering = ["file", "seq"]
        constraints = [
            models.UniqueConstraint(fields=["file", "seq"], name="import_chunk_seq_unique")
        ]

    def __str__(self) -> str:
        return f"{self.file_id}:{self.seq}"
