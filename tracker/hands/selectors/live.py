"""The live logger's reads: a draft hand's events replayed on the stud state machine."""

from __future__ import annotations

from dataclasses import dataclass

from tracker.engine.events import TableEvent, event_from_json
from tracker.engine.frames import StreetFrame
from tracker.engine.live import live_hand
from tracker.engine.screen import TableNow, table_now
from tracker.engine.stakes import Stakes
from tracker.engine.stud import NextEvent, StudHand
from tracker.hands.models import DraftHand, DraftStatus
from tracker.leagues.models import Player
from tracker.tournaments.models import Tournament


def draft_events(draft: DraftHand) -> list[TableEvent]:
    """The draft's events, in order (those the machine did by itself included)."""
    n = len(draft.positions)
    return [event_from_json(data, n=n) for data in draft.steps]


def draft_walk(draft: DraftHand, *, names: list[str] | None = None, observers=()) -> StudHand:
    """The draft's hand after its events, on the state machine (with its automations)."""
    return live_hand(
        variant=draft.variant,
        options=draft.options,
        stakes=draft_stakes(draft),
        stacks=draft.starting_stacks,
        events=draft_events(draft),
        labels=names,
        observers=observers,
    )


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


def draft_stakes(draft: DraftHand) -> Stakes:
    return Stakes(draft.ante, draft.bring_in, draft.small_bet, draft.big_bet)


def draft_state(draft: DraftHand) -> DraftState:
    """Where the draft stands: the machine, what comes next, the table and the log."""
    by_id = dict(Player.objects.filter(pk__in=draft.positions).values_list("pk", "name"))
    names = [by_id.get(pid, f"player {pid}") for pid in draft.positions]
    now = table_now(
        variant=draft.variant,
        options=draft.options,
        stakes=draft_stakes(draft),
        stacks=draft.starting_stacks,
        names=names,
        steps=draft.steps,
    )
    return DraftState(draft, names, now.hand, now.next, now.table, now.log, now)
