"""The periodic sweep of hands (Celery beat runs it every ``SWEEP_INTERVAL`` seconds).

A recorded hand is its own outbox entry: it is written with status ``recorded`` in the same
transaction as everything else about it, and stays so until settlement takes it. Sending the
settlement task after the commit may fail (the broker is away) or the task may be lost (its
worker died); either way the hand is still ``recorded``, and this sweep sends settlement again
for its tournament once it has waited ``SETTLE_GRACE`` seconds, whatever the tournament's
``settle_queued`` flag says: a lost send leaves it on (so later recordings send nothing), and
the task sent here clears it. Settlement is idempotent and ordered
(tracker/hands/services/settlement.py), so a second send settles nothing twice.

It also resumes re-evaluation jobs whose worker stopped sending heartbeats
(tracker/core/jobs.py, ``stale_jobs_restart``).
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from tracker.core.jobs import send, stale_jobs_restart
from tracker.hands.models import Hand, HandStatus, ReevaluationJob
from tracker.hands.services.recording import SETTLE_TASK

REEVALUATION_TASK = "tracker.reevaluation_run"


def hands_sweep() -> dict:
    """Send settlement for every tournament with a hand recorded ``SETTLE_GRACE`` seconds ago
    or more and still unsettled (none waits behind an invalid hand), and restart stale
    re-evaluation jobs."""
    cutoff = timezone.now() - timedelta(seconds=settings.SETTLE_GRACE)
    waiting = set(
        Hand.objects.filter(status=HandStatus.RECORDED, recorded_at__lte=cutoff)
        .values_list("tournament_id", flat=True)
        .distinct()
    )
    blocked = set(
        Hand.objects.filter(tournament_id__in=waiting, status=HandStatus.INVALID)
        .values_list("tournament_id", flat=True)
        .distinct()
    )
    tournaments = sorted(waiting - blocked)
    for tournament_id in tournaments:
        send(SETTLE_TASK, tournament_id)
    jobs = stale_jobs_restart(
        ReevaluationJob,
        REEVALUATION_TASK,
    )
    return {"settle": tournaments, "reevaluations": jobs}
