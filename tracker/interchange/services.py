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
import json
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from tracker.core.errors import NotFound, PermissionDenied
from tracker.core.jobs import TRANSIENT, enqueue_on_commit
from tracker.core.paths import FieldPath
from tracker.core.permissions import Capability, require
from tracker.engine import phh
from tracker.engine.errors import DomainError
from tracker.engine.procedure import PHH_OPTIONAL, PHH_REQUIRED, PHH_VARIANT
from tracker.hands.models import Hand
from tracker.hands.selectors.evaluation import HandSpec, hand_evaluate
from tracker.hands.services.recording import hand_record
from tracker.interchange.models import ImportFile, ImportFileStatus, ImportJob, ImportStatus
from tracker.tournaments.models import Tournament
from tracker.tournaments.selectors import tournament_state

log = logging.getLogger(__name__)

MAX_FILES = 50
MAX_FILE_BYTES = 2 * 1024 * 1024
DEFAULT_INLINE_MAX = 20
PROGRESS_KEY = "homegame:phh-import:{}"

# Our entry keys for the PHH user fields, and back.
ENTRY_FIELDS = {"_seventh_card": "seventh_card", "_buys": "buys", "_declarations": "declarations"}
_PHH_OF_ENTRY = {v: k for k, v in ENTRY_FIELDS.items()}
_POSITION = re.compile(r"^p([1-9][0-9]*)$")

Progress = Callable[[int, int], None]


def inline_max() -> int:
    return int(getattr(settings, "PHH_IMPORT_INLINE_MAX", DEFAULT_INLINE_MAX))


def content_hash(hand: Mapping[str, Any]) -> str:
    """SHA-256 of a hand's canonical JSON (sorted keys, no spaces): the same hand read from
    any file, under any label, has the same hash."""
    text = json.dumps(hand, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class HandFault(DomainError):
    """A hand of a file refused, located: the file, the hand label, the field or action."""

    def __init__(
        self,
        message: str,
        *,
        code: str,
        source: str,
        hand: str | int | None,
        field: str | None = None,
        action_index: int | None = None,
        action: str | None = None,
    ) -> None:
        parts = [source]
        if hand is not None:
            parts.append(f"hand {hand}")
        if action_index is not None:
            parts.append(
                f"action {action_index} {action!r}"
                if action is not None
                else f"after the last action ({action_index} actions)"
            )
        elif field:
            parts.append(field)
        super().__init__(f"{', '.join(parts)}: {message}", code=code)
        self.reason = message
        self.source = source
        self.hand = hand
        self.field = field
        self.action_index = action_index
        self.action = action

    def as_report(self) -> dict:
        return {
            "message": self.message,
            "code": self.code,
            "hand": self.hand,
            "field": self.field,
            "action_index": self.action_index,
            "action": self.action,
        }


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
        job.save(update_fields=["status", "started_at"])
    key = PROGRESS_KEY.format(job_id)
    done_before = job.done

    def tick(done_in_file: int) -> None:
        done = done_before + done_in_file
        cache.set(key, done, timeout=3600)
        if progress is not None:
            progress(done, job.total)

    try:
        for file_id in (
            ImportFile.objects.filter(job_id=job_id, status=ImportFileStatus.PENDING)
            .order_by("index")
            .values_list("id", flat=True)
        ):
            _run_file(job, file_id, tick)
            done_before = ImportJob.objects.values_list("done", flat=True).get(pk=job_id)
            tick(0)
    except DomainError as exc:  # e.g. the user lost the role to record hands meanwhile
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
            f.save(update_fields=["status", "error"])
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


# --------------------------------------------------------------------------
# One hand


def phh_hand_record(
    *,
    tournament: Tournament,
    by,
    hand: Mapping[str, Any],
    digest: str = "",
    source: str = "<phh>",
    label: str | int | None = 1,
) -> Hand:
    """Record one PHH hand (a mapping as :func:`tracker.engine.phh.loads` gives) as the
    tournament's next hand. Raises :class:`HandFault` naming the file, hand and field."""

    def fault(message: str, field: str | None = None, code: str = "invalid_hand") -> HandFault:
        return HandFault(message, code=code, source=source, hand=label, field=field)

    _check_fields(hand, fault)
    state = tournament_state(tournament)
    if state.over:
        why = (
            f"the {tournament.hand_limit}-hand limit is reached"
            if state.hands_recorded >= tournament.hand_limit
            else "one player holds every chip"
        )
        raise fault(
            f"{tournament.name} is over ({why}): hand {state.next_number} cannot be dealt",
            code="tournament_over",
        )
    seats = state.next_positions()
    names = [s.player.name for s in seats]
    stakes = state.next_stakes
    at = (
        f"hand {state.next_number} of {tournament.name} is dealt at level {stakes.level}: "
        f"antes {stakes.ante}, bring-in {stakes.bring_in}, small bet {stakes.small_bet}, "
        f"big bet {stakes.big_bet}"
    )
    antes = hand["antes"]
    if isinstance(antes, list):
        if len(antes) != len(hand["starting_stacks"]):
            raise fault("give one ante per player, or a single number", "antes")
        if any(a != stakes.ante for a in antes):
            raise fault(f"the file has antes {antes}; {at}", "antes", "stakes_mismatch")
    elif antes != stakes.ante:
        raise fault(f"the file has antes {antes!r}; {at}", "antes", "stakes_mismatch")
    for name, ours in (
        ("bring_in", stakes.bring_in),
        ("small_bet", stakes.small_bet),
        ("big_bet", stakes.big_bet),
    ):
        if hand[name] != ours:
            raise fault(f"the file has {name} {hand[name]!r}; {at}", name, "stakes_mismatch")
    stacks = [state.stacks[s.player_id] for s in seats]
    given = hand["starting_stacks"]
    if given != stacks:
        who = ", ".join(
            f"p{k + 1} {n} {c}" for k, (n, c) in enumerate(zip(names, stacks, strict=True))
        )
        raise fault(
            f"the file has {given!r}; the players dealt into hand {state.next_number} "
            f"(p1 sits left of the dealer) have {who}",
            "starting_stacks",
            "stacks_mismatch",
        )
    players = hand.get("players")
    if players is not None:
        if not isinstance(players, list) or [_name(p) for p in players] != [
            _name(n) for n in names
        ]:
            raise fault(
                f"the file names {players!r}; the players dealt into hand {state.next_number} "
                f"are {names} (p1 sits left of the dealer)",
                "players",
                "players_mismatch",
            )
    entry: dict[str, Any] = {"actions": hand["actions"]}
    for theirs, ours in ENTRY_FIELDS.items():
        if hand.get(theirs) is not None:
            entry[ours] = hand[theirs]
    options = hand.get("_options")
    if options is not None and not isinstance(options, Mapping):
        raise fault("must be a table of announcements", "_options")
    table_result = _table_result(hand.get("_table_result"), seats, fault)
    try:
        recorded = hand_record(
            tournament=tournament,
            by=by,
            entry_mode="full",
            variant=hand.get("_variant") or "seven_card_stud",
            options=options,
            entry=entry,
            table_result=table_result,
            content_hash=digest,
        )
    except DomainError as exc:
        if isinstance(exc, PermissionDenied | NotFound):
            raise  # a permission problem, not a fault of the file
        raise _located(exc, hand, source, label) from None
    stated = hand.get("finishing_stacks")
    if stated is not None:
        outcome = hand_evaluate(HandSpec.of(recorded), stacks)
        if list(stated) != outcome.result.finishing_stacks:
            raise fault(
                f"the file states finishing stacks {list(stated)}, the replay gives "
                f"{outcome.result.finishing_stacks}",
                "finishing_stacks",
                "finishing_stacks_mismatch",
            )
    return recorded


def _name(value: Any) -> str:
    return str(value).strip().casefold()


def _check_fields(hand: Mapping[str, Any], fault) -> None:
    if hand.get("variant") != PHH_VARIANT:
        raise fault(
            f"variant {hand.get('variant')!r} is not {PHH_VARIANT!r}: only fixed-limit "
            "seven-card stud hands can be imported",
            "variant",
            "unsupported_variant",
        )
    for name in PHH_REQUIRED:
        if name not in hand:
            raise fault("this PHH field is required", name, "missing_field")
    for name in hand:
        if not name.startswith("_") and name not in PHH_REQUIRED and name not in PHH_OPTIONAL:
            raise fault("not a PHH field of a stud hand", name, "unknown_field")
    if hand.get("ante_trimming_status"):
        raise fault("must be false: every player antes the same", "ante_trimming_status")
    if not isinstance(hand["starting_stacks"], list):
        raise fault("must be an array of chip counts", "starting_stacks")
    if not isinstance(hand["actions"], list):
        raise fault("must be an array of actions", "actions")


def _table_result(value: Any, seats, fault) -> dict | None:
    """Our ``_table_result`` with players as ``p1``, ``p2``, ... -> player ids."""
    if value is None:
        return None

    def players(names: Any, path: str) -> list[int]:
        if not isinstance(names, list):
            raise fault("must be an array of players (p1, p2, ...)", path)
        out = []
        for k, name in enumerate(names):
            m = _POSITION.match(str(name))
            if not m or int(m[1]) > len(seats):
                raise fault(
                    f"{name!r} is not a player of this hand (p1 to p{len(seats)})", f"{path}[{k}]"
                )
            out.append(seats[int(m[1]) - 1].player_id)
        return out

    def one(entry: Any, path: str) -> dict:
        if not isinstance(entry, Mapping):
            raise fault(
                'must be a table: { winners = ["p1"] } or { high = [...], low = [...] }', path
            )
        return {
            key: players(entry[key], f"{path}.{key}")
            for key in ("winners", "high", "low")
            if key in entry
        }

    if not isinstance(value, Mapping):
        raise fault("must be a table", "_table_result")
    if "pots" in value:
        pots = value["pots"]
        if not isinstance(pots, list):
            raise fault("must be an array, one table per pot", "_table_result.pots")
        return {"pots": [one(p, f"_table_result.pots[{k}]") for k, p in enumerate(pots)]}
    return one(value, "_table_result")


# Where a service field path came from in a PHH hand: the entry's fields are the PHH
# fields of the same name or a user-defined ``_`` field; a fault of the whole entry is the
# actions'.
PHH_FIELD_OF = {
    **_PHH_OF_ENTRY,
    "variant": "_variant",
    "options": "_options",
    "table_result": "_table_result",
}


def _phh_field(path: str) -> FieldPath:
    """The service's field path (``entry.actions[7]``, ``entry.buys[0]``, ``options.game``,
    ``table_result``) as the PHH field (``actions[7]``, ``_buys[0]``, ``_options.game``)."""
    ours = FieldPath.parse(path)
    if ours.parts == ("entry",):
        return FieldPath(("actions",))
    if ours.startswith("entry"):
        ours = ours.after("entry")
    head = ours.head
    if head in PHH_FIELD_OF:
        return FieldPath((PHH_FIELD_OF[head],)) + ours.parts[1:]
    return ours


def _located(exc: DomainError, hand: Mapping[str, Any], source: str, label) -> HandFault:
    field = next(iter(exc.fields), None)
    phh_field = _phh_field(field) if field else None
    action_index = action = None
    if phh_field is not None and len(phh_field) == 2:
        action_index = phh_field.seat("actions")
        if action_index is not None:
            actions = hand.get("actions") or []
            action = actions[action_index] if action_index < len(actions) else None
    return HandFault(
        exc.message,
        code=exc.code,
        source=source,
        hand=label,
        field=str(phh_field) if phh_field is not None else None,
        action_index=action_index,
        action=action,
    )


__all__ = [
    "HandFault",
    "content_hash",
    "live_done",
    "phh_hand_record",
    "phh_import_run",
    "phh_import_start",
]
