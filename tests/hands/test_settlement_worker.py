"""Settlement through a real Celery worker (CI's second pass: PostgreSQL, Redis, a worker).

These tests fail when no worker is running: they wait for the worker to settle
what the services recorded, and time out otherwise.
"""

from __future__ import annotations

import os
import time

import pytest
from django.db import connection

from tests.factories import fold_entry as walk
from tests.factories import make_league, make_tournament
from tests.support.recording import record
from tests.workers import worker_spawn, worker_stop
from tracker.core import jobs
from tracker.hands.models import Hand, HandStatus
from tracker.hands.tasks import tournament_settle_task
from tracker.tournaments.models import LedgerEntry, LedgerKind

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]


def wait_for(predicate, timeout: float = 45, what: str = "the worker") -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    pytest.fail(f"timed out after {timeout}s waiting for {what}")


def night():
    league, admin = make_league()
    tournament, players = make_tournament(
        league=league, by=admin, default_variant="seven_card_stud"
    )
    return admin, tournament, players


def unsettled(tournament) -> int:
    return Hand.objects.filter(tournament=tournament, status=HandStatus.RECORDED).count()


def assert_settled_once(tournament, hands: int, players: int) -> None:
    assert Hand.objects.filter(tournament=tournament, status=HandStatus.VERIFIED).count() == hands
    entries = LedgerEntry.objects.filter(tournament=tournament)
    assert entries.filter(kind=LedgerKind.CONTRIBUTION).count() == hands * players
    assert entries.filter(kind=LedgerKind.AWARD).count() == hands  # one uncontested pot each
    assert sum(entries.values_list("amount", flat=True)) == 1000 * players


@pytest.fixture
def sent(monkeypatch):
    """Settlement tasks sent on commit; the test waits for all of them before its data is flushed."""
    results = []
    original = jobs.send
    monkeypatch.setattr(jobs, "send", lambda name, *args: results.append(original(name, *args)))
    yield results
    for result in results:
        result.get(timeout=60, propagate=False)


def test_recorded_hands_are_settled_by_the_worker(sent):
    admin, tournament, players = night()
    for _ in range(4):
        record(tournament, admin, walk(tournament))
    # The first hand sends settlement on commit; a later hand sends only once the worker has
    # taken the task queued before it (tracker/hands/services/settlement.py).
    assert 1 <= len(sent) <= 4
    wait_for(lambda: unsettled(tournament) == 0, what="the worker to settle 4 hands")
    assert_settled_once(tournament, hands=4, players=len(players))


def test_duplicated_and_retried_tasks_never_double_pay(monkeypatch):
    admin, tournament, players = night()
    monkeypatch.setattr(jobs, "send", lambda name, *args: None)  # no settlement
    for _ in range(5):
        record(tournament, admin, walk(tournament))
    assert unsettled(tournament) == 5
    results = [tournament_settle_task.delay(tournament.pk) for _ in range(8)]
    counts = [r.get(timeout=60) for r in results]
    assert sum(counts) == 5, counts  # every hand settled by exactly one of the eight deliveries
    assert_settled_once(tournament, hands=5, players=len(players))


def test_a_worker_killed_mid_settlement_loses_and_duplicates_nothing(monkeypatch, tmp_path):
    if connection.vendor != "postgresql":
        pytest.skip("needs the PostgreSQL test database shared with worker processes")
    admin, tournament, players = night()
    monkeypatch.setattr(jobs, "send", lambda name, *args: None)  # no settlement
    record(tournament, admin, walk(tournament))

    # A worker of our own, on its own queue, that pauses inside the settlement transaction
    # (after writing the ledger entries, before committing) so that we can kill it there.
    log = tmp_path / "faulty-worker.log"
    worker = worker_spawn(
        "faulty",
        log,
        options=["-Q", "faulty", "--pool=solo"],
        env={"HOMEGAME_SETTLE_FAULT_DELAY": "120"},
    )
    try:
        wait_for(lambda: "ready" in log.read_text(), timeout=60, what="the faulty worker to start")
        tournament_settle_task.apply_async((tournament.pk,), queue="faulty")
        wait_for(lambda: "received" in log.read_text(), timeout=30, what="the task to arrive")
        time.sleep(2)  # the worker is now inside the transaction, paused after its writes
        worker_stop(worker, kill=True)
    finally:
        worker_stop(worker, kill=True)
    # Nothing the killed worker wrote survived; the hand is still waiting.
    assert unsettled(tournament) == 1
    assert (
        not LedgerEntry.objects.filter(tournament=tournament)
        .exclude(kind=LedgerKind.START)
        .exists()
    )
    # Settlement runs again (a redelivery or the next record) and pays exactly once.
    assert tournament_settle_task.delay(tournament.pk).get(timeout=60) == 1
    assert_settled_once(tournament, hands=1, players=len(players))


def test_a_worker_whose_database_connection_was_cut_settles_the_next_task(monkeypatch, tmp_path):
    """Workers keep their database connection from task to task (homegame/celery.py). If the
    database drops it in between (a restart, a failover), the next task finds it broken
    before it starts, opens a new one and settles at its first attempt (without that check
    the task fails on the dead connection and only its retry settles)."""
    if connection.vendor != "postgresql":
        pytest.skip("needs the PostgreSQL test database shared with worker processes")
    admin, tournament, players = night()
    monkeypatch.setattr(jobs, "send", lambda name, *args: None)  # settlement sent by hand
    record(tournament, admin, walk(tournament))

    def others() -> set[int]:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pid FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
            return {row[0] for row in cursor.fetchall()}

    before = others()  # other workers' connections, left alone
    log = tmp_path / "worker.log"
    queue = f"cut-{os.getpid()}"
    worker = worker_spawn(queue, log, options=["-Q", queue, "--concurrency=1"])
    try:
        wait_for(lambda: "ready" in log.read_text(), timeout=60, what="the worker to start")
        first = tournament_settle_task.apply_async((tournament.pk,), queue=queue)
        assert first.get(timeout=60) == 1
        wait_for(lambda: others() - before, timeout=10, what="the worker's connection")
        kept = others() - before
        with connection.cursor() as cursor:  # the database drops the worker's connection
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM unnest(%s::int[]) AS pid", [list(kept)]
            )
        wait_for(lambda: not (others() & kept), timeout=10, what="the connection to close")

        record(tournament, admin, walk(tournament))
        second = tournament_settle_task.apply_async((tournament.pk,), queue=queue)
        assert second.get(timeout=60) == 1
    finally:
        worker_stop(worker)
    text = log.read_text()
    assert text.count("succeeded in") == 2, text
    assert "retry" not in text.lower() and "OperationalError" not in text, text
    assert_settled_once(tournament, hands=2, players=len(players))
