"""Import PHH hand histories (.phh / .phhs) into a tournament.

Every hand goes through :func:`tracker.hands.services.recording.hand_record`, the same
service as the API and the entry form, so the tournament rules apply: the
hand's stakes must be those of the tournament's next hand, its starting
stacks the projected stacks of the players dealt in (in position order: ``p1``
sits left of the dealer) and its ``players`` (if given) their names.

* A file is imported whole or not at all: one transaction per file. The first
  fault stops the file and is reported with the file name, the hand (its
  ``.phhs`` label) and the field or action at fault, as the replay names them
  (``night.phhs, hand 3, action 7 'p2 cbr 60': ...``).
* Each hand is stored with ``content_hash``, the SHA-256 of its canonical JSON;
  a hand whose hash is already in the tournament is skipped, so importing the
  same file again adds nothing.
* Small uploads run at once; larger ones (more than ``PHH_IMPORT_INLINE_MAX``
  hands, 20 by default) run on the worker, with the progress on the job.
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import time
from collections.abc import Callable, Sequence

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from tracker.core.cache import failsafe_cache as cache
from tracker.core.jobs import TRANSIENT, enqueue_on_commit, stale_jobs_restart
from tracker.core.permissions import Capability, require
from tracker.core.ratelimit import too_many
from tracker.engine import phh
from tracker.engine.errors import DomainError, Refusal
from tracker.hands.models import Hand
from tracker.interchange.models import ImportFile, ImportFileStatus, ImportJob, ImportStatus
from tracker.interchange.services.hands import HandFault, content_hash, phh_hand_record
from tracker.tournaments.models import Tournament

log = logging.getLogger(__name__)

MAX_FILES = 50
MAX_FILE_BYTES = 2 * 1024 * 1024
# One upload (a request, files and form together) and each user's uploads per minute, on the
# pages and the API alike (settings PHH_UPLOAD_MAX_BYTES, PHH_UPLOAD_BYTES_PER_MINUTE,
# PHH_UPLOADS_PER_MINUTE).
DEFAULT_UPLOAD_MAX_BYTES = 8 * 1024 * 1024
DEFAULT_UPLOAD_BYTES_PER_MINUTE = 16 * 1024 * 1024
DEFAULT_UPLOADS_PER_MINUTE = 10
# Each user's uploads of the last UPLOAD_WINDOW seconds: a log of (time, bytes), a sliding
# minute (no calendar minute to straddle), in the fail-safe cache.
UPLOAD_WINDOW = 60
UPLOAD_LOG_KEY = "homegame:phh-uploads:{user}"
DEFAULT_INLINE_MAX = 20
PROGRESS_KEY = "homegame:phh-import:{}"

Progress = Callable[[int, int], None]


def inline_max() -> int:
    return int(getattr(settings, "PHH_IMPORT_INLINE_MAX", DEFAULT_INLINE_MAX))


# --------------------------------------------------------------------------
# Admitting an upload (before its files are read)


class UploadTooLarge(DomainError):
    """The request is larger than one upload may be (the API answers 413)."""

    code = "upload_too_large"


class UploadRateExceeded(DomainError):
    """The user uploaded too much in the last minute (the API answers 429 with Retry-After)."""

    code = "upload_rate_exceeded"

    def __init__(self, reason: str, retry_after: int):
        super().__init__(too_many(reason, retry_after), code=self.code, field="files")
        self.reason = reason
        self.retry_after = retry_after


def upload_limits() -> tuple[int, int, int]:
    """(bytes per upload, bytes per user per minute, uploads per user per minute)."""
    return (
        int(getattr(settings, "PHH_UPLOAD_MAX_BYTES", DEFAULT_UPLOAD_MAX_BYTES)),
        int(getattr(settings, "PHH_UPLOAD_BYTES_PER_MINUTE", DEFAULT_UPLOAD_BYTES_PER_MINUTE)),
        int(getattr(settings, "PHH_UPLOADS_PER_MINUTE", DEFAULT_UPLOADS_PER_MINUTE)),
    )


def upload_wait(
    uploads: Sequence[tuple[float, int]],
    *,
    now: float,
    size: int,
    per_minute: int,
    bytes_per_minute: int,
    window: int = UPLOAD_WINDOW,
) -> float:
    """Seconds until an upload of ``size`` bytes fits the allowance, given the
    ``uploads`` (time, bytes) of the last ``window`` seconds; 0: now. It fits when the uploads
    and bytes of the ``window`` seconds up to it stay within ``per_minute`` and
    ``bytes_per_minute``; else it waits for the oldest uploads to leave the window.

    >>> uploads = [(100.0, 10), (130.0, 10)]
    >>> upload_wait(uploads, now=140.0, size=10, per_minute=3, bytes_per_minute=100)
    0
    >>> upload_wait(uploads, now=140.0, size=10, per_minute=2, bytes_per_minute=100)
    20.0
    >>> upload_wait(uploads, now=140.0, size=95, per_minute=3, bytes_per_minute=100)
    50.0
    """
    recent = sorted((t, b) for t, b in uploads if t > now - window)
    count, total = len(recent), sum(b for _, b in recent)
    if count + 1 <= per_minute and total + size <= bytes_per_minute:
        return 0
    for t, b in recent:  # oldest first: how long until enough of them have left the window
        count, total = count - 1, total - b
        if count + 1 <= per_minute and total + size <= bytes_per_minute:
            return t + window - now
    return float(window)  # larger than a minute's bytes on its own: it never fits


def _upload_log(value) -> list[tuple[float, int]]:
    """The stored log, or none if the cache holds something else."""
    try:
        return [(float(t), int(b)) for t, b in value or ()]
    except (TypeError, ValueError):
        return []


def phh_upload_admit(*, tournament: Tournament, by, size: int) -> None:
    """Admit an upload of ``size`` bytes (the request's Content-Length) before anything of it
    is read: the user may import into the tournament, the upload is at most
    ``PHH_UPLOAD_MAX_BYTES``, and the user's uploads of the last 60 seconds, this one
    included, stay within ``PHH_UPLOADS_PER_MINUTE`` and ``PHH_UPLOAD_BYTES_PER_MINUTE``
    (a sliding minute: :func:`upload_wait`). The allowance is counted in the fail-safe cache,
    shared between web processes when ``CACHE_URL`` is set, per process while it is down."""
    require(by, tournament.league, Capability.RECORD_HAND, "import hands")
    max_bytes, bytes_per_minute, per_minute = upload_limits()
    if size > max_bytes:
        raise UploadTooLarge(
            f"an upload is at most {max_bytes // (1024 * 1024)} MB in all "
            f"(this one is {size / (1024 * 1024):.1f} MB)",
            field="files",
        )
    now = time.time()
    key = UPLOAD_LOG_KEY.format(user=getattr(by, "pk", None))
    recent = [(t, b) for t, b in _upload_log(cache.get(key)) if t > now - UPLOAD_WINDOW]
    wait = upload_wait(
        recent, now=now, size=size, per_minute=per_minute, bytes_per_minute=bytes_per_minute
    )
    if wait > 0:
        raise UploadRateExceeded(
            f"At most {per_minute} uploads and {bytes_per_minute // (1024 * 1024)} MB a minute",
            retry_after=max(1, math.ceil(wait)),
        )
    cache.set(key, [*recent, (now, size)], timeout=UPLOAD_WINDOW)


# --------------------------------------------------------------------------
# Starting an import


def phh_import_start(
    *,
    tournament: Tournament,
    by,
    files: Sequence[tuple[str, str | bytes]],
    source: str = "api",
    inline: bool | None = None,
    progress: Progress | None = None,
) -> ImportJob:
    """Store an upload of ``files`` (``(name, text)`` pairs) as an import job and run it:
    at once when ``inline`` (default: at most ``PHH_IMPORT_INLINE_MAX`` hands), otherwise
    on the worker once the transaction commits. Returns the job (the report when inline).

    Files that are not PHH fail here, each on its own; the others are still imported.
    """
    require(by, tournament.league, Capability.RECORD_HAND, "import hands")
    if not files:
        raise DomainError("upload at least one .phh or .phhs file", field="files")
    if len(files) > MAX_FILES:
        raise DomainError(f"upload at most {MAX_FILES} files at once", field="files")
    rows = []
    total = 0
    for index, (name, data) in enumerate(files):
        name = (name or f"file {index + 1}").replace("\x00", "")[:255]
        row = ImportFile(index=index, name=name)
        raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        row.sha256 = hashlib.sha256(raw).hexdigest()
        row.size = len(raw)
        try:
            if len(raw) > MAX_FILE_BYTES:
                raise HandFault(
                    f"the file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB",
                    code="file_too_large",
                    source=name,
                    hand=None,
                )
            try:
                row.text = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                raise HandFault(
                    "not UTF-8 text", code="invalid_phh", source=name, hand=None
                ) from None
            if "\x00" in row.text:  # not text; and PostgreSQL cannot store it
                row.text = ""
                raise HandFault(
                    "not a text file (it holds NUL characters)",
                    code="invalid_phh",
                    source=name,
                    hand=None,
                )
            row.hands = len(_read(row.text, name))
        except HandFault as fault:
            row.status = ImportFileStatus.FAILED
            row.error = fault.as_report()
            row.text = ""  # a rejected file is not kept: its name, size and hash only
        total += row.hands
        rows.append(row)
    with transaction.atomic():
        job = ImportJob.objects.create(
            tournament=tournament,
            created_by=by if getattr(by, "is_authenticated", False) else None,
            source=source,
            total=total,
        )
        for row in rows:
            row.job = job
        ImportFile.objects.bulk_create(rows)
        if inline is None:
            inline = total <= inline_max()
        if not inline:
            enqueue_on_commit("tracker.phh_import_run", job.pk)
    if inline:
        phh_import_run(job_id=job.pk, progress=progress)
    job.refresh_from_db()
    return job


def _read(text: str, name: str) -> list[tuple[str | int, dict]]:
    try:
        return phh.iter_hands(text, source=name)
    except DomainError as exc:
        raise HandFault(
            exc.message, code=exc.code, source=name, hand=None, field=next(iter(exc.fields), None)
        ) from None


# --------------------------------------------------------------------------
# Running an import (inline, or in the worker)


def phh_import_run(*, job_id: int, progress: Progress | None = None) -> dict:
    """Run an import job: each pending file in its own transaction, in upload order.

    Idempotent: a finished job is not run again, and a file already imported (or failed)
    is not read again, so a task delivered twice, or again after its worker died, is safe.
    """
    with transaction.atomic():
        job = ImportJob.objects.select_for_update().get(pk=job_id)
        if job.status in (ImportStatus.DONE, ImportStatus.FAILED):
            return _result(job)
        job.status = ImportStatus.RUNNING
        job.started_at = job.started_at or timezone.now()
        job.heartbeat_at = timezone.now()
        job.save(update_fields=["status", "started_at", "heartbeat_at"])
    key = PROGRESS_KEY.format(job_id)
    done_before = job.done

    def tick(done_in_file: int) -> None:
        done = done_before + done_in_file
        cache.set(key, done, timeout=3600)
        if progress is not None:
            progress(done, job.total)
        _fault_delay()

    try:
        for file_id in (
            ImportFile.objects.filter(job_id=job_id, status=ImportFileStatus.PENDING)
            .order_by("index")
            .values_list("id", flat=True)
        ):
            _run_file(job, file_id, tick)
            ImportJob.objects.filter(pk=job_id).update(heartbeat_at=timezone.now())
            done_before = ImportJob.objects.values_list("done", flat=True).get(pk=job_id)
            tick(0)
    except Refusal as exc:  # e.g. the user lost the role to record hands meanwhile
        _finish(job_id, error=exc.message)
        raise
    except Exception as exc:
        if not isinstance(exc, TRANSIENT):  # a transient error is retried by the task
            _finish(job_id, error=f"the import stopped: {type(exc).__name__}")
        raise
    finally:
        cache.delete(key)
    job = _finish(job_id)
    if progress is not None:
        progress(job.done, job.total)
    return _result(job)


def _fault_delay() -> None:
    """Test hook: a pause after each hand read, so a test can kill the worker mid-import."""
    delay = float(os.environ.get("HOMEGAME_IMPORT_FAULT_DELAY", "0") or 0)
    if delay:
        time.sleep(delay)


def _busy(job: ImportJob) -> bool:
    """A live worker holds the lock on the file it is importing (one transaction per file),
    however long the file takes; a dead worker's lock went with its connection."""
    if not connection.features.has_select_for_update_skip_locked:
        return False
    pending = ImportFile.objects.filter(job=job, status=ImportFileStatus.PENDING)
    free = pending.select_for_update(skip_locked=True).values_list("pk", flat=True)
    return len(free) < pending.count()


def imports_sweep() -> dict:
    """Resume import jobs that are queued or running but silent for ``JOB_HEARTBEAT_TIMEOUT``
    seconds (their task was lost or their worker died), or fail them after
    ``JOB_MAX_RESTARTS`` restarts. Files already imported or failed are not read again."""
    return stale_jobs_restart(
        ImportJob,
        "tracker.phh_import_run",
        busy=_busy,
    )


def _finish(job_id: int, error: str = "") -> ImportJob:
    with transaction.atomic():
        job = ImportJob.objects.select_for_update().get(pk=job_id)
        failed = bool(error) or (
            job.imported == 0
            and job.skipped == 0
            and job.files.filter(status=ImportFileStatus.FAILED).exists()
        )
        job.status = ImportStatus.FAILED if failed else ImportStatus.DONE
        job.error = error
        job.finished_at = timezone.now()
        job.save(update_fields=["status", "error", "finished_at"])
    log.info(
        "phh import finished",
        extra={"job": job_id, "imported": job.imported, "skipped": job.skipped},
    )
    return job


def _result(job: ImportJob) -> dict:
    return {
        "status": job.status,
        "total": job.total,
        "done": job.done,
        "imported": job.imported,
        "skipped": job.skipped,
    }


def live_done(job: ImportJob) -> int:
    """Hands read so far, counting the file being imported (not yet committed)."""
    if not job.is_active:
        return job.done
    cached = cache.get(PROGRESS_KEY.format(job.pk))
    return max(job.done, cached or 0)


def _run_file(job: ImportJob, file_id: int, tick: Callable[[int], None]) -> None:
    try:
        with transaction.atomic():
            f = ImportFile.objects.select_for_update().get(pk=file_id)
            if f.status != ImportFileStatus.PENDING:
                return  # another delivery of the task did this file
            tournament = Tournament.objects.select_related("league").get(pk=job.tournament_id)
            imported, skipped = _import_file(tournament, job.created_by, f, tick)
            f.status = ImportFileStatus.DONE
            f.imported, f.skipped = imported, skipped
            f.save(update_fields=["status", "imported", "skipped"])
            ImportJob.objects.filter(pk=job.pk).update(
                done=F("done") + f.hands,
                imported=F("imported") + imported,
                skipped=F("skipped") + skipped,
            )
    except HandFault as fault:
        with transaction.atomic():
            f = ImportFile.objects.select_for_update().get(pk=file_id)
            if f.status != ImportFileStatus.PENDING:
                return
            f.status = ImportFileStatus.FAILED
            f.error = fault.as_report()
            f.text = ""  # a rejected file is not kept: its name, size and hash only
            f.save(update_fields=["status", "error", "text"])
            ImportJob.objects.filter(pk=job.pk).update(done=F("done") + f.hands)


def _import_file(tournament: Tournament, by, f: ImportFile, tick) -> tuple[int, int]:
    """Record every new hand of one file (inside the caller's transaction)."""
    imported = skipped = 0
    for k, (label, hand) in enumerate(_read(f.text, f.name)):
        digest = content_hash(hand)
        if Hand.objects.filter(tournament=tournament, content_hash=digest).exists():
            skipped += 1
        else:
            phh_hand_record(
                tournament=tournament, by=by, hand=hand, digest=digest, source=f.name, label=label
            )
            imported += 1
        tick(k + 1)
    return imported, skipped
