"""Reads about leagues: what a user may see, standings with points, and the counts and totals
the league and player pages show."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import connection
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce

from tracker.accounts.selectors import token_digest
from tracker.core.errors import NotFound
from tracker.core.permissions import Capabilities, Capability, roles_with
from tracker.engine.errors import DomainError
from tracker.engine.points import (
    best_total,
    normalize_formula,
    shared_place_points,
    tournament_points,
)
from tracker.hands.models import Hand, HandSeat
from tracker.leagues.models import CalendarFeed, Invite, League, Membership, Player
from tracker.leagues.seasons import Season, season_from_key, season_of, seasons_between
from tracker.tournaments.models import (
    FinalStanding,
    LedgerEntry,
    LedgerKind,
    Seat,
    StandingTally,
    Tournament,
    TournamentStatus,
)
from tracker.tournaments.selectors import BOUGHT_KINDS


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


# --------------------------------------------------------------------------
# Seasons: which finished nights count toward a season's standings

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
        raise DomainError(str(exc), code="invalid_season", field="season") from None


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
        FROM {StandingTally._meta.db_table} st
        JOIN {Player._meta.db_table} p ON p.id = st.player_id
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


# Single objects, visible to ``user`` or NotFound (a private league does not exist for outsiders).


def visible_league(user, slug: str) -> League:
    league = leagues_visible_to(user).filter(slug=slug).first()
    if league is None:
        raise NotFound("No such league.")
    return league


def visible_tournament(user, pk: int) -> Tournament:
    tournament = (
        Tournament.objects.select_related("league")
        .filter(pk=pk, league__in=leagues_visible_to(user))
        .first()
    )
    if tournament is None:
        raise NotFound("No such tournament.")
    return tournament


def visible_player(user, pk: int) -> Player:
    player = (
        Player.objects.select_related("league")
        .filter(pk=pk, league__in=leagues_visible_to(user))
        .first()
    )
    if player is None:
        raise NotFound("No such player.")
    return player


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


# --------------------------------------------------------------------------
# Counts and totals for the home, league and player pages


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
    count_hands = (
        Hand.objects.filter(tournament=OuterRef("pk"))
        .order_by()
        .values("tournament")
        .annotate(n=Count("id"))
        .values("n")
    )
    count_seats = (
        Seat.objects.filter(tournament=OuterRef("pk"))
        .order_by()
        .values("tournament")
        .annotate(n=Count("id"))
        .values("n")
    )
    rows = (
        Tournament.objects.filter(league=league)
        .annotate(
            n_hands=Coalesce(Subquery(count_hands), 0), n_players=Coalesce(Subquery(count_seats), 0)
        )
        .order_by("-date", "-id")
    )
    return list(rows if limit is None else rows[:limit])


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


@dataclass
class PlayerHandTotals:
    hands_played: int
    hands_won: int
    showdowns: int
    net: int


def player_hand_totals(player: Player) -> PlayerHandTotals:
    seats = HandSeat.objects.filter(player=player)
    net = (
        LedgerEntry.objects.filter(player=player)
        .exclude(kind__in=(LedgerKind.START, *BOUGHT_KINDS))
        .aggregate(s=Sum("amount"))["s"]
        or 0
    )
    return PlayerHandTotals(
        hands_played=seats.count(),
        hands_won=seats.filter(won__gt=0).count(),
        # Cards are stored for the players who reached a showdown (not for a walk).
        showdowns=seats.filter(folded_street__isnull=True).exclude(down=[]).count(),
        net=net,
    )


def player_chips_bought(player: Player) -> dict[int, int]:
    """The chips ``player`` bought with rebuys and add-ons (less those undone), by night id
    (one query): net chips leave them out."""
    return dict(
        LedgerEntry.objects.filter(player=player, kind__in=BOUGHT_KINDS)
        .order_by()
        .values("tournament_id")
        .annotate(s=Sum("amount"))
        .values_list("tournament_id", "s")
    )


def player_seats(player: Player) -> QuerySet[Seat]:
    """The player's seats, latest tournament first, with ``n_players`` (the field)."""
    return (
        Seat.objects.filter(player=player)
        .select_related("tournament")
        .annotate(n_players=Count("tournament__seats", distinct=True))
        .order_by("-tournament__date", "-tournament_id")
    )


def player_recent_hands(player: Player, limit: int = 15) -> list[HandSeat]:
    return list(
        HandSeat.objects.filter(player=player)
        .select_related("hand", "hand__tournament")
        .order_by("-hand__recorded_at", "-hand_id")[:limit]
    )


def player_tournaments(player: Player, limit: int | None = None) -> list[Tournament]:
    """Every tournament the player sat in (or the latest ``limit``), latest first (a player
    has one seat per tournament and belongs to one league)."""
    # The league's nights read backwards on the (league, date) index, each checked for the
    # player's seat, until ``limit`` are found: no sort of every night the player sat in.
    rows = (
        Tournament.objects.filter(league_id=player.league_id)
        .filter(Exists(Seat.objects.filter(tournament=OuterRef("pk"), player=player)))
        .order_by("-date", "-id")
    )
    return list(rows if limit is None else rows[:limit])


# --------------------------------------------------------------------------
# Members, roster and invites (the league's people pages)


@dataclass(frozen=True)
class MemberRow:
    user_id: int
    username: str
    roles: tuple[str, ...]  # in display order (admin, authority, scorekeeper, member)
    player: str | None  # the roster name linked to this account, if any


def league_members(league: League) -> list[MemberRow]:
    """Every account with a role in ``league``, by username, with all its roles (two queries)."""
    held: dict[int, set[str]] = {}
    names: dict[int, str] = {}
    for user_id, username, role in Membership.objects.filter(league=league).values_list(
        "user_id", "user__username", "role"
    ):
        held.setdefault(user_id, set()).add(role)
        names[user_id] = username
    players = dict(
        Player.objects.filter(league=league, user_id__in=held).values_list("user_id", "name")
    )
    rows = [
        MemberRow(uid, names[uid], Capabilities.of_roles(roles).roles, players.get(uid))
        for uid, roles in held.items()
    ]
    return sorted(rows, key=lambda r: r.username.casefold())


def league_players_without_role(league: League) -> list[MemberRow]:
    """The accounts linked to a player of ``league`` that hold no role there, by username
    (one query): an admin may give them a role directly (``league_accounts``)."""
    rows = (
        Player.objects.filter(league=league, user__isnull=False)
        .exclude(Exists(Membership.objects.filter(league=league, user=OuterRef("user"))))
        .values_list("user_id", "user__username", "name")
    )
    return sorted(
        (MemberRow(uid, username, (), name) for uid, username, name in rows),
        key=lambda r: r.username.casefold(),
    )


def league_accounts(league: League) -> QuerySet:
    """The accounts related to ``league``: those holding a role there and those linked to one
    of its players. Only they may be given a role directly; anyone else comes in through an
    invite, which they accept themselves."""
    User = get_user_model()
    return User.objects.filter(
        Q(Exists(Membership.objects.filter(league=league, user=OuterRef("pk"))))
        | Q(Exists(Player.objects.filter(league=league, user=OuterRef("pk"))))
    )


def league_account(league: League, *, pk: object = None, username: object = None):
    """The account related to ``league`` (``league_accounts``) with id ``pk`` or username
    ``username`` (exactly, else ignoring case when that names one account), or None: for an
    account that does not exist and for one that has nothing to do with the league alike, so
    the answer tells an admin nothing about accounts outside their league."""
    accounts = league_accounts(league)
    if pk is not None:
        if isinstance(pk, bool) or not isinstance(pk, int):
            return None
        return accounts.filter(pk=pk).first()
    if not isinstance(username, str) or not username.strip():
        return None
    field = get_user_model().USERNAME_FIELD
    exact = accounts.filter(**{field: username}).first()
    if exact is not None:
        return exact
    folded = list(accounts.filter(**{f"{field}__iexact": username.strip()})[:2])
    return folded[0] if len(folded) == 1 else None


def league_roster(league: League) -> list[Player]:
    """The league's players by name, with their linked account (``user``) if any (who can
    be seated at a new game night)."""
    return list(Player.objects.filter(league=league).select_related("user").order_by("name", "pk"))


def league_invites(league: League) -> list[Invite]:
    """The league's invites, newest first, with who made them."""
    return list(
        Invite.objects.filter(league=league).select_related("created_by").order_by("-created_at")
    )


def invites_managed_by(user) -> QuerySet[Invite]:
    """The invites of every league where ``user`` may manage members (its admins), newest
    first, with their league and who made them; none for an anonymous visitor."""
    if user is None or not user.is_authenticated:
        return Invite.objects.none()
    managed = Membership.objects.filter(
        user=user, role__in=roles_with(Capability.MANAGE_MEMBERS)
    ).values("league_id")
    return (
        Invite.objects.filter(league_id__in=managed)
        .select_related("league", "created_by")
        .order_by("-created_at", "-id")
    )


def invite_by_token(token: str) -> Invite:
    """The invite of a link (any state), with its league; NotFound for an unknown token.
    Looked up by the token's digest: the token itself is not stored."""
    invite = (
        Invite.objects.select_related("league", "created_by")
        .filter(digest=token_digest(token or ""))
        .first()
    )
    if invite is None:
        raise NotFound("No such invite.")
    return invite


# --------------------------------------------------------------------------
# The league's calendar


def calendar_feed_open(token: str) -> CalendarFeed:
    """The working calendar feed link ``token`` names, with its league; NotFound when no
    link has that token (made up, changed) or it was revoked."""
    feed = (
        CalendarFeed.objects.select_related("league")
        .filter(digest=token_digest(token or ""), revoked_at__isnull=True)
        .first()
    )
    if feed is None:
        raise NotFound("No such calendar.")
    return feed


def league_calendar_feeds(league: League) -> list[CalendarFeed]:
    """The league's calendar feed links, newest first (revoked ones too)."""
    return list(league.calendar_feeds.order_by("-created_at", "-id"))


def league_calendar_feed(league: League, pk: object) -> CalendarFeed:
    feed = league.calendar_feeds.filter(pk=pk).first() if str(pk).isdigit() else None
    if feed is None:
        raise NotFound("No such calendar link.")
    feed.league = league
    return feed


def league_nights(league: League, *, limit: int = 500) -> list[Tournament]:
    """The league's game nights for its calendar, latest first (at most ``limit``)."""
    return list(
        Tournament.objects.filter(league=league)
        .order_by("-date", "-id")
        .only("id", "name", "date", "status", "created_at", "finished_at", "league_id")[:limit]
    )
