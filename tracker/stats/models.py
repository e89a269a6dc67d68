"""Running totals of the statistics (tracker/stats/tally.py says what each counter is).

Two tables hold the same counters:

* :class:`MonthTally` -- per player, league, variant and calendar month: a season (a year,
  a quarter, a month: tracker/leagues/seasons.py) or all time is a sum over at most twelve
  rows a year per player and variant, whatever the number of hands; changing a league's
  season length needs no rebuild.
* :class:`TournamentTally` -- per player, tournament and variant (a night's statistics).

They are kept in step with the hand seats in the same transaction that changes them
(every such write -- settlement, rulings, re-evaluation, voids, the facts backfill, a
night's new date -- runs inside ``tracker.core.totals.totals_kept``, which ends in
``tracker.stats.services.stats_tallies_apply``), and ``manage.py rebuild_stats``
recomputes them from the seats. A row whose ``hands`` fall to 0 is deleted.
"""

from __future__ import annotations

from django.db import models

from tracker.leagues.models import League, Player
from tracker.tournaments.models import VARIANT_CHOICES, Tournament


class Tally(models.Model):
    """The counters (sums over settled hand seats), ``biggest`` a maximum."""

    hands = models.BigIntegerField(default=0)
    live = models.BigIntegerField(default=0)
    wild_hands = models.BigIntegerField(default=0)
    sd_won = models.BigIntegerField(default=0)
    net = models.BigIntegerField(default=0)
    chips_won = models.BigIntegerField(default=0)
    chips_lost = models.BigIntegerField(default=0)
    put_in = models.BigIntegerField(default=0)
    ai_won = models.BigIntegerField(default=0)
    full = models.BigIntegerField(default=0)
    vpip = models.BigIntegerField(default=0)
    bi = models.BigIntegerField(default=0)
    comp = models.BigIntegerField(default=0)
    r3 = models.BigIntegerField(default=0)
    bets = models.BigIntegerField(default=0)
    calls = models.BigIntegerField(default=0)
    st_try = models.BigIntegerField(default=0)
    steal = models.BigIntegerField(default=0)
    saw4 = models.BigIntegerField(default=0)
    saw5 = models.BigIntegerField(default=0)
    saw6 = models.BigIntegerField(default=0)
    saw7 = models.BigIntegerField(default=0)
    sd = models.BigIntegerField(default=0)
    wild = models.BigIntegerField(default=0)
    ai = models.BigIntegerField(default=0)
    cat_high_card = models.BigIntegerField(default=0)
    cat_one_pair = models.BigIntegerField(default=0)
    cat_two_pair = models.BigIntegerField(default=0)
    cat_three_of_a_kind = models.BigIntegerField(default=0)
    cat_straight = models.BigIntegerField(default=0)
    cat_flush = models.BigIntegerField(default=0)
    cat_full_house = models.BigIntegerField(default=0)
    cat_four_of_a_kind = models.BigIntegerField(default=0)
    cat_straight_flush = models.BigIntegerField(default=0)
    cat_five_of_a_kind = models.BigIntegerField(default=0)
    biggest = models.BigIntegerField(default=0)
    ev = models.FloatField(default=0.0)
    ev_var = models.FloatField(default=0.0)

    class Meta:
        abstract = True


class MonthTally(Tally):
    """One player's totals in one league, one variant and one calendar month."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="+")
    variant = models.CharField(max_length=32, choices=VARIANT_CHOICES)
    month = models.DateField()  # the first day of the month

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "variant", "month", "league"], name="month_tally_unique"
            )
        ]
        indexes = [models.Index(fields=["league", "month"], name="month_tally_league")]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.variant}, {self.month:%Y-%m}"


class TournamentTally(Tally):
    """One player's totals in one tournament and one variant."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    variant = models.CharField(max_length=32, choices=VARIANT_CHOICES)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player", "variant"], name="tournament_tally_unique"
            )
        ]
        indexes = [models.Index(fields=["player", "tournament"], name="tournament_tally_player")]

    def __str__(self) -> str:
        return f"{self.player_id} in {self.variant}, tournament {self.tournament_id}"
