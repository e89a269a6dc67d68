"""Load the demo league. Idempotent: running it again changes nothing."""

from django.core.management.base import BaseCommand

from tracker.demo.services import demo_seed


class Command(BaseCommand):
    help = "Create the demo league, its players and game nights (safe to run again)."

    def handle(self, *args, **options):
        report = demo_seed()
        for line in report:
            self.stdout.write(line)
