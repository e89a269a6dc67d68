"""A large import on a real Celery worker (CI's second pass: PostgreSQL, Redis, a worker)."""

from __future__ import annotations

import time

import pytest

from tests.factories import make_league, make_tournament
from tests.interchange.histories import FOLD, SHOWDOWN, night
from tracker.engine import phh
from tracker.hands.models import Hand, HandStatus
from tracker.interchange.models import ImportJob, ImportStatus
from tracker.interchange.services.imports import phh_import_start

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def wait_for(predicate, timeout: float = 60, what: str = "the worker") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    pytest.fail(f"timed out after {timeout}s waiting for {what}")


def test_a_large_import_runs_on_the_worker_and_reports_progress():
    league, admin = make_league()
    tournament, _ = make_tournament(league=league, by=admin, hands_per_level=50)
    hands = night([FOLD, SHOWDOWN] * 12)
    job = phh_import_start(tournament=tournament, by=admin, files=[("long.phhs", phh.dumps(hands))])
    assert job.status == ImportStatus.QUEUED and job.total == 24

    def finished() -> bool:
        job.refresh_from_db()
        return job.status in (ImportStatus.DONE, ImportStatus.FAILED)

    wait_for(finished, what="the import job")
    assert (job.status, job.done, job.imported, job.skipped) == (ImportStatus.DONE, 24, 24, 0)
    # Settlement follows on the worker; wait for it before the test's data is flushed.
    wait_for(
        lambda: (
            Hand.objects.filter(tournament=tournament, status=HandStatus.VERIFIED).count() == 24
        ),
        what="settlement of the imported hands",
    )
    # Delivered again (as after a lost worker), the job does nothing more.
    from tracker.interchange.tasks import phh_import_task

    assert phh_import_task.delay(job.pk).get(timeout=30)["imported"] == 24
    assert Hand.objects.filter(tournament=tournament).count() == 24
    assert ImportJob.objects.get(pk=job.pk).imported == 24
