"""The live logger's reads: a draft hand's events replayed on the stud state machine.

Each change of a draft (tracker/hands/services/live.py) needs the machine as the draft
stands, and so does the answer that shows it. Replaying every step each time makes a change
late in a hand cost more than an early one, so the machine is kept between them: after a
change the service keeps the machine it moved on (:func:`draft_machine_keep`), and the next
read or change of the draft takes it (:func:`draft_machine_take`) instead of replaying. A
kept machine is used only for the very draft it was walked for: the same variant, options,
stakes, players, stacks and steps (compared whole, so a change made elsewhere, an undo, a
rolled-back change or a draft reusing an id all find no match and replay). The machines
are kept per thread (no two requests share one), the last :data:`MACHINES_KEPT` drafts a
thread touched. A :class:`DraftState` describes the draft until its next change.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from tracker.core.errors import NotFound
from tracker.engine.announcements import VARIANT_TITLES, VARIANTS, normalize_announcements
from tracker.engine.events import TableEvent, event_from_json
from tracker.engine.frames import FramesObserver, StreetFrame
from tracker.engine.games import GameDefinition
from tracker.engine.live import live_hand
from tracker.engine.screen import TableNow
from tracker.engine.stud import NextEvent, StudHand
from tracker.games.selectors import league_games
from tracker.hands.models import HOUSE_VARIANT, DraftHand, DraftStatus
from tracker.hands.selectors.wording import announcement_text
from tracker.leagues.models import Player
from tracker.tournaments.models import LedgerEntry, LedgerKind, Tournament
from tracker.tournaments.selectors import tournament_state


def draft_events(draft: DraftHand) -> list[TableEvent]:
    """The draft's events, in order (those the machine did by itself included)."""
    n = len(draft.positions)
    return [event_from_json(data, n=n) for data in draft.steps]


def draft_walk(draft: DraftHand, *, names: list[str] | None = None, observers=()) -> StudHand:
    """The draft's hand after its events, on the state machine (with its automations),
    replayed from the start."""
    return live_hand(
        variant=draft.variant,
        options=draft.options,
        stakes=draft.stakes,
        stacks=draft.starting_stacks,
        events=draft_events(draft),
        labels=names,
        observers=observers,
        game=draft_game(draft),
    )


def draft_game(draft: DraftHand) -> GameDefinition | None:
    """The house game definition the draft deals (the version it was started at), or None
    for one of today's variants."""
    if draft.game_version_id is None:
        return None
    return draft.game_version.game_definition


#: How many drafts' machines a thread keeps (a night has one open draft; a few nights may
#: share a web process).
MACHINES_KEPT = 32


@dataclass
class DraftMachine:
    """The machine after a draft's steps, with what it was walked for. ``frames`` (the log's
    words, when a read walked it with the players' names) watches the machine, so it follows
    every event applied to it."""

    deal: tuple[Any, ...]  # what the walk depends on besides the steps (see _deal)
    steps: list[dict]  # the steps walked (copies)
    hand: StudHand
    frames: FramesObserver | None = None
    names: list[str] | None = None


_kept = threading.local()


def _machines() -> OrderedDict[int, DraftMachine]:
    machines = getattr(_kept, "machines", None)
    if machines is None:
        machines = _kept.machines = OrderedDict()
    return machines


def _deal(draft: DraftHand) -> tuple[Any, ...]:
    return (
        draft.variant,
        draft.game_version_id,
        draft.options,
        draft.stakes,
        list(draft.positions),
        list(draft.starting_stacks),
    )


def draft_machine_take(draft: DraftHand) -> DraftMachine | None:
    """The machine kept for ``draft`` as it stands, taken out (the caller owns it and may
    move it on), or None when none matches (then replay: :func:`draft_walk`)."""
    machine = _machines().pop(draft.pk, None)
    if machine is None or machine.steps != draft.steps or machine.deal != _deal(draft):
        return None
    return machine


def draft_machine_keep(draft: DraftHand, machine: DraftMachine) -> None:
    """Keep ``machine``, which stands after ``draft.steps``, for the draft's next read or
    change (its steps are copied: the draft's own may be changed later)."""
    machine.deal = _deal(draft)
    machine.steps = [dict(step) for step in draft.steps]
    machines = _machines()
    machines[draft.pk] = machine
    machines.move_to_end(draft.pk)
    while len(machines) > MACHINES_KEPT:
        machines.popitem(last=False)


def draft_machine_forget() -> None:
    """Drop every machine this thread keeps."""
    _machines().clear()


def draft_machine(draft: DraftHand) -> DraftMachine:
    """The machine for a change of ``draft``: the kept one, or a replay. The caller owns it;
    its seats are named as in the machine's own messages (p1, p2, ...)."""
    machine = draft_machine_take(draft)
    if machine is None:
        return DraftMachine(_deal(draft), [], draft_walk(draft))
    machine.hand.labels = [f"p{i + 1}" for i in range(len(draft.positions))]
    return machine


def hand_logged_live(hand_id: int) -> bool:
    """Whether the hand was logged live (recorded from a draft)."""
    return DraftHand.objects.filter(hand_id=hand_id).exists()


def open_draft(tournament: Tournament) -> DraftHand | None:
    return DraftHand.objects.filter(tournament=tournament, status=DraftStatus.OPEN).first()


@dataclass
class DraftState:
    draft: DraftHand
    names: list[str]
    hand: StudHand
    next: NextEvent
    table: StreetFrame  # the table now
    log: list[str]  # what happened so far, one line per event
    now: TableNow  # the same, as the engine's screen takes it (tracker/engine/screen.py)


def draft_state(draft: DraftHand) -> DraftState:
    """Where the draft stands: the machine, what comes next, the table and the log."""
    by_id = dict(Player.objects.filter(pk__in=draft.positions).values_list("pk", "name"))
    names = [by_id.get(pid, f"player {pid}") for pid in draft.positions]
    machine = draft_machine_take(draft)
    if machine is None or machine.frames is None or machine.names != names:
        frames = FramesObserver(names, tables=False)
        hand = draft_walk(draft, names=names, observers=[frames])
        machine = DraftMachine(_deal(draft), [], hand, frames, names)
    hand, frames = machine.hand, machine.frames
    hand.labels = list(names)
    draft_machine_keep(draft, machine)
    table = frames.snapshot(frames.number, hand)
    log = [line for step in frames.steps for line in step.actions]
    now = TableNow(draft.variant, names, hand, hand.next_event(), table, log, list(draft.steps))
    return DraftState(draft, names, hand, now.next, table, log, now)


#: The ledger's chips bought between hands.
BOUGHT = (LedgerKind.REBUY, LedgerKind.ADDON)


def night_games(tournament: Tournament) -> list[dict[str, Any]]:
    """The games a dealer's choice night offers its hands (the live start form's): each
    variant with its title and its announcements, the league's house rules (and in words)."""
    house = tournament.league.house_rules or {}
    games = []
    for v in VARIANTS:
        options = normalize_announcements(v, dict(house.get(v, {})))
        words = "; ".join(
            f"{name.replace('_', ' ')}: {announcement_text(name, value)}"
            for name, value in options.items()
        )
        games.append(
            {"variant": v, "title": VARIANT_TITLES[v], "options": options, "announcements": words}
        )
    return games


def night_house_games(tournament: Tournament) -> list[dict[str, Any]]:
    """The league's house games a dealer's choice night offers (those not archived), each
    at its latest version as the phone keeps it to deal one offline: variant ``house``,
    its ``game`` (slug), ``name``, ``version`` and ``definition`` (as stored)."""
    return [
        {
            "variant": HOUSE_VARIANT,
            "game": row.game.slug,
            "name": row.game.name,
            "title": row.game.name,
            "version": row.version.number,
            "definition": row.version.definition,
        }
        for row in league_games(tournament.league)
    ]


def draft_night(draft: DraftHand) -> dict[str, Any]:
    """What the phone's engine needs to deal the night's next hand itself, offline
    (tracker/engine/screen.py ``phone_next_hand``): the seats in clockwise order, the
    stacks of the players not in this hand, the chips the players in it bought since it
    started (``bought``, for hand ``number``: rebuys and add-ons), the first dealer, the
    stakes schedule, the hand limit and the night's game (``None`` on a dealer's choice
    night, with the ``games`` it offers: the variants, then the league's house games,
    :func:`night_house_games`)."""
    tournament = draft.tournament
    state = tournament_state(tournament)
    in_hand = set(draft.positions)
    variant = tournament.default_variant or None
    options = None
    if variant:
        base = dict((tournament.league.house_rules or {}).get(variant, {}))
        base.update(tournament.default_options or {})
        options = normalize_announcements(variant, base)
    bought: dict[str, int] = {}
    rows = LedgerEntry.objects.filter(
        tournament=tournament,
        kind__in=BOUGHT,
        player_id__in=in_hand,
        created_at__gt=draft.created_at,
    ).values_list("player_id", "amount")
    for pid, chips in rows:
        bought[str(pid)] = bought.get(str(pid), 0) + chips
    return {
        "seats": [
            {"seat": s.number, "player": s.player_id, "name": s.player.name} for s in state.seats
        ],
        "others": {str(pid): chips for pid, chips in state.stacks.items() if pid not in in_hand},
        "number": draft.number,
        "bought": bought,
        "first_dealer": tournament.first_dealer_seat,
        "schedule": [list(row) for row in tournament.stakes_schedule],
        "hands_per_level": tournament.hands_per_level,
        "hand_limit": tournament.hand_limit,
        "variant": variant,
        "options": options,
        "games": [] if variant else night_games(tournament) + night_house_games(tournament),
    }


def tournament_draft_night(tournament: Tournament, pk: object) -> dict[str, Any]:
    """:func:`draft_night` of the tournament's draft ``pk`` (the phone's page asks it again
    when the network is back, so its next hand is dealt from the stacks the server has)."""
    draft = None
    if isinstance(pk, str) and pk.isdigit():
        draft = (
            DraftHand.objects.select_related("tournament__league")
            .filter(tournament=tournament, pk=int(pk))
            .first()
        )
    if draft is None:
        raise NotFound(f"{tournament.name} has no live hand {pk}", field="draft")
    return draft_night(draft)
