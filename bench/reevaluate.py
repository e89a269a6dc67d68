"""A league re-evaluated across Celery workers: hands per second with 1 and 2 workers.

    .venv/bin/python bench/reevaluate.py [--hands 1000000] [--workers 1,2] [--chunk 500]
        [--keep] [--reuse]

Creates its own database (``homegame_reeval_bench``, or BENCH_DB, on BENCH_PG, default
postgres://postgres@127.0.0.1:5432) and uses a Redis database of its own (BENCH_REDIS,
default redis://127.0.0.1:6379/10, flushed). The demo league is seeded through the
services (its 54 hands recorded and settled, showdowns of every game among them); then its
settled hands are copied, night after night, inside PostgreSQL (``INSERT … SELECT`` over
``generate_series``: tournaments, hands, hand seats and pots) until the league holds
``--hands`` settled hands, and the planner's statistics are refreshed (``ANALYZE``;
``--no-analyze`` leaves them as the load left them). ``--workers 0`` only loads (with
``--keep``: the database stays); ``--reuse`` re-evaluates the league such a run left, with
no new load. For each worker count,
that many ``celery worker --pool=solo`` processes are started on the bench database, a
re-evaluation of the whole league is started through ``reevaluation_start`` (the job splits
into chunks of ``--chunk`` hands, sent as one group), and the wall time until the job is done
is measured, with each worker's resident memory sampled at a tenth, half and all of the job.

Printed: hands per second in all and per worker for each count, the ratio of the largest
count's rate to one worker's (the peer: the same job on one worker, measured in the same
run), each worker's memory at the samples, and the machine's load. The database is dropped at
the end unless ``--keep``.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

from _common import ROOT, BenchDatabase

DB = BenchDatabase("homegame_reeval_bench")
REDIS = os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/10")


def rss_mb(pid: int) -> float:
    """Resident memory of a process, in MB (Linux /proc)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def load(league, target: int) -> int:
    """Copy the league's settled hands, night after night, until it holds ``target``.

    The copies are made inside PostgreSQL (``INSERT … SELECT`` over ``generate_series``):
    each copy of a night is a new tournament holding the night's settled hands, with their
    seats and pots, the ids drawn from the tables' sequences beforehand, so no row travels
    through Python. The last copy may hold only part of a night (the league ends at exactly
    ``target`` hands). Tens of thousands of copies are made per statement."""
    from django.db import connection, transaction

    from tracker.hands.models import SETTLED, Hand, HandSeat, Pot
    from tracker.tournaments.models import Tournament

    quote = connection.ops.quote_name

    def columns(model, *skip: str) -> list[str]:
        return [quote(f.column) for f in model._meta.concrete_fields if f.attname not in skip]

    def seq(model) -> str:
        return f"pg_get_serial_sequence('{model._meta.db_table}', 'id')"

    t_table, h_table = quote(Tournament._meta.db_table), quote(Hand._meta.db_table)
    s_table, p_table = quote(HandSeat._meta.db_table), quote(Pot._meta.db_table)
    settled = [s.value for s in SETTLED]
    nights = Tournament.objects.filter(league=league, hands__status__in=settled).distinct()
    per_copy = Hand.objects.filter(tournament__league=league, status__in=settled).count()
    count = per_copy
    if not per_copy:
        return 0
    copy = 0
    copies_a_step = max(1, 100_000 // per_copy)
    night_ids = sorted(nights.values_list("id", flat=True))
    t_cols = columns(Tournament, "id", "name")
    h_cols = columns(Hand, "id", "tournament_id")
    s_cols = columns(HandSeat, "id", "hand_id")
    p_cols = columns(Pot, "id", "hand_id")
    while count < target:
        copies = min(copies_a_step, -(-(target - count) // per_copy))
        with transaction.atomic(), connection.cursor() as cur:
            # Which hands are copied, and the ids of the copies (tournament and hand).
            cur.execute("DROP TABLE IF EXISTS bench_hand_map, bench_night_map")
            cur.execute(
                "CREATE TEMP TABLE bench_night_map AS "
                f"SELECT t.id AS old_id, g AS copy, nextval({seq(Tournament)}) AS new_id "
                f"FROM unnest(%s::bigint[]) AS t(id), generate_series(%s, %s) AS g",
                [night_ids, copy + 1, copy + copies],
            )
            cur.execute(
                "CREATE TEMP TABLE bench_hand_map AS "
                f"SELECT old_id, tournament_id, nextval({seq(Hand)}) AS new_id FROM ("
                "SELECT h.id AS old_id, m.new_id AS tournament_id FROM bench_night_map m "
                f"JOIN {h_table} h ON h.tournament_id = m.old_id AND h.status = ANY(%s) "
                "ORDER BY m.copy, m.old_id, h.number LIMIT %s) AS chosen",
                [settled, target - count],
            )
            cur.execute(
                f"INSERT INTO {t_table} (id, name, {', '.join(t_cols)}) "
                f"SELECT m.new_id, t.name || ' (copy ' || m.copy || ')', "
                f"{', '.join('t.' + c for c in t_cols)} FROM bench_night_map m "
                f"JOIN {t_table} t ON t.id = m.old_id "
                "WHERE m.new_id IN (SELECT tournament_id FROM bench_hand_map)"
            )
            cur.execute(
                f"INSERT INTO {h_table} (id, tournament_id, {', '.join(h_cols)}) "
                f"SELECT m.new_id, m.tournament_id, {', '.join('h.' + c for c in h_cols)} "
                f"FROM bench_hand_map m JOIN {h_table} h ON h.id = m.old_id ORDER BY m.new_id"
            )
            added = cur.rowcount
            for table, cols in ((s_table, s_cols), (p_table, p_cols)):
                cur.execute(
                    f"INSERT INTO {table} (hand_id, {', '.join(cols)}) "
                    f"SELECT m.new_id, {', '.join('r.' + c for c in cols)} "
                    f"FROM bench_hand_map m JOIN {table} r ON r.hand_id = m.old_id "
                    "ORDER BY m.new_id"
                )
            cur.execute("DROP TABLE bench_hand_map, bench_night_map")
        copy += copies
        count += added
        print(f"  loaded {count:,} hands", end="\r", flush=True)
    print()
    return count


def analyze() -> None:
    """Refresh the planner's statistics after the bulk load (``ANALYZE``), as autovacuum does
    on a league that grows night by night: right after a load of many times the rows the
    tables held, the planner still reads them as the demo's few hundred rows."""
    from django.db import connection

    start = time.perf_counter()
    with connection.cursor() as cur:
        cur.execute("ANALYZE")
    print(f"ANALYZE in {time.perf_counter() - start:.1f} s")


def run(league, admin, workers: int, logs: Path) -> dict:
    from tracker.hands.models import JobStatus, ReevaluationJob
    from tracker.hands.services.reevaluation import reevaluation_start

    procs = []
    for k in range(workers):
        log = logs / f"worker-{workers}-{k}.log"
        procs.append(
            (
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "celery",
                        "-A",
                        "homegame",
                        "worker",
                        "--pool=solo",
                        "--without-gossip",
                        "--without-mingle",
                        "--loglevel=WARNING",
                        "-n",
                        f"bench{k}-{os.getpid()}@%h",
                    ],
                    cwd=ROOT,
                    env={**os.environ, "LOG_LEVEL": "WARNING"},
                    stdout=log.open("w"),
                    stderr=subprocess.STDOUT,
                ),
                log,
            )
        )
    try:
        time.sleep(1)
        ping_deadline = time.monotonic() + 60
        from homegame.celery import app

        while time.monotonic() < ping_deadline:
            replies = app.control.ping(timeout=1) or []
            if len(replies) >= workers:
                break
        else:
            raise SystemExit("the workers did not start: see " + str(logs))
        start = time.perf_counter()
        job = reevaluation_start(league=league, by=admin)
        samples: dict[str, list[float]] = {}
        marks = [("10%", 0.1), ("50%", 0.5)]
        while True:
            job = ReevaluationJob.objects.get(pk=job.pk)
            if job.total and marks and job.done >= marks[0][1] * job.total:
                samples[marks.pop(0)[0]] = [rss_mb(p.pid) for p, _ in procs]
            if job.status in (JobStatus.DONE, JobStatus.FAILED):
                break
            time.sleep(0.2)
        took = time.perf_counter() - start
        samples["100%"] = [rss_mb(p.pid) for p, _ in procs]
        if job.status != JobStatus.DONE:
            raise SystemExit(f"the job failed: {job.error}")
        return {"hands": job.done, "seconds": took, "rate": job.done / took, "rss": samples}
    finally:
        for p, _ in procs:
            p.terminate()
        for p, _ in procs:
            try:
                p.wait(30)
            except subprocess.TimeoutExpired:
                p.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=1_000_000)
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--chunk", type=int, default=500)
    parser.add_argument("--keep", action="store_true")
    parser.add_argument(
        "--no-analyze",
        action="store_true",
        help="leave the planner's statistics as the bulk load left them (no ANALYZE)",
    )
    parser.add_argument(
        "--reuse",
        action="store_true",
        help="re-evaluate the league a run with --keep left (no new database, no load)",
    )
    args = parser.parse_args()
    counts = [int(n) for n in args.workers.split(",") if int(n)]  # 0: load only
    if args.reuse:
        args.keep = True
    DB.env.update(
        {
            "CELERY_BROKER_URL": REDIS,
            "CELERY_RESULT_BACKEND": REDIS,
            "REEVALUATION_CHUNK_SIZE": str(args.chunk),
        }
    )
    subprocess.run(["redis-cli", "-u", REDIS, "flushdb"], check=True, capture_output=True)
    if not args.reuse:
        DB.reset()
    DB.setup_django()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from homegame.celery import app
    from tracker.leagues.models import League

    if not args.reuse:
        app.conf.task_always_eager = True  # the demo's own settlement runs here
        call_command("seed_demo", verbosity=0)
        app.conf.task_always_eager = False
    league = League.objects.order_by("id").first()
    admin = get_user_model().objects.get(username="alex")  # the demo league's founder
    try:
        if not args.reuse:
            start = time.perf_counter()
            total = load(league, args.hands)
            print(f"{total:,} settled hands loaded in {time.perf_counter() - start:.0f} s")
            if not args.no_analyze:
                analyze()
        logs = ROOT / "test-artifacts" / "bench-reevaluate"
        logs.mkdir(parents=True, exist_ok=True)
        results = {}
        for n in counts:
            r = results[n] = run(league, admin, n, logs)
            print(
                f"{n} worker(s): {r['hands']:,} hands in {r['seconds']:.1f} s = "
                f"{r['rate']:,.0f} hands/s, {r['rate'] / n:,.0f} per worker; memory per "
                "worker (MB) at "
                + ", ".join(
                    f"{mark} {'/'.join(f'{m:.0f}' for m in mb)}" for mark, mb in r["rss"].items()
                )
            )
        if 1 in results and len(results) > 1:
            top = max(results)
            print(
                f"{top} workers / 1 worker: {results[top]['rate'] / results[1]['rate']:.2f}x "
                f"(load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
            )
    finally:
        if not args.keep:
            DB.drop()


if __name__ == "__main__":
    main()
