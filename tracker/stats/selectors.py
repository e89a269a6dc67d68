"""Player statistics from the per-seat facts (docs/analytics.md defines each one).

Every statistic is a sum over ``HandSeat`` rows of settled hands: ``seat_sums`` is that sum
as one aggregate query, whose counters are those of the running totals (the rebuild uses it;
the definition the tests compare the running totals with, tests/support/definitions.py,
too). The pages and the API read the figures from the running totals (``tally_stats``,
``tally_table`` over ``month_tallies`` or ``tournament_tallies``: tracker/stats/models.py),
a bounded number of rows whatever the number of hands. The facts are written at settlement (tracker/engine/facts.py).

Scopes: a tournament, a league (every player of it), a variant, and *all time*
(a player's every hand; a person linked to a user account who plays in several
leagues has one player per league, and "all time" adds up those the viewer may
see).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import (
    Case,
    Count,
    F,
    FloatField,
    IntegerField,
    Max,
    Min,
    Q,
    QuerySet,
    Sum,
    When,
)
from django.db.models.fields.json import KT
from django.db.models.functions import Cast, TruncMonth

from tracker.core import rows
from tracker.core.errors import NotFound
from tracker.engine.announcements import VARIANT_TITLES, VARIANTS
from tracker.engine.hands import CATEGORIES
from tracker.hands.models import SETTLED, HandSeat
from tracker.leagues.models import League, Player
from tracker.leagues.seasons import Season, seasons_between
from tracker.leagues.selectors.visibility import leagues_visible_to
from tracker.stats.models import MonthTally, TournamentTally
from tracker.stats.tally import (
    CATEGORY_COUNTERS,
    FACT_COUNTERS,
    FLOAT_COUNTERS,
    INT_COUNTERS,
    MAX_COUNTER,
    seat_tally,
)
from tracker.tournaments.models import Tournament

CATEGORY_ORDER = tuple(reversed(CATEGORIES))  # five of a kind first


def _pct(part: float, whole: float) -> float | None:
    return None if not whole else round(100.0 * part / whole, 1)


def _ratio(part: float, whole: float, digits: int = 2) -> float | None:
    return None if not whole else round(part / whole, digits)


@dataclass
class Stats:
    """The statistics of one player (or one row of a table) over a scope."""

    key: Any = None  # player id, or variant for a by-variant table
    label: str = ""
    hands: int = 0
    full_hands: int = 0
    live_hands: int = 0  # full histories logged live at the table (a recorded draft)
    vpip: int = 0
    bring_ins: int = 0
    completions: int = 0
    raises3: int = 0
    bets: int = 0
    calls: int = 0
    steal_tries: int = 0
    steals: int = 0
    saw: dict[int, int] = field(default_factory=dict)  # street 4..7 -> hands
    showdowns: int = 0
    showdowns_won: int = 0
    wild_cards: int = 0
    wild_hands: int = 0
    net: int = 0
    chips_won: int = 0
    chips_lost: int = 0
    put_in: int = 0
    biggest_pot: int = 0
    allin_hands: int = 0
    allin_expected: float = 0.0
    allin_actual: int = 0
    allin_error: float = 0.0  # standard error of allin_expected (Monte Carlo only)
    categories: dict[str, int] = field(default_factory=dict)

    # -- rates (None when there is nothing to divide by) ----------------------

    @property
    def quick_hands(self) -> int:
        return self.hands - self.full_hands

    @property
    def vpip_pct(self) -> float | None:
        return _pct(self.vpip, self.full_hands)

    @property
    def complete_pct(self) -> float | None:
        return _pct(self.completions, self.full_hands)

    @property
    def raise3_pct(self) -> float | None:
        return _pct(self.raises3, self.full_hands)

    @property
    def aggression(self) -> float | None:
        return _ratio(self.bets, self.calls)

    @property
    def saw_pct(self) -> dict[int, float | None]:
        return {s: _pct(self.saw.get(s, 0), self.hands) for s in (4, 5, 6, 7)}

    @property
    def wtsd_pct(self) -> float | None:
        return _pct(self.showdowns, self.saw.get(4, 0))

    @property
    def wsd_pct(self) -> float | None:
        return _pct(self.showdowns_won, self.showdowns)

    @property
    def net_per_hand(self) -> float | None:
        return _ratio(self.net, self.hands, 1)

    @property
    def won_per_hand(self) -> float | None:
        return _ratio(self.chips_won, self.hands, 1)

    @property
    def lost_per_hand(self) -> float | None:
        return _ratio(self.chips_lost, self.hands, 1)

    @property
    def wild_per_hand(self) -> float | None:
        return _ratio(self.wild_cards, self.wild_hands)

    @property
    def steal_pct(self) -> float | None:
        return _pct(self.steals, self.steal_tries)

    @property
    def luck(self) -> float:
        return round(self.allin_actual - self.allin_expected, 1)

    @property
    def five_of_a_kind(self) -> int:
        return self.categories.get("five_of_a_kind", 0)

    @property
    def category_rows(self) -> list[tuple[str, int, float | None]]:
        """(category, showdowns, percent of showdowns with a high hand), best first."""
        total = sum(self.categories.values())
        return [
            (c.replace("_", " "), self.categories[c], _pct(self.categories[c], total))
            for c in CATEGORY_ORDER
            if self.categories.get(c)
        ]

    def as_row(self) -> dict[str, Any]:
        """A flat, JSON- and CSV-ready dict of every statistic."""
        saw = self.saw_pct
        return {
            "hands": self.hands,
            "full_hands": self.full_hands,
            "quick_hands": self.quick_hands,
            "live_hands": self.live_hands,
            "vpip_pct": self.vpip_pct,
            "complete_pct": self.complete_pct,
            "raise3_pct": self.raise3_pct,
            "aggression": self.aggression,
            "bets_raises": self.bets,
            "calls": self.calls,
            "saw4_pct": saw[4],
            "saw5_pct": saw[5],
            "saw6_pct": saw[6],
            "saw7_pct": saw[7],
            "showdowns": self.showdowns,
            "wtsd_pct": self.wtsd_pct,
            "showdowns_won": self.showdowns_won,
            "wsd_pct": self.wsd_pct,
            "net": self.net,
            "net_per_hand": self.net_per_hand,
            "chips_won": self.chips_won,
            "chips_lost": self.chips_lost,
            "won_per_hand": self.won_per_hand,
            "lost_per_hand": self.lost_per_hand,
            "biggest_pot": self.biggest_pot,
            "five_of_a_kind": self.five_of_a_kind,
            "wild_per_hand": self.wild_per_hand,
            "bring_ins": self.bring_ins,
            "steal_tries": self.steal_tries,
            "steals": self.steals,
            "allin_hands": self.allin_hands,
            "allin_expected": round(self.allin_expected, 1),
            "allin_actual": self.allin_actual,
            "luck": self.luck,
            "luck_error": round(self.allin_error, 1),
            "categories": {c: self.categories[c] for c in CATEGORY_ORDER if c in self.categories},
        }


def _fact(key: str):
    return Sum(Cast(KT(f"facts__{key}"), IntegerField()))


def settled_seats(
    *,
    players: list[int] | None = None,
    league: League | None = None,
    tournament: Tournament | None = None,
    variant: str | None = None,
):
    """The hand seats a scope sums over: settled hands only."""
    seats = HandSeat.objects.filter(hand__status__in=SETTLED, won__isnull=False)
    if players is not None:
        seats = seats.filter(player_id__in=players)
    if league is not None:
        seats = seats.filter(hand__tournament__league=league)
    if tournament is not None:
        seats = seats.filter(hand__tournament=tournament)
    if variant:
        seats = seats.filter(hand__variant=variant)
    return seats


def stats_rows(rows, by: str) -> list[Stats]:
    """One :class:`Stats` per grouped row of summed counters: by player (labelled with the
    name, the best net first) or by variant (labelled with its title, in the order of
    VARIANTS)."""
    out = []
    for r in rows:
        key = r[by]
        label = r["player__name"] if by == "player_id" else VARIANT_TITLES.get(key, key)
        out.append(stats_from_totals(r, key, label))
    if by == "player_id":
        out.sort(key=lambda s: (-s.net, s.label.lower()))
    else:
        order = {v: k for k, v in enumerate(VARIANTS)}
        out.sort(key=lambda s: order.get(s.key, 99))
    return out


# --------------------------------------------------------------------------
# Scopes the pages and the API use (visibility checked here)


@dataclass
class Scope:
    """What a player's statistics cover: ``kind`` is all, tournament or variant."""

    kind: str = "all"
    tournament: Tournament | None = None
    variant: str | None = None
    players: list[int] = field(default_factory=list)  # the player rows summed

    @property
    def title(self) -> str:
        if self.tournament is not None:
            return self.tournament.name
        if self.variant:
            return VARIANT_TITLES.get(self.variant, self.variant)
        return "All time"


def player_scope(
    user, player: Player, *, tournament: int | str | None = None, variant: str | None = None
) -> Scope:
    """The scope asked for in a query string, checked: an unknown tournament or variant
    is a NotFound, a tournament of another league too."""
    scope = Scope(players=[player.pk])
    if variant:
        if variant not in VARIANTS:
            raise NotFound(f"No such game: {variant!r}.")
        scope.kind, scope.variant = "variant", variant
    if tournament not in (None, ""):
        try:
            tid = int(tournament)
        except (TypeError, ValueError):
            raise NotFound("No such tournament.") from None
        t = Tournament.objects.filter(pk=tid, league_id=player.league_id).first()
        if t is None:
            raise NotFound("No such tournament.")
        scope.kind, scope.tournament = "tournament", t
    if scope.kind == "all" and player.user_id is not None:
        scope.players = list(
            Player.objects.filter(
                user_id=player.user_id, league__in=leagues_visible_to(user)
            ).values_list("id", flat=True)
        ) or [player.pk]
    return scope


def scope_seats(scope: Scope):
    return settled_seats(players=scope.players, tournament=scope.tournament, variant=scope.variant)


@dataclass
class HandPoint:
    """One settled hand of a player, for charts and the all-in list."""

    hand_id: int
    tournament_id: int
    tournament: str
    date: Any
    number: int
    variant: str
    net: int
    won: int
    allin: bool
    expected: float | None
    equity: float | None
    street: int | None
    error: float | None
    method: str | None

    @property
    def luck(self) -> float | None:
        return None if self.expected is None else round(self.won - self.expected, 1)


def player_hands(scope: Scope) -> list[HandPoint]:
    """Every settled hand of the scope in playing order (one query)."""
    return _hand_points(
        scope_seats(scope).order_by("hand__tournament__date", "hand__tournament_id", "hand__number")
    )


def _hand_points(seats) -> list[HandPoint]:
    rows = seats.values_list(
        "hand_id",
        "hand__tournament_id",
        "hand__tournament__name",
        "hand__tournament__date",
        "hand__number",
        "hand__variant",
        "won",
        "contributed",
        KT("facts__ai"),
        KT("facts__ev"),
        KT("facts__eq"),
        KT("facts__ai_st"),
        KT("facts__ai_se"),
        KT("facts__ai_m"),
    )
    out = []
    for hid, tid, tname, date, number, variant, won, put, ai, ev, eq, st, se, m in rows:
        allin = ai is not None and str(ai) == "1"
        out.append(
            HandPoint(
                hand_id=hid,
                tournament_id=tid,
                tournament=tname,
                date=date,
                number=number,
                variant=variant,
                net=won - put,
                won=won,
                allin=allin,
                expected=float(ev) if allin and ev is not None else None,
                equity=float(eq) if allin and eq is not None else None,
                street=int(st) if allin and st is not None else None,
                error=float(se) if allin and se is not None else None,
                method=m if allin else None,
            )
        )
    return out


# --------------------------------------------------------------------------
# Exports


def flat_row(stats: Stats, **lead: Any) -> dict[str, Any]:
    """``stats`` as one flat dict (categories as ``cat_<name>`` columns), after ``lead``."""
    row = stats.as_row()
    cats = row.pop("categories")
    row.update({f"cat_{c}": cats.get(c, 0) for c in CATEGORY_ORDER})
    return {**lead, **row}


def tournament_hand_rows(tournament: Tournament) -> list[dict[str, Any]]:
    """One row per player per settled hand of a tournament (one query)."""
    rows = (
        settled_seats(tournament=tournament)
        .order_by("hand__number", "position")
        .values_list(
            "hand__number",
            "hand__variant",
            "hand__level",
            "hand__entry_mode",
            "hand__status",
            "player__name",
            "player_id",
            "position",
            "starting_stack",
            "contributed",
            "won",
            "folded_street",
            "facts",
        )
    )
    out = []
    for number, variant, level, mode, status, name, pid, pos, stack, put, won, folded, f in rows:
        f = f or {}
        out.append(
            {
                "hand": number,
                "variant": variant,
                "level": level,
                "entry": mode,
                "status": status,
                "player": name,
                "player_id": pid,
                "position": pos,
                "starting_stack": stack,
                "put_in": put,
                "won": won,
                "net": won - put,
                "folded_street": folded,
                "showdown": f.get("sd"),
                "category": f.get("cat"),
                "wild_cards": f.get("wild"),
                "vpip": f.get("vpip"),
                "all_in_street": f.get("ai_st"),
                "equity": f.get("eq"),
                "expected": f.get("ev"),
                "luck": None if f.get("ev") is None else round(won - f["ev"], 2),
            }
        )
    return out


def player_hand_rows(points: list[HandPoint]) -> list[dict[str, Any]]:
    return [
        {
            "tournament": p.tournament,
            "tournament_id": p.tournament_id,
            "date": p.date.isoformat() if p.date else None,
            "hand": p.number,
            "variant": p.variant,
            "won": p.won,
            "net": p.net,
            "all_in_street": p.street,
            "equity": p.equity,
            "expected": p.expected,
            "luck": p.luck,
            "luck_error": p.error,
            "method": p.method,
        }
        for p in points
    ]


# --------------------------------------------------------------------------
# Running totals (tracker/stats/models.py): what the pages read. A league's statistics
# sum at most one row per player, variant and month; a tournament's one per player and
# variant -- however many hands were played.


def _tally_sums() -> dict[str, Any]:
    sums: dict[str, Any] = {k: Sum(k) for k in INT_COUNTERS + FLOAT_COUNTERS}
    sums[MAX_COUNTER] = Max(MAX_COUNTER)
    return sums


def stats_from_totals(totals: dict[str, Any], key: Any = None, label: str = "") -> Stats:
    """A :class:`Stats` from summed counters (tracker/stats/tally.py names them): the running
    totals' sums (:func:`tally_stats`) or the seats' (:func:`seat_sums`)."""

    def g(name: str) -> int:
        return int(totals.get(name) or 0)

    return Stats(
        key=key,
        label=label,
        hands=g("hands"),
        full_hands=g("full"),
        live_hands=g("live"),
        vpip=g("vpip"),
        bring_ins=g("bi"),
        completions=g("comp"),
        raises3=g("r3"),
        bets=g("bets"),
        calls=g("calls"),
        steal_tries=g("st_try"),
        steals=g("steal"),
        saw={s: g(f"saw{s}") for s in (4, 5, 6, 7)},
        showdowns=g("sd"),
        showdowns_won=g("sd_won"),
        wild_cards=g("wild"),
        wild_hands=g("wild_hands"),
        net=g("net"),
        chips_won=g("chips_won"),
        chips_lost=g("chips_lost"),
        put_in=g("put_in"),
        biggest_pot=g(MAX_COUNTER),
        allin_hands=g("ai"),
        allin_expected=float(totals.get("ev") or 0.0),
        allin_actual=g("ai_won"),
        # running sums of floats: a subtraction may leave a hair below zero
        allin_error=max(0.0, float(totals.get("ev_var") or 0.0)) ** 0.5,
        categories={c[4:]: g(c) for c in CATEGORY_COUNTERS if g(c)},
    )


def month_tallies(
    *,
    players: list[int] | None = None,
    league: League | None = None,
    variant: str | None = None,
    season: Season | None = None,
) -> QuerySet[MonthTally]:
    """The month rows of a scope: some players, a league, a variant, a season."""
    rows = MonthTally.objects.all()
    if players is not None:
        rows = rows.filter(player_id__in=players)
    if league is not None:
        rows = rows.filter(league=league)
    if variant:
        rows = rows.filter(variant=variant)
    if season is not None and season.start is not None:
        rows = rows.filter(month__gte=season.start, month__lte=season.end)
    return rows


def tournament_tallies(
    *,
    tournament: Tournament | None = None,
    players: list[int] | None = None,
    variant: str | None = None,
) -> QuerySet[TournamentTally]:
    """The tournament rows of a scope: a tournament, some players, a variant."""
    rows = TournamentTally.objects.all()
    if tournament is not None:
        rows = rows.filter(tournament=tournament)
    if players is not None:
        rows = rows.filter(player_id__in=players)
    if variant:
        rows = rows.filter(variant=variant)
    return rows


def stats_seasons(league: League) -> list[Season]:
    """The seasons of the league's length that hold settled hands, newest first (one query
    over the month rows); none for a league with one season for all time."""
    if league.season_length == "all":
        return []
    span = MonthTally.objects.filter(league=league).aggregate(first=Min("month"), last=Max("month"))
    if span["first"] is None:
        return []
    return seasons_between(league.season_length, span["first"], span["last"])


def tally_stats(tallies: QuerySet) -> Stats:
    """One set of statistics over running-total rows (one query)."""
    return stats_from_totals(tallies.aggregate(**_tally_sums()))


def tally_table(tallies: QuerySet, by: str = "player_id") -> list[Stats]:
    """Statistics per ``by`` (``player_id`` or ``variant``) over running-total rows (one query),
    ordered as :func:`stats_rows` orders them."""
    values = (by, "player__name") if by == "player_id" else (by,)
    return stats_rows(tallies.values(*values).annotate(**_tally_sums()).order_by(), by)


def house_game_rows(scope: Scope) -> list[Stats]:
    """The scope's house hands by house game (the game, whatever its version), labelled
    with its name, by name: one query over the scope's settled house seats (the running
    totals keep house hands together under the variant ``house``)."""
    seats = settled_seats(players=scope.players, tournament=scope.tournament, variant="house")
    rows = seats.values(game=F("hand__game_version__game__name")).annotate(**seat_sums()).order_by()
    out = [stats_from_totals(r, "house", r["game"] or "House game") for r in rows]
    return sorted(out, key=lambda s: s.label.lower())


def scope_tallies(scope: Scope, *, variant: str | None = None) -> QuerySet:
    """The running-total rows of a player's scope (a tournament's rows, or the months')."""
    variant = variant or scope.variant
    if scope.tournament is not None:
        return tournament_tallies(
            tournament=scope.tournament, players=scope.players, variant=variant
        )
    return month_tallies(players=scope.players, variant=variant)


@dataclass(frozen=True)
class MonthPoint:
    """One month of a player's scope, for the charts of long histories."""

    month: Any
    hands: int
    net: int
    allin_hands: int
    luck: float


def scope_months(scope: Scope) -> list[MonthPoint]:
    """A player's scope month by month, oldest first (one query, a row per month)."""
    rows = (
        scope_tallies(scope)
        .values("month")
        .annotate(n=Sum("hands"), net=Sum("net"), ai=Sum("ai"), ai_won=Sum("ai_won"), ev=Sum("ev"))
        .order_by("month")
    )
    return [
        MonthPoint(
            r["month"],
            r["n"] or 0,
            r["net"] or 0,
            r["ai"] or 0,
            (r["ai_won"] or 0) - (r["ev"] or 0),
        )
        for r in rows
    ]


def player_allins(scope: Scope, limit: int = 25) -> list[HandPoint]:
    """The scope's last ``limit`` all-in hands recorded, latest first (one query: the index
    of the all-in seats read backwards, ``limit`` rows whatever the history); in one
    tournament, by hand number."""
    seats = scope_seats(scope).filter(facts__ai=1)
    if scope.tournament is not None:
        return _hand_points(seats.order_by("-hand__number")[:limit])
    return _hand_points(seats.order_by("-hand_id")[:limit])


# --------------------------------------------------------------------------
# What hand seats add to the running totals (read by tracker.stats.services)


@dataclass(frozen=True)
class SeatTally:
    """One settled hand seat: the rows it counts in and what it adds to them."""

    seat_id: int
    month_key: tuple  # (player_id, league_id, variant, first day of the month)
    tournament_key: tuple  # (player_id, tournament_id, variant)
    counters: dict[str, Any]


def _seat_tallies_sql(ids: int) -> str:
    """The statement of :func:`seat_tallies` for ``ids`` hand ids: the rows of the queryset
    ``settled_seats().filter(hand_id__in=...).values_list(...)`` it replaces (the settled
    seats of those hands, their hand's tournament and its date, variant and draft), in the
    seats' order. Written out: settlement reads it for every batch, and Django building the
    joins and preparing the list of ids cost more than the database answering."""
    seat, hand = HandSeat, HandSeat._meta.get_field("hand").related_model
    night = hand._meta.get_field("tournament").related_model
    draft = hand._meta.get_field("draft").related_model
    col, table = rows.column, rows.table

    marks = ", ".join(["%s"] * ids)
    statuses = ", ".join(["%s"] * len(SETTLED))
    return (
        f"SELECT s.{col(seat, 'id')}, s.{col(seat, 'player')}, t.{col(night, 'league')}, "
        f"h.{col(hand, 'tournament')}, t.{col(night, 'date')}, h.{col(hand, 'variant')}, "
        f"s.{col(seat, 'facts')}, s.{col(seat, 'won')}, s.{col(seat, 'contributed')}, "
        f"d.{col(draft, 'id')} "
        f"FROM {table(seat)} s "
        f"JOIN {table(hand)} h ON h.{col(hand, 'id')} = s.{col(seat, 'hand')} "
        f"JOIN {table(night)} t ON t.{col(night, 'id')} = h.{col(hand, 'tournament')} "
        f"LEFT JOIN {table(draft)} d ON d.{col(draft, 'hand')} = h.{col(hand, 'id')} "
        f"WHERE s.{col(seat, 'hand')} IN ({marks}) AND h.{col(hand, 'status')} IN ({statuses}) "
        f"AND s.{col(seat, 'won')} IS NOT NULL "
        f"ORDER BY s.{col(seat, 'hand')}, s.{col(seat, 'position')}"
    )


def seat_tallies(*, hand_ids) -> list[SeatTally]:
    """What each settled seat of these hands adds to the running totals (one query);
    seats of hands not settled add nothing and are not listed."""
    ids = list(hand_ids)
    if not ids:
        return []
    date_field = Tournament._meta.get_field("date")
    facts_field = HandSeat._meta.get_field("facts")
    fields, convs = [date_field, facts_field], rows.converters([date_field, facts_field])
    with connection.cursor() as cursor:
        cursor.execute(_seat_tallies_sql(len(ids)), [*ids, *(s.value for s in SETTLED)])
        found = cursor.fetchall()
    read = []
    for sid, pid, lid, tid, day, variant, facts, won, put_in, draft in found:
        day, facts = rows.converted([day, facts], fields, convs)
        read.append((sid, pid, lid, tid, day, variant, facts, won, put_in, draft))
    return seat_tallies_of(read)


def seat_tallies_of(seats: Iterable[Sequence[Any]]) -> list[SeatTally]:
    """What settled seats add to the running totals, from their rows as :func:`seat_tallies`
    reads them (its statement's columns, the date and facts as Python values): ``(seat id,
    player id, league id, tournament id, the tournament's date, variant, facts, won, put in,
    the hand's live draft id or None)``. Settlement gives the rows of the seats it has just
    written (``tracker.core.totals.totals_given``), so they are not read back. Example::

        seat_tallies_of([(9, 7, 1, 3, date(2026, 12, 3), "seven_card_stud", {}, 0, 2, None)])
        # [SeatTally(seat_id=9, month_key=(7, 1, "seven_card_stud", date(2026, 12, 1)),
        #            tournament_key=(7, 3, "seven_card_stud"), counters={"hands": 1, ...})]
    """
    return [
        SeatTally(
            seat_id=sid,
            month_key=(pid, lid, variant, day.replace(day=1)),
            tournament_key=(pid, tid, variant),
            counters=seat_tally(facts=facts, won=won, put_in=put_in, live=draft is not None),
        )
        for sid, pid, lid, tid, day, variant, facts, won, put_in, draft in seats
    ]


def seat_sums() -> dict[str, Any]:
    """The running totals as one aggregate over hand seats (the rebuild; the same figures
    :func:`tracker.stats.tally.seat_tally` gives seat by seat)."""
    ev = Cast(KT("facts__ev"), FloatField())
    se = Cast(KT("facts__ai_se"), FloatField())
    net = F("won") - F("contributed")
    sums: dict[str, Any] = {
        "hands": Count("id"),
        "live": Count("id", filter=Q(hand__draft__isnull=False)),
        "wild_hands": Count("id", filter=Q(facts__has_key="wild")),
        "sd_won": Count("id", filter=Q(facts__sd=1, won__gt=0)),
        "net": Sum(net),
        "chips_won": Sum(Case(When(won__gt=F("contributed"), then=net), default=0)),
        "chips_lost": Sum(Case(When(contributed__gt=F("won"), then=-net), default=0)),
        "put_in": Sum("contributed"),
        "ai_won": Sum("won", filter=Q(facts__ai=1)),
        **{k: _fact(k) for k in FACT_COUNTERS},
        **{c: Count("id", filter=Q(facts__cat=c[4:])) for c in CATEGORY_COUNTERS},
        "ev": Sum(ev),
        "ev_var": Sum(se * se),
        MAX_COUNTER: Max("won"),
    }
    return sums


def month_sums(seats) -> QuerySet:
    """Per player, league, variant and month: the sums of ``seats`` (the rebuild's read)."""
    return (
        seats.values(
            "player_id",
            league_id=F("hand__tournament__league_id"),
            variant=F("hand__variant"),
            month=TruncMonth("hand__tournament__date"),
        )
        .annotate(**seat_sums())
        .order_by()
    )


def tournament_sums(seats) -> QuerySet:
    """Per player, tournament and variant: the sums of ``seats``."""
    return (
        seats.values(
            "player_id", tournament_id_=F("hand__tournament_id"), variant=F("hand__variant")
        )
        .annotate(**seat_sums())
        .order_by()
    )


def cell_biggest(model, key: tuple) -> int:
    """The biggest pot in one running-total row, read again from its seats (after a ruling
    took chips away from the hand that held it)."""
    if model is MonthTally:
        pid, lid, variant, month = key
        nxt = month.replace(year=month.year + month.month // 12, month=month.month % 12 + 1)
        seats = settled_seats(players=[pid], variant=variant).filter(
            hand__tournament__league_id=lid,
            hand__tournament__date__gte=month,
            hand__tournament__date__lt=nxt,
        )
    else:
        pid, tid, variant = key
        seats = settled_seats(players=[pid], variant=variant).filter(hand__tournament_id=tid)
    return seats.aggregate(m=Max("won"))["m"] or 0
