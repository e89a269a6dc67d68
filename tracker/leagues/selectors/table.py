"""The league table: final places with points, and the standings of a season (read from
the stored running totals)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection

from tracker.core import rows
from tracker.engine.points import (
    best_total,
    normalize_formula,
    shared_place_points,
    tournament_points,
)
from tracker.leagues.models import League, Player
from tracker.leagues.seasons import Season
from tracker.leagues.selectors.seasons import _counted
from tracker.tournaments.models import (
    FinalStanding,
    StandingTally,
)


@dataclass(frozen=True)
class LeagueRow:
    player_id: int
    name: str
    events: int
    wins: int
    average_place: float
    net_chips: int
    points: float = 0.0  # by the league's points formula (tracker/engine/points.py)
    counted: int = 0  # events counted in the points (all, or the best N)


@dataclass(frozen=True)
class LeagueResult:
    """One player's final place in one finished tournament of a league."""

    tournament_id: int
    tournament: str
    date: object
    player_id: int
    place: int
    entrants: int
    points: float


def league_results(league: League, season: Season | None = None) -> list[LeagueResult]:
    """Every final place of the league's finished tournaments that count toward ``season``'s
    standings (all seasons when None; switched on, with at least the league's minimum of
    players), in playing order, with the points the league's formula gives it (one query)."""
    rows = list(
        FinalStanding.objects.filter(
            tournament__league=league, tournament_id__in=_counted(league, season)
        )
        .order_by("tournament__date", "tournament_id", "place")
        .values_list("tournament_id", "tournament__name", "tournament__date", "player_id", "place")
    )
    places: dict[int, dict[int, int]] = {}
    for tid, _, _, pid, place in rows:
        places.setdefault(tid, {})[pid] = place
    spec = league.points_formula or None
    points = {tid: tournament_points(spec, by_player) for tid, by_player in places.items()}
    return [
        LeagueResult(tid, name, date, pid, place, len(places[tid]), points[tid][pid])
        for tid, name, date, pid, place in rows
    ]


@dataclass(frozen=True)
class LeagueTable:
    """A season's standings and how many nights count toward them."""

    rows: list[LeagueRow]
    nights: int


def league_table(league: League, season: Season | None = None) -> LeagueTable:
    """The standings of ``season`` (all time when None or the all-time season) and how many
    nights count, in one query over the league table's running totals
    (``tracker.tournaments.models.StandingTally``): at most one row per player, month,
    place, entrants and players sharing the place, whatever the number of nights. The
    league's minimum of players is applied here (``entrants``), a season sums its months.

    A formula's points depend on (place, entrants, sharing) alone
    (``shared_place_points``), so each group is scored once; a player's best N are the N
    highest values, each repeated as often as it was scored. The same rows as the standings
    counted night by night from the final standings (the definition the tests and the bench
    compare it with, tests/support/definitions.py), to the last hundredth. Ordered by points,
    then wins, average place (lower is better) and net chips.
    """
    params: list = [league.pk, max(league.min_players, 1)]
    in_season = ""
    if season is not None and season.start is not None:
        in_season = "AND st.month BETWEEN %s AND %s"
        params += [season.start, season.end]
    # Plain SQL: the statement is the same on every request, and building it with the ORM
    # cost more than running it.
    sql = f"""
        SELECT st.player_id, p.name, st.place, st.entrants, st.sharing,
               SUM(st.nights), SUM(st.net_chips)
        FROM {rows.table(StandingTally)} st
        JOIN {rows.table(Player)} p ON p.id = st.player_id
        WHERE st.league_id = %s AND st.entrants >= %s {in_season}
        GROUP BY st.player_id, p.name, st.place, st.entrants, st.sharing
    """
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        keys = ("player_id", "player__name", "place", "entrants", "sharing", "n", "net")
        groups = [dict(zip(keys, row, strict=True)) for row in cursor.fetchall()]
    spec = normalize_formula(league.points_formula or None)
    scored: dict[tuple[int, int, int], float] = {}
    players: dict[int, dict] = {}
    firsts: dict[int, int] = {}  # winners by how many shared first place (m per night)
    for g in groups:
        key = (g["place"], g["entrants"], g["sharing"])
        if key not in scored:
            scored[key] = shared_place_points(spec, entrants=key[1], place=key[0], sharing=key[2])
        p = players.setdefault(
            g["player_id"],
            {"name": g["player__name"], "events": 0, "wins": 0, "places": 0, "net": 0, "pts": []},
        )
        n = int(g["n"])
        p["events"] += n
        if g["place"] == 1:
            p["wins"] += n
            firsts[g["sharing"]] = firsts.get(g["sharing"], 0) + n
        p["places"] += g["place"] * n
        p["net"] += int(g["net"])
        p["pts"].append((scored[key], n))
    out = []
    for pid, p in players.items():
        values: list[float] = []
        for value, n in sorted(p["pts"], reverse=True):
            if spec["best"] is not None and len(values) >= spec["best"]:
                break
            values.extend([value] * n)
        total, counted = best_total(values, spec["best"])
        out.append(
            LeagueRow(
                player_id=pid,
                name=p["name"],
                events=p["events"],
                wins=p["wins"],
                average_place=round(p["places"] / p["events"], 2),
                net_chips=p["net"],
                points=total,
                counted=counted,
            )
        )
    out.sort(key=lambda r: (-r.points, -r.wins, r.average_place, -r.net_chips, r.name))
    return LeagueTable(rows=out, nights=sum(n // m for m, n in firsts.items()))


def league_standings(league: League, season: Season | None = None) -> list[LeagueRow]:
    """Players of a league over its finished nights that count toward ``season``'s standings
    (all time when None): points, events, wins, average place, net chips
    (:func:`league_table`, one query)."""
    return league_table(league, season).rows
