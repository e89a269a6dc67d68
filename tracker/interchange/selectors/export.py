"""Hands as PHH hand histories: one hand (``.phh``), a tournament or a league (``.phhs``).

A full-history hand exports faithfully: the PHH fields (``variant = "F7S"``,
the stakes, ``starting_stacks`` -- the stacks the hand was settled against, in
position order -- and the ``actions`` as recorded), ``players``, ``hand``,
``level``, ``event``, the date, ``finishing_stacks`` (the replay's), and our
``_variant``, ``_options`` (every announcement), ``_seventh_card``, ``_buys``,
``_declarations`` and ``_table_result`` (what the table awarded, when it said).
A house game's hand kept as the table's events (``{"events": [...]}``, how the live
logger recorded one before it recorded the PHH actions) exports the same: its events turned
into actions by :func:`phh.history_entry` (the pay ``pN _pay``, an extra card one more deal).

A quick-entry hand has no action history (only the chips each player put in
and the cards shown), so it is left out of a ``.phhs`` -- a comment at the top
lists the hand numbers left out and why -- and a single one cannot be exported.
docs/phh.md says why no history is made up for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.text import slugify

from tracker.core.errors import Conflict
from tracker.engine import phh
from tracker.engine.errors import DomainError
from tracker.engine.events import event_from_json
from tracker.engine.phh import history_entry
from tracker.engine.procedure import ENTRY_FIELDS
from tracker.engine.version import ENGINE_VERSION
from tracker.hands.models import EntryMode, Hand, HandSeat
from tracker.hands.selectors.evaluation import HandSpec, hand_evaluate
from tracker.leagues.models import League
from tracker.tournaments.models import Tournament

MEDIA_TYPE = "application/x-phh"
QUICK_REASON = (
    "recorded by quick entry (the chips each player put in and the cards shown), "
    "without the action history a PHH hand needs"
)


def _no_history(hand: Hand) -> str | None:
    """Why ``hand`` has no PHH form, or None when it has one."""
    if hand.entry_mode != EntryMode.FULL:
        return QUICK_REASON
    return None


def _history_entry(hand: Hand) -> dict[str, Any]:
    """The hand's full-history entry: as recorded, or, for a house game's hand kept as the
    table's events, those events as PHH actions and per-seat choices."""
    entry = dict(hand.entry or {})
    if "events" not in entry:
        return entry
    n = len(hand.positions)
    return history_entry((event_from_json(data, n=n) for data in entry["events"]), n=n)


class NoHistory(Conflict):
    code = "no_action_history"


@dataclass
class PHHExport:
    text: str
    filename: str
    hands: int = 0
    left_out: list[tuple[str, int]] = field(default_factory=list)  # (tournament, hand number)


def _hands(queryset) -> list[Hand]:
    return list(
        queryset.select_related("tournament__league", "game_version").prefetch_related(
            "hand_seats__player"
        )
    )


def hand_history(hand: Hand) -> dict[str, Any]:
    """One full-history hand as a PHH hand mapping (what :func:`phh.dumps` writes)."""
    if _no_history(hand) is not None:
        raise NoHistory(f"hand {hand.number} was {QUICK_REASON}", field="hand")
    seats: list[HandSeat] = sorted(hand.hand_seats.all(), key=lambda s: s.position)
    stacks = [s.starting_stack for s in seats]
    entry = _history_entry(hand)
    tournament = hand.tournament
    data: dict[str, Any] = {
        "variant": "F7S",
        "antes": hand.ante,
        "bring_in": hand.bring_in,
        "small_bet": hand.small_bet,
        "big_bet": hand.big_bet,
        "starting_stacks": stacks,
        "actions": list(entry.get("actions") or []),
        "players": [s.player.name for s in seats],
        "event": tournament.name,
        "year": tournament.date.year,
        "month": tournament.date.month,
        "day": tournament.date.day,
        "hand": hand.number,
        "level": hand.level,
    }
    finishing = _finishing_stacks(hand, stacks)
    if finishing is not None:
        data["finishing_stacks"] = finishing
    data["_variant"] = hand.variant
    data["_options"] = dict(hand.options or {})
    if hand.game_version_id is not None:  # a league's house game: its definition as stored
        data["_game"] = hand.game_version.definition
    for theirs, ours in ENTRY_FIELDS.items():
        if entry.get(ours) is not None:
            data[theirs] = entry[ours]
    if hand.table_result is not None:
        data["_table_result"] = _table_result(hand.table_result, list(hand.positions))
    return data


def _finishing_stacks(hand: Hand, stacks: list[int]) -> list[int] | None:
    """The replay's finishing stacks: the stored reading when it is current, else the engine's."""
    reading = hand.engine_reading or {}
    if (
        reading.get("engine_version") == ENGINE_VERSION
        and reading.get("starting_stacks") == stacks
        and reading.get("finishing_stacks")
    ):
        return list(reading["finishing_stacks"])
    try:
        return hand_evaluate(HandSpec.of(hand), stacks).result.finishing_stacks
    except DomainError:  # the stacks no longer allow it (an invalid hand): say nothing
        return None


def _table_result(result: Mapping[str, Any], positions: list[int]) -> dict:
    """Player ids -> ``p1``, ``p2``, ... (PHH names players by position)."""
    label = {pid: f"p{k + 1}" for k, pid in enumerate(positions)}

    def one(entry: Mapping[str, Any]) -> dict:
        return {
            key: [label.get(pid, str(pid)) for pid in entry[key]]
            for key in ("winners", "high", "low")
            if key in entry
        }

    if "pots" in result:
        return {"pots": [one(p) for p in result["pots"]]}
    return one(result)


def _phhs(
    hands: Iterable[Hand], *, title: str, label_by_number: bool
) -> tuple[str, int, list[tuple[str, int]]]:
    tables = []
    left_out: list[tuple[str, int]] = []
    reasons: dict[str, list[tuple[str, int]]] = {}
    for hand in hands:
        why = _no_history(hand)
        if why is not None:
            left_out.append((hand.tournament.name, hand.number))
            reasons.setdefault(why, []).append((hand.tournament.name, hand.number))
            continue
        label = hand.number if label_by_number else len(tables) + 1
        tables.append(f"[{label}]\n{phh.dumps(hand_history(hand))}")
    head = [
        f"# {_line(title)}: {len(tables)} hand{'' if len(tables) == 1 else 's'} in PHH (docs/phh.md)"
    ]
    for why, hands_left in reasons.items():
        head.append(f"# Left out, {why}:")
        by_event: dict[str, list[int]] = {}
        for event, number in hands_left:
            by_event.setdefault(event, []).append(number)
        for event, numbers in by_event.items():
            listed = ", ".join(str(n) for n in numbers)
            head.append(f"#   {_line(event)}: hand{'' if len(numbers) == 1 else 's'} {listed}")
    text = "\n".join(head) + "\n\n" + "\n".join(tables)
    return text, len(tables), left_out


def _line(text: str) -> str:
    """Text for a one-line TOML comment."""
    return " ".join(str(text).split())


def _slug(tournament: Tournament) -> str:
    return f"{tournament.date:%Y-%m-%d}-{slugify(tournament.name) or tournament.pk}"


def export_hand(hand: Hand) -> PHHExport:
    """One hand as ``.phh`` text. Raises NoHistory (409) for a quick-entry hand."""
    hand = _hands(Hand.objects.filter(pk=hand.pk))[0]
    text = phh.dumps(hand_history(hand))
    return PHHExport(
        text=text, filename=f"{_slug(hand.tournament)}-hand-{hand.number}.phh", hands=1
    )


def export_tournament(tournament: Tournament) -> PHHExport:
    """A tournament's hands as ``.phhs`` text, labelled by hand number."""
    hands = _hands(Hand.objects.filter(tournament=tournament).order_by("number"))
    title = f"{tournament.name} ({tournament.league.name}), {tournament.date:%Y-%m-%d}"
    text, count, left_out = _phhs(hands, title=title, label_by_number=True)
    return PHHExport(
        text=text, filename=f"{_slug(tournament)}.phhs", hands=count, left_out=left_out
    )


def export_league(league: League) -> PHHExport:
    """Every hand of a league as ``.phhs`` text, tournament by tournament (oldest first);
    tables are numbered 1, 2, ... and each hand names its ``event`` and ``hand``."""
    hands = _hands(
        Hand.objects.filter(tournament__league=league).order_by(
            "tournament__date", "tournament_id", "number"
        )
    )
    text, count, left_out = _phhs(hands, title=league.name, label_by_number=False)
    return PHHExport(text=text, filename=f"{league.slug}.phhs", hands=count, left_out=left_out)
