"""Recompute the running totals from the facts (docs/analytics.md): the statistics' from the
hand seats, the league table's (and each night's ``entrants``) from the final standings.

    python manage.py rebuild_stats                  # every league
    python manage.py rebuild_stats --league friday

Settlement, rulings, re-evaluation, voids and ``refresh_stats`` keep the totals in step
(and every write of final standings, a night's date or its "counts toward the standings"
switch keeps the league table's)
as they go; this command rebuilds them from the per-seat facts (after an upgrade that adds
them, or to check them: the statistics read the same before and after).
"""

from __future__ import annotations

import time

from django.core.management.base import BaseCommand, CommandError

from tracker.leagues.models import League
from tracker.stats.services import stats_tallies_rebuild
from tracker.tournaments.services import standings_tallies_rebuild


class Command(BaseCommand):
    help = (
        "Recompute the statistics' running totals (per month and per tournament) from the "
        "seats, and the league table's (per month and place) and each night's entrants from the "
        "final standings."
    )

    def add_arguments(self, parser):
        parser.add_argument("--league", help="only this league (slug)")

    def handle(self, *args, **options):
        league = None
        if options["league"]:
            league = League.objects.filter(slug=options["league"]).first()
            if league is None:
                raise CommandError(f"no league with slug {options['league']!r}")
        start = time.perf_counter()
        months, nights = stats_tallies_rebuild(league=league)
        places = standings_tallies_rebuild(league=league)
        self.stdout.write(
            f"rebuilt {months} month rows, {nights} tournament rows and {places} standings rows "
            f"in {time.perf_counter() - start:.1f} s"
        )
