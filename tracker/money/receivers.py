"""The money's answers to what the tournaments package tells (tracker/tournaments/signals.py):
a night's final standings written (it ended, or a ruling moved chips of a finished night)
post its results to the league's ledger, inside the same transaction."""

from __future__ import annotations

from django.dispatch import receiver

from tracker.money.ledger_services import ledger_night_post
from tracker.tournaments.signals import final_standings_written


@receiver(final_standings_written, dispatch_uid="money.ledger_night_post")
def post_night_results(sender, *, tournament, cause: str = "", **kwargs) -> None:
    ledger_night_post(tournament=tournament, cause=cause)
