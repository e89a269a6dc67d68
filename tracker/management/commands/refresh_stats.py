"""Recompute the per-seat facts the statistics are summed from (docs/analytics.md).

    python manage.py refresh_stats                      # rows missing, outdated or in error
    python manage.py refresh_stats --all                # every settled hand
    python manage.py refresh_stats --league friday --all
    python manage.py refresh_stats --tournament 12

Settlement writes the facts of every hand it settles; this command fills them
in for hands settled before, and after a change of ``FACTS_VERSION``.
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from tracker.engine.equity import SAMPLES
from tracker.leagues.models import League
from tracker.stats.services import stats_refresh


class Command(BaseCommand):
    help = "Recompute the per-seat facts behind the statistics (missing or outdated rows)."

    def add_arguments(self, parser):
        parser.add_argument("--league", help="only this league (slug)")
        parser.add_argument("--tournament", type=int, help="only this tournament (id)")
        parser.add_argument(
            "--all", action="store_true", help="every settled hand, not only outdated rows"
        )
        parser.add_argument("--batch", type=int, default=200, help="hands per transaction")
        parser.add_argument(
            "--samples",
            type=int,
            default=None,
            help=f"Monte Carlo runouts per all-in (default {SAMPLES})",
        )

    def handle(self, *args, **options):
        league = None
        if options["league"]:
            league = League.objects.filter(slug=options["league"]).first()
            if league is None:
                raise CommandError(f"no league with slug {options['league']!r}")
        start = time.perf_counter()

        def progress(done: int, total: int) -> None:
            if options["verbosity"] >= 2:
                self.stdout.write(f"  {done}/{total} hands")

        done = stats_refresh(
            league=league,
            tournament_id=options["tournament"],
            everything=options["all"],
            batch=options["batch"],
            samples=options["samples"],
            progress=progress,
        )
        self.stdout.write(
            f"refreshed the facts of {done} hand{'s' if done != 1 else ''} "
            f"in {time.perf_counter() - start:.1f} s"
        )
