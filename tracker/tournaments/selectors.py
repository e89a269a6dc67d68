"""Reads about tournaments: stacks from the ledger, the state of play, standings."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from django.core import signing
from django.db import connection
from django.db.models import (
    Count,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Sum,
    prefetch_related_objects,
)
from django.db.models.functions import Coalesce
from django.utils import timezone

from tracker.core import rows
from tracker.core.errors import NotFound
from tracker.core.snapshot import read_snapshot
from tracker.core.typed import ChipsByPlayer
from tracker.engine import tournament as rules
from tracker.engine.stakes import Stakes
from tracker.hands.models import SETTLED, Hand, HandSeat, HandStatus, Pot
from tracker.tournaments.models import (
    FinalStanding,
    LedgerEntry,
    LedgerKind,
    Seat,
    TableLink,
    Tournament,
)

# What the ledger says of a tournament: each player's stack (by player id; a seated player
# with no entry has 0) and every purchase between hands ``(from hand, player id, chips)`` in
# hand order.
Ledger = tuple[dict[int, int], list[tuple[int, int, int]]]


def _ledger_sql() -> str:
    col = rows.column
    ledger, tournament = rows.table(LedgerEntry), col(LedgerEntry, "tournament")
    player, amount = col(LedgerEntry, "player"), col(LedgerEntry, "amount")
    from_hand = col(LedgerEntry, "from_hand")
    return (
        f"SELECT 0, {col(Seat, 'player')}, 0, 0, {col(Seat, 'number')} FROM "
        f"{rows.table(Seat)} WHERE {col(Seat, 'tournament')} = %s "
        f"UNION ALL SELECT 1, {player}, SUM({amount}), 0, 0 FROM {ledger} "
        f"WHERE {tournament} = %s GROUP BY {player} "
        f"UNION ALL SELECT 2, {player}, {amount}, {from_hand}, {col(LedgerEntry, 'id')} "
        f"FROM {ledger} WHERE {tournament} = %s AND {from_hand} IS NOT NULL "
        "ORDER BY 1, 4, 5"
    )


_LEDGER_SQL = _ledger_sql()


def tournament_ledger_sql(tournament_id: int) -> tuple[str, list[int]]:
    """The one statement, and its parameters, that reads a tournament's ledger (the seats,
    each player's sum, the chips bought between hands); :func:`tournament_ledger_rows`
    reads its rows. Settlement sends it with the batch's other reads (one round trip);
    :func:`tournament_stacks` and :func:`chips_bought_from` run it on their own."""
    return _LEDGER_SQL, [tournament_id] * 3


def tournament_ledger_rows(found: Iterable[tuple]) -> Ledger:
    """The ledger (:data:`Ledger`) from the rows of :func:`tournament_ledger_sql`."""
    stacks: dict[int, int] = {}
    bought: list[tuple[int, int, int]] = []
    for kind, pid, chips, number, _ in found:
        if kind == 0:
            stacks[pid] = 0
        elif kind == 1:
            stacks[pid] = int(chips)
        else:
            bought.append((number, pid, int(chips)))
    return stacks, bought


def tournament_ledger(tournament: Tournament) -> Ledger:
    """The tournament's ledger (:data:`Ledger`), in one query. Example: three players
    seated with 1,000 chips each, one of whom rebought 500 before hand 12::

        ({7: 1000, 8: 1500, 9: 1000}, [(12, 8, 500)])
    """
    with connection.cursor() as cursor:
        cursor.execute(*tournament_ledger_sql(tournament.pk))
        return tournament_ledger_rows(cursor.fetchall())


def tournament_stacks(tournament: Tournament) -> dict[int, int]:
    """Each player's stack (by player id) from the ledger: settled hands and corrections only."""
    return tournament_ledger(tournament)[0]


def chips_bought_from(tournament: Tournament, *, after: int) -> list[tuple[int, int, int]]:
    """The ledger's chips bought between hands (rebuys, add-ons, their reversals) that play
    from a hand later than ``after``: ``(from hand, player id, chips)`` in hand order."""
    return [row for row in tournament_ledger(tournament)[1] if row[0] > after]


@dataclass
class TournamentState:
    """Where a tournament stands, projecting hands recorded but not yet settled."""

    tournament: Tournament
    seats: list[Seat]
    hands_recorded: int
    last_dealer: int | None
    stacks: dict[int, int]  # projected, by player id
    settled_stacks: dict[int, int]
    pending: int
    blocked_by: Hand | None  # the first invalid hand, which later hands wait on
    out: dict[int, int] = field(default_factory=dict)  # player id -> hand they went out in
    last_variant: str = ""  # the game of the latest hand ("" before the first)
    latest: Hand | None = None  # the latest hand (its number, digest, who recorded it, when)

    @property
    def seat_numbers(self) -> list[int]:
        return [s.number for s in self.seats]

    @property
    def out_seats(self) -> set[int]:
        return {s.number for s in self.seats if self.stacks.get(s.player_id, 0) <= 0}

    @property
    def over(self) -> bool:
        t = self.tournament
        return rules.is_over(
            hands_played=self.hands_recorded, hand_limit=t.hand_limit, stacks=self.stacks.values()
        )

    @property
    def next_number(self) -> int:
        return self.hands_recorded + 1

    @property
    def hands_left(self) -> int:
        return 0 if self.over else self.tournament.hand_limit - self.hands_recorded

    @cached_property
    def next_stakes(self) -> Stakes:
        """The next hand's stakes, worked out once per state (as :attr:`upcoming`): an
        import's checks read them twice a hand."""
        t = self.tournament
        number = min(self.next_number, t.hand_limit)
        return rules.stakes_for_hand(t.stakes_schedule, number, t.hands_per_level)

    @cached_property
    def upcoming(self) -> rules.NextHand:
        """The next hand (number, dealer, seats dealt in, stakes) by the engine's rules: the
        same function the phone's logger deals the next hand with offline. Worked out once
        per state (recording reads it for the seats and again for the dealer): a state is
        not changed once made, :meth:`after` makes the next one."""
        t = self.tournament
        by_player = {s.player_id: s.number for s in self.seats}
        return rules.next_hand(
            seats=self.seat_numbers,
            stacks={
                by_player[pid]: chips for pid, chips in self.stacks.items() if pid in by_player
            },
            hands_played=self.hands_recorded,
            previous_dealer=self.last_dealer,
            first_dealer=t.first_dealer_seat,
            schedule=t.stakes_schedule,
            hands_per_level=t.hands_per_level,
            hand_limit=t.hand_limit,
        )

    @property
    def next_dealer(self) -> int | None:
        return self.upcoming.dealer

    def next_positions(self) -> list[Seat]:
        """The seats dealt into the next hand, clockwise from the dealer's left (a list of
        the caller's own)."""
        return list(self._positions)

    @cached_property
    def _positions(self) -> tuple[Seat, ...]:
        """The next hand's seats, worked out once per state (an import's checks ask twice a
        hand: the PHH checks for the players' names, the recording's for the seats)."""
        by_number = {s.number: s for s in self.seats}
        return tuple(by_number[n] for n in self.upcoming.seats)

    def after(self, hand: Hand) -> TournamentState:
        """The state of play once ``hand``, just recorded as the next hand, is counted: what
        :func:`tournament_state` would read now, worked out in memory (recording answers with
        the next hand from it)."""
        return self.then(
            number=hand.number,
            dealer_seat=hand.dealer_seat,
            net=hand.projected_net_chips,
            variant=hand.variant,
            latest=hand,
        )

    def then(
        self,
        *,
        number: int,
        dealer_seat: int,
        net: Mapping[int, int],
        variant: str,
        latest: Hand | None,
    ) -> TournamentState:
        """:meth:`after` a hand given by its number, dealer, net chips by player and game
        (an import batch's hands are rows, not instances), with ``latest`` as the latest
        hand."""
        stacks = dict(self.stacks)
        for pid, delta in net.items():
            stacks[pid] = stacks.get(pid, 0) + delta
        return replace(
            self,
            hands_recorded=number,
            last_dealer=dealer_seat,
            stacks=stacks,
            pending=self.pending + 1,
            last_variant=variant,
            latest=latest,
        )


PENDING = (HandStatus.RECORDED, HandStatus.INVALID)
LATEST_FIELDS = (
    "id",
    "number",
    "status",
    "dealer_seat",
    "projected_net",
    "tournament_id",
    "variant",
    "content_hash",
    "recorded_by_id",
    "recorded_at",
)


# The state's reads, written out once: they run on every hand recorded, and Django building
# their querysets (a join, a subquery, a filtered sum) cost more than the database running
# them. The same rows as the querysets they replace: the seats with their players, in seat
# order; then, in one statement, the hands recorded or invalid with the latest, and each
# player's ledger sum with the part of it that belongs to the hands read as recorded.
_PLAYER = Seat._meta.get_field("player").related_model
_SEAT_FIELDS = rows.fields_named(Seat)
_PLAYER_FIELDS = rows.fields_named(_PLAYER)
_SEATS_SQL = (
    "SELECT {seat_columns}, {player_columns} FROM {seat} s JOIN {player} p ON p.{player_pk} "
    "= s.{seat_player} WHERE s.{seat_tournament} = %s ORDER BY s.{seat_number}"
).format(
    seat_columns=rows.select_list("s", _SEAT_FIELDS),
    player_columns=rows.select_list("p", _PLAYER_FIELDS),
    seat=rows.table(Seat),
    player=rows.table(_PLAYER),
    player_pk=rows.column(_PLAYER, _PLAYER._meta.pk.name),
    seat_player=rows.column(Seat, "player"),
    seat_tournament=rows.column(Seat, "tournament"),
    seat_number=rows.column(Seat, "number"),
)
_HAND_FIELDS = rows.fields_named(Hand, LATEST_FIELDS)
_FIELD = {field.attname: k for k, field in enumerate(_HAND_FIELDS)}  # in model order
_N_HAND = len(_HAND_FIELDS)

# The state of play's hands and ledger sums in one statement, so that both read the database
# at the same moment: the sums leave out the entries of exactly the hands the statement reads
# as recorded (a hand settled just before is read settled, its entries counted; one settled
# just after is read recorded, its entries not there yet). A row is a hand's (0, then its
# fields, then three NULLs) or a player's sums (1, NULLs for the hand's fields, then the
# player, the sum, the part of the hands read as recorded). The hands are those recorded or
# invalid, and the latest.
_STATE_SQL = (
    "WITH pending AS (SELECT {fields} FROM {hand} h WHERE h.{hand_tournament} = %s AND "
    "(h.{status} IN (%s, %s) OR h.{number} = (SELECT MAX(l.{number}) FROM {hand} l "
    "WHERE l.{hand_tournament} = %s))) "
    "SELECT 0, pending.*, NULL, NULL, NULL FROM pending "
    "UNION ALL SELECT 1, {nulls}, {player}, SUM({amount}), SUM(CASE WHEN {entry_hand} IN "
    "(SELECT r.{id} FROM pending r WHERE r.{status} = %s) THEN {amount} ELSE 0 END) "
    "FROM {ledger} WHERE {tournament} = %s GROUP BY {player} ORDER BY 1, {by_number}"
).format(
    fields=rows.select_list("h", _HAND_FIELDS),
    hand=rows.table(Hand),
    hand_tournament=rows.column(Hand, "tournament"),
    status=rows.column(Hand, "status"),
    number=rows.column(Hand, "number"),
    id=rows.column(Hand, "id"),
    nulls=", ".join(["NULL"] * _N_HAND),
    player=rows.column(LedgerEntry, "player"),
    amount=rows.column(LedgerEntry, "amount"),
    entry_hand=rows.column(LedgerEntry, "hand"),
    ledger=rows.table(LedgerEntry),
    tournament=rows.column(LedgerEntry, "tournament"),
    by_number=_FIELD["number"] + 2,
)


def _seats_of(found: list[tuple]) -> list[Seat]:
    """The seats, each with its player, from the rows of ``_SEATS_SQL``."""
    seat_convs, player_convs = rows.converters(_SEAT_FIELDS), rows.converters(_PLAYER_FIELDS)
    cache = Seat._meta.get_field("player")
    n = len(_SEAT_FIELDS)
    seats = []
    for row in found:
        seat = rows.instance(Seat, _SEAT_FIELDS, seat_convs, row[:n])
        cache.set_cached_value(
            seat, rows.instance(cache.related_model, _PLAYER_FIELDS, player_convs, row[n:])
        )
        seats.append(seat)
    return seats


def _state_statement(tournament_id: int) -> tuple[str, list[Any]]:
    """``_STATE_SQL`` with its parameters: the hands not settled with the latest, and the
    ledger sums, of tournament ``tournament_id``."""
    recorded, invalid = HandStatus.RECORDED.value, HandStatus.INVALID.value
    return _STATE_SQL, [tournament_id, recorded, invalid, tournament_id, recorded, tournament_id]


def tournament_state(tournament: Tournament, *, seats: list[Seat] | None = None) -> TournamentState:
    """The state of play: projected stacks, who is out, the next hand's number, dealer, stakes.

    Two statements whatever the number of hands, one when ``seats`` are given (in seat
    order, with their players): the seats, then :func:`tournament_state_sql`'s statement of
    the hands not settled yet (recorded or invalid) with the latest hand, and the ledger
    sums. On PostgreSQL the two go in one round trip (``tracker.core.rows.statements_read``),
    in one snapshot. Hand numbers run 1, 2, ... with no gap (recording gives the next one),
    so the latest hand's number is the count of hands.

    The ledger and the hands agree even without a snapshot (recording reads them under its
    own lock while settlement commits): the ledger sums leave out, in the same statement, the
    entries of every hand read as recorded, whose projected net is added instead. A hand that
    settles meanwhile therefore counts once, as of the statement's moment.
    """
    with read_snapshot():
        if seats is None:
            seat_rows, state_rows = rows.statements_read(tournament_state_sql(tournament.pk))
            seats = _seats_of(seat_rows)
        else:
            (state_rows,) = rows.statements_read([_state_statement(tournament.pk)])
    return _state_of(tournament, seats, state_rows)


def tournament_state_sql(tournament_id: int) -> list[tuple[str, list[Any]]]:
    """The statements, with their parameters, that read a tournament's state of play: its
    seats, then its hands not settled with the latest and its ledger sums (one statement,
    one moment). :func:`tournament_state` runs them; recording sends them after its lock,
    in one round trip (``tracker.core.rows.statements_read``), and
    :func:`tournament_state_of` makes the state from their rows."""
    return [(_SEATS_SQL, [tournament_id]), _state_statement(tournament_id)]


def tournament_state_of(
    tournament: Tournament, seat_rows: list[tuple], state_rows: list[tuple]
) -> TournamentState:
    """The state of play from the rows of the statements of :func:`tournament_state_sql`
    (read inside the caller's transaction): what :func:`tournament_state` answers."""
    return _state_of(tournament, _seats_of(seat_rows), state_rows)


def _state_of(
    tournament: Tournament, seats: list[Seat], state_rows: list[tuple]
) -> TournamentState:
    """The state of play from its seats and the rows of ``_STATE_SQL``: the hands recorded
    or invalid and the latest, in hand order, then each player's ledger sums (without the
    entries of the hands read as recorded, whose projected net is added instead)."""
    convs = rows.converters(_HAND_FIELDS)
    found = []
    settled = {seat.player_id: 0 for seat in seats}
    for row in state_rows:
        if row[0] == 0:
            found.append(row[1 : _N_HAND + 1])
        else:
            pid, total, left_out = row[_N_HAND + 1 :]
            settled[pid] = int(total) - int(left_out)
    status = _FIELD["status"]
    recorded = [row for row in found if row[status] == HandStatus.RECORDED]
    projected = dict(settled)
    invalid = next((row for row in found if row[status] == HandStatus.INVALID), None)
    net, net_convs = _FIELD["projected_net"], convs[_FIELD["projected_net"]]
    for row in recorded:
        # The column's JSON as the field reads it, then as ChipsByPlayer reads it (int keys).
        chips = rows.converted([row[net]], [_HAND_FIELDS[net]], [net_convs])[0]
        for pid, delta in ChipsByPlayer.from_json(chips).items():
            projected[pid] = projected.get(pid, 0) + delta
    last = rows.instance(Hand, _HAND_FIELDS, convs, found[-1]) if found else None
    if invalid is None:
        blocked_by = None
    elif invalid is found[-1]:
        blocked_by = last  # one instance, as the queryset gave
    else:
        blocked_by = rows.instance(Hand, _HAND_FIELDS, convs, invalid)
    return TournamentState(
        tournament=tournament,
        seats=seats,
        hands_recorded=last.number if last else 0,
        last_dealer=last.dealer_seat if last else None,
        stacks=projected,
        settled_stacks=settled,
        pending=len(recorded),
        blocked_by=blocked_by,
        last_variant=last.variant if last else "",
        latest=last,
    )


@dataclass(frozen=True)
class StandingRow:
    player_id: int
    name: str
    seat: int
    chips: int
    place: int
    out_hand: int | None

    @property
    def is_out(self) -> bool:
        return self.out_hand is not None


def tournament_standings(
    tournament: Tournament,
    *,
    seats: list[Seat] | None = None,
    stacks: dict[int, int] | None = None,
) -> list[StandingRow]:
    """Standings from settled hands: chips, place (RULES.md ordering), out and when.

    The seats (with their players), the ledger sums and the settled hand seats, in one
    snapshot; ``seats`` and ``stacks`` (the ledger's, read in the same snapshot) when the
    caller has them already.
    """
    with read_snapshot():
        if seats is None:
            seats = list(tournament.seats.select_related("player"))
        if stacks is None:
            stacks = tournament_stacks(tournament)
        rows = list(
            HandSeat.objects.filter(hand__tournament=tournament, hand__status__in=SETTLED)
            .order_by("hand__number")
            .values_list("player_id", "hand__number", "starting_stack", "contributed", "won")
        )
    out_hand: dict[int, int] = {}
    stack_before: dict[int, int] = {}
    for pid, number, start, contributed, won in rows:
        if start > 0 and start - contributed + (won or 0) == 0 and stacks.get(pid, 0) == 0:
            out_hand[pid] = number
            stack_before[pid] = start
    placed = rules.rank_players(chips=stacks, out_hand=out_hand, stack_before_out=stack_before)
    by_player = {s.player_id: s for s in seats}
    return [
        StandingRow(
            player_id=p.key,
            name=by_player[p.key].player.name,
            seat=by_player[p.key].number,
            chips=p.chips,
            place=p.place,
            out_hand=p.out_hand,
        )
        for p in placed
    ]


@dataclass
class LiveTournament:
    """A tournament, its state of play and its standings, all read at one moment."""

    tournament: Tournament
    state: TournamentState
    standings: list[StandingRow]


def tournament_live(
    tournament: Tournament | int,
    *,
    among: QuerySet[Tournament] | None = None,
    last_pots: bool = False,
) -> LiveTournament:
    """The tournament row (seats and league too), its state and its standings from one
    snapshot, so that the next hand's players and the standings never disagree about who is
    out (docs/recording.md, "Standings").

    ``tournament`` is a tournament or its id; with ``among`` (e.g. the tournaments a user may
    see) it must be one of those, else NotFound, so the caller need not read the row first.
    The seats are read once, for the state and the standings. With ``last_pots`` the latest
    hand (``state.latest``) comes with its pots, in the same snapshot. Four queries, five with
    the pots, however many hands were played."""
    pk = tournament if isinstance(tournament, int) else tournament.pk
    rows = Tournament.objects.all() if among is None else among
    with read_snapshot():
        seats = Prefetch("seats", queryset=Seat.objects.select_related("player"))
        fresh = rows.select_related("league").prefetch_related(seats).filter(pk=pk).first()
        if fresh is None:
            raise NotFound("No such tournament.")
        seats = sorted(fresh.seats.all(), key=lambda seat: seat.number)
        state = tournament_state(fresh, seats=seats)
        # The ledger as of this snapshot: no hand read as recorded has entries in it.
        standings = tournament_standings(fresh, seats=seats, stacks=state.settled_stacks)
        if last_pots and state.latest is not None:
            pots = Prefetch("pots", queryset=Pot.objects.order_by("index"))
            prefetch_related_objects([state.latest], pots)
        return LiveTournament(tournament=fresh, state=state, standings=standings)


# --------------------------------------------------------------------------
# The table screen: what its poll compares, and its read-only live view links

#: Part of every version: change it when the table screen's fragment shows something new,
#: so that screens polling across a deployment fetch the new markup once.
SCREEN_VERSION = "1"


def table_screen_version(
    pk: int, *, among: QuerySet[Tournament] | None = None, extra: tuple = ()
) -> str:
    """A short string that changes whenever what the table screen shows of tournament ``pk``
    can have changed, read far more cheaply than the screen itself (three small queries,
    whatever the number of hands; the screen's poll answers 304 while it stays the same).

    It covers the night's row (its status, limits, schedule and game), its seats with the
    players' names, its hands per status (how many, the latest id, the latest settlement:
    a hand recorded, settled, disputed, ruled on or voided moves one of them) and its chip
    ledger (how many entries, the latest id: every settlement and ruling correction adds
    entries, and entries are never changed). With ``among`` the tournament must be one of
    those (the viewer's), else NotFound, as for :func:`tournament_live`. ``extra`` is what
    the features above this one add to the screen (a night's money entries), read by them."""
    rows = Tournament.objects.all() if among is None else among
    ledger = LedgerEntry.objects.filter(tournament=OuterRef("pk")).order_by().values("tournament")
    row = (
        rows.filter(pk=pk)
        .annotate(
            ledger_n=Subquery(ledger.annotate(n=Count("id")).values("n")[:1]),
            ledger_last=Subquery(ledger.annotate(m=Max("id")).values("m")[:1]),
        )
        .values_list(
            "status",
            "entrants",
            "hand_limit",
            "hands_per_level",
            "starting_chips",
            "stakes_schedule",
            "default_variant",
            "first_dealer_seat",
            "ledger_n",
            "ledger_last",
        )
        .first()
    )
    if row is None:
        raise NotFound("No such tournament.")
    hands = list(
        Hand.objects.filter(tournament_id=pk)
        .order_by("status")
        .values("status")
        .annotate(n=Count("id"), last=Max("id"), settled=Max("settled_at"))
        .values_list("status", "n", "last", "settled")
    )
    seats = list(
        Seat.objects.filter(tournament_id=pk)
        .order_by("number")
        .values_list("number", "player_id", "player__name")
    )
    text = repr((SCREEN_VERSION, row, hands, seats, extra))
    return hashlib.blake2b(text.encode(), digest_size=12).hexdigest()


_LINK_SALT = "tracker.tournaments.table-link"


def table_link_token(link: TableLink) -> str:
    """The value a live view link carries: the row's id signed with the site's key (so it
    cannot be made up or changed); the row says whether it still opens anything."""
    return signing.Signer(salt=_LINK_SALT).sign(str(link.pk))


def table_link_open(token: str) -> TableLink:
    """The live view link ``token`` names, with its tournament, if it still works; NotFound
    when the token was tampered with, or its link was revoked or has expired."""
    try:
        pk = int(signing.Signer(salt=_LINK_SALT).unsign(token))
    except (signing.BadSignature, ValueError):
        raise NotFound("No such live view.") from None
    link = (
        TableLink.objects.select_related("tournament")
        .filter(pk=pk, revoked_at__isnull=True, expires_at__gt=timezone.now())
        .first()
    )
    if link is None:
        raise NotFound("This live view was revoked or has expired.")
    return link


def table_link_current(tournament: Tournament) -> TableLink | None:
    """The night's live view link that works now, if any (the latest made)."""
    return (
        TableLink.objects.filter(
            tournament=tournament, revoked_at__isnull=True, expires_at__gt=timezone.now()
        )
        .order_by("-created_at", "-id")
        .first()
    )


def table_link_of(tournament: Tournament, pk: int) -> TableLink:
    """One of the night's live view links (any state), else NotFound."""
    link = TableLink.objects.filter(tournament=tournament, pk=pk).first()
    if link is None:
        raise NotFound("No such live view link.")
    link.tournament = tournament
    return link


def stack_history(tournament: Tournament) -> dict[int, list[int]]:
    """Each player's stack after every settled hand (index 0: the start), for charts."""
    history: dict[int, list[int]] = defaultdict(list)
    stacks = {s.player_id: tournament.starting_chips for s in tournament.seats.all()}
    for pid, chips in stacks.items():
        history[pid].append(chips)
    rows = list(
        LedgerEntry.objects.filter(
            Q(hand__isnull=False) | Q(from_hand__isnull=False), tournament=tournament
        ).values_list("hand__number", "from_hand", "player_id", "amount", "id")
    )
    # Chips bought between hands (rebuys, add-ons) count in the stack after the hand they
    # were bought before, once it is settled.
    last = max((number for number, *_ in rows if number is not None), default=0)
    entries = sorted(
        (number or from_hand, entry_id, pid, amount)
        for number, from_hand, pid, amount, entry_id in rows
        if number is not None or from_hand <= last
    )
    entries = [(number, pid, amount) for number, _, pid, amount in entries]
    current = None
    for number, pid, amount in entries:
        if current is not None and number != current:
            for p in stacks:
                history[p].append(stacks[p])
        current = number
        stacks[pid] += amount
    if current is not None:
        for p in stacks:
            history[p].append(stacks[p])
    return dict(history)


def tournament_hands(tournament: Tournament) -> list[Hand]:
    """The tournament's hands, latest first, with their pots (without the bulky JSON)."""
    return list(
        Hand.objects.filter(tournament=tournament)
        .prefetch_related("pots")
        .order_by("-number")
        .defer("entry", "engine_reading", "starting_stacks")
    )


def hand_neighbours(hand: Hand) -> dict[int, int]:
    """The ids of the hands before and after ``hand`` in its tournament, by hand number."""
    return dict(
        Hand.objects.filter(
            tournament_id=hand.tournament_id, number__in=(hand.number - 1, hand.number + 1)
        )
        .order_by("number")
        .values_list("number", "id")
    )


# --------------------------------------------------------------------------
# What final standings add to the league table's running totals (StandingTally)

#: (league id, month, player id, place, entrants, sharing): one StandingTally row's key.
StandingKey = tuple[int, dt.date, int, int, int, int]


#: The ledger's kinds that bring chips bought at the table (a reversal is the same kind,
#: negative): net chips leave them out, so a rebuy or an add-on is not counted as won.
BOUGHT_KINDS = (LedgerKind.REBUY, LedgerKind.ADDON)


def chips_bought(tournament: str = "tournament_id", player: str = "player_id"):
    """A subquery: the chips the player of the outer row bought in its night (rebuys and
    add-ons, less those undone), 0 when none; for a final standing's net chips (its chips
    less the starting chips and these)."""
    bought = (
        LedgerEntry.objects.filter(
            tournament_id=OuterRef(tournament), player_id=OuterRef(player), kind__in=BOUGHT_KINDS
        )
        .order_by()
        .values("tournament_id", "player_id")
        .annotate(s=Sum("amount"))
        .values("s")
    )
    return Coalesce(Subquery(bought), 0)


def standing_contributions(
    *, tournament_ids: Iterable[int] | None = None, league_id: int | None = None
) -> dict[StandingKey, list[int]]:
    """What the final standings of some nights (``tournament_ids``), of a league, or of every
    league (neither given) add to the league table's running totals as they now stand:
    ``[nights, net chips]`` per row key. Only nights switched to count toward the standings
    add anything; a night adds one to each of its players' (place, entrants, sharing) in the
    month of its date. One query, read in order and counted per night in Python."""
    rows = FinalStanding.objects.filter(tournament__counts_toward_standings=True).annotate(
        bought=chips_bought()
    )
    if tournament_ids is not None:
        rows = rows.filter(tournament_id__in=list(tournament_ids))
    if league_id is not None:
        rows = rows.filter(tournament__league_id=league_id)
    out: dict[StandingKey, list[int]] = {}

    def add(night: list[tuple]) -> None:
        sharing = Counter(place for _, _, _, _, place, _, _ in night)
        for league, day, start, player, place, chips, bought in night:
            key = (league, day.replace(day=1), player, place, len(night), sharing[place])
            cell = out.setdefault(key, [0, 0])
            cell[0] += 1
            cell[1] += chips - start - bought

    night: list[tuple] = []
    current = None
    for tid, *row in (
        rows.order_by("tournament_id")
        .values_list(
            "tournament_id",
            "tournament__league_id",
            "tournament__date",
            "tournament__starting_chips",
            "player_id",
            "place",
            "chips",
            "bought",
        )
        .iterator(chunk_size=5000)
    ):
        if tid != current and night:
            add(night)
            night = []
        current = tid
        night.append(tuple(row))
    if night:
        add(night)
    return out
