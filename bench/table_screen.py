"""What the table screen costs the site: one poll of its fragment against one load of the
tournament page (what a TV would otherwise reload), on the same night, measured in the same
run.

    .venv/bin/python bench/table_screen.py [--hands 40] [--repeat 21]

Creates a SQLite database in a temporary folder (or uses ``BENCH_DATABASE_URL``, e.g. a
PostgreSQL database you made for it: it is migrated and filled, never dropped), seeds a
league and a seven-player night through the services (quick entries, settled in-process as
the worker would), then times through Django's test client (templates and middleware count)
the median of ``--repeat`` requests each, with their query counts, and prints the ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--repeat", type=int, default=21)
    args = parser.parse_args()

    folder = tempfile.mkdtemp(prefix="table-bench-")
    env = {
        **os.environ,
        "DATABASE_URL": os.environ.get("BENCH_DATABASE_URL", f"sqlite:///{folder}/bench.sqlite3"),
        "DJANGO_SETTINGS_MODULE": "homegame.settings_test",
        "DEBUG": "false",
        "ALLOWED_HOSTS": "testserver",
        "LOG_LEVEL": "WARNING",
    }
    env.pop("CELERY_BROKER_URL", None)  # tasks run eagerly in-process
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    os.environ.update(env)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()

    from django.db import connection
    from django.test import Client

    from tests.factories import fold_entry, make_league, make_tournament, showdown_entry
    from tracker.hands.services.recording import hand_record

    league, admin = make_league(slug="bench")
    names = ("Ann", "Bob", "Cat", "Dee", "Eve", "Fay", "Gus")
    t, _ = make_tournament(league=league, by=admin, names=names, starting_chips=100_000)
    aces = (["As", "Ah", "2c"], ["Ad", "3c", "4c", "9d"])
    kings = (["Ks", "Kh", "2d"], ["Kd", "3d", "4d", "5h"])
    for k in range(args.hands):
        entry = fold_entry(t) if k % 2 else showdown_entry(t, [aces, kings], 40)
        hand_record(
            tournament=t, by=admin, entry_mode="quick", entry=entry, variant="seven_card_stud"
        )

    client = Client()

    def measure(url: str) -> tuple[float, int]:
        assert client.get(url).status_code == 200
        queries: list[str] = []

        def count(execute, sql, params, many, context):
            queries.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            client.get(url)
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            response = client.get(url)
            times.append(time.perf_counter() - start)
            assert response.status_code == 200
        return statistics.median(times) * 1000, len(queries)

    ours, ours_q = measure(f"/tournaments/{t.pk}/table/live/")
    peer, peer_q = measure(f"/tournaments/{t.pk}/")
    engine = connection.vendor
    print(f"{len(names)} players, {args.hands} hands, {engine}, median of {args.repeat}")
    print(f"table screen fragment (one poll): {ours:7.2f} ms, {ours_q} queries")
    print(f"tournament page (one reload):     {peer:7.2f} ms, {peer_q} queries")
    print(f"ratio: a poll costs {ours / peer:.2f}x a reload ({peer / ours:.1f}x cheaper)")


if __name__ == "__main__":
    main()
