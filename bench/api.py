"""Benchmark the recording pipeline against PostgreSQL, Redis and a real Celery worker.

    .venv/bin/python bench/api.py [--hands 60] [--tournaments 200]

Prints, from one run:
- hands recorded per second over HTTP (gunicorn) with 1 and 8 concurrent clients, with
  p50/p95 latency, next to a peer measured on the same stack in the same run: the
  cheapest authenticated write of the API (creating a player), so the ratio shows what
  checking a hand with the engine costs on top of the framework's own floor; twice: a
  client reading the tournament before each hand (GET+POST), and one reading it once and
  then following the ``next_hand`` of each POST's answer (POST);
- hands settled per second by one worker (the queue is filled first, then drained);
- the time of a league's standings (selector and HTTP) for a league of ``--tournaments``
  finished tournaments of 50 hands each, seeded through the services.

Needs PostgreSQL (BENCH_PG, default postgres://postgres@127.0.0.1:5432) and Redis
(BENCH_REDIS, default redis://127.0.0.1:6379/13). It creates and drops its own database
(BENCH_DB, default homegame_bench).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from _common import folded_tournament_seed

ROOT = Path(__file__).resolve().parent.parent
PG = os.environ.get("BENCH_PG", "postgres://postgres@127.0.0.1:5432")
REDIS = os.environ.get("BENCH_REDIS", "redis://127.0.0.1:6379/13")
DB = os.environ.get("BENCH_DB", "homegame_bench")
PORT = int(os.environ.get("BENCH_PORT", "8765"))
ONE_CLIENT = 3  # tournaments the single client records, one after the other

ENV = {
    **os.environ,
    "DATABASE_URL": f"{PG}/{DB}",
    "CELERY_BROKER_URL": REDIS,
    "CELERY_RESULT_BACKEND": REDIS,
    "SECRET_KEY": "bench-only",
    "DEBUG": "false",
    "ALLOWED_HOSTS": "127.0.0.1,localhost",
    "API_WRITE_RATE": "1000000/min",
    "LOG_LEVEL": "WARNING",
    "DJANGO_SETTINGS_MODULE": "homegame.settings",
    "PYTHONWARNINGS": "ignore",
}
LOG = ROOT / "bench" / "api-run.log"


def sh(*args: str, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=ROOT, env=ENV, check=True, **kwargs)


def reset_database() -> None:
    import psycopg

    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {DB} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {DB}")
    sh(sys.executable, "manage.py", "migrate", "--noinput", "-v", "0")


def django_setup() -> None:
    os.environ.update(ENV)
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


class Client:
    def __init__(self, token: str) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    def call(self, method: str, path: str, body: dict | None = None) -> tuple[int, dict, float]:
        start = time.perf_counter()
        self.conn.request(
            method, path, body=json.dumps(body) if body else None, headers=self.headers
        )
        response = self.conn.getresponse()
        data = json.loads(response.read() or b"null")
        return response.status, data, time.perf_counter() - start


def fold_entry(nxt: dict, tournament: int) -> dict:
    """The hand ``nxt`` (a ``next_hand``) where everyone folds to the bring-in."""
    stakes = nxt["stakes"]
    players = nxt["players"]
    seats = [{"player": players[0], "put_in": stakes["ante"] + stakes["bring_in"]}]
    seats += [{"player": p, "put_in": stakes["ante"], "folded": "third"} for p in players[1:]]
    return {
        "tournament": tournament,
        "number": nxt["number"],
        "entry_mode": "quick",
        "entry": {"seats": seats},
    }


def run_clients(
    token: str, jobs: list, hands: int, *, read_each: bool
) -> tuple[list[float], float]:
    """Each job (a client) records ``hands`` hands into each of its tournaments, one after the
    other; returns the POSTs' latencies
    and the wall time. ``read_each``: the client reads the tournament before every hand (the
    way before the POST answered with the next hand), else once, then follows each answer's
    ``next_hand``."""
    latencies: list[float] = []
    lock = threading.Lock()
    errors: list[str] = []

    def work(job: list[int]) -> None:
        client = Client(token)
        mine = []
        for tournament in job:
            nxt = None
            for _ in range(hands):
                if read_each or nxt is None:
                    status, detail, _ = client.call("GET", f"/api/v1/tournaments/{tournament}/")
                    nxt = detail["next_hand"]
                status, data, elapsed = client.call(
                    "POST", "/api/v1/hands/", fold_entry(nxt, tournament)
                )
                if status != 201:
                    errors.append(f"{status}: {data}")
                    return
                nxt = data["next_hand"]
                mine.append(elapsed)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=work, args=(job,)) for job in jobs]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - start
    if errors:
        raise SystemExit(f"recording failed: {errors[0]}")
    return latencies, wall


def run_peer(token: str, league: str, clients: int, writes: int) -> tuple[list[float], float]:
    latencies: list[float] = []
    lock = threading.Lock()

    def work(k: int) -> None:
        client = Client(token)
        mine = []
        for i in range(writes):
            status, data, elapsed = client.call(
                "POST", "/api/v1/players/", {"league": league, "name": f"peer-{clients}-{k}-{i}"}
            )
            assert status == 201, data
            mine.append(elapsed)
        with lock:
            latencies.extend(mine)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(clients)]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return latencies, time.perf_counter() - start


def report(label: str, latencies: list[float], wall: float) -> float:
    rate = len(latencies) / wall
    print(
        f"  {label:<44} {rate:8.1f}/s   p50 {1000 * statistics.median(latencies):6.1f} ms"
        f"   p95 {1000 * percentile(latencies, 0.95):6.1f} ms   (n={len(latencies)})"
    )
    return rate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=40, help="hands per client")
    parser.add_argument(
        "--tournaments", type=int, default=200, help="tournaments in the league bench"
    )
    args = parser.parse_args()

    print(f"database {PG}/{DB}, broker {REDIS}")
    reset_database()
    django_setup()
    from django.contrib.auth import get_user_model

    from homegame.celery import app as celery_app
    from tracker.accounts.services import api_token_create
    from tracker.leagues.services import league_create, player_create
    from tracker.tournaments.services import tournament_create

    subprocess.run(["redis-cli", "-u", REDIS, "flushdb"], check=False, capture_output=True)
    user = get_user_model().objects.create_user("bench", password="bench-only")
    token = api_token_create(user=user, label="bench")[1]
    league = league_create(name="Bench", slug="bench", created_by=user)
    players = [player_create(league=league, name=f"P{i}", by=user) for i in range(24)]
    # One client records ONE_CLIENT tournaments one after the other (more POSTs, so the p95
    # is not decided by two requests); eight clients record one tournament each.
    tournaments = []
    for k in range(2 * (ONE_CLIENT + 8)):
        trio = players[3 * (k % 8) : 3 * (k % 8) + 3]
        t = tournament_create(
            league=league,
            name=f"T{k}",
            player_ids=[p.id for p in trio],
            by=user,
            hand_limit=50,
            default_variant="seven_card_stud",
        )
        tournaments.append(t.pk)
    one_old, eight_old = [tournaments[:ONE_CLIENT]], [[t] for t in tournaments[ONE_CLIENT:][:8]]
    rest = tournaments[ONE_CLIENT + 8 :]
    one_new, eight_new = [rest[:ONE_CLIENT]], [[t] for t in rest[ONE_CLIENT:]]

    log = LOG.open("w")
    print(f"server and worker output: {LOG}")
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "homegame.wsgi",
            "--bind",
            f"127.0.0.1:{PORT}",
            "--workers",
            "4",
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env=ENV,
        start_new_session=True,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    worker = None
    try:
        for _ in range(100):
            try:
                conn = http.client.HTTPConnection("127.0.0.1", PORT, timeout=2)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                time.sleep(0.2)
        else:
            raise SystemExit("the web server did not come up")
        hands = min(args.hands, 50)
        print(
            f"\nRecording over HTTP (gunicorn, 4 processes; worker stopped, tasks queue in Redis); "
            f"{hands} hands per tournament, {ONE_CLIENT} tournaments for the single client"
        )
        print(
            "  'GET+POST': the client reads the tournament before each hand (as before the POST\n"
            "  answered with the next hand); 'POST': it reads it once, then follows next_hand.\n"
            "  The rate counts every request of a hand; latencies are the POSTs'."
        )
        olat1, owall1 = run_clients(token, one_old, hands, read_each=True)
        old1 = report("ours GET+POST: record a hand, 1 client", olat1, owall1)
        lat1, wall1 = run_clients(token, one_new, hands, read_each=False)
        ours1 = report("ours POST: record a hand, 1 client", lat1, wall1)
        plat1, pwall1 = run_peer(token, "bench", 1, ONE_CLIENT * hands)
        peer1 = report("peer: create a player, 1 client", plat1, pwall1)
        olat8, owall8 = run_clients(token, eight_old, hands, read_each=True)
        old8 = report("ours GET+POST: record a hand, 8 clients", olat8, owall8)
        lat8, wall8 = run_clients(token, eight_new, hands, read_each=False)
        ours8 = report("ours POST: record a hand, 8 clients", lat8, wall8)
        plat8, pwall8 = run_peer(token, "bench", 8, hands)
        peer8 = report("peer: create a player, 8 clients", plat8, pwall8)
        for label, one, eight, lat_one, lat_eight in (
            ("GET+POST", old1, old8, olat1, olat8),
            ("POST", ours1, ours8, lat1, lat8),
        ):
            p95 = [percentile(x, 0.95) for x in (lat_one, plat1, lat_eight, plat8)]
            print(
                f"  ratio ours {label}/peer: {one / peer1:.2f} (1 client), "
                f"{eight / peer8:.2f} (8 clients); p95 {p95[0] / p95[1]:.2f}x the peer's "
                f"(1 client), {p95[2] / p95[3]:.2f}x (8 clients)"
            )

        from tracker.hands.models import Hand, HandStatus

        pending = Hand.objects.filter(status=HandStatus.RECORDED).count()
        print(f"\nSettling {pending} queued hands with one worker (concurrency 1)")
        worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "homegame",
                "worker",
                "--concurrency=1",
                "--without-gossip",
                "--without-mingle",
                "--loglevel=WARNING",
                "-n",
                "bench@%h",
            ],
            cwd=ROOT,
            env=ENV,
            start_new_session=True,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        start = time.perf_counter()
        first = None
        while True:
            left = Hand.objects.filter(status=HandStatus.RECORDED).count()
            if first is None and left < pending:
                first = time.perf_counter()
            if left == 0:
                break
            if time.perf_counter() - start > 600:
                raise SystemExit("the worker did not settle the queue in 10 minutes")
            time.sleep(0.05)
        done = time.perf_counter()
        busy = done - (first or start)
        print(
            f"  {pending} hands settled in {busy:.2f} s after the first (start-up {((first or start) - start):.2f} s):"
            f" {pending / busy:.1f} hands/s"
        )
    finally:
        for proc in (server, worker):
            if proc is not None and proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                proc.wait(timeout=20)

    # League standings over many finished tournaments, seeded through the services in-process.
    celery_app.conf.task_always_eager = True
    from django.db import connection, reset_queries
    from django.test.utils import CaptureQueriesContext

    from tracker.leagues.selectors.table import league_standings

    # Three-player nights: the league's minimum of players must let them count.
    big = league_create(name="Big league", slug="big-league", min_players=3, created_by=user)
    roster = [player_create(league=big, name=f"L{i}", by=user) for i in range(12)]
    print(
        f"\nSeeding {args.tournaments} tournaments x 50 hands through the services ...", flush=True
    )
    start = time.perf_counter()
    for k in range(args.tournaments):
        folded_tournament_seed(
            league=big,
            name=f"N{k}",
            players=[roster[(k + j) % len(roster)] for j in range(3)],
            by=user,
            hands=50,
            turn=k,
        )
        if (k + 1) % 20 == 0:
            print(
                f"  {k + 1}/{args.tournaments} tournaments ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
    hands = Hand.objects.filter(tournament__league=big).count()
    print(
        f"  seeded {hands} hands in {time.perf_counter() - start:.1f} s "
        f"({hands / (time.perf_counter() - start):.1f} hands/s recorded and settled in-process)"
    )
    reset_queries()
    timings = []
    with CaptureQueriesContext(connection) as queries:
        for _ in range(5):
            t0 = time.perf_counter()
            rows = league_standings(big)
            timings.append(time.perf_counter() - t0)
    if not rows:
        raise SystemExit("the league standings are empty: no seeded night counted")
    print(
        f"  league standings ({len(rows)} players, {args.tournaments} tournaments, {hands} hands): "
        f"median {1000 * statistics.median(timings):.1f} ms, {len(queries) // 5} query per call"
    )


if __name__ == "__main__":
    main()
