"""Seasons: the one season resolver, the league's seasons, and which finished nights
count toward a season's standings."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.db.models import Q, QuerySet

from tracker.engine.errors import Code, DomainError
from tracker.leagues.models import League
from tracker.leagues.seasons import Season, season_from_key, season_of, seasons_between
from tracker.tournaments.models import Tournament

ALL_TIME = season_of("all", dt.date(2000, 1, 1))


#: What an empty ``?season=`` means: the season today falls in, or all time.
CURRENT, ALL = "current", "all"


def league_season(
    league: League,
    key: str | None = None,
    *,
    default: str = CURRENT,
    today: dt.date | None = None,
) -> Season:
    """The one season resolver of the league table, the league statistics, their CSVs and
    the API: the season ``key`` names in the league's season length (``"all"``: all time).
    No key: ``default`` (:data:`CURRENT`, the season ``today`` falls in, or :data:`ALL`,
    all time); every page and endpoint passes :data:`CURRENT`, so a user switching between
    the league table and the league statistics sees the same season. A key that is not one
    of the league's is a DomainError (``invalid_season``, field ``season``): the pages
    answer 404, the API 400."""
    if not key:
        if default == ALL:
            return ALL_TIME
        if default != CURRENT:
            raise ValueError(f"default is {CURRENT!r} or {ALL!r}, not {default!r}")
        return season_of(league.season_length, today or dt.date.today())
    if key == ALL_TIME.key:
        return ALL_TIME
    try:
        return season_from_key(league.season_length, key)
    except ValueError as exc:
        raise DomainError(str(exc), code=Code.INVALID_SEASON, field="season") from None


def league_seasons(league: League, today: dt.date | None = None) -> list[Season]:
    """The league's seasons, newest first, from its first night's to today's (the season
    picker's list; all time last, unless the league has one season for all time)."""
    today = today or dt.date.today()
    first = Tournament.objects.filter(league=league).order_by("date").values_list("date").first()
    start = min(first[0], today) if first else today
    seasons = seasons_between(league.season_length, start, today)
    return seasons if league.season_length == ALL_TIME.key else [*seasons, ALL_TIME]


@dataclass(frozen=True)
class SeasonNight:
    """A finished night of a season, and whether it counts toward the standings."""

    tournament_id: int
    name: str
    date: dt.date
    players: int
    counts: bool
    reason: str  # why it does not count ("" when it does)


def _in_season(season: Season | None) -> Q:
    """The nights (tournaments) of ``season``: all when None or all time."""
    if season is None or season.start is None:
        return Q()
    return Q(date__gte=season.start, date__lte=season.end)


def season_nights(
    league: League, season: Season | None = None, *, left_out_only: bool = False
) -> list[SeasonNight]:
    """The league's finished nights in ``season`` (all when None), in playing order, each
    with whether it counts: switched off (a friendly night), or fewer players than the
    league's minimum, and it does not. ``left_out_only``: only those that do not count (the
    all-time table lists no more). One query over the tournaments alone, on the (league,
    date) index: a night's players are its stored ``entrants`` (0 until it is finished),
    so no final standing is read."""
    nights = Tournament.objects.filter(Q(league=league, entrants__gt=0) & _in_season(season))
    if left_out_only:
        nights = nights.filter(
            Q(counts_toward_standings=False) | Q(entrants__lt=max(league.min_players, 1))
        )
    out = []
    for tid, name, date, counts, players in nights.order_by("date", "id").values_list(
        "id", "name", "date", "counts_toward_standings", "entrants"
    ):
        if not counts:
            reason = "a friendly night: switched off"
        elif players < league.min_players:
            reason = f"{players} players, fewer than the league's {league.min_players}"
        else:
            reason = ""
        out.append(
            SeasonNight(
                tournament_id=tid,
                name=name,
                date=date,
                players=players,
                counts=not reason,
                reason=reason,
            )
        )
    return out


def _counted(league: League, season: Season | None) -> QuerySet:
    """The ids of the finished nights that count toward ``season`` (a subquery, no query of
    its own): switched on, with at least the league's minimum of players (their stored
    ``entrants``; no final standing is counted)."""
    return Tournament.objects.filter(
        Q(
            league=league,
            counts_toward_standings=True,
            entrants__gte=max(league.min_players, 1),
        )
        & _in_season(season)
    ).values("id")


def counted_night_ids(league: League, season: Season | None = None) -> QuerySet:
    """The ids of the finished nights that count toward ``season``'s standings, as a
    subquery (the money columns of the league table read the same nights)."""
    return _counted(league, season)
