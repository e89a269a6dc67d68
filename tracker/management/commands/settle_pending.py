"""Enqueue settlement for every tournament with hands still waiting (a safety net after an outage)."""

from django.core.management.base import BaseCommand

from tracker.hands.models import Hand, HandStatus
from tracker.hands.tasks import tournament_settle_task


class Command(BaseCommand):
    help = "Enqueue settlement of every tournament that has recorded hands not yet settled."

    def handle(self, *args, **options):
        ids = sorted(
            set(
                Hand.objects.filter(status=HandStatus.RECORDED).values_list(
                    "tournament_id", flat=True
                )
            )
        )
        for tid in ids:
            tournament_settle_task.delay(tid)
        self.stdout.write(f"enqueued settlement of {len(ids)} tournament(s)")
