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

from django.db import transaction
from django.db.models import F
from django.utils import timezone

from tracker.audit.services import audit_record, system_actor
from tracker.core.jobs import enqueue_on_commit
from tracker.core.permissions import Capability, require
from tracker.core.typed import ChipsByPlayer
from tracker.engine.errors import DomainError
from tracker.engine.version import ENGINE_VERSION
from tracker.hands.models import (
    SETTLED,
    DisputeSource,
    Evaluation,
    EvaluationSource,
    Hand,
    HandStatus,
    JobStatus,
    ReevaluationJob,
)
from tracker.hands.selectors.evaluation import HandSpec, hand_evaluate
from tracker.hands.services.evaluations import disputes_flag, evaluation_record
from tracker.leagues.models import League
from tracker.stats.selectors import seat_tallies
from tracker.stats.services import facts_for_hand, stats_tallies_apply
from tracker.tournaments.models import Tournament

log = logging.getLogger(__name__)


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


def hand_reevaluate(*, hand: Hand, job_id: int | None = None) -> bool:
    """Re-read one settled hand with the current engine. Returns whether anything changed."""
    seats = sorted(hand.hand_seats.all(), key=lambda s: s.position)
    stacks = [s.starting_stack for s in seats]
    try:
        outcome = hand_evaluate(HandSpec.of(hand), stacks)
    except DomainError as exc:
        evaluation_record(
            hand=hand, source=EvaluationSource.REEVALUATION, error=exc.message, job_id=job_id
        )
        raise
    evaluation_record(
        hand=hand, source=EvaluationSource.REEVALUATION, outcome=outcome, job_id=job_id
    )
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
    old = dict(hand.engine_reading or {})
    old.pop("engine_version", None)
    fresh = dict(reading)
    fresh.pop("engine_version", None)
    if old != fresh:
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
        before = seat_tallies(hand_ids=[hand.pk])
        for seat in seats:
            seat.facts = facts[seat.position]
            seat.save(update_fields=["facts"])
        stats_tallies_apply(hand_ids=[hand.pk], before=before)
    return changed


def _fault_delay() -> None:
    """Test hook: a pause after each hand, so a test can kill the worker in the middle of a job."""
    delay = float(os.environ.get("HOMEGAME_REEVALUATION_FAULT_DELAY", "0") or 0)
    if delay:
        time.sleep(delay)


@system_actor()
def reevaluation_run(*, job_id: int) -> dict:
    """Run a job: idempotent (a finished job is not run again), with progress on the job row.

    Each hand is re-read in its own transaction, which also counts it on the job and writes
    the job's heartbeat; a hand this job has already read (an Evaluation with its id) is not
    read again. So a run started again after its worker died (by the sweep,
    tracker/hands/services/sweep.py) resumes where the last one stopped, and two deliveries
    running at once read each hand once.
    """
    with transaction.atomic():
        job = ReevaluationJob.objects.select_for_update().get(pk=job_id)
        if job.status in (JobStatus.DONE, JobStatus.FAILED):
            return {"status": job.status, "done": job.done, "changed": job.changed}
        fields = ["status", "started_at", "heartbeat_at"]
        if job.status != JobStatus.RUNNING:  # a first run; a resumed one keeps its counts
            job.total = _scope(job).count()
            job.done = 0
            job.changed = 0
            fields += ["total", "done", "changed"]
        job.status = JobStatus.RUNNING
        job.started_at = job.started_at or timezone.now()
        job.heartbeat_at = timezone.now()
        job.save(update_fields=fields)
    for hand_id in _scope(job).order_by("tournament_id", "number").values_list("id", flat=True):
        with transaction.atomic():
            hand = Hand.objects.select_for_update().get(pk=hand_id)
            if Evaluation.objects.filter(hand=hand, job_id=job_id).exists():
                continue  # read by an earlier run of this job
            changed = False
            try:
                changed = hand_reevaluate(hand=hand, job_id=job_id)
            except DomainError:
                pass  # kept as an Evaluation with its error; listed on the job at the end
            ReevaluationJob.objects.filter(pk=job_id).update(
                done=F("done") + 1,
                changed=F("changed") + int(changed),
                heartbeat_at=timezone.now(),
            )
        _fault_delay()
    errors = [
        f"hand {number} of tournament {tournament_id}: {error}"
        for number, tournament_id, error in Evaluation.objects.filter(job_id=job_id)
        .exclude(error="")
        .order_by("hand__tournament_id", "hand__number")
        .values_list("hand__number", "hand__tournament_id", "error")
    ]
    ReevaluationJob.objects.filter(pk=job_id).update(
        status=JobStatus.DONE,
        finished_at=timezone.now(),
        heartbeat_at=timezone.now(),
        error="\n".join(errors),
    )
    job.refresh_from_db()
    log.info("reevaluation done", extra={"job": job_id, "done": job.done, "changed": job.changed})
    return {
        "status": JobStatus.DONE,
        "done": job.done,
        "changed": job.changed,
        "errors": len(errors),
    }
