"""A re-evaluation job split into chunks that any worker takes: the same result as one job
reading every hand in turn, whatever the chunk size and the order the chunks run in, each
hand read once when a chunk is delivered twice, and the job finished exactly once."""

from __future__ import annotations

import random

import pytest
from django.db import transaction

from tests.factories import ACES, KINGS, make_league, make_tournament, showdown_entry
from tracker.hands.models import (
    Dispute,
    Evaluation,
    Hand,
    JobStatus,
    Pot,
    ReevaluationChunk,
    ReevaluationJob,
)
from tracker.hands.services import reevaluation
from tracker.hands.services.recording import hand_record
from tracker.hands.services.reevaluation import reevaluation_chunk_run, reevaluation_start
from tracker.stats.models import MonthTally, TournamentTally

pytestmark = pytest.mark.django_db

HANDS = 9


@pytest.fixture
def league_read_wrongly(django_capture_on_commit_callbacks):
    """A league of two nights whose settled hands an older engine read differently here and
    there: some pots' engine award names the loser."""
    league, admin = make_league()
    rng = random.Random(7)
    for night in range(2):
        tournament, _ = make_tournament(
            league=league,
            by=admin,
            name=f"Night {night}",
            names=(f"Ann {night}", f"Bob {night}"),
            default_variant="seven_card_stud",
        )
        for k in range(HANDS // 2 + night):
            cards = [ACES, KINGS] if k % 2 else [KINGS, ACES]
            with django_capture_on_commit_callbacks(execute=True):
                hand_record(
                    tournament=tournament,
                    by=admin,
                    entry_mode="quick",
                    entry=showdown_entry(tournament, cards, 24),
                )
    for pot in Pot.objects.select_related("hand").order_by("id"):
        if rng.random() < 0.5:
            loser = next(p for p in map(str, pot.hand.positions) if p not in pot.engine_chips)
            total = sum(pot.engine_chips.values())
            wrong = {loser: total}
            # Where the older reading was also awarded, the new one disputes the award.
            also_awarded = rng.random() < 0.5
            Pot.objects.filter(pk=pot.pk).update(
                engine_award=wrong, **({"award": wrong} if also_awarded else {})
            )
    return league, admin


def outcome(job_id: int | None) -> dict:
    """What a job left behind, without the ids that differ from one run to the next."""
    return {
        "hands": sorted(
            Hand.objects.values_list("number", "tournament__name", "status", "engine_reading")
        ),
        "pots": sorted(
            Pot.objects.values_list(
                "hand__number", "hand__tournament__name", "index", "engine_award", "disputed"
            )
        ),
        "evaluations": sorted(
            Evaluation.objects.filter(job_id=job_id).values_list(
                "hand__number", "hand__tournament__name", "engine_version", "error"
            )
        ),
        "disputes": sorted(
            Dispute.objects.values_list("hand__number", "hand__tournament__name", "source")
        ),
        "months": sorted(
            tuple(sorted((k, str(v)) for k, v in row.items() if k != "id"))
            for row in MonthTally.objects.values()
        ),
        "nights": sorted(
            tuple(sorted((k, str(v)) for k, v in row.items() if k != "id"))
            for row in TournamentTally.objects.values()
        ),
        "job": ReevaluationJob.objects.filter(pk=job_id)
        .values_list("status", "total", "done", "changed")
        .first(),
    }


def run_job(league, admin, capture, settings, size: int) -> dict:
    settings.REEVALUATION_CHUNK_SIZE = size
    with capture(execute=True):
        job = reevaluation_start(league=league, by=admin)
    return outcome(job.pk)


def test_chunks_of_any_size_read_as_one_job(
    league_read_wrongly, django_capture_on_commit_callbacks, settings
):
    league, admin = league_read_wrongly
    results = []
    for size in (10_000, 1, 4):  # one chunk (the single job it replaces), one a hand, uneven
        mark = transaction.savepoint()
        results.append(run_job(league, admin, django_capture_on_commit_callbacks, settings, size))
        transaction.savepoint_rollback(mark)
    single, *chunked = results
    assert single["job"][0] == JobStatus.DONE and single["job"][1] == HANDS
    assert single["job"][3] > 0, "the older engine's readings were found and changed"
    assert single["disputes"], "a changed reading flags its pot"
    for other in chunked:
        assert other == single


def test_chunks_run_in_any_order_and_twice_read_each_hand_once(
    league_read_wrongly, django_capture_on_commit_callbacks, settings, monkeypatch
):
    league, admin = league_read_wrongly
    mark = transaction.savepoint()
    single = run_job(league, admin, django_capture_on_commit_callbacks, settings, 10_000)
    transaction.savepoint_rollback(mark)

    settings.REEVALUATION_CHUNK_SIZE = 2
    sent = []
    monkeypatch.setattr(reevaluation, "send_group", lambda name, calls: sent.extend(calls))
    with django_capture_on_commit_callbacks(execute=True):
        job = reevaluation_start(league=league, by=admin)
    job.refresh_from_db()
    assert job.status == JobStatus.RUNNING and job.chunk_count == (HANDS + 1) // 2
    assert sent == [(job.pk, k) for k in range(job.chunk_count)]
    # Two workers take the chunks from both ends; one chunk is delivered again after it ran.
    order = [
        k
        for pair in zip(range(job.chunk_count), reversed(range(job.chunk_count)), strict=True)
        for k in pair
    ]
    for k in dict.fromkeys(order):
        reevaluation_chunk_run(job_id=job.pk, index=k)
        if k == 1:
            assert reevaluation_chunk_run(job_id=job.pk, index=1)["read"] == 0
    assert outcome(job.pk) == single
    assert not ReevaluationChunk.objects.filter(job=job, done=False).exists()
    # A chunk delivered after the job finished does nothing.
    assert reevaluation_chunk_run(job_id=job.pk, index=0)["read"] == 0
    assert outcome(job.pk) == single


def test_a_resumed_job_sends_only_the_chunks_left(
    league_read_wrongly, django_capture_on_commit_callbacks, settings, monkeypatch
):
    league, admin = league_read_wrongly
    settings.REEVALUATION_CHUNK_SIZE = 3
    sent = []
    monkeypatch.setattr(reevaluation, "send_group", lambda name, calls: sent.append(list(calls)))
    with django_capture_on_commit_callbacks(execute=True):
        job = reevaluation_start(league=league, by=admin)
    reevaluation_chunk_run(job_id=job.pk, index=1)
    # The worker died; the sweep runs the job again: the chunks not done go out again.
    reevaluation.reevaluation_run(job_id=job.pk)
    assert sent == [[(job.pk, 0), (job.pk, 1), (job.pk, 2)], [(job.pk, 0), (job.pk, 2)]]
    job.refresh_from_db()
    assert (job.status, job.done, job.chunk_count) == (JobStatus.RUNNING, 3, 3)


def test_the_api_shows_the_chunks(
    league_read_wrongly, django_capture_on_commit_callbacks, settings
):
    from tests.factories import api_client

    league, admin = league_read_wrongly
    settings.REEVALUATION_CHUNK_SIZE = 4
    with django_capture_on_commit_callbacks(execute=True):
        job = reevaluation_start(league=league, by=admin)
    body = api_client(admin).get(f"/api/v1/reevaluations/{job.pk}/").json()
    assert body["chunks"] == {"total": 3, "done": 3}
    assert (body["status"], body["total"], body["done"], body["progress"]) == ("done", 9, 9, 1.0)


def test_a_job_changes_what_hand_reevaluate_changes_hand_by_hand(
    league_read_wrongly, django_capture_on_commit_callbacks, settings
):
    """The job compares the readings in the database and sends only the hands that moved to
    ``hand_reevaluate``: it changes the same hands, the same way, as ``hand_reevaluate``
    called on every hand (a stored reading that differs, or only by the engine's version)."""
    league, admin = league_read_wrongly
    for k, hand in enumerate(Hand.objects.order_by("id")):
        reading = dict(hand.engine_reading)
        if k % 3 == 0:
            reading["engine_version"] = "0.0.1"  # an older engine read the same: no change
        elif k % 3 == 1:
            reading["players"] = list(reversed(reading["players"]))  # read differently
        Hand.objects.filter(pk=hand.pk).update(engine_reading=reading)
    mark = transaction.savepoint()
    job = run_job(league, admin, django_capture_on_commit_callbacks, settings, 4)
    transaction.savepoint_rollback(mark)
    with django_capture_on_commit_callbacks(execute=True):
        changed = sum(
            reevaluation.hand_reevaluate(hand=hand) for hand in Hand.objects.order_by("id")
        )
    by_hand = outcome(job_id=None)
    assert job["job"][3] == changed > 0
    for key in ("hands", "pots", "disputes", "months", "nights"):
        assert job[key] == by_hand[key], key
