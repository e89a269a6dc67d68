"""What a user may see: the leagues, nights, players and hands visible to them, and the
single objects of an address (NotFound when hidden: a private league does not exist for
outsiders)."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from tracker.core.errors import NotFound
from tracker.hands.models import Hand
from tracker.leagues.models import League, Player
from tracker.tournaments.models import Tournament


def leagues_visible_to(user) -> QuerySet[League]:
    """Public leagues, and the private ones the user is a member of."""
    if user is not None and user.is_authenticated:
        return League.objects.filter(Q(is_public=True) | Q(memberships__user=user)).distinct()
    return League.objects.filter(is_public=True)


def tournaments_visible_to(user) -> QuerySet[Tournament]:
    return Tournament.objects.filter(league__in=leagues_visible_to(user))


def players_visible_to(user) -> QuerySet[Player]:
    return Player.objects.filter(league__in=leagues_visible_to(user))


def visible_league(user, slug: str) -> League:
    """The league of address ``slug`` if ``user`` may see it; NotFound otherwise (the one
    lookup of a league by its slug: the pages, the API and the presenters ask it)."""
    league = leagues_visible_to(user).filter(slug=slug).first()
    if league is None:
        raise NotFound("No such league.")
    return league


def _in_visible_league(model, user, pk: int, what: str):
    """The row ``pk`` of ``model`` (a model with a ``league``), with its league, if ``user``
    may see that league; NotFound ("No such ``what``.") otherwise."""
    row = (
        model.objects.select_related("league")
        .filter(pk=pk, league__in=leagues_visible_to(user))
        .first()
    )
    if row is None:
        raise NotFound(f"No such {what}.")
    return row


def visible_tournament(user, pk: int) -> Tournament:
    return _in_visible_league(Tournament, user, pk, "tournament")


def visible_player(user, pk: int) -> Player:
    return _in_visible_league(Player, user, pk, "player")


def visible_hand(user, pk: int, *, hands: QuerySet[Hand] | None = None) -> Hand:
    """The hand ``pk`` if ``user`` may see its league, read from ``hands`` (all hands unless
    given, e.g. annotated), with its tournament and league; NotFound otherwise."""
    hand = (
        (Hand.objects.all() if hands is None else hands)
        .select_related("tournament", "tournament__league")
        .filter(pk=pk, tournament__league__in=leagues_visible_to(user))
        .first()
    )
    if hand is None:
        raise NotFound("No such hand.")
    return hand
