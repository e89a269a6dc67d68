"""Shared fixtures.

Tests marked ``worker`` talk to a real Celery worker through the configured
broker; every other test runs tasks eagerly in-process, even when a broker
is configured, so the whole suite runs the same on both passes of CI.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from celery._state import _set_task_join_will_block
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from homegame.celery import app as celery_app

ARTIFACTS = Path(__file__).resolve().parent.parent / "test-artifacts"

# Property tests check what is generated, not how fast: on a loaded machine the default
# 200 ms deadline per example and the "generation is slow" health check fail a test that
# would pass, so neither applies (a test may still set its own).
hypothesis_settings.register_profile(
    "homegame", deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile("homegame")


@pytest.fixture(autouse=True)
def _celery_mode(request, settings):
    worker = request.node.get_closest_marker("worker") is not None
    if worker and not settings.CELERY_BROKER_URL:
        pytest.fail("worker tests need CELERY_BROKER_URL and a running worker (see .ci/run)")
    saved = (celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates)
    celery_app.conf.task_always_eager = not worker
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = saved
    # An eager apply_async marks "joining a result would block" in a process-wide flag for the
    # task's run and restores the value it saw on entry. Two threads running eager tasks at
    # once (the concurrency tests, the live server) can restore in the wrong order and leave it
    # set, after which every later result.get() in this process refuses as "within a task".
    _set_task_join_will_block(False)


@pytest.fixture
def settle(django_capture_on_commit_callbacks):
    """Run the on-commit settlement of everything recorded inside the block."""
    return lambda: django_capture_on_commit_callbacks(execute=True)


@pytest.fixture
def artifacts_dir() -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    return ARTIFACTS


DATABASE_FIXTURES = ("db", "transactional_db", "live_server", "django_db_setup")


def uses_database(item) -> bool:
    """Whether a collected test touches the database (pytest-django's mark or fixtures)."""
    if item.get_closest_marker("django_db") is not None:
        return True
    return any(f in DATABASE_FIXTURES for f in getattr(item, "fixturenames", ()))


def pytest_addoption(parser):
    parser.addoption(
        "--database-only",
        action="store_true",
        help="run only the tests that touch the database, and every test marked slow (CI's "
        "PostgreSQL pass: the rest run the same on any database and ran in the SQLite pass)",
    )


def pytest_collection_modifyitems(config, items):
    if not config.getoption("--database-only"):
        return
    kept, left = [], []
    for item in items:
        keep = item.get_closest_marker("slow") is not None or uses_database(item)
        (kept if keep else left).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


def pytest_report_header(config):
    from django.conf import settings

    db = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    broker = "eager" if not settings.CELERY_BROKER_URL else settings.CELERY_BROKER_URL
    return [f"homegame: database={db} broker={broker} pid={os.getpid()}"]


@pytest.fixture(autouse=True)
def _chips_are_conserved(request, monkeypatch):
    """After every batch of hands settled in any test: a tournament's stacks add up to its
    starting chips times its players plus the chips of the rebuys and add-ons recorded (and
    not undone: the money entries, read apart from the ledger), no stack is negative, and the
    stacks settlement carried forward in memory are the ledger's."""
    if not uses_database(request.node):
        yield
        return
    from django.db.models import Sum

    from tracker.hands.services import settlement as hands
    from tracker.money.models import MoneyEntry
    from tracker.tournaments.models import LedgerEntry

    original = hands._settle_hands

    def checked(tournament, batch, *read):
        settled = original(tournament, batch, *read)
        last = batch[-1].number
        total = LedgerEntry.objects.filter(tournament=tournament).aggregate(s=Sum("amount"))["s"]
        bought = MoneyEntry.objects.filter(tournament=tournament, undone_at__isnull=True)
        expected = tournament.starting_chips * tournament.seats.count() + (
            bought.aggregate(s=Sum("chips"))["s"] or 0
        )
        assert total == expected, f"chips not conserved after hand {last}: {total} != {expected}"
        negative = (
            LedgerEntry.objects.filter(tournament=tournament)
            .values("player_id")
            .annotate(s=Sum("amount"))
            .filter(s__lt=0)
        )
        assert not negative.exists(), f"negative stack after hand {last}"
        ledger = dict(
            LedgerEntry.objects.filter(tournament=tournament)
            .values_list("player_id")
            .annotate(s=Sum("amount"))
        )
        # the stacks settlement carried forward (which decide whether the game is over)
        assert settled[1] == ledger, f"stacks after hand {last}: {settled[1]} != {ledger}"
        return settled

    monkeypatch.setattr(hands, "_settle_hands", checked)
    yield


@pytest.fixture(autouse=True)
def _fresh_limits():
    """Rate-limit and sign-in counters live in the cache: start every test with none."""
    from django.core.cache import cache

    from tracker.core.cache import failsafe_cache

    cache.clear()
    failsafe_cache.fallback.clear()
    yield


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """The test database, and before it is dropped, the end of every other session on it: a
    Celery worker of .ci/run works on this database and keeps its connection between tasks
    (homegame/celery.py), which would stop PostgreSQL dropping it."""
    yield
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with django_db_blocker.unblock(), connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
