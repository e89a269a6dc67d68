"""The definitions the running totals stand for: the same figures recomputed from the raw rows.

The pages and the API read the stored running totals (the statistics' ``MonthTally`` and
``TournamentTally``, the league table's ``StandingTally``; tracker/core/totals.py keeps them
in step). The tests and ``bench/scale.py`` compare them with these, which sum the rows
every time:

* :func:`stats_for` and :func:`stats_table` -- the statistics summed over hand seats (one
  aggregate query, ``seat_sums``: the counters of the running totals);
* :func:`league_standings_from_results` and :func:`league_standings_definition` -- the
  league table counted night by night from the final standings of the nights that count.
"""

from __future__ import annotations

from django.db.models import Avg, Count, F, Q, Sum

from tracker.engine.points import best_total, normalize_formula
from tracker.leagues.models import League
from tracker.leagues.seasons import Season
from tracker.leagues.selectors import LeagueResult, LeagueRow, counted_night_ids, league_results
from tracker.stats.selectors import Stats, seat_sums, stats_from_totals, stats_rows
from tracker.tournaments.models import FinalStanding
from tracker.tournaments.selectors import chips_bought


def stats_for(seats) -> Stats:
    """One set of statistics over ``seats`` (one aggregate query)."""
    return stats_from_totals(seats.aggregate(**seat_sums()))


def stats_table(seats, by: str = "player_id") -> list[Stats]:
    """Statistics per ``by`` (``player_id`` or ``hand__variant``) over ``seats`` (one query),
    ordered as the running totals' table (``tally_table``) orders them."""
    values = (by, "player__name") if by == "player_id" else (by,)
    return stats_rows(seats.values(*values).annotate(**seat_sums()).order_by(), by)


def league_points(league: League, results: list[LeagueResult]) -> dict[int, tuple[float, int]]:
    """Each player's season points and how many events count (the best N, or all)."""
    best = normalize_formula(league.points_formula or None)["best"]
    per_player: dict[int, list[float]] = {}
    for r in results:
        per_player.setdefault(r.player_id, []).append(r.points)
    return {pid: best_total(values, best) for pid, values in per_player.items()}


def league_standings_from_results(
    league: League, results: list[LeagueResult], season: Season | None = None
) -> list[LeagueRow]:
    """The standings night by night: ``results`` (``league_results`` of ``season``) give the
    points, one aggregate over the final standings of the nights that count the rest."""
    points = league_points(league, results)
    rows = (
        FinalStanding.objects.filter(
            tournament__league=league, tournament_id__in=counted_night_ids(league, season)
        )
        .annotate(bought=chips_bought())
        .values("player_id", "player__name")
        .annotate(
            events=Count("id"),
            wins=Count("id", filter=Q(place=1)),
            average_place=Avg("place"),
            net_chips=Sum(F("chips") - F("tournament__starting_chips") - F("bought")),
        )
    )
    out = [
        LeagueRow(
            player_id=r["player_id"],
            name=r["player__name"],
            events=r["events"],
            wins=r["wins"],
            average_place=round(float(r["average_place"]), 2),
            net_chips=int(r["net_chips"]),
            points=points.get(r["player_id"], (0.0, 0))[0],
            counted=points.get(r["player_id"], (0.0, 0))[1],
        )
        for r in rows
    ]
    out.sort(key=lambda r: (-r.points, -r.wins, r.average_place, -r.net_chips, r.name))
    return out


def league_standings_definition(league: League, season: Season | None = None) -> list[LeagueRow]:
    """The standings of ``season`` (all time when None) night by night: the rows the league
    table (``league_table``) reads from its running totals."""
    return league_standings_from_results(league, league_results(league, season), season)
