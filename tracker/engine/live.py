"""A hand logged as it is played: steps recorded one at a time, replayed on the state machine.

The live logger keeps a hand as a list of :class:`LiveStep` (what the table did, in
order). :func:`live_walk` replays them on a :class:`tracker.engine.stud.StudHand` (the
antes post themselves), so the logger can ask the machine what comes next after every
step; :func:`live_entry` turns the finished steps into the full-history entry the
recording service takes (PHH actions plus the per-seat choices).

>>> from tracker.engine.stakes import Stakes
>>> steps = [LiveStep("deal", 0, cards=(None, None, "2c")), LiveStep("deal", 1, cards=(None, None, "Kd")),
...          LiveStep("act", 0, verb="bring_in"), LiveStep("act", 1, verb="fold")]
>>> hand = live_walk(variant="seven_card_stud", options={}, stakes=Stakes(1, 2, 5, 10),
...                  stacks=[100, 100], steps=steps)
>>> hand.phase.value, hand.settle().finishing_stacks
('over', [101, 99])
>>> live_entry(steps, n=2)["actions"]
['d dh p1 ????2c', 'd dh p2 ????Kd', 'p1 pb', 'p2 f']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .cards import format_card, is_unknown, parse_card
from .errors import DomainError
from .stakes import Stakes
from .stud import HandObserver, ProcedureError, StudHand, Verb

__all__ = [
    "ACT_VERBS",
    "LiveStep",
    "check_around",
    "checks_around",
    "forced_action",
    "live_entry",
    "live_walk",
    "step_from_json",
]

#: The betting verbs a live step may name, with their PHH action.
ACT_VERBS = {
    Verb.BRING_IN.value: "pb",
    Verb.COMPLETE.value: "cbr",
    Verb.BET.value: "cbr",
    Verb.RAISE.value: "cbr",
    Verb.CALL.value: "cc",
    Verb.CHECK.value: "cc",
    Verb.FOLD.value: "f",
}
KINDS = ("deal", "community", "act", "buy", "seventh", "show", "muck", "declare")


@dataclass(frozen=True, slots=True)
class LiveStep:
    """One table event: ``kind`` (deal, community, act, buy, seventh, show, muck,
    declare), the ``seat``, a betting ``verb``, ``cards`` (canonical codes, None for a
    card nobody saw), a ``choice`` (up/down, high/low/both) and, for a completion, bet or
    raise, ``to`` (the seat's bet after it, filled in when the step is applied)."""

    kind: str
    seat: int | None = None
    verb: str | None = None
    cards: tuple[str | None, ...] = ()
    choice: str | None = None
    to: int | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        for name in ("seat", "verb", "choice", "to"):
            value = getattr(self, name)
            if value is not None:
                data[name] = value
        if self.cards:
            data["cards"] = list(self.cards)
        return data


def step_from_json(data: Any, n: int) -> LiveStep:
    """A step from its JSON form, checked for shape (the machine checks the rest)."""
    if not isinstance(data, Mapping):
        raise DomainError("a step is an object", field="step")
    kind = data.get("kind")
    if kind not in KINDS:
        raise DomainError(f"{kind!r} is not a step ({', '.join(KINDS)})", field="step.kind")
    seat = data.get("seat")
    if kind != "community":
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise DomainError(f"must be a seat from 0 to {n - 1}", field="step.seat")
    else:
        seat = None
    verb = data.get("verb")
    if kind == "act" and verb not in ACT_VERBS:
        raise DomainError(f"{verb!r} is not a betting action", field="step.verb")
    cards: list[str | None] = []
    for k, token in enumerate(data.get("cards") or ()):
        if token is None or is_unknown(token):
            cards.append(None)
        else:
            cards.append(format_card(parse_card(token, f"step.cards[{k}]")))
    choice = data.get("choice")
    allowed = {"seventh": ("up", "down"), "declare": ("high", "low", "both")}.get(kind)
    if allowed is not None and choice not in allowed:
        raise DomainError(f"must be one of {', '.join(allowed)}", field="step.choice")
    to = data.get("to")
    return LiveStep(kind, seat, verb if kind == "act" else None, tuple(cards), choice, to)


def _ints(cards: Sequence[str | None]) -> list[int | None]:
    return [None if c is None else parse_card(c) for c in cards]


def apply_step(hand: StudHand, step: LiveStep) -> LiveStep:
    """Apply one step to the hand (the verb's checks refuse a wrong one); returns the step
    with the size of a completion, bet or raise filled in."""
    seat = step.seat
    kind = step.kind
    if kind == "deal":
        if not step.cards:
            raise ProcedureError("deal at least one card", code="deal_count", seat=seat)
        for card in _ints(step.cards):
            hand.deal(seat, card)  # type: ignore[arg-type]
    elif kind == "community":
        (card,) = _ints(step.cards[:1]) or [None]
        hand.deal_community(card)  # type: ignore[arg-type]
    elif kind == "act":
        verb = Verb(step.verb)
        if verb in (Verb.COMPLETE, Verb.BET, Verb.RAISE):
            kind_of, to = hand.verify_complete_bet_or_raise(seat)  # type: ignore[arg-type]
            if kind_of is not verb:
                raise ProcedureError(
                    f"{hand.label(seat)} cannot {verb.value} now: it is a {kind_of.value}",  # type: ignore[arg-type]
                    code="illegal_action",
                    seat=seat,
                )
            hand.complete_bet_or_raise(seat, to)  # type: ignore[arg-type]
            return LiveStep(kind, seat, step.verb, (), None, to)
        {
            Verb.BRING_IN: hand.bring_in,
            Verb.CALL: hand.call,
            Verb.CHECK: hand.check,
            Verb.FOLD: hand.fold,
        }[verb](seat)
    elif kind == "buy":
        hand.buy(seat)  # type: ignore[arg-type]
    elif kind == "seventh":
        hand.choose_seventh(seat, step.choice == "up")  # type: ignore[arg-type]
    elif kind == "show":
        hand.show(seat, _ints(step.cards) if step.cards else None)  # type: ignore[arg-type]
    elif kind == "muck":
        hand.muck(seat)  # type: ignore[arg-type]
    elif kind == "declare":
        hand.declare(seat, step.choice)  # type: ignore[arg-type]
    return step


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


def check_around(hand: StudHand) -> list[LiveStep]:
    """Everyone left to act on the street checks, in order (each check with the machine's
    own checks); returns the steps applied.

    >>> from tracker.engine.examples import fourth_street
    >>> hand = fourth_street()
    >>> [(s.seat, s.verb) for s in check_around(hand)]
    [(0, 'check'), (1, 'check')]
    >>> hand.street.name, hand.next_event().phase.value
    ('FIFTH', 'deal')
    """
    seats = checks_around(hand)
    if not seats:
        raise ProcedureError(
            "nobody can check now: the player to act faces a bet", code="illegal_action"
        )
    return [apply_step(hand, LiveStep("act", seat, verb=Verb.CHECK.value)) for seat in seats]


def forced_action(hand: StudHand) -> LiveStep | None:
    """The betting step the machine leaves no choice about (one legal action, e.g. a
    bring-in as large as the small bet, which is the completion itself), or None.

    >>> from tracker.engine.examples import deal_round, third_street
    >>> forced_action(third_street()) is None  # bring in or complete: a choice
    True
    >>> hand = StudHand(variant="seven_card_stud", stakes=Stakes(1, 5, 5, 10), stacks=[100, 100])
    >>> hand.post_antes(); deal_round(hand, "As Qh Ks Qd 2c 3c")
    >>> forced_action(hand)
    LiveStep(kind='act', seat=0, verb='bring_in', cards=(), choice=None, to=None)
    """
    turn = hand.next_event()
    if turn.seat is None or len(turn.options) != 1:
        return None
    return LiveStep("act", turn.seat, verb=turn.options[0].verb.value)


def live_walk(
    *,
    variant: str,
    options: Mapping[str, Any],
    stakes: Stakes,
    stacks: Sequence[int],
    steps: Sequence[LiveStep],
    labels: Sequence[str] | None = None,
    observers: Sequence[HandObserver] = (),
) -> StudHand:
    """The hand after the antes and ``steps`` (each already accepted once)."""
    hand = StudHand(
        variant=variant,
        stakes=stakes,
        stacks=stacks,
        options=options,
        labels=labels,
        observers=observers,
    )
    hand.post_antes()
    for step in steps:
        apply_step(hand, step)
    return hand


def live_entry(steps: Sequence[LiveStep], *, n: int) -> dict[str, Any]:
    """The full-history entry of a finished hand: PHH actions and per-seat choices."""
    actions: list[str] = []
    buys = [False] * n
    seventh: list[str | None] = [None] * n
    declarations: list[str | None] = [None] * n
    for step in steps:
        p = f"p{(step.seat or 0) + 1}"
        if step.kind == "deal":
            actions.append(f"d dh {p} {''.join(c or '??' for c in step.cards)}")
        elif step.kind == "community":
            actions.append(f"d db {step.cards[0]}")
        elif step.kind == "act":
            phh = ACT_VERBS[step.verb]  # type: ignore[index]
            actions.append(f"{p} cbr {step.to}" if phh == "cbr" else f"{p} {phh}")
        elif step.kind == "show":
            shown = "".join(c or "??" for c in step.cards) if step.cards else "-"
            actions.append(f"{p} sm {shown}")
        elif step.kind == "muck":
            actions.append(f"{p} sm")
        elif step.kind == "buy":
            buys[step.seat] = True  # type: ignore[index]
        elif step.kind == "seventh":
            seventh[step.seat] = step.choice  # type: ignore[index]
        elif step.kind == "declare":
            declarations[step.seat] = step.choice  # type: ignore[index]
    entry: dict[str, Any] = {"actions": actions}
    if any(buys):
        entry["buys"] = buys
    if any(seventh):
        entry["seventh_card"] = seventh
    if any(declarations):
        entry["declarations"] = declarations
    return entry
