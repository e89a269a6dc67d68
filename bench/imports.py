"""Importing long .phhs archives, in-process against PostgreSQL: hands per second and peak
memory at 10,000 and 100,000 hands, next to pokerkit's reading of the same hands.

    .venv/bin/python bench/imports.py [--sizes 10000 100000] [--peer 10000]

Creates its own database (BENCH_DB, default ``homegame_imports_bench``, on BENCH_PG, default
postgres://postgres@127.0.0.1:5432) and drops it at the end. For each size it writes an
archive of that many three-handed seven-card stud hands (a fold to the bring-in and a
showdown in turn, the deal moving round the table, so the stacks come back every six hands;
stacks, players and finishing stacks worked out by the engine's replay) to a temporary file,
a hand at a time. Each archive is imported by a child process of its own, so that its peak
memory (``ru_maxrss``) is the import's alone: ``phh_import_start`` of the open file into a
new tournament (one hand level throughout, a hand limit of the archive's size), run at once,
settlement not sent (it is measured by bench/settle.py). It prints the store (upload to
chunks, tables counted), the run (read, check, record in batches) and the whole, in hands
per second, the child's peak memory, and the run's rate over each tenth of the archive (a
run whose batches cost more as the hands add up slows from tenth to tenth), with the child's
CPU time a hand, overall and by tenths (the database server's CPU not counted), which
follows the machine's load less than the rates do. ``BENCH_PHASES=1`` also prints each
phase's CPU and wall time a hand (read, hash, checks, walk, rows, COPY and INSERTs, commit);
``BENCH_PROFILE=path`` writes a cProfile of the run there.

The peer: pokerkit's ``HandHistory.loads`` of each of the first ``--peer`` hands' tables
(pokerkit reads a hand from a whole text), against our reading of the same hands
(:func:`tracker.engine.phh.stream_hands`, the import's parser), in hands per second.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _common import PG, ROOT, BenchDatabase, project_on_path

NAMES = ("Ann", "Bob", "Cat")  # the hands' stakes are level 1 of the house schedule


def archive_write(path: Path, count: int) -> None:
    """``count`` hands as a .phhs file, written a hand at a time."""
    from tests.interchange.histories import FOLD, SHOWDOWN
    from tests.support.hands import phh_stakes
    from tracker.engine import phh
    from tracker.engine.procedure import replay_hand

    stacks = [1000, 1000, 1000]
    with path.open("w", encoding="utf-8") as out:
        for k in range(count):
            dealer = k % 3
            order = [(dealer + 1 + i) % 3 for i in range(3)]
            hand = {
                "variant": "F7S",
                **phh_stakes(),
                "starting_stacks": [stacks[s] for s in order],
                "actions": FOLD if k % 2 == 0 else SHOWDOWN,
                "players": [NAMES[s] for s in order],
                "hand": k + 1,
            }
            hand["finishing_stacks"] = replay_hand(hand).finishing_stacks
            for s, chips in zip(order, hand["finishing_stacks"], strict=True):
                stacks[s] = chips
            out.write(("\n" if k else "") + phh.dumps([hand]).replace("[1]", f"[{k + 1}]", 1))


def child(path: str, count: int) -> None:
    """Import one archive in this process; print a JSON line of the figures."""
    from django.contrib.auth import get_user_model

    from tracker.core import jobs
    from tracker.interchange.services.imports import phh_import_run, phh_import_start
    from tracker.leagues.services import league_create, player_create
    from tracker.tournaments.services import tournament_create

    jobs.send = lambda name, *a: None  # settlement waits, as in a queue: not timed here
    user = get_user_model().objects.create_user(f"bench{count}", password="bench-only")
    league = league_create(name=f"Bench {count}", slug=f"bench-{count}", created_by=user)
    players = [player_create(league=league, name=n, by=user) for n in NAMES]
    tournament = tournament_create(
        league=league,
        name=f"{count} hands",
        player_ids=[p.id for p in players],
        by=user,
        default_variant="seven_card_stud",
        hands_per_level=count,
        hand_limit=count,
        stakes_schedule=[[4, 10, 20, 40]],
    )
    phases = _phases_timed() if os.environ.get("BENCH_PHASES") else None
    start = time.perf_counter()
    with open(path, "rb") as upload:
        job = phh_import_start(
            tournament=tournament,
            by=user,
            files=[(Path(path).name, upload)],
            source="command",
            inline=False,
        )
    stored = time.perf_counter()
    profile = None
    if os.environ.get("BENCH_PROFILE"):
        import cProfile

        profile = cProfile.Profile()
        profile.enable()
    marks = [time.perf_counter()]  # when each tenth of the hands had been read
    cpu = [time.process_time()]  # and this process's CPU time then (the server's not counted)

    def progress(done: int, total: int) -> None:
        if done * 10 >= len(marks) * total and len(marks) <= 10:
            marks.append(time.perf_counter())
            cpu.append(time.process_time())

    result = phh_import_run(job_id=job.pk, progress=progress)
    ran = time.perf_counter()
    if profile is not None:
        import pstats

        profile.disable()
        profile.dump_stats(os.environ["BENCH_PROFILE"])
        stats = pstats.Stats(profile, stream=sys.stderr)
        stats.sort_stats("cumulative").print_stats(45)
        stats.sort_stats("tottime").print_stats(25)
    if phases is not None:
        for name, (cpu_s, wall_s, calls) in phases.items():
            print(
                f"phase {name:<34} CPU {cpu_s / count * 1e6:7.1f} us a hand, "
                f"wall {wall_s / count * 1e6:7.1f} us ({calls} calls)",
                file=sys.stderr,
            )
    job.refresh_from_db()
    assert result["imported"] == count and not job.errors, (result, job.errors)
    print(
        json.dumps(
            {
                "hands": count,
                "bytes": os.path.getsize(path),
                "store": stored - start,
                "run": ran - stored,
                "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
                "tenths": [b - a for a, b in zip(marks, marks[1:], strict=False)],
                "cpu_tenths": [b - a for a, b in zip(cpu, cpu[1:], strict=False)],
            }
        )
    )


def _phases_timed() -> dict[str, list]:
    """Wrap the import's phases (``BENCH_PHASES``): each one's CPU time (this process) and
    wall time, inclusive of what it calls, as [cpu, wall, calls] by name. The read is the
    stream's ``next``; the commit is the connection's."""
    from django.db import connection

    from tracker.hands.services import recording
    from tracker.interchange.services import hands, imports

    phases: dict[str, list] = {}
    clock, wall = time.process_time, time.perf_counter

    def timed(owner, name: str, label: str) -> None:
        inner = getattr(owner, name)
        slot = phases.setdefault(label, [0.0, 0.0, 0])

        def run(*args, **kwargs):
            c, w = clock(), wall()
            try:
                return inner(*args, **kwargs)
            finally:
                slot[0] += clock() - c
                slot[1] += wall() - w
                slot[2] += 1

        setattr(owner, name, run)

    read = phases.setdefault("read (stream_hands)", [0.0, 0.0, 0])
    stream = imports._hands

    def streamed(*args, **kwargs):
        it = stream(*args, **kwargs)
        while True:
            c, w = clock(), wall()
            try:
                item = next(it)
            except StopIteration:
                return
            finally:
                read[0] += clock() - c
                read[1] += wall() - w
                read[2] += 1
            yield item

    imports._hands = streamed
    timed(imports, "_import_batch", "batch (all but read, commit)")
    timed(imports, "content_hash", "hash")
    timed(imports, "_hashes_present", "hashes present (query)")
    timed(recording.HandBatch, "__init__", "batch opened (lock, mark)")
    timed(imports, "phh_hands_add", "hand checked and added")
    timed(hands, "phh_hand_entry", "  PHH checks (phh_hand_entry)")
    timed(recording, "hand_evaluate", "  walk (hand_evaluate)")
    timed(recording, "_hand_row", "  hand's row (_hand_row)")
    timed(recording.HandBatch, "save", "batch saved")
    timed(recording, "rows_copy_values", "  hands COPY (rows_copy_values)")
    timed(recording, "rows_insert", "  seats INSERT (rows_insert)")
    timed(recording, "audit_record_many", "  audit INSERT (audit_record_many)")
    connection.ensure_connection()
    timed(connection, "commit", "commit")
    return phases


def peer(path: Path, count: int) -> tuple[float, float]:
    """(ours, pokerkit's) hands per second reading the first ``count`` hands' tables."""
    import warnings

    from pokerkit import HandHistory

    from tracker.engine import phh

    sections = []
    with path.open(encoding="utf-8") as text:
        for section in phh.iter_sections(iter(lambda: text.read(1 << 16), "")):
            sections.append(section.text)
            if len(sections) == count:
                break
    ours_rate = theirs_rate = 0.0
    for _ in range(3):  # interleaved rounds, the best of each: a busy machine slows both alike
        start = time.perf_counter()
        ours = sum(1 for _ in phh.stream_hands(sections))
        ours_rate = max(ours_rate, ours / (time.perf_counter() - start))
        start = time.perf_counter()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for body in sections:  # pokerkit reads a .phh: the table's fields at the top level
                HandHistory.loads(body.split("\n", 1)[1])
        theirs_rate = max(theirs_rate, len(sections) / (time.perf_counter() - start))
    return ours_rate, theirs_rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--peer", type=int, default=10_000)
    parser.add_argument("--child", nargs=2, metavar=("PATH", "HANDS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    db = BenchDatabase("homegame_imports_bench")
    if args.child:
        db.setup_django()
        child(args.child[0], int(args.child[1]))
        return
    project_on_path()
    print(f"load average {os.getloadavg()[0]:.1f}; database {db.url}")
    db.reset()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            for count in args.sizes:
                path = Path(tmp) / f"archive-{count}.phhs"
                start = time.perf_counter()
                archive_write(path, count)
                made = time.perf_counter() - start
                out = subprocess.run(
                    [sys.executable, __file__, "--child", str(path), str(count)],
                    cwd=ROOT,
                    env=db.env,
                    check=True,
                    capture_output=True,
                    text=True,
                )
                r = json.loads(out.stdout.strip().splitlines()[-1])
                whole = r["store"] + r["run"]
                print(
                    f"{count:>7} hands ({r['bytes'] / 2**20:.1f} MB, written in {made:.1f} s): "
                    f"store {count / r['store']:,.0f} hands/s, run {count / r['run']:,.0f} "
                    f"hands/s, whole {count / whole:,.0f} hands/s ({whole:.1f} s); "
                    f"peak memory {r['maxrss_kb'] / 1024:.0f} MB; "
                    f"load {os.getloadavg()[0]:.1f}"
                )
                tenth = count / 10
                print(
                    "  run by tenths of the archive, hands/s: "
                    + ", ".join(f"{tenth / t:,.0f}" for t in r["tenths"])
                )
                # CPU time follows the machine's load less than the wall clock does
                print(
                    f"  the run's CPU (this process, not the database server's): "
                    f"{sum(r['cpu_tenths']) / count * 1e6:,.0f} us a hand; by tenths: "
                    + ", ".join(f"{t / tenth * 1e6:,.0f}" for t in r["cpu_tenths"])
                )
                for line in out.stderr.splitlines():  # BENCH_PHASES
                    if line.startswith("phase "):
                        print("  " + line)
                if count == args.sizes[0] and args.peer:
                    ours, theirs = peer(path, min(args.peer, count))
                    print(
                        f"  reading {min(args.peer, count)} hands: ours {ours:,.0f} hands/s, "
                        f"pokerkit HandHistory.loads {theirs:,.0f} hands/s: "
                        f"{ours / theirs:.2f}x"
                    )
    finally:
        import psycopg

        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            conn.execute(f"DROP DATABASE IF EXISTS {db.name} WITH (FORCE)")


if __name__ == "__main__":
    main()
