"""A hand logged as it is played: table events recorded one change at a time.

The live logger keeps a hand as the list of :mod:`tracker.engine.events` events the table
made, in order, each marked whether the machine did it by itself. :func:`live_hand` builds
the machine with :data:`LIVE_AUTOMATIONS` (the antes post themselves, the cards nobody sees
are dealt unknown, a forced action is taken) and replays the events, so the logger can ask
it what comes next after every change; :func:`tracker.engine.phh.history_entry` turns the
finished events into the full-history entry the recording service takes.

>>> from tracker.engine.cards import parse_card as c
>>> from tracker.engine.events import BringIn, DealHole, Fold
>>> from tracker.engine.phh import history_entry
>>> from tracker.engine.stakes import Stakes
>>> events = [DealHole(0, (None, None, c("2c"))), DealHole(1, (None, None, c("Kd"))),
...           BringIn(0), Fold(1)]
>>> hand = live_hand(variant="seven_card_stud", options={}, stakes=Stakes(1, 2, 5, 10),
...                  stacks=[100, 100], events=events)
>>> hand.phase.value, hand.settle().finishing_stacks
('over', [101, 99])
>>> history_entry(events, n=2)["actions"]
['d dh p1 ????2c', 'd dh p2 ????Kd', 'p1 pb', 'p2 f']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .errors import Code
from .events import Check, TableEvent
from .games import GameDefinition
from .stakes import Stakes
from .stud import ALL_AUTOMATIONS, HandObserver, ProcedureError, StudHand, Verb

__all__ = ["LIVE_AUTOMATIONS", "check_around", "checks_around", "live_hand"]

#: What the live logger leaves to the machine: every automation there is.
LIVE_AUTOMATIONS = ALL_AUTOMATIONS


def checks_around(hand: StudHand) -> tuple[int, ...]:
    """The seats left to act on this street, in order, when each of them may check
    (nothing is bet yet): what "check around" applies. Empty when the player to act
    faces a bet or a bring-in.

    >>> from tracker.engine.examples import fourth_street, third_street
    >>> checks_around(fourth_street())
    (0, 1)
    >>> checks_around(third_street())
    ()
    """
    turn = hand.next_event()
    if turn.seat is None or not any(o.verb is Verb.CHECK for o in turn.options):
        return ()
    return tuple(hand.actors)


def check_around(hand: StudHand) -> list[TableEvent]:
    """Everyone left to act on the street checks, in order (each check with the machine's
    own checks, and no automation in between); returns the checks.

    >>> from tracker.engine.examples import fourth_street
    >>> hand = fourth_street()
    >>> check_around(hand)
    [Check(seat=0), Check(seat=1)]
    >>> hand.street.name, hand.next_event().phase.value
    ('FIFTH', 'deal')
    """
    seats = checks_around(hand)
    if not seats:
        raise ProcedureError(
            "nobody can check now: the player to act faces a bet", code=Code.ILLEGAL_ACTION
        )
    return [hand.apply(Check(seat), automate=False) for seat in seats]


def live_hand(
    *,
    variant: str,
    options: Mapping[str, Any],
    stakes: Stakes,
    stacks: Sequence[int],
    events: Sequence[TableEvent],
    labels: Sequence[str] | None = None,
    observers: Sequence[HandObserver] = (),
    game: GameDefinition | None = None,
) -> StudHand:
    """The hand after the antes and ``events`` (every one already accepted once, those
    the machine did by itself included, so none is automated again on the way). With
    ``game`` (a house game's definition) the machine deals and bets that definition and
    ``variant`` is not read.

    >>> from tracker.engine.game_presets import PRESETS
    >>> hand = live_hand(variant="house", options={}, stakes=Stakes(1, 2, 5, 10),
    ...                  stacks=[100, 100], events=[], game=PRESETS["baseball"])
    >>> hand.house, hand.next_event().phase.value
    (True, 'deal')
    """
    hand = StudHand(
        variant=None if game is not None else variant,
        game=game,
        stakes=stakes,
        stacks=stacks,
        options=options,
        labels=labels,
        observers=observers,
        automations=LIVE_AUTOMATIONS,
    )
    for event in events:
        hand.apply(event, automate=False)
    return hand
