"""Outages against a Redis and Celery workers (with beat) of the test's own, on another port:
the broker stopped during a record, workers killed during a re-evaluation and an import.

Run by CI's outage pass (PostgreSQL: the workers share the test database). Skipped when
redis-server is not installed. Nothing here touches the machine's shared Redis.
"""

from __future__ import annotations

import time

import pytest
from rest_framework.test import APIClient

from tests.factories import fold_entry, make_league, make_tournament
from tests.interchange.histories import FOLD, SHOWDOWN, night
from tests.support.outage import DEADLINE, wait_for
from tracker.engine import phh
from tracker.hands.models import Evaluation, Hand, HandStatus, JobStatus
from tracker.hands.services.recording import hand_record
from tracker.hands.services.reevaluation import reevaluation_start
from tracker.interchange.models import ImportJob, ImportStatus
from tracker.interchange.services.imports import phh_import_start
from tracker.tournaments.models import LedgerEntry, LedgerKind

pytestmark = [pytest.mark.outage, pytest.mark.django_db(transaction=True)]


def game(**kwargs):
    league, admin = make_league()
    tournament, players = make_tournament(
        league=league, by=admin, default_variant="seven_card_stud", **kwargs
    )
    return league, admin, tournament, players


def settled(tournament, count: int) -> bool:
    return (
        Hand.objects.filter(
            tournament=tournament, status__in=(HandStatus.VERIFIED, HandStatus.DISPUTED)
        ).count()
        == count
    )


def assert_settled_once(tournament, hands: int) -> None:
    assert not Hand.objects.filter(tournament=tournament, status=HandStatus.RECORDED).exists()
    awards = LedgerEntry.objects.filter(tournament=tournament, kind=LedgerKind.AWARD)
    assert sorted(awards.values_list("hand__number", flat=True)) == list(range(1, hands + 1))


def test_the_broker_stopped_during_a_record_answers_201_and_the_hand_settles_later(stack):
    stack.redis_start()
    stack.worker_start("w1")
    _, admin, tournament, _ = game()
    api = APIClient()
    api.force_authenticate(admin)
    stack.redis_stop()
    body = {"tournament": tournament.pk, "entry_mode": "quick", "entry": fold_entry(tournament)}
    r = api.post("/api/v1/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="outage-1")
    assert r.status_code == 201, r.content
    hand = Hand.objects.get(pk=r.json()["id"])
    assert hand.status == HandStatus.RECORDED
    # The client retries with its key (it may not have trusted the answer): the first answer
    # again (the keys are kept in the database, not the broker), still one hand.
    again = api.post("/api/v1/hands/", body, format="json", HTTP_IDEMPOTENCY_KEY="outage-1")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json()["id"] == hand.pk and Hand.objects.filter(tournament=tournament).count() == 1
    stack.redis_start()  # empty: the task sent before the outage is gone with it
    took = wait_for(lambda: settled(tournament, 1), DEADLINE, "the sweep to settle the hand")
    print(f"settled {took:.0f}s after the broker returned")
    assert_settled_once(tournament, 1)


def test_a_worker_killed_during_a_reevaluation_the_job_still_finishes(stack):
    stack.redis_start()
    # Three chunks of at most three hands (a group of three tasks), read a hand at a time.
    first = stack.worker_start(
        "w1",
        HOMEGAME_REEVALUATION_FAULT_DELAY="1",
        REEVALUATION_BATCH_SIZE="1",
        REEVALUATION_CHUNK_SIZE="3",
    )
    league, admin, tournament, _ = game()
    for _ in range(8):
        hand_record(
            tournament=tournament, by=admin, entry_mode="quick", entry=fold_entry(tournament)
        )
    wait_for(lambda: settled(tournament, 8), DEADLINE, "the worker to settle 8 hands")
    job = reevaluation_start(league=league, tournament=tournament, by=admin)

    def progressed() -> bool:
        job.refresh_from_db()
        return job.status == JobStatus.RUNNING and job.done >= 2

    wait_for(progressed, DEADLINE, "the re-evaluation to start")
    stack.kill(first)
    job.refresh_from_db()
    assert job.status == JobStatus.RUNNING and job.done < 8  # left running, as a dead worker does
    stack.worker_start("w2")

    def finished() -> bool:
        job.refresh_from_db()
        return job.status in (JobStatus.DONE, JobStatus.FAILED)

    took = wait_for(finished, DEADLINE, "the re-evaluation job to finish or fail")
    print(f"re-evaluation finished {took:.0f}s after the kill")
    assert (job.status, job.total, job.done, job.restarts) == (JobStatus.DONE, 8, 8, 1)
    assert Evaluation.objects.filter(job_id=job.pk).count() == 8  # each hand read once
    assert job.chunk_count == 3 and not job.chunks.filter(done=False).exists()
    assert_settled_once(tournament, 8)


def test_a_worker_killed_during_an_import_the_job_still_finishes(stack):
    stack.redis_start()
    first = stack.worker_start("w1", HOMEGAME_IMPORT_FAULT_DELAY="0.5")
    _, admin, tournament, _ = game(hands_per_level=50)
    hands = night([FOLD, SHOWDOWN] * 12)
    job = phh_import_start(tournament=tournament, by=admin, files=[("long.phhs", phh.dumps(hands))])
    assert job.status == ImportStatus.QUEUED

    def running() -> bool:
        job.refresh_from_db()
        return job.status == ImportStatus.RUNNING

    wait_for(running, DEADLINE, "the import to start")
    time.sleep(3)  # a few hands into the file (its transaction is still open)
    stack.kill(first)
    assert not Hand.objects.filter(tournament=tournament).exists()  # the file rolled back
    stack.worker_start("w2")

    def finished() -> bool:
        job.refresh_from_db()
        return job.status in (ImportStatus.DONE, ImportStatus.FAILED)

    took = wait_for(finished, DEADLINE, "the import job to finish or fail")
    print(f"import finished {took:.0f}s after the kill")
    assert (job.status, job.done, job.imported, job.restarts) == (ImportStatus.DONE, 24, 24, 1)
    assert ImportJob.objects.get(pk=job.pk).imported == 24
    assert Hand.objects.filter(tournament=tournament).count() == 24
    wait_for(lambda: settled(tournament, 24), DEADLINE, "settlement of the imported hands")
    assert_settled_once(tournament, 24)
