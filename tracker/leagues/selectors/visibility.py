"""What a user may see: the leagues, nights, players and hands visible to them, and the
single objects of an address (NotFound when hidden: a private league does not exist for
outsiders)."""

from __future__ import annotations

from django.db import connection
from django.db.models import Q, QuerySet

from tracker.core import rows
from tracker.core.errors import NotFound
from tracker.core.permissions import roles_remember
from tracker.hands.models import Hand
from tracker.leagues.models import League, Membership, Player
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


# A tournament with its league and one user's roles in that league, written out: the hand POST
# reads them before it validates its body, and Django building the queryset with its league
# joined, then the roles' query, cost more than running them. One row per role (one with a
# NULL role when the user has none in the league).
_TOURNAMENT_FIELDS = rows.fields_named(Tournament)
_LEAGUE_FIELDS = rows.fields_named(League)
_WITH_ROLES_SQL = (
    "SELECT {t}, {lg}, m.{role} FROM {tournaments} t JOIN {leagues} lg ON lg.{league_pk} = "
    "t.{league} LEFT JOIN {memberships} m ON m.{member_league} = lg.{league_pk} "
    "AND m.{member_user} = %s WHERE t.{pk} = %s"
).format(
    t=rows.select_list("t", _TOURNAMENT_FIELDS),
    lg=rows.select_list("lg", _LEAGUE_FIELDS),
    role=rows.column(Membership, "role"),
    tournaments=rows.table(Tournament),
    leagues=rows.table(League),
    league_pk=rows.column(League, League._meta.pk.name),
    league=rows.column(Tournament, "league"),
    memberships=rows.table(Membership),
    member_league=rows.column(Membership, "league"),
    member_user=rows.column(Membership, "user"),
    pk=rows.column(Tournament, Tournament._meta.pk.name),
)


def tournament_with_roles(user, pk: int) -> Tournament | None:
    """The tournament ``pk`` with its league (read by id alone: whether ``user`` may see it
    is the caller's check), or None; in the same statement ``user``'s roles in its league,
    kept for the rest of a ``roles_remembered()`` block (the check that follows reads them
    from there, as ``roles_of`` would have read them)."""
    signed_in = user is not None and user.is_authenticated
    with connection.cursor() as cursor:
        cursor.execute(_WITH_ROLES_SQL, [user.pk if signed_in else None, pk])
        found = cursor.fetchall()
    if not found:
        return None
    n, m = len(_TOURNAMENT_FIELDS), len(_TOURNAMENT_FIELDS) + len(_LEAGUE_FIELDS)
    tournament = rows.instance(
        Tournament, _TOURNAMENT_FIELDS, rows.converters(_TOURNAMENT_FIELDS), found[0][:n]
    )
    league = rows.instance(League, _LEAGUE_FIELDS, rows.converters(_LEAGUE_FIELDS), found[0][n:m])
    Tournament._meta.get_field("league").set_cached_value(tournament, league)
    if signed_in:
        roles_remember(user, league, {row[m] for row in found if row[m] is not None})
    return tournament
