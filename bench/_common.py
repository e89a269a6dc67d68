"""What the benchmarks share: a PostgreSQL database of their own with the site set up
in-process, seeding tournaments of folded hands through the services, timing a page through
Django's test client, and the interleaved best-rate loop of the engine benches.

Run the scripts from the project root (``.venv/bin/python bench/scale.py``): Python puts
``bench/`` on the path, so they import this module as ``_common``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")


def first_seat_wins(showdown: dict) -> dict:
    """A showdown's stand-in evaluator: the first seat wins the high, no hand is read.

    The walk benches pass it as ``evaluate`` so that they time the engine's walk of a hand,
    not the hand-value engine (which bench/showdown.py and bench/engine.py time).
    """
    players = showdown["players"]
    return {
        "players": [{"high": None, "low": None}] * len(players),
        "high_winners": [0],
        "low_winners": [],
    }


def project_on_path() -> None:
    """Let a bench import the project (``tracker``, ``tests``)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))


# --------------------------------------------------------------------------
# A database of the bench's own, and the site in-process


class BenchDatabase:
    """A PostgreSQL database for one bench: ``BENCH_DB``, or the bench's default name, on
    ``BENCH_PG``. The site runs in-process against it (Celery tasks eagerly, static files
    without collectstatic, warnings only)."""

    def __init__(self, default_name: str):
        self.name = os.environ.get("BENCH_DB", default_name)
        self.url = f"{PG}/{self.name}"
        self.env = {
            **os.environ,
            "DATABASE_URL": self.url,
            "DJANGO_SETTINGS_MODULE": "homegame.settings_test",
            "DEBUG": "false",
            "ALLOWED_HOSTS": "testserver,127.0.0.1,localhost",
            "LOG_LEVEL": "WARNING",
            "PYTHONWARNINGS": "ignore",
        }
        self.env.pop("CELERY_BROKER_URL", None)  # tasks run eagerly in-process

    def reset(self) -> None:
        """Drop and create the database, then migrate it (in a child process)."""
        import psycopg

        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")
            conn.execute(f"CREATE DATABASE {self.name}")
        subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=self.env,
            check=True,
        )

    def setup_django(self) -> None:
        """Set up Django in this process against the database."""
        os.environ.clear()
        os.environ.update(self.env)
        project_on_path()
        import django

        django.setup()

    def drop(self) -> None:
        import psycopg
        from django.db import connections

        connections.close_all()
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {self.name} WITH (FORCE)")


# --------------------------------------------------------------------------
# Seeding through the services


def folded_tournament_seed(
    *, league, name: str, players: list, by, hands: int, turn: int = 0, **options
):
    """A seven-card stud tournament of ``players`` (``options`` go to ``tournament_create``)
    with ``hands`` quick hands recorded through ``hand_record``, in each of which every
    player but one folds on third street: the one who wins moves round the table from hand
    to hand, starting ``turn`` places on. Whether the hands settle at once is the caller's
    affair (eager tasks, or sending switched off so that they wait as in a queue)."""
    from tracker.hands.services.recording import hand_record
    from tracker.tournaments.selectors import tournament_state
    from tracker.tournaments.services import tournament_create

    tournament = tournament_create(
        league=league,
        name=name,
        player_ids=[p.id for p in players],
        by=by,
        default_variant="seven_card_stud",
        **options,
    )
    for _ in range(hands):
        state = tournament_state(tournament)
        stakes = state.next_stakes
        order = [s.player_id for s in state.next_positions()]
        winner = order[(state.next_number + turn) % len(order)]
        seats = [
            {
                "player": p,
                "put_in": stakes.ante + (stakes.bring_in if p == winner else 0),
                **({} if p == winner else {"folded": "third"}),
            }
            for p in order
        ]
        hand_record(tournament=tournament, by=by, entry_mode="quick", entry={"seats": seats})
    return tournament


# --------------------------------------------------------------------------
# Timing


def measure(client, url: str, repeat: int = 7) -> tuple[float, int, int]:
    """A page through Django's test client: median milliseconds of ``repeat`` requests,
    queries per request and the response's bytes."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    times = []
    with CaptureQueriesContext(connection) as queries:
        for _ in range(repeat):
            start = time.perf_counter()
            response = client.get(url)
            times.append(time.perf_counter() - start)
            assert response.status_code == 200, (url, response.status_code)
    return 1000 * statistics.median(times), len(queries) // repeat, len(response.content)


def median_ms(fn, repeat: int = 7) -> float:
    """Median milliseconds of ``repeat`` calls of ``fn``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def rate(fn, items, min_time: float) -> float:
    """Items per second of ``fn`` over ``items`` (repeated to run at least ``min_time``).
    The engine benches interleave rounds of these and keep each one's best, so a busy
    machine slows every contender alike."""
    count = 0
    start = time.perf_counter()
    while True:
        fn(items)
        count += len(items)
        elapsed = time.perf_counter() - start
        if elapsed >= min_time:
            return count / elapsed
