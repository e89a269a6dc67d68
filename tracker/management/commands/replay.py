"""Replay PHH hand histories (.phh or .phhs) and print one JSON line per hand."""

import json
import sys
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tracker.engine.errors import DomainError
from tracker.engine.phh import replay_text


class Command(BaseCommand):
    help = (
        "Replay the hands of a PHH file (or '-' for standard input) against the stud "
        'procedure. Prints per hand {"ok": true, ...settlement} or {"ok": false, '
        '"error": {...}}; exits non-zero if any hand was rejected.'
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "file", nargs="?", default="-", help="a .phh/.phhs file, or - (default)"
        )
        parser.add_argument(
            "--max-players",
            type=int,
            default=None,
            help="override the variant's player limit (e.g. 8 for foreign stud histories)",
        )

    def handle(self, *args, **options):
        name = options["file"]
        if name == "-":
            text, source = sys.stdin.read(), "<stdin>"
        else:
            try:
                text, source = Path(name).read_text(encoding="utf-8"), name
            except OSError as exc:
                raise CommandError(f"cannot read {name}: {exc.strerror}") from exc
        rejected = total = 0
        try:
            for line in replay_text(text, source=source, max_players=options["max_players"]):
                total += 1
                rejected += not line["ok"]
                self.stdout.write(json.dumps(line, ensure_ascii=False))
        except DomainError as exc:
            raise CommandError(str(exc)) from exc
        if rejected:
            raise CommandError(f"{rejected} of {total} hand(s) rejected")
