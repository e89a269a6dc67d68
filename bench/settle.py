"""Settlement in-process against PostgreSQL: hands per second and CPU per hand, no Celery.

    .venv/bin/python bench/settle.py [--tournaments 8] [--hands 40] [--rounds 2] [--profile]

Creates its own database (BENCH_DB, default ``homegame_settle_bench``, on BENCH_PG, default
postgres://postgres@127.0.0.1:5432) and drops it at the end. Each round records
``--tournaments`` three-handed tournaments of ``--hands`` folded hands each through
``hand_record`` with settlement not sent (the hands wait, as in a queue), then settles them
with ``tournament_settle`` called in this process, one tournament after the other, and prints
the hands settled per second (wall time) and the process's CPU time per hand (less sensitive
to a loaded machine than the wall time). ``--profile`` prints a cProfile of the last round.
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import subprocess
import sys
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
        profile = cProfile.Profile() if args.profile and r == args.rounds - 1 else None
        wall, cpu = time.perf_counter(), time.process_time()
        if profile:
            profile.enable()
        done = sum(tournament_settle(tournament_id=t.pk) for t in tournaments)
        if profile:
            profile.disable()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(
            f"  round {r + 1}: {done} hands settled in {wall:.2f} s: {done / wall:.1f} hands/s;"
            f" CPU {1000 * cpu / done:.2f} ms per hand"
        )
        if profile:
            stats = pstats.Stats(profile)
            stats.sort_stats("cumulative").print_stats(40)
            stats.sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    main()
