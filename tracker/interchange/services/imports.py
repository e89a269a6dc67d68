"""Import PHH hand histories (.phh / .phhs) into a tournament.

Every hand is checked as :func:`tracker.hands.services.recording.hand_record` checks it (the
import records through its :class:`~tracker.hands.services.recording.HandBatch`), so the
tournament rules apply: the hand's stakes must be those of the tournament's next hand, its
starting stacks the projected stacks of the players dealt in (in position order: ``p1``
sits left of the dealer) and its ``players`` (if given) their names.

* Streamed: an upload is read in pieces and stored as chunks of text in the database
  (:class:`~tracker.interchange.models.ImportChunk`), then read back a chunk and a hand
  at a time (:func:`tracker.engine.phh.stream_hands`): memory holds one chunk and one
  batch, whatever the file's size.
* Recorded in batches of ``PHH_IMPORT_BATCH`` hands (500 by default), each in one
  transaction with bulk writes, whole or not at all. The first fault stops the file and is
  reported with the file name, the hand (its ``.phhs`` label), the line of its table, and
  the field or action at fault, as the replay names them
  (``night.phhs, hand 3, action 7 'p2 cbr 60': ...``); the batches before it stay
  imported, nothing of the batch at fault does. A file of one batch or less is imported
  whole or not at all. A batch goes on from the state of play the batch before it left
  in memory (read again only if something else changed the tournament's play), so its
  cost does not grow with the hands recorded before it.
* Each batch commits the file's ``position`` (hands read) and the job's counters with its
  hands, so a job resumed after its worker died goes on after the last batch committed.
* Each hand is stored with ``content_hash``, the SHA-256 of its canonical JSON;
  a hand whose hash is already in the tournament is skipped, so importing the
  same file again adds nothing.
* Small uploads run at once; larger ones (more than ``PHH_IMPORT_INLINE_MAX``
  hands, 20 by default) run on the worker, with the progress on the job.
"""

from __future__ import annotations

import codecs
import gc
import hashlib
import logging
import math
import os
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from itertools import islice
from typing import IO

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from tracker.core import rows
from tracker.core.cache import failsafe_cache as cache
from tracker.core.jobs import TRANSIENT, enqueue_on_commit, stale_jobs_restart
from tracker.core.permissions import Capability, require
from tracker.core.ratelimit import too_many
from tracker.engine import phh
from tracker.engine.errors import Code, DomainError, Refusal
from tracker.hands.models import Hand
from tracker.hands.services.recording import HandBatch
from tracker.interchange.models import (
    ImportChunk,
    ImportFile,
    ImportFileStatus,
    ImportJob,
    ImportStatus,
)
from tracker.interchange.services.hands import HandFault, content_hash, phh_hands_add
from tracker.tournaments.models import Tournament

log = logging.getLogger(__name__)

MAX_FILES = 50
# A file is stored in chunks and read a hand at a time, so its size bounds the database's
# share, not the memory: 64 MB is some 200,000 hands of a few hundred bytes. A text that is
# not a .phhs of tables (a .phh: top-level fields) is read whole, so it has the old bound.
MAX_FILE_BYTES = 64 * 1024 * 1024
MAX_DOCUMENT_BYTES = 2 * 1024 * 1024
CHUNK_CHARS = 1024 * 1024  # characters per stored chunk
READ_BYTES = 256 * 1024  # bytes read from an upload at a time
# One upload (a request, files and form together) and each user's uploads per minute, on the
# pages and the API alike (settings PHH_UPLOAD_MAX_BYTES, PHH_UPLOAD_BYTES_PER_MINUTE,
# PHH_UPLOADS_PER_MINUTE).
DEFAULT_UPLOAD_MAX_BYTES = 64 * 1024 * 1024
DEFAULT_UPLOAD_BYTES_PER_MINUTE = 128 * 1024 * 1024
DEFAULT_UPLOADS_PER_MINUTE = 10
# Each user's uploads of the last UPLOAD_WINDOW seconds: a log of (time, bytes), a sliding
# minute (no calendar minute to straddle), in the fail-safe cache.
UPLOAD_WINDOW = 60
UPLOAD_LOG_KEY = "homegame:phh-uploads:{user}"
DEFAULT_INLINE_MAX = 20
DEFAULT_BATCH = 500  # hands per transaction (setting PHH_IMPORT_BATCH)

Progress = Callable[[int, int], None]


def inline_max() -> int:
    return int(getattr(settings, "PHH_IMPORT_INLINE_MAX", DEFAULT_INLINE_MAX))


def batch_max() -> int:
    return max(1, int(getattr(settings, "PHH_IMPORT_BATCH", DEFAULT_BATCH)))


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


Upload = str | bytes | IO[bytes]


def phh_import_start(
    *,
    tournament: Tournament,
    by,
    files: Sequence[tuple[str, Upload]],
    source: str = "api",
    inline: bool | None = None,
    progress: Progress | None = None,
) -> ImportJob:
    """Store an upload of ``files`` (``(name, data)`` pairs: text, bytes, or a binary file
    object such as an uploaded file, read in pieces) as an import job and run it: at once
    when ``inline`` (default: at most ``PHH_IMPORT_INLINE_MAX`` hands), otherwise on the
    worker once the transaction commits. Returns the job (the report when inline).

    Each file is stored as chunks of text while its hand tables are counted (a ``.phh``,
    read whole, is read here); a file that is not UTF-8 text, too large, or not PHH fails
    here, each on its own; the others are still imported.
    """
    require(by, tournament.league, Capability.RECORD_HAND, "import hands")
    if not files:
        raise DomainError("upload at least one .phh or .phhs file", field="files")
    if len(files) > MAX_FILES:
        raise DomainError(f"upload at most {MAX_FILES} files at once", field="files")
    with transaction.atomic():
        job = ImportJob.objects.create(
            tournament=tournament,
            created_by=by if getattr(by, "is_authenticated", False) else None,
            source=source,
        )
        total = 0
        for index, (name, data) in enumerate(files):
            name = (name or f"file {index + 1}").replace("\x00", "")[:255]
            row = ImportFile.objects.create(job=job, index=index, name=name, sha256="")
            _store(row, data)
            total += row.hands
        job.total = total
        job.save(update_fields=["total"])
        if inline is None:
            inline = total <= inline_max()
        if not inline:
            enqueue_on_commit("tracker.phh_import_run", job.pk)
    if inline:
        phh_import_run(job_id=job.pk, progress=progress)
    job.refresh_from_db()
    return job


def _pieces(data: Upload) -> Iterator[bytes]:
    """The bytes of an upload, a piece at a time."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    if isinstance(data, (bytes, bytearray, memoryview)):
        view = memoryview(data)
        for k in range(0, len(view), READ_BYTES):
            yield bytes(view[k : k + READ_BYTES])
        return
    if hasattr(data, "seek"):
        data.seek(0)
    if hasattr(data, "chunks"):  # Django's uploaded files
        yield from data.chunks(READ_BYTES)
        return
    while piece := data.read(READ_BYTES):
        yield piece


def _store(row: ImportFile, data: Upload) -> None:
    """Store one file's text as chunks and count its hands (``row.hands``); a file that
    cannot be imported is marked failed and keeps its name, size and hash only."""
    digest = hashlib.sha256()
    size = 0
    too_large = False
    pieces = _pieces(data)

    def texts() -> Iterator[str]:
        nonlocal size, too_large
        decoder = codecs.getincrementaldecoder("utf-8-sig")()
        held = ""  # decoded, not stored yet: less than a chunk and a piece
        seq = 0

        def store(final: bool = False) -> None:
            nonlocal held, seq
            while len(held) >= CHUNK_CHARS or (final and held):
                ImportChunk.objects.create(file=row, seq=seq, text=held[:CHUNK_CHARS])
                held, seq = held[CHUNK_CHARS:], seq + 1

        for raw in pieces:
            digest.update(raw)
            size += len(raw)
            if size > MAX_FILE_BYTES:
                too_large = True
                break
            try:
                text = decoder.decode(raw)
            except UnicodeDecodeError:
                raise _fault(row, "not UTF-8 text") from None
            if "\x00" in text:  # not text; and PostgreSQL cannot store it
                raise _fault(row, "not a text file (it holds NUL characters)")
            held += text
            store()
            yield text
        if too_large:
            return
        try:
            tail = decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            raise _fault(row, "not UTF-8 text") from None
        held += tail
        store(final=True)
        yield tail

    try:
        try:
            hands = 0
            for section in phh.iter_sections(texts(), source=row.name):
                if section.key is None:  # a .phh (top-level fields): read whole, here
                    if len(section.text) > MAX_DOCUMENT_BYTES:
                        raise HandFault(
                            "a text of top-level PHH fields is at most "
                            f"{MAX_DOCUMENT_BYTES // (1024 * 1024)} MB (a .phhs of hand "
                            f"tables, [1], [2], ..., up to {MAX_FILE_BYTES // (1024 * 1024)} MB)",
                            code=Code.FILE_TOO_LARGE,
                            source=row.name,
                            hand=None,
                        )
                    hands += len(phh.iter_hands(section.text, source=row.name))
                else:
                    hands += 1
        except phh.PHHError as exc:
            if not too_large:
                raise _located(exc, row.name) from None
        if too_large:
            raise HandFault(
                f"the file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MB",
                code=Code.FILE_TOO_LARGE,
                source=row.name,
                hand=None,
            )
        row.hands = hands
    except HandFault as fault:
        row.status = ImportFileStatus.FAILED
        row.error = fault.as_report()
        row.hands = 0
        row.chunks.all().delete()  # a rejected file is not kept: its name, size and hash only
    for raw in pieces:  # what was not read (a file refused part-way), for its size and hash
        digest.update(raw)
        size += len(raw)
    row.sha256, row.size = digest.hexdigest(), size
    row.save(update_fields=["sha256", "size", "hands", "status", "error"])


def _fault(row: ImportFile, message: str) -> HandFault:
    return HandFault(message, code=Code.INVALID_PHH, source=row.name, hand=None)


def _located(exc: DomainError, name: str) -> HandFault:
    """A reading fault (not PHH, bad TOML) as a file's fault, with the hand and line."""
    return HandFault(
        exc.message,
        code=exc.code,
        source=name,
        hand=getattr(exc, "hand", None),
        field=next(iter(exc.fields), None),
        line=getattr(exc, "line", None),
    )


def _hands(f: ImportFile, skip: int) -> Iterator[phh.StreamedHand]:
    """The hands of a stored file after the first ``skip``, a chunk at a time."""
    try:
        yield from phh.stream_hands(f.pieces(), source=f.name, skip=skip)
    except phh.PHHError as exc:
        raise _located(exc, f.name) from None


# --------------------------------------------------------------------------
# Running an import (inline, or in the worker)


def phh_import_run(*, job_id: int, progress: Progress | None = None) -> dict:
    """Run an import job: each pending file in upload order, in batches of
    ``PHH_IMPORT_BATCH`` hands, each batch in its own transaction (its hands, the file's
    ``position`` and the job's counters, the progress, commit together).

    Idempotent: a finished job is not run again, a file already imported (or failed) is not
    read again, and a file part-read goes on after its ``position``; so a task delivered
    twice, or again after its worker died, records no hand twice (and a hand already in the
    tournament is skipped by its hash in any case). ``progress(done, total)`` is called after
    each hand read, inside its batch's transaction.
    """
    with transaction.atomic():
        job = ImportJob.objects.select_for_update().get(pk=job_id)
        if job.status in (ImportStatus.DONE, ImportStatus.FAILED):
            return _result(job)
        job.status = ImportStatus.RUNNING
        job.started_at = job.started_at or timezone.now()
        job.heartbeat_at = timezone.now()
        job.save(update_fields=["status", "started_at", "heartbeat_at"])
    delay = _fault_delay()

    def tick(done: int) -> None:
        if progress is not None:
            progress(done, job.total)
        if delay:
            time.sleep(delay)

    try:
        for file_id in (
            ImportFile.objects.filter(job_id=job_id, status=ImportFileStatus.PENDING)
            .order_by("index")
            .values_list("id", flat=True)
        ):
            _run_file(job, file_id, tick)
    except Refusal as exc:  # e.g. the user lost the role to record hands meanwhile
        _finish(job_id, error=exc.message)
        raise
    except Exception as exc:
        if not isinstance(exc, TRANSIENT):  # a transient error is retried by the task
            _finish(job_id, error=f"the import stopped: {type(exc).__name__}")
        raise
    job = _finish(job_id)
    if progress is not None:
        progress(job.done, job.total)
    return _result(job)


def _fault_delay() -> float:
    """Test hook: a pause after each hand read, so a test can kill the worker mid-import."""
    return float(os.environ.get("HOMEGAME_IMPORT_FAULT_DELAY", "0") or 0)


def _busy(job: ImportJob) -> bool:
    """A live worker holds the lock on the file it is importing while it records a batch; a
    dead worker's lock went with its connection. (Between two batches the lock is free for
    a moment, but the job's heartbeat, sent with each batch, is fresh then.)"""
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
    """Hands read so far: the job's counter, committed with each batch."""
    return job.done


def _run_file(job: ImportJob, file_id: int, tick: Callable[[int], None]) -> None:
    """Import one file, a batch per transaction, from where it got to."""
    size = batch_max()
    hands: Iterator[phh.StreamedHand] | None = None
    batch: HandBatch | None = None  # the last batch: the next goes on from its state of play
    at = -1  # the position the stream ``hands`` stands at
    while True:
        try:
            with _collector_paused(), transaction.atomic():
                f = ImportFile.objects.select_for_update().get(pk=file_id)
                if f.status != ImportFileStatus.PENDING:
                    return  # another delivery of the task did this file
                if hands is None or at != f.position:  # (re)start after the hands committed
                    hands, at = _hands(f, f.position), f.position
                done_before = ImportJob.objects.values_list("done", flat=True).get(pk=job.pk)
                items = list(islice(hands, size))
                if not items:
                    f.status = ImportFileStatus.DONE
                    f.save(update_fields=["status"])
                    f.chunks.all().delete()  # imported: the text is not kept
                    return
                batch, imported, skipped = _import_batch(
                    job, f, items, done_before, tick, after=batch
                )
                at = f.position + len(items)
                ImportFile.objects.filter(pk=f.pk).update(
                    position=at,
                    imported=F("imported") + imported,
                    skipped=F("skipped") + skipped,
                )
                ImportJob.objects.filter(pk=job.pk).update(
                    done=F("done") + len(items),
                    imported=F("imported") + imported,
                    skipped=F("skipped") + skipped,
                    heartbeat_at=timezone.now(),
                )
        except HandFault as fault:
            with transaction.atomic():
                f = ImportFile.objects.select_for_update().get(pk=file_id)
                if f.status != ImportFileStatus.PENDING:
                    return
                f.status = ImportFileStatus.FAILED
                f.error = fault.as_report()
                f.save(update_fields=["status", "error"])
                f.chunks.all().delete()  # a rejected file is not kept: its name, size and hash
                # The hands not read count as done: the progress reaches the total.
                ImportJob.objects.filter(pk=job.pk).update(
                    done=F("done") + max(0, f.hands - f.position), heartbeat_at=timezone.now()
                )
            return


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector held off while a batch is read, checked and
    written. Each hand makes thousands of short-lived objects, which set off collections
    whose full passes walk every object of the process (the engine's tables, Django's): a
    seventh of an import's time. Memory is still freed as the batch goes (by reference
    counting); what only the collector frees waits for the end of the batch, when the
    collector runs again as usual: the memory of one batch, whatever the file's size."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


# One look-up of the index (tournament, hash) per hash of the batch, whatever the table's
# statistics: asked as ``tournament = … AND hash IN (…)`` on a table not analysed since its
# hands came in, PostgreSQL's planner read every hand of the tournament by the tournament's
# index and kept the batch's, at each batch (docs/performance.md, "Imports: the hashes …").
_PRESENT_SQL = (
    "SELECT d.hash FROM unnest(%s::text[]) AS d(hash), LATERAL (SELECT 1 FROM {hand} h "
    "WHERE h.{tournament} = %s AND h.{content_hash} = d.hash LIMIT 1) AS found"
).format(
    hand=rows.table(Hand),
    tournament=rows.column(Hand, "tournament"),
    content_hash=rows.column(Hand, "content_hash"),
)


def _hashes_present(tournament_id: int, digests: list[str]) -> set[str]:
    """The ``digests`` of hands already in the tournament."""
    if connection.vendor != "postgresql":
        return set(
            Hand.objects.filter(tournament_id=tournament_id, content_hash__in=digests)
            .values_list("content_hash", flat=True)
            .iterator()
        )
    with connection.cursor() as cursor:
        cursor.execute(_PRESENT_SQL, [digests, tournament_id])
        return {digest for (digest,) in cursor.fetchall()}


def _import_batch(
    job: ImportJob,
    f: ImportFile,
    items: list[phh.StreamedHand],
    done_before: int,
    tick,
    after: HandBatch | None,
) -> tuple[HandBatch, int, int]:
    """Record the new hands of one batch (inside the caller's transaction): one read of the
    hashes already in the tournament, the checks hand by hand against the state of play the
    batch ``after`` left (unless the tournament's play changed otherwise meanwhile), one
    bulk write. The batch (saved), and the hands imported and skipped."""
    batch = HandBatch(tournament=job.tournament, by=job.created_by, after=after)
    digests = [content_hash(item.hand) for item in items]
    seen = _hashes_present(job.tournament_id, digests)
    imported = skipped = 0
    for k, (item, digest) in enumerate(zip(items, digests, strict=True)):
        if digest in seen:
            skipped += 1
        else:
            phh_hands_add(
                batch,
                hand=item.hand,
                digest=digest,
                source=f.name,
                label=item.label,
                line=item.line,
            )
            seen.add(digest)
            imported += 1
        tick(done_before + k + 1)
    batch.save()
    return batch, imported, skipped
