"""Counts and totals for the home and league pages: the leagues with their counts, a
user's roles, the league's latest nights and their winners."""

from __future__ import annotations

from django.db.models import Count, OuterRef, Q, QuerySet, Subquery
from django.db.models.functions import Coalesce

from tracker.core.permissions import Capabilities
from tracker.hands.models import Hand
from tracker.leagues.models import League, Membership
from tracker.leagues.selectors.visibility import leagues_visible_to
from tracker.tournaments.models import (
    FinalStanding,
    Seat,
    Tournament,
    TournamentStatus,
)


def leagues_with_counts(user) -> QuerySet[League]:
    """The leagues ``user`` may see, by name, with ``n_tournaments``, ``n_players`` and
    ``n_running`` (tournaments still running)."""
    return (
        leagues_visible_to(user)
        .annotate(
            n_tournaments=Count("tournaments", distinct=True),
            n_players=Count("players", distinct=True),
            n_running=Count(
                "tournaments",
                filter=Q(tournaments__status=TournamentStatus.RUNNING),
                distinct=True,
            ),
        )
        .order_by("name")
    )


def roles_by_league(user) -> dict[int, Capabilities]:
    """``user``'s roles in each league they belong to, by league id (as Capabilities:
    ``.roles``, ``.role`` in words, and what they allow)."""
    if user is None or not user.is_authenticated:
        return {}
    held: dict[int, set[str]] = {}
    for league_id, role in Membership.objects.filter(user=user).values_list("league_id", "role"):
        held.setdefault(league_id, set()).add(role)
    return {league_id: Capabilities.of_roles(roles) for league_id, roles in held.items()}


#: The league page lists the latest nights only (its cost does not grow with the history).
LEAGUE_PAGE_NIGHTS = 20


def league_tournaments(league: League, limit: int | None = None) -> list[Tournament]:
    """The league's tournaments (or the latest ``limit``), latest first, with ``n_hands``
    and ``n_players`` (counted per tournament listed, one query)."""
    rows = (
        Tournament.objects.filter(league=league)
        .annotate(n_hands=_count_per_night(Hand), n_players=_count_per_night(Seat))
        .order_by("-date", "-id")
    )
    return list(rows if limit is None else rows[:limit])


def _count_per_night(model) -> Coalesce:
    """How many rows of ``model`` (hands, seats) the tournament of the outer query has."""
    count = (
        model.objects.filter(tournament=OuterRef("pk"))
        .order_by()
        .values("tournament")
        .annotate(n=Count("id"))
        .values("n")
    )
    return Coalesce(Subquery(count), 0)


def league_tournament_count(league: League) -> int:
    return Tournament.objects.filter(league=league).count()


def tournament_winners(tournament_ids: list[int]) -> dict[int, list[str]]:
    """The winners (first place, shared or not) of finished tournaments, by tournament id,
    from their final standings (one query)."""
    out: dict[int, list[str]] = {}
    for tid, name in (
        FinalStanding.objects.filter(tournament_id__in=tournament_ids, place=1)
        .order_by("tournament_id", "player__name")
        .values_list("tournament_id", "player__name")
    ):
        out.setdefault(tid, []).append(name)
    return out
