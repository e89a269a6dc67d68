"""Export hands as PHH: one hand (.phh), a tournament or a league (.phhs)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tracker.engine.errors import Refusal
from tracker.hands.models import Hand
from tracker.interchange.selectors.export import export_hand, export_league, export_tournament
from tracker.leagues.models import League
from tracker.tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Write hands as PHH to standard output or a file: --hand ID (.phh), --tournament ID "
        "or --league SLUG (.phhs). Quick-entry hands have no action history: they are left "
        "out of a .phhs (a comment at the top lists them)."
    )

    def add_arguments(self, parser):
        which = parser.add_mutually_exclusive_group(required=True)
        which.add_argument("--hand", type=int, help="a hand id")
        which.add_argument("--tournament", type=int, help="a tournament id")
        which.add_argument("--league", help="a league slug")
        parser.add_argument("-o", "--output", help="write to this file (default: standard output)")

    def handle(self, *args, **options):
        try:
            if options["hand"] is not None:
                hand = Hand.objects.filter(pk=options["hand"]).first()
                if hand is None:
                    raise CommandError(f"no hand {options['hand']}")
                export = export_hand(hand)
            elif options["tournament"] is not None:
                t = Tournament.objects.select_related("league").filter(pk=options["tournament"])
                if not t.exists():
                    raise CommandError(f"no tournament {options['tournament']}")
                export = export_tournament(t.get())
            else:
                league = League.objects.filter(slug=options["league"]).first()
                if league is None:
                    raise CommandError(f"no league {options['league']!r}")
                export = export_league(league)
        except Refusal as exc:
            raise CommandError(exc.message) from exc
        if options["output"]:
            Path(options["output"]).write_text(export.text, encoding="utf-8")
        else:
            self.stdout.write(export.text, ending="")
        note = f"{export.hands} hand{'' if export.hands == 1 else 's'}"
        if export.left_out:
            note += f"; {len(export.left_out)} quick-entry hand(s) left out"
        self.stderr.style_func = None
        self.stderr.write(f"{note}{' to ' + options['output'] if options['output'] else ''}")
