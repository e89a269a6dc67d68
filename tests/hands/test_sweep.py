"""The sweep (Celery beat): hands no task settled are settled, silent jobs resumed or failed;
and sending a task never fails the request that committed."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from homegame.celery import app as celery_app
from tests.factories import fold_entry
from tests.support.recording import record
from tracker.core import jobs
from tracker.hands.models import Evaluation, Hand, HandStatus, JobStatus, ReevaluationJob
from tracker.hands.services.reevaluation import reevaluation_start
from tracker.hands.services.sweep import hands_sweep
from tracker.tournaments.models import LedgerEntry, LedgerKind

pytestmark = pytest.mark.django_db


@pytest.fixture
def no_broker(monkeypatch):
    """Every task sent is lost (the broker is away): the database is all that is left."""
    lost = []
    monkeypatch.setattr(jobs, "send", lambda name, *args: lost.append((name, args)))
    return lost


def old(seconds: int = 3600):
    return timezone.now() - timedelta(seconds=seconds)


def test_a_hand_whose_settlement_was_lost_is_settled_by_the_sweep(
    night, no_broker, monkeypatch, django_capture_on_commit_callbacks
):
    _, admin, tournament, players = night
    with django_capture_on_commit_callbacks(execute=True):
        hand = record(tournament, admin, fold_entry(tournament))
    assert no_broker == [("tracker.tournament_settle", (tournament.pk,))]
    monkeypatch.undo()  # the broker is back
    # Moments after recording, the task may still be on its way: the sweep leaves it.
    assert hands_sweep()["settle"] == []
    Hand.objects.filter(pk=hand.pk).update(recorded_at=old())
    assert hands_sweep()["settle"] == [tournament.pk]
    hand.refresh_from_db()
    assert hand.status == HandStatus.VERIFIED
    # Swept again, nothing is settled twice.
    assert hands_sweep()["settle"] == []
    awards = LedgerEntry.objects.filter(tournament=tournament, kind=LedgerKind.AWARD)
    assert awards.count() == 1


def test_the_sweep_leaves_hands_waiting_behind_an_invalid_hand(night, no_broker, monkeypatch):
    _, admin, tournament, _ = night
    record(tournament, admin, fold_entry(tournament))
    Hand.objects.filter(tournament=tournament).update(status=HandStatus.INVALID)
    record(tournament, admin, fold_entry(tournament))
    Hand.objects.update(recorded_at=old())
    monkeypatch.undo()
    assert hands_sweep()["settle"] == []


def test_sending_never_fails_a_request_that_committed(
    night, monkeypatch, django_capture_on_commit_callbacks
):
    """The broker refuses the task: the hand is recorded and answered 201; the sweep settles it."""
    league, admin, tournament, _ = night
    task = celery_app.tasks["tracker.tournament_settle"]

    def refuse(*args, **kwargs):
        raise ConnectionError("Error 111 connecting to the broker")

    monkeypatch.setattr(task, "delay", refuse, raising=False)
    celery_app.conf.task_always_eager = False  # the conftest fixture puts it back
    api = APIClient()
    api.force_authenticate(admin)
    entry = fold_entry(tournament)
    with django_capture_on_commit_callbacks(execute=True) as sent:
        r = api.post(
            "/api/v1/hands/",
            {"tournament": tournament.pk, "entry_mode": "quick", "entry": entry},
            format="json",
            HTTP_IDEMPOTENCY_KEY="night-hand-1",
        )
    assert len(sent) == 1  # the send was tried after the commit, and refused
    assert r.status_code == 201, r.content
    assert Hand.objects.get(pk=r.json()["id"]).status == HandStatus.RECORDED
    # The client did not trust the answer and retried with its key: still one hand.
    again = api.post(
        "/api/v1/hands/",
        {"tournament": tournament.pk, "entry_mode": "quick", "entry": entry},
        format="json",
        HTTP_IDEMPOTENCY_KEY="night-hand-1",
    )
    assert again.status_code == 201 and again.json()["id"] == r.json()["id"]
    assert again["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(tournament=tournament).count() == 1
    monkeypatch.undo()
    celery_app.conf.task_always_eager = True
    Hand.objects.update(recorded_at=old())
    hands_sweep()
    assert Hand.objects.get(pk=r.json()["id"]).status == HandStatus.VERIFIED


@pytest.fixture
def settled(night, django_capture_on_commit_callbacks):
    def make(count):
        league, admin, tournament, _ = night
        for _ in range(count):
            with django_capture_on_commit_callbacks(execute=True):
                record(tournament, admin, fold_entry(tournament))
        assert not Hand.objects.filter(status=HandStatus.RECORDED).exists()
        return league, admin, tournament

    return make


def test_a_lost_reevaluation_job_is_sent_again(settled, monkeypatch):
    league, admin, tournament = settled(3)
    monkeypatch.setattr(jobs, "send", lambda name, *args: None)
    job = reevaluation_start(league=league, tournament=tournament, by=admin)
    monkeypatch.undo()
    assert hands_sweep()["reevaluations"]["restarted"] == []  # not silent long enough yet
    ReevaluationJob.objects.filter(pk=job.pk).update(heartbeat_at=old())
    assert hands_sweep()["reevaluations"]["restarted"] == [job.pk]
    job.refresh_from_db()
    assert (job.status, job.total, job.done, job.restarts) == (JobStatus.DONE, 3, 3, 0)


def test_a_reevaluation_whose_worker_died_resumes_where_it_stopped(settled):
    league, admin, tournament = settled(4)
    first = Hand.objects.filter(tournament=tournament).order_by("number").first()
    job = ReevaluationJob.objects.create(league=league, tournament=tournament, created_by=admin)
    # A worker read hand 1, counted it, then died.
    from tracker.hands.services.reevaluation import hand_reevaluate

    hand_reevaluate(hand=first, job_id=job.pk)
    ReevaluationJob.objects.filter(pk=job.pk).update(
        status=JobStatus.RUNNING, total=4, done=1, heartbeat_at=old()
    )
    assert hands_sweep()["reevaluations"]["restarted"] == [job.pk]
    job.refresh_from_db()
    assert (job.status, job.total, job.done, job.restarts) == (JobStatus.DONE, 4, 4, 1)
    assert Evaluation.objects.filter(job_id=job.pk).count() == 4  # each hand read once


def test_a_job_that_keeps_killing_its_worker_is_failed(settled, settings):
    league, admin, tournament = settled(1)
    job = ReevaluationJob.objects.create(
        league=league,
        tournament=tournament,
        created_by=admin,
        status=JobStatus.RUNNING,
        restarts=settings.JOB_MAX_RESTARTS,
        heartbeat_at=old(),
    )
    assert hands_sweep()["reevaluations"]["failed"] == [job.pk]
    job.refresh_from_db()
    assert job.status == JobStatus.FAILED and "stopped" in job.error
    assert job.finished_at is not None
