"""Recording hands and voiding invalid ones.

``hand_record`` checks a hand against the tournament rules and the stud
procedure at once (with the stacks projected from every earlier hand, settled
or not), stores it with status ``recorded`` and enqueues settlement when the
transaction commits, unless a settlement of the tournament is already pending
(tracker/hands/services/settlement.py, "Sending settlement once"). Nothing is
stored when anything is wrong.
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import Any, NamedTuple

from django.db import IntegrityError, connection, transaction
from django.db.models import Count, Max, Q
from django.utils import timezone

from tracker.audit.services import AuditTarget, audit_record, audit_record_many
from tracker.core import rows
from tracker.core.bulk import row_insert, rows_copy_values, rows_insert, statements_pipelined
from tracker.core.digest import canonical_json, sha256_hex
from tracker.core.errors import Conflict
from tracker.core.jobs import enqueue_on_commit
from tracker.core.permissions import Capability, require
from tracker.core.totals import totals_kept
from tracker.core.typed import ChipsByPlayer
from tracker.engine.announcements import check_variant, normalize_announcements
from tracker.engine.errors import Code, DomainError
from tracker.engine.game_presets import definition_for_variant
from tracker.engine.games import GameDefinition
from tracker.engine.variants import Street
from tracker.games.models import LeagueGameVersion
from tracker.games.selectors import league_game_version, version_definition
from tracker.hands.models import (
    HOUSE_VARIANT,
    EntryMode,
    Hand,
    HandSeat,
    HandStatus,
)
from tracker.hands.requests import HandRequest
from tracker.hands.selectors.evaluation import HandSpec, Outcome, hand_evaluate
from tracker.leagues.models import League
from tracker.tournaments.models import (
    LedgerEntry,
    LedgerKind,
    Seat,
    Tournament,
    TournamentStatus,
)
from tracker.tournaments.selectors import (
    TournamentState,
    tournament_state,
    tournament_state_of,
    tournament_state_sql,
)
from tracker.tournaments.services import tournament_finish_if_over

log = logging.getLogger(__name__)

SETTLE_TASK = "tracker.tournament_settle"  # tracker/hands/tasks.py


class RecordedHand(NamedTuple):
    """A hand just recorded, as stored: the hand, its seats (each with its player) and the state
    of play after it, worked out in memory. It has no pots yet (settlement makes them)."""

    hand: Hand
    seats: list[HandSeat]
    state: TournamentState


def entry_digest(*, tournament_id: int, asked: HandRequest) -> str:
    """SHA-256 of a hand as asked for (its canonical JSON, without the hand number)."""
    body = {
        "tournament": tournament_id,
        "entry_mode": asked.entry_mode,
        "entry": asked.entry,
        "variant": asked.variant or "",
        "options": asked.options or {},
        "table_result": asked.table_result,
    }
    # Only for a house game's hand: the digests of the variants' hands stay the same.
    if asked.game is not None:
        body["game"] = [asked.game, asked.game_version]
    return sha256_hex(canonical_json(body))


# --------------------------------------------------------------------------
# Recording


def variant_resolve(
    tournament: Tournament, variant: str | None, options: Mapping | None
) -> tuple[str, dict]:
    """The next hand's variant and every announcement: the tournament's default variant
    unless named, the league's house rules, the tournament's, then ``options``."""
    if not variant:
        if not tournament.default_variant:
            raise DomainError("dealer's choice: name the variant of this hand", field="variant")
        variant = tournament.default_variant
    check_variant(variant)
    if options is not None and not isinstance(options, Mapping):
        raise DomainError("must be an object of announcements", field="options")
    base = dict((tournament.league.house_rules or {}).get(variant, {}))
    if variant == tournament.default_variant:
        base.update(tournament.default_options or {})
    base.update(options or {})
    return variant, normalize_announcements(variant, base)


def next_hand_state(tournament: Tournament) -> TournamentState:
    """The state of play, if the tournament can deal another hand (a Conflict if not)."""
    if tournament.status == TournamentStatus.FINISHED:
        raise Conflict(f"{tournament.name} is over: no more hands", code=Code.TOURNAMENT_OVER)
    state = tournament_state(tournament)
    _refuse_over(tournament, state)
    return state


def _refuse_over(tournament: Tournament, state: TournamentState) -> None:
    if tournament.status == TournamentStatus.FINISHED:
        raise Conflict(f"{tournament.name} is over: no more hands", code=Code.TOURNAMENT_OVER)
    if state.over:
        why = (
            f"the {tournament.hand_limit}-hand limit is reached"
            if state.hands_recorded >= tournament.hand_limit
            else "one player holds every chip"
        )
        raise Conflict(
            f"{tournament.name} is over ({why}): hand {state.next_number} cannot be dealt",
            code=Code.TOURNAMENT_OVER,
        )


def next_hand_deal(
    tournament: Tournament, state: TournamentState, variant: str | None, options: Mapping | None
) -> tuple[str, dict, list[Seat]]:
    """The next hand's variant, announcements and seats, if the variant can be dealt to
    every player still in."""
    variant, options = variant_resolve(tournament, variant, options)
    seats = state.next_positions()
    _variant_game(variant, json.dumps(options, sort_keys=True)).refuse_players(
        len(seats), field="variant"
    )
    return variant, options, seats


@functools.lru_cache(maxsize=256)
def _variant_game(variant: str, options: str) -> GameDefinition:
    """The definition of ``variant`` under the announcements ``options`` (resolved, as JSON
    with sorted keys), built once per game and announcements: building it (reading the
    preset as a game definition) cost as much as a tenth of an import's hand."""
    return definition_for_variant(variant, json.loads(options))


class CheckedHand(NamedTuple):
    """A hand that passed every check of :func:`hand_record`, not stored yet."""

    tournament: Tournament  # locked for the rest of the transaction
    state: TournamentState
    seats: list[Seat]
    spec: HandSpec  # variant, announcements, stakes, players, the entry (and house game)
    stacks: list[int]  # the starting stacks it was checked against
    outcome: Outcome
    version: LeagueGameVersion | None = None  # the house game's version, if one


def house_version(tournament: Tournament, asked: HandRequest) -> LeagueGameVersion | None:
    """The house game version ``asked`` names in the tournament's league (None: no game
    named), refused naming ``game``, ``game_version``, ``variant`` or ``options``."""
    if asked.game is None:
        if asked.game_version is not None:
            raise DomainError("name the game of this version", field="game")
        return None
    if asked.variant:
        raise DomainError("a hand is of a variant or of a house game, not both", field="variant")
    if asked.options:
        raise DomainError(
            "a house game has no announcements: its definition says it all", field="options"
        )
    return league_game_version(tournament.league, asked.game, asked.game_version)


def _house_deal(
    state: TournamentState, version: LeagueGameVersion
) -> tuple[str, dict, list[Seat], GameDefinition]:
    """A house game's hand: its variant (``house``), no announcements, the seats,
    if the game can be dealt to every player still in, and the definition."""
    game = version_definition(version)
    seats = state.next_positions()
    game.refuse_players(len(seats), field="game")
    return HOUSE_VARIANT, {}, seats, game


def _checked(
    *,
    tournament: Tournament,
    by: Any,
    asked: HandRequest,
) -> CheckedHand:
    """Every check of :func:`hand_record`, nothing stored: the locked tournament, its state,
    the hand checked by the engine, the starting stacks and the outcome."""
    entry_mode, entry, number = asked.entry_mode, asked.entry, asked.number
    variant, options, table_result = asked.variant, asked.options, asked.table_result
    require(by, tournament.league, Capability.RECORD_HAND, "record hands")
    tournament, state = _locked_with_state(tournament)
    _refuse_over(tournament, state)
    if number is not None and number != state.next_number:
        if number < state.next_number:
            raise Conflict(
                f"hand {number} is already recorded; the next hand is {state.next_number}",
                code=Code.HAND_EXISTS,
                field="number",
            )
        raise DomainError(f"the next hand is {state.next_number}, not {number}", field="number")
    return _checked_next(
        tournament,
        state,
        entry_mode=entry_mode,
        entry=entry,
        variant=variant,
        options=options,
        table_result=table_result,
        version=house_version(tournament, asked),
    )


# The tournament's row and its league's read again under the tournament's lock, written
# out: Django building the queryset (a select_for_update with its league joined) cost more
# than running it.
_TOURNAMENT_FIELDS = rows.fields_named(Tournament)
_LEAGUE_FIELDS = rows.fields_named(League)
_LOCKED_SQL = "SELECT {t}, {lg} FROM {table} t JOIN {leagues} lg ON lg.{pk} = t.{fk} WHERE t.{tpk} = %s".format(
    t=rows.select_list("t", _TOURNAMENT_FIELDS),
    lg=rows.select_list("lg", _LEAGUE_FIELDS),
    table=rows.table(Tournament),
    leagues=rows.table(League),
    pk=rows.column(League, League._meta.pk.name),
    fk=rows.column(Tournament, "league"),
    tpk=rows.column(Tournament, Tournament._meta.pk.name),
)


def _locked_with_state(tournament: Tournament) -> tuple[Tournament, TournamentState]:
    """``tournament`` read again and locked until the transaction ends (``FOR UPDATE OF``
    the tournament where the database has row locks), with its league read again in the
    same statement (its house rules are the defaults of the hand's announcements, and the
    caller's copy may be older than a change of them), and its state of play read after the
    lock (bounded: no re-reading of every earlier hand). The three statements go to
    PostgreSQL together: one round trip, where one each cost four."""
    sql = _LOCKED_SQL
    if connection.features.has_select_for_update:
        sql += " FOR UPDATE OF t" if connection.features.has_select_for_update_of else " FOR UPDATE"
    found, seat_rows, state_rows = rows.statements_read(
        [(sql, [tournament.pk]), *tournament_state_sql(tournament.pk)]
    )
    if not found:
        raise Tournament.DoesNotExist(f"tournament {tournament.pk} is gone")
    row, n = found[0], len(_TOURNAMENT_FIELDS)
    locked = rows.instance(Tournament, _TOURNAMENT_FIELDS, _converters()[0], row[:n])
    locked.league = rows.instance(League, _LEAGUE_FIELDS, _converters()[1], row[n:])
    return locked, tournament_state_of(locked, seat_rows, state_rows)


@functools.cache
def _converters() -> tuple[list, list]:
    """The fields' converters on the connection (worked out once, at the first hand)."""
    return rows.converters(_TOURNAMENT_FIELDS), rows.converters(_LEAGUE_FIELDS)


_ENTRY_MODES = frozenset(EntryMode.values)  # (``EntryMode.values`` builds a list each time)


def _checked_next(
    tournament: Tournament,
    state: TournamentState,
    *,
    entry_mode: str,
    entry: Mapping[str, Any],
    variant: str | None,
    options: Mapping[str, Any] | None,
    table_result: Mapping[str, Any] | None,
    version: LeagueGameVersion | None = None,
) -> CheckedHand:
    """The checks of a hand as the next hand of ``state`` (the tournament locked, not over),
    of the house game ``version`` if given."""
    if entry_mode not in _ENTRY_MODES:
        raise DomainError(
            f"{entry_mode!r} is not an entry mode ({', '.join(EntryMode.values)})",
            field="entry_mode",
        )
    if not isinstance(entry, Mapping):
        raise DomainError("must be an object", field="entry")
    # stored as JSON: PostgreSQL cannot hold a NUL character
    _refuse_nul(("entry", entry), ("table_result", table_result), ("options", options))
    game = None
    if version is None:
        variant, options, seats = next_hand_deal(tournament, state, variant, options)
    else:
        variant, options, seats, game = _house_deal(state, version)
    stakes = state.next_stakes
    spec = HandSpec(
        game=game,
        variant=variant,
        options=options,
        stakes=stakes,
        players=[s.player_id for s in seats],
        entry_mode=entry_mode,
        entry=dict(entry),
        table_result=dict(table_result) if table_result is not None else None,
    )
    stacks = [state.stacks[pid] for pid in spec.players]
    outcome = hand_evaluate(spec, stacks)
    return CheckedHand(tournament, state, seats, spec, stacks, outcome, version)


def hand_record(
    *,
    tournament: Tournament,
    by: Any,
    asked: HandRequest | None = None,
    content_hash: str = "",
    **fields: Any,
) -> Hand:
    """Record the next hand of ``tournament`` and enqueue its settlement: the hand of
    :func:`hand_record_with_state`, which says what is checked and refused. ``asked`` is the
    :class:`HandRequest`, or ``fields`` are its fields (``entry_mode``, ``entry``, ...)."""
    return hand_record_with_state(
        tournament=tournament,
        by=by,
        asked=HandRequest.given(asked, fields),
        content_hash=content_hash,
    ).hand


@transaction.atomic
def hand_record_with_state(
    *,
    tournament: Tournament,
    by: Any,
    asked: HandRequest,
    content_hash: str = "",
) -> RecordedHand:
    """Record the next hand of ``tournament`` as ``asked`` and enqueue its settlement;
    the hand, its seats and the state of play after it (the API answers with them without
    reading them back).

    ``asked.number``, when given, must be the next hand number (a second client
    recording the same number gets a conflict). The hand is checked with the
    engine against the stacks projected from every earlier hand; any fault is
    a DomainError naming the field, and nothing is stored. ``content_hash`` is
    stored on the hand (the hand-history import uses it to skip hands it has
    already imported); by default it is the request's ``entry_digest``.
    """
    if not content_hash:
        content_hash = entry_digest(tournament_id=tournament.pk, asked=asked)
    checked = _checked(tournament=tournament, by=by, asked=asked)
    tournament, state, spec, outcome = (
        checked.tournament,
        checked.state,
        checked.spec,
        checked.outcome,
    )
    hand = _new_hand(checked, by=by, content_hash=content_hash)
    # No savepoint of its own: a clash on the number aborts this whole transaction anyway
    # (hand_record is atomic, and a savepoint when a caller's transaction is open).
    try:
        row_insert(hand)
    except IntegrityError:
        raise _clash(state.next_number) from None
    # The seats (each with its player, from the state's read of the seats), the audit entry
    # and the settlement flag are sent without waiting for each answer: one round trip.
    with statements_pipelined():
        seats = _write_hand_seats(hand, outcome, seats={s.player_id: s for s in checked.seats})
        audit_record_many(
            action="hand.record",
            entries=[
                (
                    AuditTarget("hand", hand.pk, Hand.label(tournament.name, hand.number)),
                    _audit_data(
                        spec,
                        tournament_id=hand.tournament_id,
                        number=hand.number,
                        game_version_id=hand.game_version_id,
                    ),
                )
            ],
            league=tournament.league,
            actor=by,
        )
        _settlement_send(tournament)
    return RecordedHand(hand, seats, state.after(hand))


def _new_hand(checked: CheckedHand, *, by, content_hash: str) -> Hand:
    """The hand row of a checked hand, not saved yet."""
    return Hand(
        tournament=checked.tournament,
        game_version=checked.version,
        recorded_by=by if getattr(by, "is_authenticated", False) else None,
        **_hand_values(checked, content_hash=content_hash),
    )


def _hand_values(checked: CheckedHand, *, content_hash: str) -> dict[str, Any]:
    """The fields of a checked hand's row but its tournament, game version and recorder."""
    state, spec, stakes = checked.state, checked.spec, checked.spec.stakes
    return {
        "number": state.next_number,
        "level": stakes.level,
        "ante": stakes.ante,
        "bring_in": stakes.bring_in,
        "small_bet": stakes.small_bet,
        "big_bet": stakes.big_bet,
        "dealer_seat": state.next_dealer,
        "variant": spec.variant,
        "options": spec.options,
        "entry_mode": spec.entry_mode,
        "entry": spec.entry,
        "table_result": spec.table_result,
        "positions": spec.players,
        "starting_stacks": checked.stacks,
        "projected_net": ChipsByPlayer(checked.outcome.net()).to_json(),
        "content_hash": content_hash,
    }


def _hand_row(checked: CheckedHand, *, by, content_hash: str) -> dict[str, Any]:
    """The hand row of a checked hand as field values (attribute names to values, the
    fields not given take their defaults), no model instance: the hands of a batch."""
    return {
        "tournament_id": checked.tournament.pk,
        "game_version_id": checked.version.pk if checked.version is not None else None,
        "recorded_by_id": by.pk if getattr(by, "is_authenticated", False) else None,
        "recorded_at": timezone.now(),
        **_hand_values(checked, content_hash=content_hash),
    }


def _clash(number: int) -> Conflict:
    return Conflict(
        f"hand {number} was recorded at the same time by someone else",
        code=Code.HAND_EXISTS,
        field="number",
    )


def _audit_data(
    spec: HandSpec, *, tournament_id: int, number: int, game_version_id: int | None
) -> dict:
    data = {
        "tournament": tournament_id,
        "number": number,
        "variant": spec.variant,
        "options": spec.options,
        "entry_mode": spec.entry_mode,
        "players": spec.players,
        "table_result": spec.table_result,
    }
    if game_version_id is not None:
        data["game_version"] = game_version_id
    return data


_FLAG_SQL = "UPDATE {} SET {} = %s WHERE {} = %s".format(
    rows.table(Tournament),
    rows.column(Tournament, "settle_queued"),
    rows.column(Tournament, Tournament._meta.pk.name),
)


def _settlement_send(tournament: Tournament) -> None:
    """Send settlement for ``tournament`` (locked by this transaction) when the transaction
    commits, unless a send is already pending: then that task settles this hand too
    (tracker/hands/services/settlement.py, "Sending settlement once")."""
    if tournament.settle_queued:
        return
    with connection.cursor() as cursor:  # no row count read: it may go in a pipeline
        cursor.execute(_FLAG_SQL, [True, tournament.pk])
    tournament.settle_queued = True
    enqueue_on_commit(SETTLE_TASK, tournament.pk)


@transaction.atomic
def hand_check(
    *,
    tournament: Tournament,
    by: Any,
    asked: HandRequest | None = None,
    **fields: Any,
) -> Outcome:
    """The checks of :func:`hand_record` without storing anything: the same DomainError (or
    Conflict) for a hand that would be refused, else the outcome the engine projects.
    ``asked`` is the :class:`HandRequest`, or ``fields`` are its fields.

    The results form calls it while the form itself has errors, so the engine's finding
    (chips that do not add up, say) is listed with them."""
    return _checked(tournament=tournament, by=by, asked=HandRequest.given(asked, fields)).outcome


def _refuse_nul(*named: tuple[str, Any]) -> None:
    """Refuse a NUL character in any key or string of the JSON values ``named`` (each
    ``(path, value)``), naming the first place with one.

    Their JSON text first, one text for them all (written in C): a NUL is written
    ``\\u0000`` there, so a text without that sequence has none. Only a text with it (a NUL,
    or a backslash written before ``u0000``), or values that are not plain JSON, are walked,
    in order, to find the place."""
    try:
        if "\\u0000" not in json.dumps([value for _, value in named]):
            return
    except (TypeError, ValueError):  # not plain JSON (a set, a circular value): walked
        pass
    for path, value in named:
        _refuse_nul_at(value, path)


def _refuse_nul_at(value: Any, path: str) -> None:
    """:func:`_refuse_nul` by a walk of ``value``, naming the first place with a NUL."""
    if isinstance(value, str):
        if "\x00" in value:
            raise DomainError("must not contain NUL characters", field=path)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(key, str) and "\x00" in key:
                raise DomainError("keys must not contain NUL characters", field=path)
            _refuse_nul_at(item, f"{path}.{key}")
    elif isinstance(value, list | tuple):
        for k, item in enumerate(value):
            _refuse_nul_at(item, f"{path}[{k}]")


_SEAT_FIELDS = [f.attname for f in HandSeat._meta.concrete_fields if not f.primary_key]


def _write_hand_seats(hand: Hand, outcome: Outcome, seats: dict[int, Seat]) -> list[HandSeat]:
    """The hand's seat rows, written in one statement without their ids read back (nothing
    needs them: the answer shows none), and returned as written."""
    rows = _hand_seat_rows(hand, outcome, seats)
    rows_insert(HandSeat, [{name: getattr(row, name) for name in _SEAT_FIELDS} for row in rows])
    return rows


def _hand_seat_rows(hand: Hand, outcome: Outcome, seats: dict[int, Seat]) -> list[HandSeat]:
    shown = (
        outcome.result.showdown["players"]
        if outcome.result.showdown
        else [None] * len(outcome.spec.players)
    )
    folded = outcome.result.folded
    # A muck at the showdown ("showdown") is not a fold: the seat played to the end.
    street_no = {street.key: street.number for street in Street}
    rows = []
    for pos, pid in enumerate(outcome.spec.players):
        cards = shown[pos] or {}
        rows.append(
            HandSeat(
                hand=hand,
                player=seats[pid].player,
                seat=seats[pid].number,
                position=pos,
                starting_stack=outcome.result.starting_stacks[pos],
                contributed=outcome.result.contributions[pos],
                folded_street=street_no.get(folded[pos]) if folded[pos] else None,
                down=cards.get("down", []),
                up=cards.get("up", []),
            )
        )
    return rows


@transaction.atomic
def hand_void(*, hand: Hand, reason: str, by) -> Hand:
    """Declare an invalid hand void, so that the hands after it can settle.

    Only a hand the settlement found invalid can be voided, by the league's authority or an
    admin, with a reason. A void hand moves no chips; it keeps its number and its record.
    """
    require(by, hand.tournament.league, Capability.VOID_HAND, "void a hand")
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("say why the hand is void", field="reason")
    hand = Hand.objects.select_for_update().get(pk=hand.pk)
    if hand.status != HandStatus.INVALID:
        raise Conflict(
            f"only an invalid hand can be voided; hand {hand.number} is {hand.status}",
            code=Code.NOT_INVALID,
        )
    previous = hand.status_reason
    with totals_kept(hands=[hand.pk]):  # no change: an invalid hand never counted
        hand.status = HandStatus.VOID
        hand.status_reason = f"void: {reason} (it was invalid {previous})"
        hand.save(update_fields=["status", "status_reason"])
    audit_record(
        action="hand.void",
        target=hand,
        league=hand.tournament.league,
        actor=by,
        data={
            "tournament": hand.tournament_id,
            "number": hand.number,
            "reason": reason,
            "was": previous,
        },
    )
    # The void hand may have been the last: then the game can be over with nothing to settle.
    tournament_finish_if_over(tournament=hand.tournament)
    # Always sent (voiding is rare; an extra send settles nothing twice).
    enqueue_on_commit(SETTLE_TASK, hand.tournament_id)
    return hand


# --------------------------------------------------------------------------
# Recording many hands at once (the hand-history import)


class HandBatch:
    """The next hands of a tournament recorded together, inside the caller's transaction: the
    same checks as :func:`hand_record`, hand after hand against the state of play each one
    leaves (worked out in memory), then one bulk write of the hands, their seats and their
    audit entries, and one settlement send.

    ``HandBatch(tournament=t, by=user)`` locks the tournament and reads its state once;
    :meth:`add` checks a hand (a DomainError or Conflict if it is refused: nothing of the
    batch is written then, the caller's transaction rolls back) and :meth:`save` writes them.

    ``HandBatch(..., after=previous)``, the batch after ``previous`` (saved and committed)
    in one run of an import, goes on from the state of play ``previous`` left in memory
    instead of reading it again, unless something else changed the tournament's play in
    between (:func:`_play_mark`): reading the state loads every hand not settled yet, so
    a long import whose hands wait for settlement would read more at each batch. Such a
    state is right in all that the checks read (the stacks, the hands recorded, the latest
    hand, the seats); its ``pending`` and ``settled_stacks`` stay as of its last read, since
    settling a valid hand moves chips from the one to the other and changes no stack.
    """

    def __init__(self, *, tournament: Tournament, by, after: HandBatch | None = None) -> None:
        require(by, tournament.league, Capability.RECORD_HAND, "record hands")
        self.tournament = (
            Tournament.objects.select_for_update().select_related("league").get(pk=tournament.pk)
        )
        self.by = by
        # The mark is read before the state: a change committed between the two reads makes
        # the next batch's mark differ, so that batch reads the state again.
        self.mark = _play_mark(self.tournament)
        if after is not None and _goes_on(after, self.tournament, self.mark):
            self.state = replace(after.state, tournament=self.tournament)
        else:
            self.state = tournament_state(self.tournament)
        self._rows: list[tuple[dict[str, Any], CheckedHand]] = []

    def add(
        self,
        *,
        entry_mode: str,
        entry: Mapping[str, Any],
        variant: str | None = None,
        options: Mapping[str, Any] | None = None,
        table_result: Mapping[str, Any] | None = None,
        content_hash: str,
        game: str | None = None,
        game_version: int | None = None,
    ) -> CheckedHand:
        """Check a hand as the next one after those added so far (of the house game
        ``game`` at ``game_version``, as a :class:`HandRequest` names it); it is written by
        :meth:`save`."""
        _refuse_over(self.tournament, self.state)
        version = None
        if game is not None or game_version is not None:
            asked = HandRequest(
                entry_mode=entry_mode,
                entry=entry,
                variant=variant,
                options=options,
                game=game,
                game_version=game_version,
            )
            version = house_version(self.tournament, asked)
        checked = _checked_next(
            self.tournament,
            self.state,
            entry_mode=entry_mode,
            entry=entry,
            variant=variant,
            options=options,
            table_result=table_result,
            version=version,
        )
        row = _hand_row(checked, by=self.by, content_hash=content_hash)
        self._rows.append((row, checked))
        # The latest hand is made an instance once, by save(): nothing reads it meanwhile.
        self.state = self.state.then(
            number=row["number"],
            dealer_seat=row["dealer_seat"],
            net=checked.outcome.net(),
            variant=row["variant"],
            latest=None,
        )
        return checked

    def save(self) -> list[int]:
        """Write the hands added (a few queries for the whole batch, no model instance a
        hand) and send settlement; the hands' ids."""
        if not self._rows:
            return []
        hands = [row for row, _ in self._rows]
        try:
            with transaction.atomic():
                ids = rows_copy_values(Hand, hands)
        except IntegrityError:
            raise _clash(hands[0]["number"]) from None
        seats = [
            seat
            for pk, (_, checked) in zip(ids, self._rows, strict=True)
            for seat in _seats(pk, checked)
        ]
        name = str(self.tournament)
        # Sent without waiting for the seats' answer: the server inserts the seats while the
        # audit entries' rows are built here; one wait for both, at the block's end.
        with statements_pipelined():
            rows_insert(HandSeat, seats)
            audit_record_many(
                action="hand.record",
                entries=[
                    (
                        AuditTarget("hand", pk, Hand.label(name, row["number"])),
                        _audit_data(
                            checked.spec,
                            tournament_id=row["tournament_id"],
                            number=row["number"],
                            game_version_id=row["game_version_id"],
                        ),
                    )
                    for pk, (row, checked) in zip(ids, self._rows, strict=True)
                ],
                league=self.tournament.league,
                actor=self.by,
            )
        _settlement_send(self.tournament)
        self.state = replace(self.state, latest=_saved(Hand, hands[-1], ids[-1]))
        self._rows = []
        return ids


def _saved(model: type[Hand], values: dict[str, Any], pk: int) -> Hand:
    """The instance of a row just written from its field values."""
    row = model(pk=pk, **values)
    row._state.adding = False
    row._state.db = connection.alias
    return row


def _seats(hand_id: int, checked: CheckedHand) -> list[dict[str, Any]]:
    """The seat rows of a hand of a batch (its id drawn) as field values, no model
    instance each: the rows :func:`_hand_seat_rows` makes for :func:`hand_record`."""
    result = checked.outcome.result
    shown = result.showdown["players"] if result.showdown else None
    numbers = {s.player_id: s.number for s in checked.seats}
    return [
        {
            "hand_id": hand_id,
            "player_id": pid,
            "seat": numbers[pid],
            "position": pos,
            "starting_stack": result.starting_stacks[pos],
            "contributed": result.contributions[pos],
            "folded_street": _STREET_NUMBER.get(result.folded[pos]) if result.folded[pos] else None,
            "down": (shown[pos] or {}).get("down", []) if shown else [],
            "up": (shown[pos] or {}).get("up", []) if shown else [],
        }
        for pos, pid in enumerate(checked.outcome.spec.players)
    ]


_STREET_NUMBER = {street.key: street.number for street in Street}


class PlayMark(NamedTuple):
    """What changes a tournament's state of play besides the hands recorded after it: its
    seats, the hands found invalid or declared void (an invalid hand's chips leave the
    projection), the ledger's entries that no settlement of a valid hand writes (starting
    chips, rebuys, add-ons, corrections), and the latest hand. Settling a valid hand moves
    its projected chips into the ledger and changes none of it."""

    seats: int
    invalid: int
    void: int
    entries: int
    last_entry: int | None
    latest: tuple[int, str] | None  # number and content hash


def _play_mark(tournament: Tournament) -> PlayMark:
    """The tournament's :class:`PlayMark` as it stands (four indexed queries)."""
    hands = Hand.objects.filter(tournament=tournament)
    counts = hands.filter(status__in=(HandStatus.INVALID, HandStatus.VOID)).aggregate(
        invalid=Count("pk", filter=Q(status=HandStatus.INVALID)),
        void=Count("pk", filter=Q(status=HandStatus.VOID)),
    )
    entries = (
        LedgerEntry.objects.filter(tournament=tournament)
        .exclude(kind__in=(LedgerKind.CONTRIBUTION, LedgerKind.AWARD))
        .aggregate(n=Count("pk"), last=Max("pk"))
    )
    latest = hands.order_by("-number").values_list("number", "content_hash").first()
    return PlayMark(
        seats=Seat.objects.filter(tournament=tournament).count(),
        invalid=counts["invalid"],
        void=counts["void"],
        entries=entries["n"],
        last_entry=entries["last"],
        latest=tuple(latest) if latest else None,
    )


def _goes_on(previous: HandBatch, tournament: Tournament, mark: PlayMark) -> bool:
    """Whether ``previous``'s state of play is still the tournament's: the same mark, save
    for the latest hand, which must be the last hand ``previous``'s state counted."""
    state = previous.state
    if previous.tournament.pk != tournament.pk or previous._rows:
        return False
    latest = state.latest
    counted = (state.hands_recorded, latest.content_hash) if latest is not None else None
    return mark == previous.mark._replace(latest=counted)
