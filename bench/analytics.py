"""Statistics pages against PostgreSQL: a league of 200 tournaments of 50 hands (10,000 hands).

    .venv/bin/python bench/analytics.py [--tournaments 200] [--hands 50] [--keep]

Creates its own database (``homegame_analytics_bench``, or BENCH_DB, on BENCH_PG, default
postgres://postgres@127.0.0.1:5432; bench/_common.py), seeds a league through the services in-process --
hand_record, then settlement (which writes the per-seat facts, all-in equities
included), as the worker would -- four players a night out of twelve, 5,000 chips each
so that most nights last their 50 hands, 70 % full
histories dealt and bet by the engine's own state machine and 30 % quick entries, every
variant. Then, at 1/2, 3/4 and all of the tournaments, it times (median of 7, through
Django's test client, so templates and middleware count):

* the league table page (standings with points, the points chart),
* the league statistics page (every player side by side),
* the player page of the player with the most hands (every statistic, two charts,
  the all-in hands),
* the player statistics endpoint of the API,

with their query counts, and prints the cost per extra 1,000 hands (the slope between
the first and the last checkpoint). Last, the backfill (``refresh_stats --all``) rate.
The database is dropped at the end unless ``--keep``.
"""

from __future__ import annotations

import argparse
import random
import time

from _common import BenchDatabase, measure

DB = BenchDatabase("homegame_analytics_bench")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tournaments", type=int, default=200)
    parser.add_argument("--hands", type=int, default=50, help="hands per tournament (at most)")
    parser.add_argument("--keep", action="store_true", help="keep the database")
    args = parser.parse_args()

    print(f"database {DB.url}")
    DB.reset()
    DB.setup_django()
    from django.db import transaction
    from django.db.models import Count
    from django.test import Client

    from tests.factories import make_user
    from tests.stats.seed import play
    from tracker.hands.models import Hand, HandSeat
    from tracker.leagues.models import Player
    from tracker.leagues.services import league_create, player_create
    from tracker.stats.services import stats_refresh
    from tracker.tournaments.services import tournament_create

    user = make_user("bench")
    league = league_create(name="Bench league", slug="bench", created_by=user)
    roster = [player_create(league=league, name=f"Player {i + 1}", by=user) for i in range(12)]
    client = Client()
    rng = random.Random(2026)
    checkpoints = sorted({args.tournaments // 2, (3 * args.tournaments) // 4, args.tournaments})
    rows = []
    print(
        f"\nSeeding {args.tournaments} tournaments x up to {args.hands} hands through the services "
        "(record, settle, facts) ...",
        flush=True,
    )
    start = time.perf_counter()
    seeded = 0
    for k in range(args.tournaments):
        seated = [roster[(k * 5 + j) % len(roster)] for j in range(4)]
        with transaction.atomic():
            t = tournament_create(
                league=league,
                name=f"Night {k + 1}",
                player_ids=[p.id for p in seated],
                by=user,
                starting_chips=5000,  # deep stacks: most nights last the 50 hands
            )
        seeded += play(t, user, rng, hands=args.hands, fold_p=0.3, raise_choices=(0.05, 0.15, 0.3))
        if (k + 1) % 20 == 0:
            elapsed = time.perf_counter() - start
            print(
                f"  {k + 1}/{args.tournaments} tournaments, {seeded} hands "
                f"({elapsed:.0f} s, {seeded / elapsed:.1f} hands/s)",
                flush=True,
            )
        if k + 1 in checkpoints:
            hands = Hand.objects.filter(tournament__league=league).count()
            top = (
                Player.objects.filter(league=league)
                .annotate(n=Count("hand_seats"))
                .order_by("-n")
                .first()
            )
            urls = {
                "league table page": f"/leagues/{league.slug}/table/",
                "league statistics page": f"/leagues/{league.slug}/stats/",
                f"player page ({top.n} hands)": f"/players/{top.pk}/stats/",
                "player statistics API": f"/api/v1/analytics/players/{top.pk}/stats/",
            }
            for label, url in urls.items():
                ms, queries, size = measure(client, url)
                rows.append((k + 1, hands, label.split(" (")[0], label, ms, queries, size))
    elapsed = time.perf_counter() - start
    total = Hand.objects.filter(tournament__league=league).count()
    allins = HandSeat.objects.filter(facts__ai=1).values("hand_id").distinct().count()
    print(
        f"  seeded {total} hands ({Hand.objects.filter(entry_mode='full').count()} full histories, "
        f"{allins} with an all-in before the last card) in {elapsed:.0f} s"
    )

    print("\nPage times (median of 7 requests, Django test client, PostgreSQL):")
    print(f"  {'tournaments':>11} {'hands':>7}  {'page':<34} {'ms':>8} {'queries':>8} {'KB':>6}")
    for n_t, hands, _, label, ms, queries, size in rows:
        print(f"  {n_t:>11} {hands:>7}  {label:<34} {ms:>8.1f} {queries:>8} {size / 1024:>6.0f}")
    print("\nCost per extra 1,000 hands (slope from the first to the last checkpoint):")
    kinds = []
    for row in rows:
        if row[2] not in kinds:
            kinds.append(row[2])
    for kind in kinds:
        mine = [r for r in rows if r[2] == kind]
        first, last = mine[0], mine[-1]
        if last[1] > first[1]:
            slope = (last[4] - first[4]) / ((last[1] - first[1]) / 1000)
            print(
                f"  {kind:<26} {slope:+7.2f} ms per 1,000 hands "
                f"({first[4]:.1f} ms at {first[1]} hands -> {last[4]:.1f} ms at {last[1]})"
            )

    start = time.perf_counter()
    done = stats_refresh(league=league, everything=True, batch=500)
    elapsed = time.perf_counter() - start
    print(
        f"\nBackfill (refresh_stats --all): {done} hands in {elapsed:.1f} s "
        f"({done / elapsed:.0f} hands/s, Monte Carlo all-ins included)"
    )
    if args.keep:
        print(f"kept database {DB.name}")
    else:
        DB.drop()
        print(f"dropped database {DB.name}")


if __name__ == "__main__":
    main()
