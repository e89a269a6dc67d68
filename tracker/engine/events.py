"""The table's events as data: one typed, frozen event per verb of the stud machine.

Every driver of :class:`tracker.engine.stud.StudHand` speaks this one vocabulary: the PHH
codec (:func:`tracker.engine.phh.parse_action` and :func:`tracker.engine.phh.format_action`)
turns action text into events and back, the live logger stores them in its drafts
(:func:`event_to_json`, :func:`event_from_json`), and :meth:`StudHand.apply` plays one
(:meth:`StudHand.verify` checks it without acting). Seats are indices from the dealer's
left; cards are ints (:mod:`tracker.engine.cards`), ``None`` for a card nobody saw.

>>> from tracker.engine.cards import parse_card as c
>>> from tracker.engine.stud import Option, Verb
>>> event_to_json(DealHole(0, (None, None, c("2c"))))
{'event': 'deal', 'seat': 0, 'cards': [None, None, '2c']}
>>> event_from_json({"event": "complete", "seat": 1, "to": 20}, n=3)
Complete(seat=1, to=20)
>>> event_for(Option(Verb.CALL, 2, 10, 10))
Call(seat=2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any, ClassVar

from .cards import format_card, is_unknown, parse_card
from .errors import DomainError

__all__ = [
    "BET_EVENTS",
    "EVENT_TYPES",
    "BringIn",
    "Buy",
    "Call",
    "Check",
    "CheckOrCall",
    "ChooseSeventh",
    "Complete",
    "CompleteBetOrRaise",
    "Contribute",
    "DealBoard",
    "DealHole",
    "Declare",
    "EndBetting",
    "Fold",
    "Muck",
    "Bet",
    "Pay",
    "PostAntes",
    "RaiseTo",
    "ReturnUncalled",
    "Show",
    "TableEvent",
    "event_for",
    "event_from_json",
    "event_to_json",
]


@dataclass(frozen=True, slots=True)
class PostAntes:
    """Everyone antes (the hand's first event)."""

    name: ClassVar[str] = "antes"


@dataclass(frozen=True, slots=True)
class DealHole:
    """``seat``'s next cards, in order, each with the face it is due (PHH ``d dh``)."""

    seat: int
    cards: tuple[int | None, ...]
    name: ClassVar[str] = "deal"


@dataclass(frozen=True, slots=True)
class DealBoard:
    """The community card, when the deck cannot give everyone a seventh card (``d db``)."""

    card: int | None
    name: ClassVar[str] = "deal_community"


@dataclass(frozen=True, slots=True)
class BringIn:
    seat: int
    name: ClassVar[str] = "bring_in"


@dataclass(frozen=True, slots=True)
class Complete:
    """Third street's completion to ``to`` (None: the one size the stakes allow)."""

    seat: int
    to: int | None = None
    name: ClassVar[str] = "complete"


@dataclass(frozen=True, slots=True)
class Bet:
    seat: int
    to: int | None = None
    name: ClassVar[str] = "bet"


@dataclass(frozen=True, slots=True)
class RaiseTo:
    seat: int
    to: int | None = None
    name: ClassVar[str] = "raise"


@dataclass(frozen=True, slots=True)
class CompleteBetOrRaise:
    """A completion, bet or raise to ``to``, whichever it is now (PHH ``cbr``)."""

    seat: int
    to: int | None = None
    name: ClassVar[str] = "complete_bet_or_raise"


@dataclass(frozen=True, slots=True)
class Call:
    seat: int
    name: ClassVar[str] = "call"


@dataclass(frozen=True, slots=True)
class Check:
    seat: int
    name: ClassVar[str] = "check"


@dataclass(frozen=True, slots=True)
class CheckOrCall:
    """A check, or a call when there is a bet to call (PHH ``cc``)."""

    seat: int
    name: ClassVar[str] = "check_or_call"


@dataclass(frozen=True, slots=True)
class Fold:
    seat: int
    name: ClassVar[str] = "fold"


@dataclass(frozen=True, slots=True)
class Buy:
    """Low Hold: ``seat`` pays to turn its seventh card over."""

    seat: int
    name: ClassVar[str] = "buy"


@dataclass(frozen=True, slots=True)
class Pay:
    """A house game's pay rule (Baseball: a three dealt face up): ``seat`` pays the price into
    the pot and stays in (a :class:`Fold` instead gives the hand up)."""

    seat: int
    name: ClassVar[str] = "pay"


@dataclass(frozen=True, slots=True)
class ChooseSeventh:
    """Kings and Little Ones: ``seat`` takes its seventh card face up (or down); in a house
    game, the card of the player's choice on the street being dealt (a ``choice`` face)."""

    seat: int
    up: bool
    name: ClassVar[str] = "choose_seventh"


@dataclass(frozen=True, slots=True)
class Show:
    """``seat`` shows its cards (``cards`` None: the ones already known, PHH ``sm -``)."""

    seat: int
    cards: tuple[int | None, ...] | None = None
    name: ClassVar[str] = "show"


@dataclass(frozen=True, slots=True)
class Muck:
    seat: int
    name: ClassVar[str] = "muck"


@dataclass(frozen=True, slots=True)
class Declare:
    """``seat`` declares ``high``, ``low`` or ``both``."""

    seat: int
    choice: str
    name: ClassVar[str] = "declare"


@dataclass(frozen=True, slots=True)
class Contribute:
    """Results entry: ``seat`` put ``amount`` chips in, the betting untold."""

    seat: int
    amount: int
    name: ClassVar[str] = "contribute"


@dataclass(frozen=True, slots=True)
class ReturnUncalled:
    """Results entry: the uncalled ``amount`` of ``seat``'s bet goes back."""

    seat: int
    amount: int
    name: ClassVar[str] = "return"


@dataclass(frozen=True, slots=True)
class EndBetting:
    """Results entry: the street's betting is over."""

    name: ClassVar[str] = "end_betting"


TableEvent = (
    PostAntes
    | DealHole
    | DealBoard
    | BringIn
    | Complete
    | Bet
    | RaiseTo
    | CompleteBetOrRaise
    | Call
    | Check
    | CheckOrCall
    | Fold
    | Buy
    | Pay
    | ChooseSeventh
    | Show
    | Muck
    | Declare
    | Contribute
    | ReturnUncalled
    | EndBetting
)

#: Every event type by its name (the ``event`` key of the JSON form).
EVENT_TYPES: dict[str, type] = {
    cls.name: cls
    for cls in (
        PostAntes, DealHole, DealBoard, BringIn, Complete, Bet, RaiseTo, CompleteBetOrRaise,
        Call, Check, CheckOrCall, Fold, Buy, Pay, ChooseSeventh, Show, Muck, Declare,
        Contribute, ReturnUncalled, EndBetting,
    )
}  # fmt: skip

#: The events that put in a completion, a bet or a raise (they carry ``to``).
BET_EVENTS = (Complete, Bet, RaiseTo, CompleteBetOrRaise)

_DECLARATIONS = ("high", "low", "both")


def event_for(option: Any) -> TableEvent:
    """The event that takes an :class:`tracker.engine.stud.Option` the machine offered
    (:meth:`StudHand.next_event`), with its size.

    >>> from tracker.engine.stud import Option, Verb
    >>> event_for(Option(Verb.COMPLETE, 1, 20, 20)), event_for(Option(Verb.BUY, 0, 10))
    (Complete(seat=1, to=20), Buy(seat=0))
    """
    cls = _OPTION_EVENTS.get(option.verb.value)
    if cls is None:
        raise DomainError(f"{option.verb.value!r} is no option to take", field="event")
    if cls is PostAntes:
        return PostAntes()
    if cls in BET_EVENTS:
        return cls(option.seat, option.to)
    return cls(option.seat)


#: The events an option of ``next_event()`` stands for, by its verb (the seventh-card up or
#: down choice, the cards and the showdown's shows and declarations carry more than a seat).
_OPTION_EVENTS: dict[str, type] = {
    cls.name: cls
    for cls in (PostAntes, BringIn, Complete, Bet, RaiseTo, Call, Check, Fold, Buy, Pay)
}
_OPTION_EVENTS["ante"] = PostAntes


def _card_text(card: int | None) -> str | None:
    return None if card is None else format_card(card)


def event_to_json(event: TableEvent) -> dict[str, Any]:
    """The event as a JSON object: ``event`` (its name) and its fields, cards as codes.

    >>> event_to_json(ChooseSeventh(2, True)), event_to_json(Show(1))
    ({'event': 'choose_seventh', 'seat': 2, 'up': True}, {'event': 'show', 'seat': 1})
    """
    data: dict[str, Any] = {"event": event.name}
    for name in (f.name for f in fields(event)):
        value = getattr(event, name)
        if name == "cards":
            if value is not None:
                data["cards"] = [_card_text(c) for c in value]
        elif name == "card":
            data["card"] = _card_text(value)
        elif value is not None:
            data[name] = value
    return data


def _seat(data: Mapping[str, Any], n: int) -> int:
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise DomainError(f"must be a seat from 0 to {n - 1}", field="event.seat")
    return seat


def _cards(raw: Any, field: str) -> tuple[int | None, ...]:
    if not isinstance(raw, (list, tuple)):
        raise DomainError("must be a list of cards", field=field)
    return tuple(
        None if token is None or is_unknown(token) else parse_card(token, f"{field}[{k}]")
        for k, token in enumerate(raw)
    )


def _chips(value: Any, field: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise DomainError("must be a whole number of chips", field=field)
    return value


def event_from_json(data: Any, *, n: int) -> TableEvent:
    """An event from its JSON form (:func:`event_to_json`) in a hand of ``n`` seats,
    checked for shape (the machine checks the rest when it is applied).

    >>> event_from_json({"event": "deal", "seat": 0, "cards": [None, "??", "2c"]}, n=2)
    DealHole(seat=0, cards=(None, None, 0))
    >>> event_from_json({"event": "dance", "seat": 0}, n=2)
    Traceback (most recent call last):
    ...
    tracker.engine.errors.DomainError: 'dance' is not an event (antes, deal, deal_community, ...)
    """
    if not isinstance(data, Mapping):
        raise DomainError("an event is an object", field="event")
    name = data.get("event")
    cls = EVENT_TYPES.get(name) if isinstance(name, str) else None
    if cls is None:
        names = list(EVENT_TYPES)
        raise DomainError(
            f"{name!r} is not an event ({', '.join(names[:3])}, ...)", field="event.event"
        )
    if cls in (PostAntes, EndBetting):
        return cls()
    if cls is DealBoard:
        (card,) = _cards([data.get("card")], "event.card")
        return DealBoard(card)
    seat = _seat(data, n)
    if cls is DealHole:
        return DealHole(seat, _cards(data.get("cards"), "event.cards"))
    if cls is Show:
        raw = data.get("cards")
        return Show(seat, None if raw is None else _cards(raw, "event.cards"))
    if cls is ChooseSeventh:
        up = data.get("up")
        if not isinstance(up, bool):
            raise DomainError("must be true (face up) or false (face down)", field="event.up")
        return ChooseSeventh(seat, up)
    if cls is Declare:
        choice = data.get("choice")
        if choice not in _DECLARATIONS:
            raise DomainError(f"must be one of {', '.join(_DECLARATIONS)}", field="event.choice")
        return Declare(seat, choice)
    if cls in BET_EVENTS:
        return cls(seat, _chips(data.get("to"), "event.to"))
    if cls in (Contribute, ReturnUncalled):
        amount = _chips(data.get("amount"), "event.amount")
        return cls(seat, amount or 0)
    return cls(seat)
