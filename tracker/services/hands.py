"""Recording and settling hands.

``hand_record`` checks a hand against the tournament rules and the stud
procedure at once (with the stacks projected from every earlier hand, settled
or not), stores it with status ``recorded`` and enqueues settlement when the
transaction commits. Nothing is stored when anything is wrong.

``tournament_settle`` (run by the worker) settles a tournament's recorded hands
in hand order, each exactly once: under a lock on the tournament row it takes
the first recorded hand, re-evaluates it with the engine against the stacks in
the ledger, writes its pots and ledger entries and marks it verified, disputed
or invalid. An invalid hand stops the queue: later hands wait for it.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone

from tracker.engine import tournament as rules
from tracker.engine.announcements import check_variant, max_players, normalize_announcements
from tracker.engine.errors import Conflict, DomainError
from tracker.engine.pots import award_pot, split_amount
from tracker.engine.procedure import HandResult, replay_hand, settle_quick
from tracker.engine.version import ENGINE_VERSION
from tracker.hands.models import (
    DisputeSource,
    EntryMode,
    EvaluationSource,
    Hand,
    HandSeat,
    HandStatus,
    Pot,
)
from tracker.selectors.tournaments import tournament_stacks, tournament_standings, tournament_state
from tracker.services.access import CAN_RECORD, CAN_VOID, require_role
from tracker.services.audit import audit_record, system_actor
from tracker.services.rulings import disputes_flag, evaluation_record
from tracker.services.stats import facts_for_hand
from tracker.tournaments.models import (
    FinalStanding,
    LedgerEntry,
    LedgerKind,
    Tournament,
    TournamentStatus,
)

log = logging.getLogger(__name__)

FULL_KEYS = {"actions", "seventh_card", "buys", "declarations"}
QUICK_SEAT_KEYS = {"player", "put_in", "folded", "down", "up", "bought", "declare", "seventh"}


@dataclass(frozen=True)
class HandSpec:
    """What the engine needs to evaluate a hand, whatever stacks it is played against."""

    variant: str
    options: dict
    stakes: rules.Level
    players: list[int]  # player ids by position: 0 = dealer's left, the dealer last
    entry_mode: str
    entry: dict
    table_result: dict | None

    @classmethod
    def of(cls, hand: Hand) -> HandSpec:
        return cls(
            variant=hand.variant,
            options=hand.options,
            stakes=rules.Level(hand.level, hand.ante, hand.bring_in, hand.small_bet, hand.big_bet),
            players=list(hand.positions),
            entry_mode=hand.entry_mode,
            entry=hand.entry,
            table_result=hand.table_result,
        )


@dataclass(frozen=True)
class PotOutcome:
    amount: int
    eligible: list[int]  # player ids
    engine_award: dict[int, int]
    table_award: dict[int, int] | None
    award: dict[int, int]  # what stands

    @property
    def disputed(self) -> bool:
        return self.table_award is not None and self.table_award != self.engine_award


@dataclass(frozen=True)
class Outcome:
    """A hand evaluated against given starting stacks."""

    result: HandResult
    spec: HandSpec
    pots: list[PotOutcome]

    @property
    def disputed(self) -> bool:
        return any(p.disputed for p in self.pots)

    def contributed(self) -> dict[int, int]:
        return dict(zip(self.spec.players, self.result.contributions, strict=True))

    def won(self) -> dict[int, int]:
        totals = {pid: 0 for pid in self.spec.players}
        for pot in self.pots:
            for pid, chips in pot.award.items():
                totals[pid] += chips
        return totals

    def net(self) -> dict[int, int]:
        won = self.won()
        return {pid: won[pid] - c for pid, c in self.contributed().items()}

    def reading(self) -> dict:
        """The engine's reading, JSON-ready, with positions mapped to player ids."""
        data = self.result.to_dict()
        data["players"] = list(self.spec.players)
        data["engine_version"] = ENGINE_VERSION
        return data


# --------------------------------------------------------------------------
# Evaluation (pure: no database)


def _quick_arguments(spec: HandSpec) -> dict[str, Any]:
    entry = spec.entry
    seats = entry.get("seats")
    if not isinstance(seats, list):
        raise DomainError("must be a list with one entry per player dealt in", field="entry.seats")
    by_player: dict[int, tuple[int, Mapping]] = {}
    for i, seat in enumerate(seats):
        path = f"entry.seats[{i}]"
        if not isinstance(seat, Mapping):
            raise DomainError("must be an object", field=path)
        unknown = set(seat) - QUICK_SEAT_KEYS
        if unknown:
            raise DomainError(f"unknown field(s): {', '.join(sorted(unknown))}", field=path)
        pid = seat.get("player")
        if pid not in spec.players:
            raise DomainError(
                f"player {pid!r} is not dealt into this hand (dealt in: {spec.players})",
                code="not_dealt_in",
                field=f"{path}.player",
            )
        if pid in by_player:
            raise DomainError(f"player {pid} is listed twice", field=f"{path}.player")
        by_player[pid] = (i, seat)
    missing = [pid for pid in spec.players if pid not in by_player]
    if missing:
        raise DomainError(
            f"every player dealt in needs a seat entry; missing: {missing}", field="entry.seats"
        )
    ordered = [by_player[pid][1] for pid in spec.players]
    has_cards = [bool(s.get("down") or s.get("up")) for s in ordered]
    return {
        "put_in": [s.get("put_in") for s in ordered],
        "folded": [s.get("folded") for s in ordered],
        "shown": [
            {"down": s.get("down") or [], "up": s.get("up") or []} if has_cards[k] else None
            for k, s in enumerate(ordered)
        ],
        "buys": [bool(s.get("bought", False)) for s in ordered],
        "declarations": [s.get("declare") for s in ordered],
        "seventh_card": [s.get("seventh") for s in ordered],
        "community": entry.get("community"),
        "_entry_index": [by_player[pid][0] for pid in spec.players],
    }


def _quick_field(path: str, index_of: list[int]) -> str:
    """Map an engine path like ``put_in[2]`` or ``shown[1].down[0]`` to ``entry.seats[k]...``."""
    names = {
        "put_in": "put_in",
        "folded": "folded",
        "buys": "bought",
        "declarations": "declare",
        "seventh_card": "seventh",
    }
    head, _, rest = path.partition("[")
    if head in names or head == "shown":
        number, _, tail = rest.partition("]")
        if number.isdigit():
            k = index_of[int(number)]
            if head == "shown":
                return f"entry.seats[{k}]{tail}" if tail else f"entry.seats[{k}]"
            return f"entry.seats[{k}].{names[head]}"
    if path == "community":
        return "entry.community"
    return f"entry.{path}" if path else "entry"


def _run_engine(spec: HandSpec, stacks: Sequence[int]) -> HandResult:
    stakes = {
        "ante": spec.stakes.ante,
        "bring_in": spec.stakes.bring_in,
        "small_bet": spec.stakes.small_bet,
        "big_bet": spec.stakes.big_bet,
    }
    if any(s <= 0 for s in stacks):
        out = [pid for pid, s in zip(spec.players, stacks, strict=True) if s <= 0]
        raise DomainError(
            f"player(s) {out} have no chips and cannot be dealt in", code="player_out"
        )
    if spec.entry_mode == EntryMode.QUICK:
        args = _quick_arguments(spec)
        index_of = args.pop("_entry_index")
        try:
            return settle_quick(
                variant=spec.variant,
                options=spec.options,
                stakes=stakes,
                starting_stacks=list(stacks),
                **args,
            )
        except DomainError as exc:
            fields = {_quick_field(k, index_of): v for k, v in exc.fields.items()}
            raise DomainError(exc.message, code=exc.code, fields=fields or None) from None
    entry = spec.entry
    unknown = set(entry) - FULL_KEYS
    if unknown:
        raise DomainError(f"unknown field(s): {', '.join(sorted(unknown))}", field="entry")
    history = {
        "variant": "F7S",
        "_variant": spec.variant,
        "_options": dict(
            spec.options
        ),  # every announcement, nulls included (a null qualifier is meant)
        "antes": stakes["ante"],
        "bring_in": stakes["bring_in"],
        "small_bet": stakes["small_bet"],
        "big_bet": stakes["big_bet"],
        "starting_stacks": list(stacks),
        "actions": entry.get("actions"),
    }
    for ours, theirs in (
        ("seventh_card", "_seventh_card"),
        ("buys", "_buys"),
        ("declarations", "_declarations"),
    ):
        if entry.get(ours) is not None:
            history[theirs] = entry[ours]
    try:
        return replay_hand(history)
    except DomainError as exc:
        fields = {}
        for k, v in exc.fields.items():
            k = k.lstrip("_")
            fields[f"entry.{k}"] = v
        raise DomainError(exc.message, code=exc.code, fields=fields or None) from None


def _table_awards(spec: HandSpec, result: HandResult) -> list[dict[int, int] | None]:
    """The table's award per pot, by player id, from the table result as entered."""
    table = spec.table_result
    if table is None:
        return [None] * len(result.pots)
    if not isinstance(table, Mapping):
        raise DomainError("must be an object", field="table_result")
    position = {pid: k for k, pid in enumerate(spec.players)}
    per_pot = table.get("pots")
    if per_pot is not None:
        if not isinstance(per_pot, list) or len(per_pot) != len(result.pots):
            raise DomainError(
                f"give one entry per pot: this hand has {len(result.pots)} pot(s)",
                code="table_result",
                field="table_result.pots",
            )
        entries = [(f"table_result.pots[{k}]", e) for k, e in enumerate(per_pot)]
    else:
        entries = [("table_result", table)] * len(result.pots)
    game = spec.options.get("game", "high")
    awards: list[dict[int, int] | None] = []
    for k, (pot, (path, e)) in enumerate(zip(result.pots, entries, strict=True)):
        if not isinstance(e, Mapping) or not ({"winners", "high", "low"} & set(e)):
            raise DomainError(
                'name the winners: {"winners": [players]} or {"high": [...], "low": [...]}',
                code="table_result",
                field=path,
            )
        eligible = {spec.players[i] for i in pot.eligible}
        chosen: dict[str, list[int]] = {}
        for key in ("winners", "high", "low"):
            ids = e.get(key)
            if ids is None:
                continue
            if not isinstance(ids, list) or not all(isinstance(x, int) for x in ids):
                raise DomainError("must be a list of player ids", field=f"{path}.{key}")
            for x in ids:
                if x not in position:
                    raise DomainError(
                        f"player {x} is not dealt into this hand", field=f"{path}.{key}"
                    )
            # A hand-wide result applies to each pot among the players eligible for it.
            chosen[key] = [x for x in ids if x in eligible] if per_pot is None else ids
            bad = [x for x in chosen[key] if x not in eligible]
            if bad:
                raise DomainError(f"player(s) {bad} cannot win pot {k}", field=f"{path}.{key}")
        if "winners" in chosen:
            winners = chosen["winners"]
            if not winners:
                raise DomainError(
                    f"no winner named for pot {k} is eligible for it; give per-pot winners",
                    code="table_result",
                    field=path,
                )
            pairs = split_amount(pot.amount, [position[x] for x in winners])
        else:
            high = tuple(sorted(position[x] for x in chosen.get("high", [])))
            low = tuple(sorted(position[x] for x in chosen.get("low", [])))
            if not high and not low:
                raise DomainError(
                    f"no winner named for pot {k} is eligible for it; give per-pot winners",
                    code="table_result",
                    field=path,
                )
            pairs = award_pot(pot.amount, game, high, low, pot.eligible)
        awards.append({spec.players[seat]: chips for seat, chips in pairs})
    return awards


def hand_evaluate(spec: HandSpec, stacks: Sequence[int]) -> Outcome:
    """Evaluate a hand against starting ``stacks`` (by position). Raises DomainError."""
    result = _run_engine(spec, stacks)
    table = _table_awards(spec, result)
    pots = []
    for k, pot in enumerate(result.pots):
        engine_award = {spec.players[seat]: chips for seat, chips in result.payouts[k].awards}
        pots.append(
            PotOutcome(
                amount=pot.amount,
                eligible=[spec.players[i] for i in pot.eligible],
                engine_award=engine_award,
                table_award=table[k],
                award=table[k] if table[k] is not None else engine_award,
            )
        )
    return Outcome(result=result, spec=spec, pots=pots)


# --------------------------------------------------------------------------
# Recording


def _resolve_variant(
    tournament: Tournament, variant: str | None, options: Mapping | None
) -> tuple[str, dict]:
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


@transaction.atomic
def hand_record(
    *,
    tournament: Tournament,
    by,
    entry_mode: str,
    entry: Mapping[str, Any],
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    table_result: Mapping[str, Any] | None = None,
    number: int | None = None,
    content_hash: str = "",
) -> Hand:
    """Record the next hand of ``tournament`` and enqueue its settlement.

    ``number``, when given, must be the next hand number (a second client
    recording the same number gets a conflict). The hand is checked with the
    engine against the stacks projected from every earlier hand; any fault is
    a DomainError naming the field, and nothing is stored. ``content_hash`` is
    stored on the hand (the hand-history import uses it to skip hands it has
    already imported).
    """
    require_role(by, tournament.league, CAN_RECORD, "record hands")
    tournament = (
        Tournament.objects.select_for_update().select_related("league").get(pk=tournament.pk)
    )
    if tournament.status == TournamentStatus.FINISHED:
        raise Conflict(f"{tournament.name} is over: no more hands", code="tournament_over")
    state = tournament_state(tournament)
    if state.over:
        why = (
            f"the {tournament.hand_limit}-hand limit is reached"
            if state.hands_recorded >= tournament.hand_limit
            else "one player holds every chip"
        )
        raise Conflict(
            f"{tournament.name} is over ({why}): hand {state.next_number} cannot be dealt",
            code="tournament_over",
        )
    if number is not None and number != state.next_number:
        if number < state.next_number:
            raise Conflict(
                f"hand {number} is already recorded; the next hand is {state.next_number}",
                code="hand_exists",
                field="number",
            )
        raise DomainError(f"the next hand is {state.next_number}, not {number}", field="number")
    if entry_mode not in EntryMode.values:
        raise DomainError(
            f"{entry_mode!r} is not an entry mode ({', '.join(EntryMode.values)})",
            field="entry_mode",
        )
    if not isinstance(entry, Mapping):
        raise DomainError("must be an object", field="entry")
    for name, value in (("entry", entry), ("table_result", table_result), ("options", options)):
        _refuse_nul(value, name)  # stored as JSON: PostgreSQL cannot hold a NUL character
    variant, options = _resolve_variant(tournament, variant, options)
    seats = state.next_positions()
    if len(seats) > max_players(variant):
        raise DomainError(
            f"{variant} is dealt to at most {max_players(variant)} players, "
            f"and {len(seats)} are still in",
            code="player_count",
            field="variant",
        )
    stakes = state.next_stakes
    spec = HandSpec(
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

    try:
        with transaction.atomic():
            hand = Hand.objects.create(
                tournament=tournament,
                number=state.next_number,
                level=stakes.level,
                ante=stakes.ante,
                bring_in=stakes.bring_in,
                small_bet=stakes.small_bet,
                big_bet=stakes.big_bet,
                dealer_seat=state.next_dealer,
                variant=variant,
                options=options,
                entry_mode=entry_mode,
                entry=spec.entry,
                table_result=spec.table_result,
                positions=spec.players,
                starting_stacks=stacks,
                projected_net={str(k): v for k, v in outcome.net().items()},
                content_hash=content_hash,
                recorded_by=by if getattr(by, "is_authenticated", False) else None,
            )
    except IntegrityError:
        raise Conflict(
            f"hand {state.next_number} was recorded at the same time by someone else",
            code="hand_exists",
            field="number",
        ) from None
    _write_hand_seats(hand, outcome, seats={s.player_id: s.number for s in seats})
    audit_record(
        action="hand.record",
        target=hand,
        league=tournament.league,
        actor=by,
        data={
            "tournament": tournament.pk,
            "number": hand.number,
            "variant": variant,
            "options": options,
            "entry_mode": entry_mode,
            "players": spec.players,
            "table_result": spec.table_result,
        },
    )
    tid = tournament.pk
    transaction.on_commit(lambda: _enqueue_settlement(tid))
    return hand


def _refuse_nul(value: Any, path: str) -> None:
    """Refuse a NUL character in any key or string of a JSON value, naming where it is."""
    if isinstance(value, str):
        if "\x00" in value:
            raise DomainError("must not contain NUL characters", field=path)
    elif isinstance(value, Mapping):
        for key, item in value.items():
            if isinstance(key, str) and "\x00" in key:
                raise DomainError("keys must not contain NUL characters", field=path)
            _refuse_nul(item, f"{path}.{key}")
    elif isinstance(value, list | tuple):
        for k, item in enumerate(value):
            _refuse_nul(item, f"{path}[{k}]")


def _write_hand_seats(hand: Hand, outcome: Outcome, seats: dict[int, int]) -> None:
    shown = (
        outcome.result.showdown["players"]
        if outcome.result.showdown
        else [None] * len(outcome.spec.players)
    )
    folded = outcome.result.folded
    street_no = {"third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "showdown": 7}
    rows = []
    for pos, pid in enumerate(outcome.spec.players):
        cards = shown[pos] or {}
        rows.append(
            HandSeat(
                hand=hand,
                player_id=pid,
                seat=seats[pid],
                position=pos,
                starting_stack=outcome.result.starting_stacks[pos],
                contributed=outcome.result.contributions[pos],
                folded_street=street_no.get(folded[pos]) if folded[pos] else None,
                down=cards.get("down", []),
                up=cards.get("up", []),
            )
        )
    HandSeat.objects.bulk_create(rows)


def _enqueue_settlement(tournament_id: int) -> None:
    from tracker.tasks import tournament_settle_task

    tournament_settle_task.delay(tournament_id)


# --------------------------------------------------------------------------
# Settlement


def _fault_delay() -> None:
    """Test hook: a pause inside the settlement transaction, so a test can kill the worker there."""
    delay = float(os.environ.get("HOMEGAME_SETTLE_FAULT_DELAY", "0") or 0)
    if delay:
        time.sleep(delay)


@system_actor()
def tournament_settle(*, tournament_id: int) -> int:
    """Settle the recorded hands of a tournament in hand order; returns how many were settled.

    Safe to run any number of times, concurrently too: each hand is settled in its own
    transaction under a lock on the tournament row, and only while still ``recorded``.
    """
    settled = 0
    while True:
        with transaction.atomic():
            tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
            if tournament is None:
                return settled
            hands = (
                Hand.objects.filter(tournament=tournament)
                .exclude(status__in=(HandStatus.VERIFIED, HandStatus.DISPUTED, HandStatus.VOID))
                .order_by("number")
            )
            hand = hands.first()
            if hand is None or hand.status != HandStatus.RECORDED:
                _finish_if_over(tournament)
                return settled  # nothing to do, or the first unsettled hand is invalid: wait
            if _settle_hand(tournament, hand):
                settled += 1


def _settle_hand(tournament: Tournament, hand: Hand) -> bool:
    """Settle one hand; False when the stacks do not allow it (the hand is marked invalid)."""
    spec = HandSpec.of(hand)
    ledger = tournament_stacks(tournament)
    stacks = [ledger[pid] for pid in spec.players]
    try:
        outcome = hand_evaluate(spec, stacks)
    except DomainError as exc:
        evaluation_record(hand=hand, source=EvaluationSource.SETTLEMENT, error=exc.message)
        hand.status = HandStatus.INVALID
        hand.status_reason = f"with the stacks {stacks}: {exc.message}"
        hand.engine_version = ENGINE_VERSION
        hand.settled_at = timezone.now()
        hand.save(update_fields=["status", "status_reason", "engine_version", "settled_at"])
        log.warning("hand invalid", extra={"hand": hand.pk, "reason": hand.status_reason})
        return False
    entries = []
    for pid, chips in outcome.contributed().items():
        if chips:
            entries.append(
                LedgerEntry(
                    tournament=tournament,
                    player_id=pid,
                    hand=hand,
                    kind=LedgerKind.CONTRIBUTION,
                    amount=-chips,
                )
            )
    LedgerEntry.objects.bulk_create(entries)
    disputed_rows = []
    for k, pot in enumerate(outcome.pots):
        row = Pot.objects.create(
            hand=hand,
            index=k,
            amount=pot.amount,
            eligible=pot.eligible,
            engine_award={str(p): c for p, c in pot.engine_award.items()},
            table_award=None
            if pot.table_award is None
            else {str(p): c for p, c in pot.table_award.items()},
            award={str(p): c for p, c in pot.award.items()},
            disputed=pot.disputed,
        )
        if row.disputed:
            disputed_rows.append(row)
        LedgerEntry.objects.bulk_create(
            [
                LedgerEntry(
                    tournament=tournament,
                    player_id=pid,
                    hand=hand,
                    pot=row,
                    kind=LedgerKind.AWARD,
                    amount=chips,
                )
                for pid, chips in pot.award.items()
                if chips
            ]
        )
    won = outcome.won()
    facts = facts_for_hand(hand, outcome.result.to_dict())
    for seat in hand.hand_seats.all():
        pos = seat.position
        seat.starting_stack = stacks[pos]
        seat.contributed = outcome.result.contributions[pos]
        seat.won = won[seat.player_id]
        seat.facts = facts[pos]
        seat.save(update_fields=["starting_stack", "contributed", "won", "facts"])
    hand.status = HandStatus.DISPUTED if outcome.disputed else HandStatus.VERIFIED
    hand.status_reason = "the table's award differs from the engine's" if outcome.disputed else ""
    hand.engine_reading = outcome.reading()
    hand.engine_version = ENGINE_VERSION
    hand.settled_at = timezone.now()
    hand.projected_net = {str(k): v for k, v in outcome.net().items()}
    hand.save(
        update_fields=[
            "status",
            "status_reason",
            "engine_reading",
            "engine_version",
            "settled_at",
            "projected_net",
        ]
    )
    evaluation_record(hand=hand, source=EvaluationSource.SETTLEMENT, outcome=outcome)
    disputes_flag(
        hand=hand,
        pots=disputed_rows,
        source=DisputeSource.SETTLEMENT,
        reason="the table's award differs from the engine's",
    )
    _fault_delay()
    return True


def _finish_if_over(tournament: Tournament) -> None:
    if tournament.status == TournamentStatus.FINISHED:
        return
    state = tournament_state(tournament)
    if state.pending == 0 and state.blocked_by is None and state.over:
        tournament.status = TournamentStatus.FINISHED
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "finished_at"])
        final_standings_write(tournament=tournament)


def final_standings_write(*, tournament: Tournament) -> None:
    """Store the final places of a finished tournament (again after a ruling moves chips)."""
    FinalStanding.objects.filter(tournament=tournament).delete()
    FinalStanding.objects.bulk_create(
        [
            FinalStanding(
                tournament=tournament,
                player_id=row.player_id,
                place=row.place,
                chips=row.chips,
                out_hand=row.out_hand,
            )
            for row in tournament_standings(tournament)
        ]
    )


@transaction.atomic
def hand_void(*, hand: Hand, reason: str, by) -> Hand:
    """Declare an invalid hand void, so that the hands after it can settle.

    Only a hand the settlement found invalid can be voided, by the league's authority or an
    admin, with a reason. A void hand moves no chips; it keeps its number and its record.
    """
    require_role(by, hand.tournament.league, CAN_VOID, "void a hand")
    reason = (reason or "").strip()
    if not reason:
        raise DomainError("say why the hand is void", field="reason")
    hand = Hand.objects.select_for_update().get(pk=hand.pk)
    if hand.status != HandStatus.INVALID:
        raise Conflict(
            f"only an invalid hand can be voided; hand {hand.number} is {hand.status}",
            code="not_invalid",
        )
    previous = hand.status_reason
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
    tid = hand.tournament_id
    transaction.on_commit(lambda: _enqueue_settlement(tid))
    return hand
