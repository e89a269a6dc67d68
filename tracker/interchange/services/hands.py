"""One PHH hand into a tournament: its fields checked and mapped to a hand entry, recorded
through :func:`tracker.hands.services.recording.hand_record`, and any fault located in the
file (the hand, the PHH field or action at fault)."""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from typing import Any

from tracker.core.digest import canonical_json, sha256_hex
from tracker.core.paths import FieldPath
from tracker.engine.errors import Code, DomainError
from tracker.engine.games import dump_game
from tracker.engine.phh import PHHError, game_from_phh
from tracker.engine.procedure import ENTRY_FIELDS, PHH_OPTIONAL, PHH_REQUIRED, PHH_VARIANT
from tracker.engine.variants import SEVEN_CARD_STUD
from tracker.games.models import LeagueGameVersion
from tracker.games.selectors import league_version_by_digest
from tracker.games.services import definition_digest
from tracker.hands.models import Hand
from tracker.hands.selectors.evaluation import HandSpec, hand_evaluate
from tracker.hands.services.recording import HandBatch, hand_record
from tracker.tournaments.models import Tournament
from tracker.tournaments.selectors import tournament_state

log = logging.getLogger(__name__)

# Our entry keys for the PHH user fields (tracker.engine.procedure.ENTRY_FIELDS), and back.
_PHH_OF_ENTRY = {v: k for k, v in ENTRY_FIELDS.items()}
_POSITION = re.compile(r"^p([1-9][0-9]*)$")


def content_hash(hand: Mapping[str, Any]) -> str:
    """SHA-256 of a hand's canonical JSON (sorted keys, no spaces): the same hand read from
    any file, under any label, has the same hash."""
    return sha256_hex(canonical_json(hand, ascii=False))


class HandFault(DomainError):
    """A hand of a file refused, located: the file, the hand label, the field or action."""

    def __init__(
        self,
        message: str,
        *,
        code: str,
        source: str,
        hand: str | int | None,
        field: str | None = None,
        action_index: int | None = None,
        action: str | None = None,
        line: int | None = None,
    ) -> None:
        parts = [source]
        if hand is not None:
            parts.append(f"hand {hand}")
        if action_index is not None:
            parts.append(
                f"action {action_index} {action!r}"
                if action is not None
                else f"after the last action ({action_index} actions)"
            )
        elif field:
            parts.append(field)
        super().__init__(f"{', '.join(parts)}: {message}", code=code)
        self.reason = message
        self.source = source
        self.hand = hand
        self.field = field
        self.action_index = action_index
        self.action = action
        self.line = line  # the file's line of the hand's table (or of the TOML fault)

    def as_report(self) -> dict:
        return {
            "message": self.message,
            "code": self.code,
            "hand": self.hand,
            "line": self.line,
            "field": self.field,
            "action_index": self.action_index,
            "action": self.action,
        }


# --------------------------------------------------------------------------
# One hand


def phh_hand_record(
    *,
    tournament: Tournament,
    by,
    hand: Mapping[str, Any],
    digest: str = "",
    source: str = "<phh>",
    label: str | int | None = 1,
) -> Hand:
    """Record one PHH hand (a mapping as :func:`tracker.engine.phh.loads` gives) as the
    tournament's next hand. Raises :class:`HandFault` naming the file, hand and field."""
    entry = phh_hand_entry(
        tournament=tournament,
        state=tournament_state(tournament),
        hand=hand,
        source=source,
        label=label,
    )
    try:
        recorded = hand_record(tournament=tournament, by=by, content_hash=digest, **entry)
    except DomainError as exc:  # not NotFound nor PermissionDenied: no fault of the file
        raise _located(exc, hand, source, label) from None
    stated = hand.get("finishing_stacks")
    if stated is not None:
        outcome = hand_evaluate(HandSpec.of(recorded), list(recorded.starting_stacks))
        phh_finish_check(outcome, hand, source=source, label=label)
    return recorded


def phh_hands_add(
    batch: HandBatch,
    *,
    hand: Mapping[str, Any],
    digest: str,
    source: str,
    label: str | int | None,
    line: int | None = None,
) -> None:
    """Check one PHH hand as the next hand of an import ``batch`` and add it (written with
    the batch). Raises :class:`HandFault` naming the file, hand, line and field."""
    try:
        entry = phh_hand_entry(
            tournament=batch.tournament, state=batch.state, hand=hand, source=source, label=label
        )
        try:
            checked = batch.add(content_hash=digest, **entry)
        except DomainError as exc:
            raise _located(exc, hand, source, label) from None
        phh_finish_check(checked.outcome, hand, source=source, label=label)
    except HandFault as fault:
        fault.line = line
        raise


def phh_hand_entry(
    *,
    tournament: Tournament,
    state,
    hand: Mapping[str, Any],
    source: str,
    label: str | int | None,
) -> dict[str, Any]:
    """The PHH checks of a hand against the tournament's state of play (its stakes, stacks
    and players), and the keyword arguments of the recording service for it."""

    def fault(message: str, field: str | None = None, code: str = "invalid_hand") -> HandFault:
        return HandFault(message, code=code, source=source, hand=label, field=field)

    _check_fields(hand, fault)
    version = _house_version(tournament, hand["_game"], fault) if "_game" in hand else None
    if state.over:
        why = (
            f"the {tournament.hand_limit}-hand limit is reached"
            if state.hands_recorded >= tournament.hand_limit
            else "one player holds every chip"
        )
        raise fault(
            f"{tournament.name} is over ({why}): hand {state.next_number} cannot be dealt",
            code=Code.TOURNAMENT_OVER,
        )
    seats = state.next_positions()
    names = [s.player.name for s in seats]
    stakes = state.next_stakes
    at = (
        f"hand {state.next_number} of {tournament.name} is dealt at level {stakes.level}: "
        f"antes {stakes.ante}, bring-in {stakes.bring_in}, small bet {stakes.small_bet}, "
        f"big bet {stakes.big_bet}"
    )
    antes = hand["antes"]
    if isinstance(antes, list):
        if len(antes) != len(hand["starting_stacks"]):
            raise fault("give one ante per player, or a single number", "antes")
        if any(a != stakes.ante for a in antes):
            raise fault(f"the file has antes {antes}; {at}", "antes", "stakes_mismatch")
    elif antes != stakes.ante:
        raise fault(f"the file has antes {antes!r}; {at}", "antes", "stakes_mismatch")
    for name, ours in (
        ("bring_in", stakes.bring_in),
        ("small_bet", stakes.small_bet),
        ("big_bet", stakes.big_bet),
    ):
        if hand[name] != ours:
            raise fault(f"the file has {name} {hand[name]!r}; {at}", name, "stakes_mismatch")
    stacks = [state.stacks[s.player_id] for s in seats]
    given = hand["starting_stacks"]
    if given != stacks:
        who = ", ".join(
            f"p{k + 1} {n} {c}" for k, (n, c) in enumerate(zip(names, stacks, strict=True))
        )
        raise fault(
            f"the file has {given!r}; the players dealt into hand {state.next_number} "
            f"(p1 sits left of the dealer) have {who}",
            "starting_stacks",
            "stacks_mismatch",
        )
    players = hand.get("players")
    if players is not None:
        if not isinstance(players, list) or [_name(p) for p in players] != [
            _name(n) for n in names
        ]:
            raise fault(
                f"the file names {players!r}; the players dealt into hand {state.next_number} "
                f"are {names} (p1 sits left of the dealer)",
                "players",
                "players_mismatch",
            )
    entry: dict[str, Any] = {"actions": hand["actions"]}
    for theirs, ours in ENTRY_FIELDS.items():
        if hand.get(theirs) is not None:
            entry[ours] = hand[theirs]
    options = hand.get("_options")
    if options is not None and not isinstance(options, Mapping):
        raise fault("must be a table of announcements", "_options")
    table_result = _table_result(hand.get("_table_result"), seats, fault)
    if version is not None:  # the definition says it all: no variant, no announcements
        if options:
            raise fault("a house game's hand has no announcements", "_options")
        return {
            "entry_mode": "full",
            "game": version.game.slug,
            "game_version": version.number,
            "entry": entry,
            "table_result": table_result,
        }
    return {
        "entry_mode": "full",
        "variant": hand.get("_variant") or SEVEN_CARD_STUD,
        "options": options,
        "entry": entry,
        "table_result": table_result,
    }


def phh_finish_check(outcome, hand: Mapping[str, Any], *, source: str, label) -> None:
    """Refuse a hand whose stated ``finishing_stacks`` are not those of the replay."""
    stated = hand.get("finishing_stacks")
    if stated is not None and list(stated) != outcome.result.finishing_stacks:
        raise HandFault(
            f"the file states finishing stacks {list(stated)}, the replay gives "
            f"{outcome.result.finishing_stacks}",
            code=Code.FINISHING_STACKS,
            source=source,
            hand=label,
            field="finishing_stacks",
        )


def _house_version(tournament: Tournament, value: Any, fault) -> LeagueGameVersion:
    """A house game's hand: its definition checked (a refusal names the part at fault), and
    the version of the tournament's league's game with that definition (by its digest,
    tracker/core/digest.py), else refused (``unknown_game``, field ``_game``)."""
    try:
        game = game_from_phh(value)
    except PHHError as exc:
        raise fault(exc.message, next(iter(exc.fields), "_game"), Code.INVALID_GAME) from None
    version = league_version_by_digest(tournament.league, definition_digest(dump_game(game)))
    if version is None:
        raise fault(
            f"{tournament.league.name} has no game with this definition of {game.title!r} "
            "(a game of the league, not archived, with every rule the same)",
            "_game",
            Code.UNKNOWN_GAME,
        )
    return version


def _name(value: Any) -> str:
    return str(value).strip().casefold()


def _check_fields(hand: Mapping[str, Any], fault) -> None:
    if hand.get("variant") != PHH_VARIANT:
        raise fault(
            f"variant {hand.get('variant')!r} is not {PHH_VARIANT!r}: only fixed-limit "
            "seven-card stud hands can be imported",
            "variant",
            "unsupported_variant",
        )
    for name in PHH_REQUIRED:
        if name not in hand:
            raise fault("this PHH field is required", name, "missing_field")
    for name in hand:
        if not name.startswith("_") and name not in PHH_REQUIRED and name not in PHH_OPTIONAL:
            raise fault("not a PHH field of a stud hand", name, "unknown_field")
    if hand.get("ante_trimming_status"):
        raise fault("must be false: every player antes the same", "ante_trimming_status")
    if not isinstance(hand["starting_stacks"], list):
        raise fault("must be an array of chip counts", "starting_stacks")
    if not isinstance(hand["actions"], list):
        raise fault("must be an array of actions", "actions")


def _table_result(value: Any, seats, fault) -> dict | None:
    """Our ``_table_result`` with players as ``p1``, ``p2``, ... -> player ids."""
    if value is None:
        return None

    def players(names: Any, path: str) -> list[int]:
        if not isinstance(names, list):
            raise fault("must be an array of players (p1, p2, ...)", path)
        out = []
        for k, name in enumerate(names):
            m = _POSITION.match(str(name))
            if not m or int(m[1]) > len(seats):
                raise fault(
                    f"{name!r} is not a player of this hand (p1 to p{len(seats)})", f"{path}[{k}]"
                )
            out.append(seats[int(m[1]) - 1].player_id)
        return out

    def one(entry: Any, path: str) -> dict:
        if not isinstance(entry, Mapping):
            raise fault(
                'must be a table: { winners = ["p1"] } or { high = [...], low = [...] }', path
            )
        return {
            key: players(entry[key], f"{path}.{key}")
            for key in ("winners", "high", "low")
            if key in entry
        }

    if not isinstance(value, Mapping):
        raise fault("must be a table", "_table_result")
    if "pots" in value:
        pots = value["pots"]
        if not isinstance(pots, list):
            raise fault("must be an array, one table per pot", "_table_result.pots")
        return {"pots": [one(p, f"_table_result.pots[{k}]") for k, p in enumerate(pots)]}
    return one(value, "_table_result")


# Where a service field path came from in a PHH hand: the entry's fields are the PHH
# fields of the same name or a user-defined ``_`` field; a fault of the whole entry is the
# actions'.
PHH_FIELD_OF = {
    **_PHH_OF_ENTRY,
    "variant": "_variant",
    "options": "_options",
    "table_result": "_table_result",
}


def _phh_field(path: str) -> FieldPath:
    """The service's field path (``entry.actions[7]``, ``entry.buys[0]``, ``options.game``,
    ``table_result``) as the PHH field (``actions[7]``, ``_buys[0]``, ``_options.game``)."""
    ours = FieldPath.parse(path)
    if ours.parts == ("entry",):
        return FieldPath(("actions",))
    if ours.startswith("entry"):
        ours = ours.after("entry")
    head = ours.head
    if head in PHH_FIELD_OF:
        return FieldPath((PHH_FIELD_OF[head],)) + ours.parts[1:]
    return ours


def _located(exc: DomainError, hand: Mapping[str, Any], source: str, label) -> HandFault:
    field = next(iter(exc.fields), None)
    phh_field = _phh_field(field) if field else None
    action_index = action = None
    if phh_field is not None and len(phh_field) == 2:
        action_index = phh_field.seat("actions")
        if action_index is not None:
            actions = hand.get("actions") or []
            action = actions[action_index] if action_index < len(actions) else None
    return HandFault(
        exc.message,
        code=exc.code,
        source=source,
        hand=label,
        field=str(phh_field) if phh_field is not None else None,
        action_index=action_index,
        action=action,
    )
