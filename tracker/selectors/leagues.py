"""Reads about leagues: what a user may see."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Avg, Count, F, Q, QuerySet, Sum

from tracker.models import FinalStanding, League, Player, Tournament


def leagues_visible_to(user) -> QuerySet[League]:
    """Public leagues, and the private ones the user is a member of."""
    if user is not None and user.is_authenticated:
        return League.objects.filter(Q(is_public=True) | Q(memberships__user=user)).distinct()
    return League.objects.filter(is_public=True)


def tournaments_visible_to(user) -> QuerySet[Tournament]:
    return Tournament.objects.filter(league__in=leagues_visible_to(user))


def players_visible_to(user) -> QuerySet[Player]:
    return Player.objects.filter(league__in=leagues_visible_to(user))


@dataclass(frozen=True)
class LeagueRow:
    player_id: int
    name: str
    events: int
    wins: int
    average_place: float
    net_chips: int


def league_standings(league: League) -> list[LeagueRow]:
    """Players of a league over its finished tournaments: events, wins, average place, net chips.

    One aggregate query over the stored final standings, whatever the number of tournaments.
    Ordered by wins, then average place (lower is better), then net chips.
    """
    rows = (
        FinalStanding.objects.filter(tournament__league=league)
        .values("player_id", "player__name")
        .annotate(
            events=Count("id"),
            wins=Count("id", filter=Q(place=1)),
            average_place=Avg("place"),
            net_chips=Sum(F("chips") - F("tournament__starting_chips")),
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
        )
        for r in rows
    ]
    out.sort(key=lambda r: (-r.wins, r.average_place, -r.net_chips, r.name))
    return out
