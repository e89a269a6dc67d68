"""Settling hands (run by the worker).

``tournament_settle`` settles a tournament's recorded hands in hand order, each exactly once.
It holds the tournament's settlement lock (tracker/core/locks.py), not the tournament row lock
that recording takes, so hands are recorded while earlier ones settle. In one transaction it
takes up to ``BATCH_HANDS`` recorded hands in order, re-evaluates each with the engine against
the stacks in the ledger (carried forward in memory from one hand to the next), writes their
pots, ledger entries, seats and readings in a few bulk statements, and marks each verified,
disputed or invalid. An invalid hand stops the queue: later hands wait for it. On PostgreSQL
the batch's lock and reads go to the server together, and so do its writes
(``statements_pipelined``): a batch waits on the server about eleven times, whatever its size.

Sending settlement once
-----------------------
Recording a hand sends the settlement task for its tournament only when none is pending:
under the tournament row lock it already holds, ``hand_record`` reads
``Tournament.settle_queued``; if it is off, it turns it on and sends the task when its
transaction commits; if it is on, it sends nothing. ``tournament_settle`` turns the flag off
in a statement of its own (committed at once: the worker runs it outside any transaction)
*before* it reads the recorded hands. That statement updates the tournament row, so it waits
for a recording transaction holding the row lock, and recording waits for it. Every
interleaving of a recording R (of hand H) with a task T:

- R commits before T's clear: T reads the hands after its clear has committed, so after R
  committed, and settles H (whether or not R sent a task of its own).
- R takes the row lock after T's clear has committed: R reads the flag off, turns it on and
  sends a new task T2, which settles H (T may settle it first; T2 then finds nothing).
- R holds the row lock when T's clear runs: the clear waits for R to commit, then as the
  first case.

The clear only updates a row whose flag is on, so a clear that finds it off writes nothing
and waits for no one (on PostgreSQL a row that does not match is skipped, not locked); a
recording in progress then either read the flag off (and sends) or read it on. In general: a
recording R that sends nothing read the flag on, so some earlier recording turned it on and
sent a task, and no clear committed between that and R taking the row lock. The first clear
after that send is an update of the row (it matched), so it waits for R's lock and commits
after R; the task that made it reads the hands afterwards and settles H. Nothing is settled
twice: settling stays idempotent (below), so extra tasks (a redelivery, the sweep,
``hand_void``, which always sends) settle nothing more.

A send that is lost (the broker is away, the worker dies before the clear) leaves the flag on
and the hand ``recorded``; later recordings of that tournament send nothing until the sweep
(tracker/hands/services/sweep.py), which sends for every tournament with a hand ``recorded``
for ``SETTLE_GRACE`` seconds whatever its flag, runs the task, which clears the flag. A worker
killed after the clear leaves the flag off: the next recording sends, and the sweep too.
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone

from tracker.audit.services import system_actor
from tracker.core import rows
from tracker.core.bulk import rows_create, rows_insert, rows_update, statements_pipelined
from tracker.core.locks import SETTLEMENT, transaction_lock
from tracker.core.totals import totals_given, totals_kept
from tracker.engine.errors import DomainError
from tracker.engine.tournament import is_over
from tracker.engine.version import ENGINE_VERSION
from tracker.hands.models import (
    DisputeSource,
    DraftHand,
    EvaluationSource,
    Hand,
    HandSeat,
    HandStatus,
    Pot,
)
from tracker.hands.selectors.evaluation import HandSpec, Outcome, hand_evaluate
from tracker.hands.selectors.facts import facts_for_hand, facts_observer
from tracker.hands.services.evaluations import (
    disputes_flag,
    evaluation_record,
    evaluations_record,
)
from tracker.leagues.models import League
from tracker.tournaments.models import (
    LedgerEntry,
    LedgerKind,
    Tournament,
)
from tracker.tournaments.selectors import Ledger, tournament_ledger_rows, tournament_ledger_sql
from tracker.tournaments.services import tournament_finish_if_over

log = logging.getLogger(__name__)


# --------------------------------------------------------------------------
# Settlement


def _fault_delay() -> None:
    """Test hook: a pause inside the settlement transaction, so a test can kill the worker there."""
    delay = float(os.environ.get("HOMEGAME_SETTLE_FAULT_DELAY", "0") or 0)
    if delay:
        time.sleep(delay)


# Hands settled per transaction: a killed worker loses (rolls back) at most this many, which
# the next run settles again; more per transaction means fewer statements per hand.
BATCH_HANDS = 50

SETTLED_OR_VOID = (HandStatus.VERIFIED, HandStatus.DISPUTED, HandStatus.VOID)

# What settling reads of a hand's seats (it writes their stacks, chips and facts): the
# cards and the facts as recorded are not read.
SEATS_SETTLED = HandSeat.objects.only("id", "hand_id", "player_id", "position")
_SEAT_FIELDS = rows.fields_named(HandSeat, ("id", "hand_id", "player_id", "position"))


class _Sent:
    """A read written out and sent (inside ``statements_pipelined``: its answer comes with
    the next fetch's); ``rows()`` reads its rows."""

    def __init__(self, sql: str, params: list) -> None:
        self.cursor = connection.cursor()
        self.cursor.execute(sql, params)

    def rows(self) -> list[tuple]:
        try:
            return self.cursor.fetchall()
        finally:
            self.cursor.close()


def _seats_send(tournament_id: int) -> _Sent:
    """Send the read of the seats (``SEATS_SETTLED``, in position order) of the hands the
    batch reads (the tournament's first ``BATCH_HANDS`` hands not settled or void, by
    number), each row led by its hand's id and its live draft's id (or NULL; a hand
    without seats still has a row)."""
    col = rows.column
    sql = (
        "SELECT h.{id}, d.{draft_id}, {seats} FROM (SELECT {id}, {number} FROM {hands} "
        "WHERE {tournament} = %s AND {status} NOT IN ({statuses}) ORDER BY {number} "
        "LIMIT %s) h LEFT JOIN {seat_table} s ON s.{hand} = h.{id} "
        "LEFT JOIN {draft_table} d ON d.{draft_hand} = h.{id} "
        "ORDER BY h.{number}, s.{position}"
    ).format(
        id=col(Hand, "id"),
        number=col(Hand, "number"),
        hands=rows.table(Hand),
        tournament=col(Hand, "tournament"),
        status=col(Hand, "status"),
        statuses=", ".join(["%s"] * len(SETTLED_OR_VOID)),
        seats=rows.select_list("s", _SEAT_FIELDS),
        seat_table=rows.table(HandSeat),
        hand=col(HandSeat, "hand"),
        position=col(HandSeat, "position"),
        draft_id=col(DraftHand, "id"),
        draft_table=rows.table(DraftHand),
        draft_hand=col(DraftHand, "hand"),
    )
    return _Sent(sql, [tournament_id, *(s.value for s in SETTLED_OR_VOID), BATCH_HANDS])


def _seats_attach(hands: list[Hand], sent: _Sent) -> tuple[list[Hand], set[int]]:
    """Give each of ``hands`` its seats read by ``sent`` (``_seats_send``) as a prefetch
    would; returns the hands up to the first whose seats were not read (recorded, or moved
    into the first ``BATCH_HANDS`` by a void, between the two reads: it waits for the next
    run, which its recording has sent), and the ids of those with a live draft."""
    convs = rows.converters(_SEAT_FIELDS)
    by_hand: dict[int, list[HandSeat]] = {}
    live: set[int] = set()
    for hand_id, draft_id, *values in sent.rows():
        if draft_id is not None:
            live.add(hand_id)
        seats = by_hand.setdefault(hand_id, [])
        if values[0] is not None:
            seats.append(rows.instance(HandSeat, _SEAT_FIELDS, convs, values))
    hand_field = HandSeat._meta.get_field("hand")
    out = []
    for h in hands:
        if h.pk not in by_hand:
            break
        for seat in by_hand[h.pk]:
            hand_field.set_cached_value(seat, h)  # as the prefetch sets it
        h._prefetched_objects_cache = {"hand_seats": by_hand[h.pk]}
        out.append(h)
    return out, live


_TOURNAMENT_FIELDS = rows.fields_named(Tournament)
_LEAGUE_FIELDS = rows.fields_named(League)


def _tournament_send(tournament_id: int) -> _Sent:
    """Send the read of the tournament with its league (``select_related("league")``)."""
    sql = "SELECT {}, {} FROM {} t JOIN {} l ON l.{} = t.{} WHERE t.{} = %s".format(
        rows.select_list("t", _TOURNAMENT_FIELDS),
        rows.select_list("l", _LEAGUE_FIELDS),
        rows.table(Tournament),
        rows.table(League),
        rows.column(League, League._meta.pk.name),
        rows.column(Tournament, "league"),
        rows.column(Tournament, Tournament._meta.pk.name),
    )
    return _Sent(sql, [tournament_id])


def _tournament_read(sent: _Sent) -> Tournament | None:
    found = sent.rows()
    if not found:
        return None
    values, n = found[0], len(_TOURNAMENT_FIELDS)
    tournament = rows.instance(
        Tournament, _TOURNAMENT_FIELDS, rows.converters(_TOURNAMENT_FIELDS), values[:n]
    )
    league = rows.instance(League, _LEAGUE_FIELDS, rows.converters(_LEAGUE_FIELDS), values[n:])
    Tournament._meta.get_field("league").set_cached_value(tournament, league)
    return tournament


def _ledger_send(tournament_id: int) -> _Sent:
    """Send the read of the tournament's ledger (``tournament_ledger_sql``: what
    ``tournament_stacks`` and ``chips_bought_from`` read), in one statement."""
    return _Sent(*tournament_ledger_sql(tournament_id))


def settlement_lock(tournament_id: int) -> None:
    """Hold the lock that serialises settling ``tournament_id`` (and moving its chips by a
    ruling) until the transaction ends. Recording does not take it."""
    transaction_lock(SETTLEMENT, tournament_id)


def settlement_queued_clear(tournament_id: int) -> None:
    """Turn off the tournament's ``settle_queued`` flag, before reading its recorded hands:
    a hand recorded from now on sends settlement again ("Sending settlement once" above).
    One statement, committed at once outside a transaction; no write when the flag is off."""
    Tournament.objects.filter(pk=tournament_id, settle_queued=True).update(settle_queued=False)


@dataclass(frozen=True)
class SettledHand:
    """A hand settled in the current transaction: what writing it needs."""

    hand: Hand
    stacks: list[int]  # starting stacks by position, from the ledger
    outcome: Outcome
    reading: dict  # the engine's reading (``outcome.reading()``, built once)
    facts: list[dict]  # per position: the per-seat facts (tracker/engine/facts.py)

    @property
    def hand_id(self) -> int:
        return self.hand.pk


@system_actor()
def tournament_settle(*, tournament_id: int) -> int:
    """Settle the recorded hands of a tournament in hand order; returns how many were settled.

    Safe to run any number of times, concurrently too: each batch of hands is settled in one
    transaction under the tournament's settlement lock, and only hands still ``recorded``.
    """
    settlement_queued_clear(tournament_id)
    settled = 0
    while True:
        waiting = Hand.objects.filter(tournament_id=tournament_id, status=HandStatus.RECORDED)
        if not waiting.exists():  # nothing to do (a repeated send): this and the clear
            return settled
        with transaction.atomic():
            # BEGIN, the lock and the batch's reads are sent together and answered at the
            # hands' fetch (the server runs them in order: the reads after the lock).
            with statements_pipelined():
                settlement_lock(tournament_id)
                seats = _seats_send(tournament_id)
                ledger = _ledger_send(tournament_id)
                night = _tournament_send(tournament_id)
                read = list(
                    Hand.objects.filter(tournament_id=tournament_id)
                    .exclude(status__in=SETTLED_OR_VOID)
                    .order_by("number")
                    .select_related("game_version")[:BATCH_HANDS]  # a house game's too
                )
                hands, live = _seats_attach(read, seats)
                stacks_read = tournament_ledger_rows(ledger.rows())
                tournament = _tournament_read(night)
            batch = []
            for hand in hands:
                if hand.status != HandStatus.RECORDED:
                    break  # an invalid hand: it and every later hand wait
                batch.append(hand)
            if not batch:
                return settled  # settled meanwhile, or the first unsettled hand is invalid
            if tournament is None:
                return settled
            for hand in batch:
                hand.tournament = tournament
            # The running totals count the hands settled, in the same transaction.
            with totals_kept(new_hands=[hand.pk for hand in batch]):
                done, stacks = _settle_hands(tournament, batch, stacks_read, live)
            settled += done
            # In the same transaction: the hand that ends the game finishes the tournament.
            # Only a batch that settled the last hand allowed, or left one player with chips,
            # can have ended it (with no hand recorded after it, the settled stacks are the
            # stacks), so the others skip reading the state of play again.
            if done and is_over(
                hands_played=batch[done - 1].number,
                hand_limit=tournament.hand_limit,
                stacks=stacks.values(),
            ):
                tournament_finish_if_over(tournament=tournament)


def _settle_hands(
    tournament: Tournament,
    hands: list[Hand],
    ledger_read: Ledger,
    live: set[int],
) -> tuple[int, dict[int, int]]:
    """Settle ``hands`` (consecutive, recorded) in order, stopping at the first the stacks do
    not allow (marked invalid), from the ledger as read at the batch's start;
    returns how many were settled and the stacks after them (by player id)."""
    ledger, bought = ledger_read
    # Chips bought between hands (rebuys, add-ons) count from the hand they were bought
    # before: those the ledger holds for a later hand than the first of the batch are taken
    # out, and put back just before their hand (the stacks returned hold them all again).
    later = [row for row in bought if row[0] > hands[0].number]
    for _, pid, amount in later:
        ledger[pid] -= amount
    settled: list[SettledHand] = []

    def with_later(after: int) -> dict[int, int]:
        for number, pid, amount in later:
            if number > after:
                ledger[pid] += amount
        return ledger

    for hand in hands:
        for number, pid, amount in later:
            if number == hand.number:
                ledger[pid] += amount
        spec = HandSpec.of(hand)
        stacks = [ledger[pid] for pid in spec.players]
        observer = facts_observer(hand)  # the facts from the settling walk: one walk a hand
        try:
            outcome = hand_evaluate(spec, stacks, observers=[observer])
        except DomainError as exc:
            _write_settled(tournament, settled, live, hands)
            _mark_invalid(hand, stacks, exc)
            return len(settled), with_later(hand.number)
        for pid, chips in outcome.net().items():
            ledger[pid] += chips
        reading = outcome.reading()
        facts = facts_for_hand(hand, reading, observed=observer)
        settled.append(
            SettledHand(hand=hand, stacks=stacks, outcome=outcome, reading=reading, facts=facts)
        )
    _write_settled(tournament, settled, live, hands)
    return len(settled), with_later(hands[-1].number)


def _mark_invalid(hand: Hand, stacks: list[int], exc: DomainError) -> None:
    evaluation_record(hand=hand, source=EvaluationSource.SETTLEMENT, error=exc.message)
    hand.status = HandStatus.INVALID
    hand.status_reason = f"with the stacks {stacks}: {exc.message}"
    hand.engine_version = ENGINE_VERSION
    hand.settled_at = timezone.now()
    hand.save(update_fields=["status", "status_reason", "engine_version", "settled_at"])
    log.warning("hand invalid", extra={"hand": hand.pk, "reason": hand.status_reason})


def _write_settled(
    tournament: Tournament, settled: list[SettledHand], live: set[int], batch: list[Hand]
) -> None:
    """Write what settling ``settled`` decided: pots, ledger entries, seats, hands, readings
    (a few bulk statements for the whole batch), then flag the disputed pots. The seats
    written go to the statistics' running totals as they are here (``totals_given``, in the
    rows ``seat_tallies`` reads: ``live`` are the ids of the hands with a live draft), not
    read back; ``batch`` is every hand of the block, those after ``settled`` unsettled."""
    if not settled:
        return
    pots: list[tuple[SettledHand, Pot]] = []
    for done in settled:
        for k, pot in enumerate(done.outcome.pots):
            row = Pot(
                hand=done.hand,
                index=k,
                amount=pot.amount,
                eligible=pot.eligible,
                engine_chips=pot.engine_award,
                table_chips=pot.table_award,
                award_chips=pot.award,
                disputed=pot.disputed,
            )
            pots.append((done, row))
    # The writes are sent together: one round trip to the server for the lot, and one for
    # the pots' ids, drawn first (the award entries name their pot).
    with statements_pipelined():
        rows_create([row for _, row in pots])
        now = timezone.now()
        entries = [
            {
                "tournament_id": tournament.pk,
                "player_id": pid,
                "hand_id": done.hand.pk,
                "kind": LedgerKind.CONTRIBUTION,
                "amount": -chips,
                "created_at": now,
            }
            for done in settled
            for pid, chips in done.outcome.contributed().items()
            if chips
        ]
        entries += [
            {
                "tournament_id": tournament.pk,
                "player_id": pid,
                "hand_id": done.hand.pk,
                "pot_id": row.pk,
                "kind": LedgerKind.AWARD,
                "amount": chips,
                "created_at": now,
            }
            for done, row in pots
            for pid, chips in row.award_chips.items()
            if chips
        ]
        seats, tallied = [], []
        for done in settled:
            hand, outcome = done.hand, done.outcome
            won = outcome.won()
            for seat in hand.hand_seats.all():
                pos = seat.position
                seat.starting_stack = done.stacks[pos]
                seat.contributed = outcome.result.contributions[pos]
                seat.won = won[seat.player_id]
                seat.facts = done.facts[pos]
                seats.append(seat)
                tallied.append(
                    (
                        seat.pk,
                        seat.player_id,
                        tournament.league_id,
                        tournament.pk,
                        tournament.date,
                        hand.variant,
                        seat.facts,
                        seat.won,
                        seat.contributed,
                        hand.pk if hand.pk in live else None,
                    )
                )
            hand.status = HandStatus.DISPUTED if outcome.disputed else HandStatus.VERIFIED
            hand.status_reason = (
                "the table's award differs from the engine's" if outcome.disputed else ""
            )
            hand.engine_reading = done.reading
            hand.engine_version = ENGINE_VERSION
            hand.settled_at = now
            hand.projected_net_chips = outcome.net()
        rows_insert(LedgerEntry, entries)  # no ids needed back: no model instance per entry
        rows_update(seats, ["starting_stack", "contributed", "won", "facts"])
        rows_update(
            [done.hand for done in settled],
            [
                "status",
                "status_reason",
                "engine_reading",
                "engine_version",
                "settled_at",
                "projected_net",
            ],
        )
        evaluations_record(
            [(done.hand, done.outcome) for done in settled], source=EvaluationSource.SETTLEMENT
        )
    totals_given(keeper="statistics", new_hands=[hand.pk for hand in batch], value=tallied)
    for done in settled:
        disputed = [row for owner, row in pots if owner is done and row.disputed]
        if disputed:
            disputes_flag(
                hand=done.hand,
                pots=disputed,
                source=DisputeSource.SETTLEMENT,
                reason="the table's award differs from the engine's",
            )
    _fault_delay()
