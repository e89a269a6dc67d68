"""What the table screen's poll costs the site, before and after the 304: one poll that
renders the fragment (every poll did, before the ETag), one poll that finds nothing changed
(304, the night's cheap version only), next to Django's cheapest view (a view answering "ok"
through the same middleware) and one load of the tournament page (what a TV would otherwise
reload), on the same night, measured in the same run.

    .venv/bin/python bench/table_screen.py [--hands 40] [--repeat 21]

Creates a SQLite database in a temporary folder (or uses ``BENCH_DATABASE_URL``, e.g. a
PostgreSQL database you made for it: it is migrated and filled, never dropped), seeds a
league and a seven-player night through the services (quick entries, settled in-process as
the worker would), then times through Django's test client (templates and middleware count)
the median of ``--repeat`` requests each, with their query counts and bytes, and prints the
ratios.
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

    from django.http import HttpResponse
    from django.urls import clear_url_caches, path

    import homegame.urls

    # Django's cheapest view, routed through the same middleware: the floor of any answer.
    homegame.urls.urlpatterns.append(path("bench-peer/", lambda request: HttpResponse("ok")))
    clear_url_caches()

    def measure(url: str, status: int = 200, **headers) -> tuple[float, int, int]:
        assert client.get(url, headers=headers).status_code == status
        queries: list[str] = []

        def count(execute, sql, params, many, context):
            queries.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            client.get(url, headers=headers)
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            response = client.get(url, headers=headers)
            times.append(time.perf_counter() - start)
            assert response.status_code == status, (url, response.status_code)
        return statistics.median(times) * 1000, len(queries), len(response.content)

    poll = f"/tournaments/{t.pk}/table/live/"
    etag = client.get(poll)["ETag"]
    full = measure(poll)
    same = measure(poll, 304, if_none_match=etag)
    floor = measure("/bench-peer/")
    page = measure(f"/tournaments/{t.pk}/")
    engine = connection.vendor
    print(f"{len(names)} players, {args.hands} hands, {engine}, median of {args.repeat}")
    for label, (ms, q, size) in (
        ("poll, fragment rendered (200)", full),
        ("poll, nothing changed (304)  ", same),
        ("Django's cheapest view       ", floor),
        ("tournament page (a reload)   ", page),
    ):
        print(f"{label}: {ms:7.2f} ms, {q:2d} queries, {size:6d} bytes")
    print(
        f"ratio: a 304 poll costs {same[0] / full[0]:.2f}x a rendered one ({full[0] / same[0]:.1f}x cheaper)"
    )
    print(f"ratio: a 304 poll costs {same[0] / floor[0]:.2f}x Django's cheapest view")
    print(f"ratio: a rendered poll costs {full[0] / page[0]:.2f}x a reload of the tournament page")


if __name__ == "__main__":
    main()
