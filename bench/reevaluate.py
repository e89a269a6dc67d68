"""A league re-evaluated across Celery workers: hands per second with 1 and 2 workers.

    .venv/bin/python bench/reevaluate.py [--hands 1000000] [--workers 1,2] [--chunk 500]

Creates its own database (``homegame_reeval_bench``, or BENCH_DB, on BENCH_PG, default
postgres://postgres@127.0.0.1:5432) and uses a Redis database of its own (BENCH_REDIS,
default redis://127.0.0.1:6379/10, flushed). The demo league is seeded through the
services (its 54 hands recorded and settled, showdowns of every game among them); then its
settled hands are copied, night after night, with ``bulk_create`` (tournaments, hands, hand
seats and pots) until the league holds ``--hands`` settled hands, and the planner's
statistics are refreshed (``ANALYZE``; ``--no-analyze`` leaves them as the load left them). For each worker count,
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
    """Copy the league's settled hands, night after night, until it holds ``target``."""
    from django.db import transaction

    from tracker.hands.models import Hand, HandSeat, HandStatus, Pot
    from tracker.tournaments.models import Tournament

    settled = (HandStatus.VERIFIED, HandStatus.DISPUTED)
    nights = []
    for t in Tournament.objects.filter(league=league).order_by("id"):
        hands = list(Hand.objects.filter(tournament=t, status__in=settled).order_by("number"))
        if hands:
            seats = {h.pk: list(h.hand_seats.all()) for h in hands}
            pots = {h.pk: list(h.pots.all()) for h in hands}
            nights.append((t, hands, seats, pots))
    count = Hand.objects.filter(tournament__league=league, status__in=settled).count()
    copy = 0
    while count < target:
        with transaction.atomic():
            batch_hands, batch_seats, batch_pots = [], [], []
            for t, hands, _seats, _pots in nights:
                if count >= target:
                    break
                copy += 1
                new = Tournament.objects.get(pk=t.pk)
                new.pk = None
                new.name = f"{t.name} (copy {copy})"
                new.save()
                for h in hands[: target - count]:
                    hand = _clone(h)
                    hand.tournament_id = new.pk
                    batch_hands.append((hand, h))
                    count += 1
            Hand.objects.bulk_create([h for h, _ in batch_hands], batch_size=2000)
            for hand, template in batch_hands:
                for s in seats_of(template, nights):
                    seat = _clone(s)
                    seat.hand_id = hand.pk
                    batch_seats.append(seat)
                for p in pots_of(template, nights):
                    pot = _clone(p)
                    pot.hand_id = hand.pk
                    batch_pots.append(pot)
            HandSeat.objects.bulk_create(batch_seats, batch_size=5000)
            Pot.objects.bulk_create(batch_pots, batch_size=5000)
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


def _clone(obj):
    clone = type(obj)()
    for f in obj._meta.concrete_fields:
        setattr(clone, f.attname, getattr(obj, f.attname))
    clone.pk = None
    return clone


_SEATS: dict = {}
_POTS: dict = {}


def seats_of(template, nights):
    if not _SEATS:
        for _, _, seats, pots in nights:
            _SEATS.update(seats)
            _POTS.update(pots)
    return _SEATS[template.pk]


def pots_of(template, nights):
    seats_of(template, nights)
    return _POTS[template.pk]


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
    args = parser.parse_args()
    counts = [int(n) for n in args.workers.split(",")]
    DB.env.update(
        {
            "CELERY_BROKER_URL": REDIS,
            "CELERY_RESULT_BACKEND": REDIS,
            "REEVALUATION_CHUNK_SIZE": str(args.chunk),
        }
    )
    subprocess.run(["redis-cli", "-u", REDIS, "flushdb"], check=True, capture_output=True)
    DB.reset()
    DB.setup_django()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from homegame.celery import app
    from tracker.leagues.models import League

    app.conf.task_always_eager = True  # the demo's own settlement runs here
    call_command("seed_demo", verbosity=0)
    app.conf.task_always_eager = False
    league = League.objects.order_by("id").first()
    admin = get_user_model().objects.get(username="alex")  # the demo league's founder
    try:
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
