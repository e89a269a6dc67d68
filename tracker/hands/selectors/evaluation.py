"""Evaluating a hand with the engine (pure: no database writes).

``hand_evaluate`` checks a hand (a quick entry or a full history, see docs/recording.md)
against the stud procedure and given starting stacks, and reads its pots, the engine's
awards and the table's. Recording, settlement, re-evaluation and the PHH export all use it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tracker.core.paths import FieldPath
from tracker.engine.errors import Code, DomainError
from tracker.engine.events import event_from_json
from tracker.engine.games import GameDefinition
from tracker.engine.pots import award_pot, split_amount
from tracker.engine.procedure import (
    ENTRY_FIELDS,
    HandResult,
    QuickEntry,
    history_from_entry,
    replay_hand,
    settle_quick,
)
from tracker.engine.stakes import Stakes
from tracker.engine.stud import ALL_AUTOMATIONS, HandObserver, StudHand
from tracker.engine.version import ENGINE_VERSION
from tracker.games.selectors import version_definition
from tracker.hands.models import DealtAt, EntryMode, Hand

FULL_KEYS = {"actions", "seventh_card", "buys", "declarations"}
QUICK_SEAT_KEYS = {
    "player", "put_in", "folded", "down", "up", "bought", "declare", "seventh", "paid",
}  # fmt: skip


#: The columns of a hand (by attribute name) a :class:`HandSpec` is made of, with its game.
SPEC_COLUMNS = (
    "variant", "options", "ante", "bring_in", "small_bet", "big_bet", "level", "positions",
    "entry_mode", "entry", "table_result",
)  # fmt: skip


@dataclass(frozen=True)
class HandSpec:
    """What the engine needs to evaluate a hand, whatever stacks it is played against.

    ``game`` is the house game's definition the hand is dealt under (its ``game_version``);
    None for the variants of today (then ``variant`` and ``options`` say it all)."""

    variant: str
    options: dict
    stakes: Stakes
    players: list[int]  # player ids by position: 0 = dealer's left, the dealer last
    entry_mode: str
    entry: dict
    table_result: dict | None
    game: GameDefinition | None = None

    @classmethod
    def of(cls, hand: Hand) -> HandSpec:
        """The spec of a hand read as a model instance."""
        game = version_definition(hand.game_version) if hand.game_version_id else None
        return cls.from_values({name: getattr(hand, name) for name in SPEC_COLUMNS}, game=game)

    @classmethod
    def from_values(cls, values: Mapping[str, Any], *, game: GameDefinition | None) -> HandSpec:
        """The spec of a hand read as plain values: a mapping holding (at least) the hand's
        columns :data:`SPEC_COLUMNS` by attribute name, and the definition of its house game
        (None for the variants).

        >>> spec = HandSpec.from_values(
        ...     {"variant": "seven_card_stud", "options": {}, "ante": 1, "bring_in": 2,
        ...      "small_bet": 5, "big_bet": 10, "level": 1, "positions": [7, 3],
        ...      "entry_mode": "quick", "entry": {}, "table_result": None},
        ...     game=None,
        ... )
        >>> spec.players, spec.stakes.big_bet
        ([7, 3], 10)
        """
        return cls(
            variant=values["variant"],
            options=values["options"],
            stakes=DealtAt.stakes_of(values),
            players=list(values["positions"]),
            entry_mode=values["entry_mode"],
            entry=values["entry"],
            table_result=values["table_result"],
            game=game,
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
                code=Code.NOT_DEALT_IN,
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
        "paid": [s.get("paid") for s in ordered],
        "community": entry.get("community"),
        "_entry_index": [by_player[pid][0] for pid in spec.players],
    }


# Engine argument of settle_quick -> the quick entry's seat field it came from (None: the
# seat's cards, whose paths go on as they are: ``shown[1].down[0]`` -> ``seats[k].down[0]``).
QUICK_SEAT_FIELD_OF = {
    "put_in": "put_in",
    "folded": "folded",
    "buys": "bought",
    "declarations": "declare",
    "seventh_card": "seventh",
    "paid": "paid",
    "shown": None,
}


def _quick_field(path: str, index_of: list[int]) -> str:
    """Map an engine path like ``put_in[2]`` or ``shown[1].down[0]`` to ``entry.seats[k]...``
    (``k`` the seat's place in the entry), through ``QUICK_SEAT_FIELD_OF``."""
    engine = FieldPath.parse(path)
    entry = FieldPath(("entry",))
    position = engine.seat(engine.head) if engine.head in QUICK_SEAT_FIELD_OF else None
    if position is not None and position < len(index_of):
        seat = entry + ("seats", index_of[position])
        ours = QUICK_SEAT_FIELD_OF[engine.head]
        rest = engine.parts[2:]
        return str(seat + rest if ours is None else seat + (ours,))
    return str(entry + engine.parts)


def _run_engine(
    spec: HandSpec, stacks: Sequence[int], observers: Sequence[HandObserver] = ()
) -> HandResult:
    stakes = spec.stakes
    if any(s <= 0 for s in stacks):
        out = [pid for pid, s in zip(spec.players, stacks, strict=True) if s <= 0]
        raise DomainError(
            f"player(s) {out} have no chips and cannot be dealt in", code=Code.PLAYER_OUT
        )
    if spec.entry_mode == EntryMode.QUICK:
        args = _quick_arguments(spec)
        index_of = args.pop("_entry_index")
        try:
            entry = QuickEntry(
                variant=spec.variant,
                options=spec.options,
                stakes=stakes,
                starting_stacks=list(stacks),
                game=spec.game,
                **args,
            )
            return settle_quick(entry, observers=observers)
        except DomainError as exc:
            fields = {_quick_field(k, index_of): v for k, v in exc.fields.items()}
            raise DomainError(exc.message, code=exc.code, fields=fields or None) from None
    entry = spec.entry
    if spec.game is not None and "events" in entry:  # logged live: the table's events
        return _run_house(spec, stacks, observers)
    unknown = set(entry) - FULL_KEYS
    if unknown:
        raise DomainError(f"unknown field(s): {', '.join(sorted(unknown))}", field="entry")
    history = history_from_entry(
        variant=spec.variant,
        options=spec.options,
        stakes=stakes,
        starting_stacks=stacks,
        entry=entry,
    )
    try:
        return replay_hand(history, observers=observers, game=spec.game)
    except DomainError as exc:
        fields = {_history_field(k): v for k, v in exc.fields.items()}
        raise DomainError(exc.message, code=exc.code, fields=fields or None) from None


def _run_house(
    spec: HandSpec, stacks: Sequence[int], observers: Sequence[HandObserver]
) -> HandResult:
    """A house game's hand kept as its table events (``entry.events``, the logger's steps:
    how the live logger recorded one before it recorded the PHH actions of every hand; a
    full history of PHH actions is replayed as the variants' are), walked on the machine
    that deals the game's definition, then settled by it."""
    if spec.entry_mode != EntryMode.FULL:
        raise DomainError(
            "a house game's hand is recorded as its events (a full entry)", field="entry_mode"
        )
    unknown = set(spec.entry) - {"events"}
    if unknown:
        raise DomainError(f"unknown field(s): {', '.join(sorted(unknown))}", field="entry")
    raw = spec.entry.get("events")
    if not isinstance(raw, list):
        raise DomainError("must be the list of the hand's events", field="entry.events")
    n = len(stacks)
    hand = StudHand(
        game=spec.game,
        stakes=spec.stakes,
        stacks=list(stacks),
        observers=observers,
        automations=ALL_AUTOMATIONS,
    )
    for i, data in enumerate(raw):
        try:
            hand.apply(event_from_json(data, n=n), automate=False)
        except DomainError as exc:
            raise DomainError(exc.message, code=exc.code, field=f"entry.events[{i}]") from None
    try:
        return hand.settle()
    except DomainError as exc:
        raise DomainError(exc.message, code=exc.code, field="entry.events") from None


# A full history's user-defined PHH field -> the entry's field it came from.
ENTRY_FIELD_OF_HISTORY = {"_variant": "variant", "_options": "options", **ENTRY_FIELDS}


def _history_field(path: str) -> str:
    """Map a path of the history given to the engine (``_buys[0]``, ``actions[3]``) to the
    entry's (``entry.buys[0]``, ``entry.actions[3]``), through ``ENTRY_FIELD_OF_HISTORY``."""
    history = FieldPath.parse(path)
    if not history.parts:
        return "entry"
    head = ENTRY_FIELD_OF_HISTORY.get(history.head, history.head)
    return str(FieldPath(("entry", head)) + history.parts[1:])


def _table_awards(spec: HandSpec, result: HandResult) -> list[dict[int, int] | None]:
    """The table's award per pot, by player id, from the table result as entered."""
    table = spec.table_result
    if table is None:
        return [None] * len(result.pots)
    if not isinstance(table, Mapping):
        raise DomainError("must be an object", field="table_result")
    position = {pid: k for k, pid in enumerate(spec.players)}
    per_pot = table.get("pots")
    entries = _table_entries(table, per_pot, len(result.pots))
    game = _split_kind(spec)
    awards: list[dict[int, int] | None] = []
    for k, (pot, (path, e)) in enumerate(zip(result.pots, entries, strict=True)):
        if not isinstance(e, Mapping) or not ({"winners", "high", "low"} & set(e)):
            raise DomainError(
                'name the winners: {"winners": [players]} or {"high": [...], "low": [...]}',
                code=Code.TABLE_RESULT,
                field=path,
            )
        eligible = {spec.players[i] for i in pot.eligible}
        chosen = {
            key: _pot_winners(e, key, path, k, position, eligible, hand_wide=per_pot is None)
            for key in ("winners", "high", "low")
            if e.get(key) is not None
        }
        pairs = _pot_pairs(pot, chosen, position, game, path, k)
        awards.append({spec.players[seat]: chips for seat, chips in pairs})
    return awards


def _split_kind(spec: HandSpec) -> str:
    """How a table's high and low winners share a pot: the announced game, or a house
    game's pot rule (a Chicago pot's high half is its high hand's)."""
    if spec.game is None:
        return spec.options.get("game", "high")
    kind = spec.game.pot.kind
    return kind if kind in ("high", "low", "high_low") else "high"


def _table_entries(table: Mapping, per_pot: object, n_pots: int) -> list[tuple[str, object]]:
    """The table result's entry for each pot with its path: one per pot as given, or the
    hand-wide result for every pot."""
    if per_pot is None:
        return [("table_result", table)] * n_pots
    if not isinstance(per_pot, list) or len(per_pot) != n_pots:
        raise DomainError(
            f"give one entry per pot: this hand has {n_pots} pot(s)",
            code=Code.TABLE_RESULT,
            field="table_result.pots",
        )
    return [(f"table_result.pots[{k}]", e) for k, e in enumerate(per_pot)]


def _pot_winners(
    entry: Mapping,
    key: str,
    path: str,
    k: int,
    position: Mapping[int, int],
    eligible: set[int],
    *,
    hand_wide: bool,
) -> list[int]:
    """The player ids ``entry`` names under ``key`` for pot ``k``, checked: dealt into the
    hand and eligible for the pot (a hand-wide result applies to each pot among the players
    eligible for it)."""
    ids = entry[key]
    if not isinstance(ids, list) or not all(isinstance(x, int) for x in ids):
        raise DomainError("must be a list of player ids", field=f"{path}.{key}")
    for x in ids:
        if x not in position:
            raise DomainError(f"player {x} is not dealt into this hand", field=f"{path}.{key}")
    chosen = [x for x in ids if x in eligible] if hand_wide else ids
    bad = [x for x in chosen if x not in eligible]
    if bad:
        raise DomainError(f"player(s) {bad} cannot win pot {k}", field=f"{path}.{key}")
    return chosen


def _pot_pairs(
    pot, chosen: dict[str, list[int]], position: Mapping[int, int], game: str, path: str, k: int
) -> list[tuple[int, int]]:
    """Pot ``k`` shared among the winners chosen, as (seat, chips) pairs: split evenly among
    ``winners``, else between the high and the low hands the way ``game`` splits it."""
    if "winners" in chosen:
        seats = [position[x] for x in chosen["winners"]]
        if seats:
            return split_amount(pot.amount, seats)
    else:
        high = tuple(sorted(position[x] for x in chosen.get("high", [])))
        low = tuple(sorted(position[x] for x in chosen.get("low", [])))
        if high or low:
            return award_pot(pot.amount, game, high, low, pot.eligible)
    raise DomainError(
        f"no winner named for pot {k} is eligible for it; give per-pot winners",
        code=Code.TABLE_RESULT,
        field=path,
    )


def hand_evaluate(
    spec: HandSpec, stacks: Sequence[int], observers: Sequence[HandObserver] = ()
) -> Outcome:
    """Evaluate a hand against starting ``stacks`` (by position). Raises DomainError.
    ``observers`` watch the engine's walk of it (settlement's facts: one walk per hand)."""
    result = _run_engine(spec, stacks, observers)
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
