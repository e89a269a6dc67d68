"""Sending settlement once per queued task (tracker/hands/services/settlement.py, "Sending
settlement once"): recording sends only when no settlement of the tournament is queued, the
task clears the flag before it reads the hands, and a lost send is still swept."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from tests.factories import fold_entry, make_league, make_tournament
from tracker.core import jobs
from tracker.hands.models import Hand, HandStatus
from tracker.hands.services import recording
from tracker.hands.services.recording import SETTLE_TASK, hand_record
from tracker.hands.services.settlement import tournament_settle
from tracker.hands.services.sweep import hands_sweep
from tracker.tournaments.models import LedgerEntry, LedgerKind, Tournament


def _night():
    league, admin = make_league()
    tournament, players = make_tournament(
        league=league, by=admin, default_variant="seven_card_stud"
    )
    return admin, tournament, players


def _record(admin, tournament) -> Hand:
    return hand_record(
        tournament=tournament, by=admin, entry_mode="quick", entry=fold_entry(tournament)
    )


def _queued(tournament) -> bool:
    return Tournament.objects.get(pk=tournament.pk).settle_queued


def _recorded(tournament) -> int:
    return Hand.objects.filter(tournament=tournament, status=HandStatus.RECORDED).count()


def _paid_once(tournament, hands: int, players: int) -> None:
    entries = LedgerEntry.objects.filter(tournament=tournament)
    assert entries.filter(kind=LedgerKind.AWARD).count() == hands  # one uncontested pot each
    assert entries.filter(kind=LedgerKind.CONTRIBUTION).count() == hands * players


@pytest.fixture
def held(monkeypatch):
    """Tasks sent on commit are kept here, not run (a worker that has not got to them yet)."""
    sent: list[tuple[str, tuple]] = []
    monkeypatch.setattr(jobs, "send", lambda name, *args: sent.append((name, args)))
    return sent


@pytest.mark.django_db
def test_one_send_while_a_settlement_is_queued(held, django_capture_on_commit_callbacks):
    admin, tournament, players = _night()
    for _ in range(5):
        with django_capture_on_commit_callbacks(execute=True):
            _record(admin, tournament)
    assert held == [(SETTLE_TASK, (tournament.pk,))]  # the first hand sent; four rode along
    assert _queued(tournament)
    # The worker runs that one task: it clears the flag, then settles every hand waiting.
    assert tournament_settle(tournament_id=tournament.pk) == 5
    assert not _queued(tournament)
    # The next hand finds nothing queued and sends again.
    with django_capture_on_commit_callbacks(execute=True):
        _record(admin, tournament)
    assert held == [(SETTLE_TASK, (tournament.pk,))] * 2
    assert tournament_settle(tournament_id=tournament.pk) == 1
    assert tournament_settle(tournament_id=tournament.pk) == 0  # a repeated send: nothing
    _paid_once(tournament, hands=6, players=len(players))


@pytest.mark.django_db
def test_a_lost_send_leaves_the_flag_on_and_the_sweep_still_settles(
    held, django_capture_on_commit_callbacks, monkeypatch
):
    admin, tournament, players = _night()
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            _record(admin, tournament)
    assert len(held) == 1  # that task is lost (the broker was away)
    assert _queued(tournament) and _recorded(tournament) == 3
    monkeypatch.undo()  # the broker is back; tasks run in-process
    # Moments after recording, the sweep waits (the task may still be on its way) ...
    assert hands_sweep()["settle"] == []
    # ... then sends whatever the flag says, and the task settles every hand once.
    Hand.objects.filter(tournament=tournament).update(
        recorded_at=timezone.now() - timedelta(hours=1)
    )
    assert hands_sweep()["settle"] == [tournament.pk]
    assert _recorded(tournament) == 0 and not _queued(tournament)
    _paid_once(tournament, hands=3, players=len(players))
    # With the flag off again, the next hand sends (and, eagerly, is settled at once).
    with django_capture_on_commit_callbacks(execute=True):
        _record(admin, tournament)
    assert _recorded(tournament) == 0
    _paid_once(tournament, hands=4, players=len(players))


@pytest.mark.django_db
def test_eagerly_every_hand_is_settled_when_its_transaction_commits(
    django_capture_on_commit_callbacks,
):
    admin, tournament, players = _night()
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            _record(admin, tournament)
        assert _recorded(tournament) == 0 and not _queued(tournament)
    _paid_once(tournament, hands=3, players=len(players))


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("queued", [True, False], ids=["flag-on", "flag-off"])
def test_a_settlement_starting_while_a_hand_is_recorded_never_misses_it(held, monkeypatch, queued):
    """Two connections: recording holds the tournament row lock (flag read, hand written,
    not committed) when the queued task starts. The task's clear waits for that commit, so
    the task settles the hand, whether recording sent a task of its own (flag off) or not."""
    if connection.vendor != "postgresql":
        pytest.skip("concurrent transactions need PostgreSQL (SQLite serialises writers)")
    admin, tournament, players = _night()
    Tournament.objects.filter(pk=tournament.pk).update(settle_queued=queued)
    inside, release = threading.Event(), threading.Event()
    original = recording._settlement_send

    def paused(t):  # after the flag is read (and set), before the commit
        original(t)
        inside.set()
        assert release.wait(timeout=60)

    monkeypatch.setattr(recording, "_settlement_send", paused)
    settled: list[int] = []
    errors: list[BaseException] = []

    def in_thread(work):
        def run():
            try:
                work()
            except BaseException as exc:  # noqa: BLE001 - reported by the test below
                errors.append(exc)
            finally:
                connection.close()

        return threading.Thread(target=run)

    recorder = in_thread(lambda: _record(admin, tournament))
    settler = in_thread(lambda: settled.append(tournament_settle(tournament_id=tournament.pk)))
    recorder.start()
    try:
        assert inside.wait(timeout=60), "recording did not get to its send"
        settler.start()
        settler.join(timeout=1.5)
        if queued:
            # The clear updates the locked row: it waits for the recording to commit.
            assert settler.is_alive() and settled == []
    finally:
        release.set()
        recorder.join(timeout=60)
        settler.join(timeout=60)
    assert not errors, errors
    assert held == ([] if queued else [(SETTLE_TASK, (tournament.pk,))])
    if queued:
        assert settled == [1]  # the queued task settled the hand that sent nothing
    else:
        # The flag was off: the clear matched no row and waited for no one; the task may have
        # read before the commit (then the hand's own send settles it) or after.
        assert settled in ([0], [1])
        tournament_settle(tournament_id=tournament.pk)  # the hand's own send
    assert _recorded(tournament) == 0
    assert not _queued(tournament)
    _paid_once(tournament, hands=1, players=len(players))
