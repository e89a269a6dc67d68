"""Re-run the engine over settled hands (for instance after an engine fix).

Re-evaluation never moves chips. Every reading is kept as an Evaluation row
(append-only: what each engine version said). Where the engine still agrees
with what was stored, nothing else is written. Where it now reads a pot
differently, the new reading is stored with the engine version that made it
and the pot is flagged as disputed, for the league's authority to rule on.
Only a ruling closes a dispute: a re-evaluation never clears one, and never
touches a pot the authority overrode.
"""

from __future__ import annotations

import logging
import os
import time

from django.conf import settings
from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from tracker.audit.services import audit_record, system_actor
from tracker.core import rows
from tracker.core.bulk import rows_insert
from tracker.core.jobs import enqueue_on_commit, send_group
from tracker.core.permissions import Capability, require
from tracker.core.totals import totals_kept
from tracker.core.typed import ChipsByPlayer
from tracker.engine.errors import DomainError
from tracker.engine.version import ENGINE_VERSION
from tracker.games.models import LeagueGameVersion
from tracker.games.selectors import version_definition
from tracker.hands.models import (
    SETTLED,
    DisputeSource,
    Evaluation,
    EvaluationSource,
    Hand,
    HandSeat,
    HandStatus,
    JobStatus,
    Pot,
    ReevaluationChunk,
    ReevaluationJob,
)
from tracker.hands.selectors.evaluation import SPEC_COLUMNS, HandSpec, hand_evaluate
from tracker.hands.selectors.facts import facts_for_hand
from tracker.hands.services.evaluations import disputes_flag, evaluation_row
from tracker.leagues.models import League
from tracker.tournaments.models import Tournament

log = logging.getLogger(__name__)

CHUNK_TASK = "tracker.reevaluation_chunk"
DEFAULT_CHUNK_SIZE = 500
DEFAULT_BATCH_SIZE = 250


@transaction.atomic
def reevaluation_start(
    *, league: League, by, tournament: Tournament | None = None
) -> ReevaluationJob:
    """Queue a re-evaluation of a tournament, or of the whole league."""
    require(by, league, Capability.REEVALUATE, "re-evaluate hands")
    if tournament is not None and tournament.league_id != league.pk:
        raise DomainError("that tournament is not in this league", field="tournament")
    job = ReevaluationJob.objects.create(league=league, tournament=tournament, created_by=by)
    audit_record(
        action="reevaluation.start",
        target=job,
        league=league,
        actor=by,
        data={"job": job.pk, "tournament": tournament.pk if tournament else None},
    )
    enqueue_on_commit("tracker.reevaluation_run", job.pk)
    return job


def _scope(job: ReevaluationJob):
    hands = Hand.objects.filter(status__in=SETTLED)
    if job.tournament_id:
        return hands.filter(tournament_id=job.tournament_id)
    return hands.filter(tournament__league_id=job.league_id)


def hand_reevaluate(*, hand: Hand, job_id: int | None = None, rows: list | None = None) -> bool:
    """Re-read one settled hand with the current engine. Returns whether anything changed.

    The reading is kept as an Evaluation row, inserted at once, or appended to ``rows`` for
    the caller to insert with others (``rows_insert``)."""

    def keep(**reading) -> None:
        row = evaluation_row(
            hand=hand, source=EvaluationSource.REEVALUATION, job_id=job_id, **reading
        )
        if rows is None:
            Evaluation.objects.create(**row)
        else:
            rows.append(row)

    seats = sorted(hand.hand_seats.all(), key=lambda s: s.position)
    stacks = [s.starting_stack for s in seats]
    try:
        outcome = hand_evaluate(HandSpec.of(hand), stacks)
    except DomainError as exc:
        keep(error=exc.message)
        raise
    keep(outcome=outcome)
    pots = {p.index: p for p in hand.pots.all()}
    changed = False
    flagged = []
    for k, pot in enumerate(outcome.pots):
        row = pots.get(k)
        new_award = ChipsByPlayer(pot.engine_award)
        if row is None or row.overridden or row.engine_chips == new_award:
            continue  # an overridden pot stands as ruled, whatever the engine says now
        changed = True
        row.engine_chips = new_award
        was_disputed = row.disputed
        # Only a ruling closes a dispute.
        row.disputed = row.disputed or row.award_chips != new_award
        row.save(update_fields=["engine_award", "disputed"])
        if row.disputed and not was_disputed:
            flagged.append(row)
    if flagged:
        disputes_flag(
            hand=hand,
            pots=flagged,
            source=DisputeSource.REEVALUATION,
            reason=f"engine {ENGINE_VERSION} reads this pot differently from the award that stands",
        )
    reading = outcome.reading()
    if _reading_moved(hand.engine_reading, reading):
        changed = True
    if changed:
        hand.engine_reading = reading
        hand.engine_version = ENGINE_VERSION
        if any(p.disputed for p in hand.pots.all()):
            hand.status = HandStatus.DISPUTED
            hand.status_reason = f"engine {ENGINE_VERSION} reads this hand differently"
        hand.save(update_fields=["engine_reading", "engine_version", "status", "status_reason"])
        # The statistics read the showdown: keep each seat's facts in step with the new reading.
        facts = facts_for_hand(hand, outcome.result.to_dict())
        with totals_kept(hands=[hand.pk]):
            for seat in seats:
                seat.facts = facts[seat.position]
                seat.save(update_fields=["facts"])
    return changed


def _fault_delay() -> None:
    """Test hook: a pause after each batch of hands, so a test can kill the worker in the middle of a job."""
    delay = float(os.environ.get("HOMEGAME_REEVALUATION_FAULT_DELAY", "0") or 0)
    if delay:
        time.sleep(delay)


def chunk_size() -> int:
    """Hands per chunk of a re-evaluation job (setting ``REEVALUATION_CHUNK_SIZE``)."""
    return max(1, int(getattr(settings, "REEVALUATION_CHUNK_SIZE", DEFAULT_CHUNK_SIZE)))


def _chunks_create(job: ReevaluationJob) -> int:
    """Split the job's scope, by hand id, into chunks of :func:`chunk_size` hands; returns how
    many hands the scope holds. The ids are streamed, never held whole."""
    size = chunk_size()
    rows: list[ReevaluationChunk] = []
    first = last = None
    count = total = 0
    ids = _scope(job).order_by("id").values_list("id", flat=True).iterator(chunk_size=5000)
    for hand_id in ids:
        if first is None:
            first = hand_id
        last = hand_id
        count += 1
        total += 1
        if count == size:
            rows.append(_chunk(job, len(rows), first, last, count))
            first, count = None, 0
    if count:
        rows.append(_chunk(job, len(rows), first, last, count))
    ReevaluationChunk.objects.bulk_create(rows, batch_size=1000)
    job.chunk_count = len(rows)
    return total


def _chunk(job: ReevaluationJob, index: int, first: int, last: int, hands: int):
    return ReevaluationChunk(job=job, index=index, first_id=first, last_id=last, hands=hands)


@system_actor()
def reevaluation_run(*, job_id: int) -> dict:
    """Start or resume a job: idempotent (a finished job is not run again).

    The first run counts the job's hands and splits them into chunks (ReevaluationChunk);
    every run then sends each chunk not yet done as one group of ``tracker.reevaluation_chunk``
    tasks, which any number of workers take (:func:`reevaluation_chunk_run`). A run started
    again after a worker died (by the sweep, tracker/hands/services/sweep.py) sends the chunks
    left; the hands those chunks already read are not read again. With eager tasks the group
    runs here, in order, and the job is done when this returns.
    """
    with transaction.atomic():
        job = ReevaluationJob.objects.select_for_update().get(pk=job_id)
        if job.status in (JobStatus.DONE, JobStatus.FAILED):
            return _summary(job)
        fields = ["status", "started_at", "heartbeat_at"]
        if job.status != JobStatus.RUNNING:  # a first run; a resumed one keeps its counts
            job.done = 0
            job.changed = 0
            fields += ["done", "changed"]
        if not job.chunk_count:
            job.total = _chunks_create(job)
            fields += ["total", "chunk_count"]
        job.status = JobStatus.RUNNING
        job.started_at = job.started_at or timezone.now()
        job.heartbeat_at = timezone.now()
        job.save(update_fields=fields)
        pending = list(job.chunks.filter(done=False).values_list("index", flat=True))
    if not pending:
        _job_finish(job_id)
    else:
        send_group(CHUNK_TASK, [(job_id, index) for index in pending])
    job.refresh_from_db()
    return _summary(job)


@system_actor()
def reevaluation_chunk_run(*, job_id: int, index: int) -> dict:
    """Re-read the hands of one chunk of a job.

    The hands are read a few at a time (``REEVALUATION_BATCH_SIZE``), each batch in one
    transaction that also counts them on the job and writes its heartbeat; a hand the job has
    already read (an Evaluation with its id) is skipped, so a chunk delivered twice, run by two
    workers at once, or run again after its worker died reads each hand once. The chunk that
    leaves no chunk of the job undone finishes the job.
    """
    chunk = (
        ReevaluationChunk.objects.select_related("job").filter(job_id=job_id, index=index).first()
    )
    if chunk is None or chunk.done or chunk.job.status != JobStatus.RUNNING:
        return {"job": job_id, "chunk": index, "read": 0}
    hand_ids = list(
        _scope(chunk.job)
        .filter(id__gte=chunk.first_id, id__lte=chunk.last_id)
        .order_by("id")
        .values_list("id", flat=True)
    )
    read = 0
    batch = max(1, int(getattr(settings, "REEVALUATION_BATCH_SIZE", DEFAULT_BATCH_SIZE)))
    for k in range(0, len(hand_ids), batch):
        read += _batch_read(job_id, hand_ids[k : k + batch])
        _fault_delay()
    with transaction.atomic():
        job = ReevaluationJob.objects.select_for_update().get(pk=job_id)
        ReevaluationChunk.objects.filter(pk=chunk.pk, done=False).update(
            done=True, finished_at=timezone.now()
        )
        last = job.status == JobStatus.RUNNING and not job.chunks.filter(done=False).exists()
    if last:
        _job_finish(job_id)
    return {"job": job_id, "chunk": index, "read": read}


# A batch is read as plain rows, in statements written out (tracker/core/rows.py): the
# columns a reading needs of each hand and its seats' stacks. The readings are inserted, then
# compared with the stored ones in the database (``_readings_moved``): only the hands whose
# reading or engine award moved come back (rare), and only those become model instances, with
# their seats and pots, for ``hand_reevaluate`` to write what changed. The stored reading
# (about 1.7 KB a hand) is never decoded in Python.
# (fields_named gives them in the model's order.)
_HAND_FIELDS = rows.fields_named(Hand, ("id", *SPEC_COLUMNS, "game_version_id"))
_SOURCE = EvaluationSource.REEVALUATION


def _in(count: int) -> str:
    return ", ".join(["%s"] * count)


def _hands_locked(job_id: int, hand_ids: list[int]) -> list[tuple[dict, bool]]:
    """The batch's hands as values of ``_HAND_FIELDS`` by attribute name, in id order, each
    with whether the job has read it already (an Evaluation of the job), their rows locked
    until the transaction ends (``FOR UPDATE`` where the database has row locks)."""
    sql = (
        f"SELECT {rows.select_list('h', _HAND_FIELDS)}, EXISTS (SELECT 1 FROM "
        f"{rows.table(Evaluation)} e WHERE e.{rows.column(Evaluation, 'hand_id')} = h.id "
        f"AND e.{rows.column(Evaluation, 'job_id')} = %s) FROM {rows.table(Hand)} h "
        f"WHERE h.id IN ({_in(len(hand_ids))}) ORDER BY h.id"
    )
    if connection.features.has_select_for_update:
        sql += " FOR UPDATE OF h" if connection.features.has_select_for_update_of else " FOR UPDATE"
    convs = rows.converters(_HAND_FIELDS)
    names = [field.attname for field in _HAND_FIELDS]
    with connection.cursor() as cursor:
        cursor.execute(sql, [job_id, *hand_ids])
        return [
            (
                dict(zip(names, rows.converted(r[:-1], _HAND_FIELDS, convs), strict=True)),
                bool(r[-1]),
            )
            for r in cursor
        ]


def _stacks(hand_ids: list[int]) -> dict[int, list[int]]:
    """Each hand's seats' starting stacks, by position."""
    seat_hand = rows.column(HandSeat, "hand_id")
    stacks: dict[int, list[int]] = {pk: [] for pk in hand_ids}
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {seat_hand}, {rows.column(HandSeat, 'starting_stack')} "
            f"FROM {rows.table(HandSeat)} WHERE {seat_hand} IN ({_in(len(hand_ids))}) "
            f"ORDER BY {seat_hand}, {rows.column(HandSeat, 'position')}",
            hand_ids,
        )
        for hand_id, stack in cursor:
            stacks[hand_id].append(stack)
    return stacks


def _definitions(version_ids: set[int]) -> dict:
    """The house games' definitions of the given game versions, by version id."""
    if not version_ids:
        return {}
    return {
        v.pk: version_definition(v) for v in LeagueGameVersion.objects.filter(pk__in=version_ids)
    }


def _json_sql() -> dict[str, str]:
    """The JSON expressions of ``_readings_moved`` on this database: PostgreSQL compares
    ``jsonb`` values; SQLite compares the minified text of its JSON functions (both sides
    made the same way)."""
    if connection.vendor == "postgresql":
        return {
            "reading": "({} - 'engine_version')",
            "award": "({} -> {})",
            "stored_award": "{}",
        }
    return {
        "reading": "json_remove({}, '$.engine_version')",
        "award": "json_extract({}, '$[' || {} || ']')",
        "stored_award": "json({})",
    }


def _readings_moved(job_id: int, hand_ids: list[int]) -> list[int]:
    """Of ``hand_ids``, read by the job without an error, those whose new reading (its
    Evaluation) may say anything other than the hand's stored one, the engine's version
    aside, or whose engine award moved on a pot not overridden; compared in the database.

    The comparison may name a hand that has not changed (SQLite compares JSON text), never
    miss one that has: each hand named is compared again by :func:`hand_reevaluate`."""
    if not hand_ids:
        return []
    json_sql = _json_sql()
    e_hand, e_job = rows.column(Evaluation, "hand_id"), rows.column(Evaluation, "job_id")
    award = json_sql["award"].format(
        f"e.{rows.column(Evaluation, 'awards')}", f"p.{rows.column(Pot, 'index')}"
    )
    stored_award = json_sql["stored_award"].format(f"p.{rows.column(Pot, 'engine_award')}")
    sql = (
        f"SELECT h.id FROM {rows.table(Hand)} h "
        f"JOIN {rows.table(Evaluation)} e ON e.{e_hand} = h.id AND e.{e_job} = %s "
        f"WHERE h.id IN ({_in(len(hand_ids))}) AND e.{rows.column(Evaluation, 'error')} = '' "
        f"AND ({json_sql['reading'].format('h.' + rows.column(Hand, 'engine_reading'))} "
        f"IS DISTINCT FROM {json_sql['reading'].format('e.' + rows.column(Evaluation, 'reading'))} "
        f"OR EXISTS (SELECT 1 FROM {rows.table(Pot)} p "
        f"WHERE p.{rows.column(Pot, 'hand_id')} = h.id AND NOT p.{rows.column(Pot, 'overridden')} "
        f"AND {award} IS NOT NULL AND {award} IS DISTINCT FROM {stored_award})) ORDER BY h.id"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [job_id, *hand_ids])
        return [pk for (pk,) in cursor]


def _reading_moved(stored: dict | None, reading: dict) -> bool:
    """Whether ``reading`` says anything other than the ``stored`` one, the engine's version
    aside (a reading that only a newer engine made is not a change)."""
    old = dict(stored or {})
    old.pop("engine_version", None)
    fresh = dict(reading)
    fresh.pop("engine_version", None)
    return old != fresh


def _batch_read(job_id: int, hand_ids: list[int]) -> int:
    """Re-read a few hands in one transaction (their rows locked, in id order), skipping those
    the job has read already; count them on the job and write its heartbeat. Returns how many
    hands were read.

    A hand is read from plain rows and its reading inserted; one whose reading changed (rare,
    found by :func:`_readings_moved`) is read again as a model instance by
    :func:`hand_reevaluate`, which writes the change."""
    with transaction.atomic():
        hands = [values for values, seen in _hands_locked(job_id, hand_ids) if not seen]
        if not hands:
            return 0
        stacks = _stacks([hand["id"] for hand in hands])
        games = _definitions({h["game_version_id"] for h in hands if h["game_version_id"]})
        out: list[dict] = []
        evaluated: list[int] = []
        for hand in hands:
            pk, version_id = hand["id"], hand["game_version_id"]
            game = games[version_id] if version_id is not None else None
            try:
                outcome = hand_evaluate(HandSpec.from_values(hand, game=game), stacks[pk])
            except DomainError as exc:
                # Kept with its error; listed on the job at the end.
                out.append(
                    evaluation_row(hand_id=pk, source=_SOURCE, job_id=job_id, error=exc.message)
                )
                continue
            evaluated.append(pk)
            out.append(evaluation_row(hand_id=pk, source=_SOURCE, job_id=job_id, outcome=outcome))
        rows_insert(Evaluation, out)
        changed = 0
        for pk in _readings_moved(job_id, evaluated):
            instance = Hand.objects.prefetch_related("hand_seats", "pots").get(pk=pk)
            # Its reading is in ``out`` already: the one hand_reevaluate makes is left aside.
            changed += hand_reevaluate(hand=instance, job_id=job_id, rows=[])
        ReevaluationJob.objects.filter(pk=job_id).update(
            done=F("done") + len(hands), changed=F("changed") + changed, heartbeat_at=timezone.now()
        )
    return len(hands)


def _job_finish(job_id: int) -> None:
    """Mark a job done, once, with the errors its evaluations met."""
    with transaction.atomic():
        job = ReevaluationJob.objects.select_for_update().get(pk=job_id)
        if job.status != JobStatus.RUNNING:
            return
        errors = [
            f"hand {number} of tournament {tournament_id}: {error}"
            for number, tournament_id, error in Evaluation.objects.filter(job_id=job_id)
            .exclude(error="")
            .order_by("hand__tournament_id", "hand__number")
            .values_list("hand__number", "hand__tournament_id", "error")
        ]
        job.status = JobStatus.DONE
        job.finished_at = job.heartbeat_at = timezone.now()
        job.error = "\n".join(errors)
        job.save(update_fields=["status", "finished_at", "heartbeat_at", "error"])
    log.info("reevaluation done", extra={"job": job_id, "done": job.done, "changed": job.changed})


def _summary(job: ReevaluationJob) -> dict:
    errors = len(job.error.splitlines()) if job.error else 0
    return {"status": job.status, "done": job.done, "changed": job.changed, "errors": errors}
