"""Settlement in-process against PostgreSQL: hands per second and CPU per hand, no Celery.

    .venv/bin/python bench/settle.py [--tournaments 8] [--hands 40] [--rounds 2] [--profile]
                                     [--statements] [--explain]

Creates its own database (BENCH_DB, default ``homegame_settle_bench``, on BENCH_PG, default
postgres://postgres@127.0.0.1:5432) and drops it at the end. Each round records
``--tournaments`` three-handed tournaments of ``--hands`` folded hands each through
``hand_record`` with settlement not sent (the hands wait, as in a queue), then settles them
with ``tournament_settle`` called in this process, one tournament after the other, and prints
the hands settled per second (wall time) and the process's CPU time per hand (less sensitive
to a loaded machine than the wall time), with the load average. ``--profile`` prints a cProfile
of the last round; ``--statements`` the last round's statements, grouped by their text's start,
with their count and wall time per batch (the time psycopg waits on the server, the round
trip included); ``--explain`` also prints the server's plan and timing of each statement of
the last round's first batch (``auto_explain``, its notices read by the client).
"""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import os
import pstats
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import folded_tournament_seed

ROOT = Path(__file__).resolve().parent.parent
PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
DB = os.environ.get("BENCH_DB", "homegame_settle_bench")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tournaments", type=int, default=8)
    parser.add_argument("--hands", type=int, default=40, help="hands per tournament (<= 50)")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--statements", action="store_true")
    parser.add_argument("--explain", action="store_true")
    args = parser.parse_args()
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB}")
    env = {
        "DATABASE_URL": f"{PG}/{DB}",
        "SECRET_KEY": "bench-only",
        "DEBUG": "false",
        "LOG_LEVEL": "WARNING",
        "DJANGO_SETTINGS_MODULE": "homegame.settings",
    }
    os.environ.update(env)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, check=True
    )
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    try:
        run(args)
    finally:
        from django.db import connections

        connections.close_all()
        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")


class Statements:
    """Every statement run inside the block: its count and wall time, grouped by the start of
    its text (``--statements``), and the first batch's plans (``--explain``)."""

    def __init__(self, explain: bool = False):
        self.explain = explain
        self.times: dict[str, list[float]] = {}
        self.batches = 0
        self.notices: list[str] = []
        self.trace = tempfile.TemporaryFile("w+")

    def __enter__(self):
        import psycopg
        from django.db import connection

        connection.ensure_connection()
        self._wrapper = connection.execute_wrapper(self)
        self._wrapper.__enter__()
        # libpq's trace of the messages, to count the round trips: the times the client,
        # having sent, waits for the server's answer.
        connection.connection.pgconn.trace(self.trace.fileno())
        connection.connection.pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS)
        if self.explain:
            raw = connection.connection
            raw.add_notice_handler(lambda d: self.notices.append(d.message_primary))
            with connection.cursor() as cursor:
                cursor.execute(
                    "LOAD 'auto_explain'; SET auto_explain.log_min_duration = 0;"
                    " SET auto_explain.log_analyze = on; SET auto_explain.log_level = notice;"
                    ""
                    " SET client_min_messages = notice"
                )
        return self

    def __exit__(self, *exc):
        from django.db import connection

        self._wrapper.__exit__(*exc)
        connection.connection.pgconn.untrace()
        if self.explain:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SET client_min_messages = warning; SET auto_explain.log_min_duration = -1"
                )

    def __call__(self, execute, sql, params, many, context):
        key = " ".join(sql.split())[:70]
        if key.startswith("SELECT pg_advisory_xact_lock"):
            self.batches += 1
        start = time.perf_counter()
        try:
            return execute(sql, params, many, context)
        finally:
            self.times.setdefault(key, []).append(time.perf_counter() - start)
            if self.explain and self.batches > 1:
                self.explain = False  # the first batch only

    def report(self, wall: float) -> None:
        batches = max(self.batches, 1)
        total = sum(sum(t) for t in self.times.values())
        count = sum(len(t) for t in self.times.values())
        self.trace.seek(0)
        if os.environ.get("BENCH_TRACE_OUT"):
            Path(os.environ["BENCH_TRACE_OUT"]).write_text(self.trace.read())
            self.trace.seek(0)
        trips, last = 0, "B"
        for line in self.trace:
            side = line[:1]
            if side == "F" and last == "B":
                trips += 1
            if side in "FB":
                last = side
        print(
            f"  statements: {count / batches:.1f} a batch, {trips / batches:.1f} round trips"
            f" (COMMIT included), {1000 * total / batches:.2f} ms of"
            f" {1000 * wall / batches:.2f} ms a batch in execute ({batches} batches)"
        )
        for key, times in sorted(self.times.items(), key=lambda kv: -sum(kv[1])):
            print(
                f"    {len(times) / batches:4.1f} x {1000 * sum(times) / len(times):6.3f} ms  {key}"
            )
        checks = [n for n in self.notices if "FOR KEY SHARE OF x" in n]  # foreign key checks
        if checks:
            spent = sum(float(n.split()[1]) for n in checks)
            print(f"  the first batch's foreign key checks: {len(checks)}, {spent:.3f} ms")
        for notice in self.notices:
            if notice not in checks:
                print(notice)


def run(args) -> None:
    from django.contrib.auth import get_user_model

    from tracker.core import jobs
    from tracker.hands.services.settlement import tournament_settle
    from tracker.leagues.services import league_create, player_create

    jobs.send = lambda name, *a: None  # recorded hands wait: settlement is timed below
    user = get_user_model().objects.create_user("bench", password="bench-only")
    league = league_create(name="Bench", slug="bench", created_by=user)
    players = [player_create(league=league, name=f"P{i}", by=user) for i in range(12)]
    hands = min(args.hands, 50)
    print(
        f"database {PG}/{DB}: {args.tournaments} tournaments x {hands} hands per round, "
        "settled in-process"
    )
    for r in range(args.rounds):
        tournaments = [
            folded_tournament_seed(
                league=league,
                name=f"R{r}T{k}",
                players=players[3 * (k % 4) : 3 * (k % 4) + 3],
                by=user,
                hands=hands,
                turn=k,
                hand_limit=50,
            )
            for k in range(args.tournaments)
        ]
        last = r == args.rounds - 1
        profile = cProfile.Profile() if args.profile and last else None
        timed = (
            Statements(explain=args.explain) if (args.statements or args.explain) and last else None
        )
        load = os.getloadavg()[0]
        wall, cpu = time.perf_counter(), time.process_time()
        if profile:
            profile.enable()
        with timed or contextlib.nullcontext():
            done = sum(tournament_settle(tournament_id=t.pk) for t in tournaments)
        if profile:
            profile.disable()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(
            f"  round {r + 1}: {done} hands settled in {wall:.2f} s: {done / wall:.1f} hands/s;"
            f" CPU {1000 * cpu / done:.2f} ms per hand (load {load:.2f}, {os.getloadavg()[0]:.2f})"
        )
        if timed:
            timed.report(wall)
        if profile:
            stats = pstats.Stats(profile)
            stats.sort_stats("cumulative").print_stats(40)
            stats.sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
