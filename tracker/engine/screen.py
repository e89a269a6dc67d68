"""The live logger's screen, computed from a hand's events alone: whose turn, the buttons
(one per option the machine's ``next_event()`` offers, with its label and amount), the cards
due, the showdown, the stacks and the pot; and the reading of a screen's form back into
table events. Pure Python with the standard library only, so the same code draws the
screen on the server (web/presenters/live.py) and in the phone's browser (Pyodide,
static/js/logger.js), where a tap takes effect with no round trip and with no network.

The hand's steps are stored as the live logger keeps them (tracker/hands/services/live.py):
each event's JSON (:func:`tracker.engine.events.event_to_json`), with ``"joined": True``
on the later events of one change and ``"auto": True`` on what the machine did by itself.

>>> from tracker.engine.stakes import Stakes
>>> setup = dict(variant="seven_card_stud", options={}, stakes=Stakes(1, 2, 5, 10),
...              stacks=[100, 100], names=["Ann", "Bob"])
>>> now = table_now(**setup, steps=[])
>>> screen(now).prompt
'Deal third street: the face-up cards (face-down ones only if seen)'
>>> steps, done = step(now, {"op": "deal", "card-0-2": "2c", "card-1-2": "Kd"})
>>> [b.label for b in screen(table_now(**setup, steps=steps)).buttons]
['Bring in 2', 'Complete to 5']
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from .announcements import VARIANT_TITLES, has_high, has_low, max_players, normalize_announcements
from .cards import card_symbol, format_card, parse_card
from .errors import DomainError
from .events import (
    EVENT_TYPES,
    Buy,
    ChooseSeventh,
    DealBoard,
    DealHole,
    Declare,
    Muck,
    Show,
    TableEvent,
    event_for,
    event_from_json,
    event_to_json,
)
from .frames import FrameSeat, FramesObserver, StreetFrame
from .games import GameDefinition, load_game, table_follow_ranks
from .games import wild_options as game_wild_options
from .live import check_around, checks_around, live_hand
from .stakes import Stakes
from .stud import BET_VERBS, NextEvent, Option, Phase, ProcedureError, StudHand, Verb, declaring
from .tournament import next_hand
from .variants import STREETS, Face
from .wild import wild_options

__all__ = [
    "VERB_LABELS",
    "Screen",
    "TableNow",
    "change_steps",
    "events_from_form",
    "hand_title",
    "night_game",
    "phone_next_hand",
    "phone_replay",
    "phone_screen",
    "phone_step",
    "screen",
    "screen_json",
    "seen_cards",
    "stakes_line",
    "step",
    "table_now",
    "undo_steps",
    "wild_marks",
]

VERB_LABELS = {
    Verb.BRING_IN: "Bring in",
    Verb.COMPLETE: "Complete to",
    Verb.BET: "Bet",
    Verb.RAISE: "Raise to",
    Verb.CALL: "Call",
    Verb.CHECK: "Check",
    Verb.FOLD: "Fold",
    Verb.PAY: "Pay",  # a house game's pay rule (e.g. Baseball's three up): pay or fold
}


@dataclass
class Button:
    op: str
    label: str
    seat: int | None = None
    verb: str = ""
    choice: str = ""
    style: str = ""  # "primary", "quiet"


@dataclass
class Slot:
    name: str  # the form's field
    up: bool
    required: bool


@dataclass
class SeatDeal:
    seat: int
    name: str
    slots: list[Slot]


@dataclass
class ShowSeat:
    seat: int
    name: str
    slots: list[Slot]  # the cards nobody has seen yet
    declare: list[Button] = field(default_factory=list)
    optional: bool = False  # the hand can be recorded without them (won uncontested)


@dataclass
class ScreenSeat:
    seat: FrameSeat
    name: str
    to_act: bool
    cards: list[tuple[str | None, bool]]  # (code, up)
    wild: list[bool] = field(default_factory=list)  # per card: wild as things stand now

    @property
    def marked(self) -> list[tuple[str | None, bool, bool]]:
        """The cards as ``(code, up, wild)``, for the server's page."""
        wild = self.wild or [False] * len(self.cards)
        return [(code, up, w) for (code, up), w in zip(self.cards, wild, strict=True)]


@dataclass
class TableNow:
    """Where a hand stands: the machine after its events, what comes next, the table."""

    variant: str
    names: list[str]
    hand: StudHand
    next: NextEvent
    table: StreetFrame  # the table now
    log: list[str]  # what happened so far, one line per event
    steps: list[dict] = field(default_factory=list)  # the stored events


@dataclass
class Screen:
    street: str
    pot: int
    seats: list[ScreenSeat]
    prompt: str
    buttons: list[Button]
    deals: list[SeatDeal]
    community: bool
    shows: list[ShowSeat]
    mucks: list[Button]
    can_finish: bool
    deal_label: str
    choices_open: bool  # seventh-card choices still open: the street goes in by its button
    log: list[str]
    # The table's result if it differs: the seats that reached the showdown, and the
    # results each may be given ("won", or "high"/"low"/"both" in a high-low game).
    result_seats: list[tuple[int, str]] = field(default_factory=list)
    result_choices: list[tuple[str, str]] = field(default_factory=list)
    # The cards already seen in the hand (codes, "Kd"): the card picker greys them out.
    seen_up: list[str] = field(default_factory=list)  # face up on the table
    seen_down: list[str] = field(default_factory=list)  # entered face down (or shown)


def steps_events(steps: Sequence[Mapping[str, Any]], *, n: int) -> list[TableEvent]:
    """The stored steps' events, in order (those the machine did by itself included)."""
    return [event_from_json(data, n=n) for data in steps]


def table_now(
    *,
    variant: str,
    options: Mapping[str, Any],
    stakes: Stakes,
    stacks: Sequence[int],
    names: Sequence[str],
    steps: Sequence[Mapping[str, Any]],
    game: GameDefinition | None = None,
) -> TableNow:
    """The hand after its stored ``steps``, with the table and the log of what happened
    (``game``: the house game's definition the hand deals, variant ``house``)."""
    names = list(names)
    frames = FramesObserver(names)
    hand = live_hand(
        variant=variant,
        options=options,
        stakes=stakes,
        stacks=stacks,
        events=steps_events(steps, n=len(names)),
        labels=names,
        observers=[frames],
        game=game,
    )
    table = frames.snapshot(frames.number, hand)
    log = [line for s in frames.steps for line in s.actions]
    return TableNow(variant, names, hand, hand.next_event(), table, log, list(steps))


def change_steps(done: Sequence[TableEvent], automated: Sequence[TableEvent]) -> list[dict]:
    """The stored form of one change: its events (every one after the first is taken back
    with it), then what the machine did by itself after them.

    >>> from tracker.engine.events import Check, PostAntes
    >>> change_steps([Check(0), Check(1)], [])
    [{'event': 'check', 'seat': 0}, {'event': 'check', 'seat': 1, 'joined': True}]
    """
    change = [event_to_json(e) if k == 0 else {**event_to_json(e), "joined": True}
              for k, e in enumerate(done)]  # fmt: skip
    return change + [{**event_to_json(e), "auto": True} for e in automated]


def undo_steps(steps: Sequence[Mapping[str, Any]]) -> list[dict]:
    """The steps without the last change: its events and what the machine did after them.

    >>> undo_steps([{"event": "check", "seat": 0}, {"event": "check", "seat": 1, "joined": True}])
    []
    """
    kept = [dict(s) for s in steps]
    while kept and (kept[-1].get("auto") or kept[-1].get("joined")):
        kept.pop()
    if not kept:
        raise DomainError("nothing to undo: the antes post themselves", field="version")
    return kept[:-1]


def step(now: TableNow, form: Mapping[str, Any]) -> tuple[list[dict], list[TableEvent]]:
    """A screen's form applied to the hand: the steps after it, and the events it made
    (``check_around`` gives the checks; the machine checks each one)."""
    if form.get("op") == "check_around":
        done = check_around(now.hand)
    else:
        done = [now.hand.apply(event, automate=False) for event in events_from_form(now, form)]
        if not done:
            raise DomainError("a change logs at least one event: nothing was sent", field="op")
    return list(now.steps) + change_steps(done, now.hand.automate()), done


def screen(now: TableNow) -> Screen:
    """The screen for where the hand stands: the table, then what comes next (betting
    buttons, the street's cards, the showdown), and whether it can be recorded."""
    hand, nxt = now.hand, now.next
    seen_up, seen_down = seen_cards(now.table)
    page = Screen(
        street=f"{STREETS[hand.street].capitalize()} street",
        pot=hand.pot_total(),
        seats=_seats(now),
        prompt="",
        buttons=[],
        deals=[],
        community=False,
        shows=[],
        mucks=[],
        can_finish=False,
        deal_label="Deal",
        choices_open=bool(nxt.choices),
        log=now.log,
        seen_up=seen_up,
        seen_down=seen_down,
    )
    if nxt.seat is not None:
        _betting(page, now)
    elif nxt.deals:
        _dealing(page, now)
        _seventh_choices(page, now)
    if nxt.showdown:
        _showdown(page, now)
    if nxt.over:
        _finish(page, now)
    return page


def seen_cards(table: StreetFrame) -> tuple[list[str], list[str]]:
    """The cards already seen in the hand, as the table now shows them: those face up on
    the table (the community card too) and those entered face down, each sorted. No card of
    either list can be dealt again (the engine refuses it as ``duplicate_card``)."""
    up: list[str] = [table.community] if table.community else []
    down: list[str] = []
    for seat in table.seats:
        for card in seat.cards:
            if card.code:
                (up if card.up else down).append(card.code)
    return sorted(up), sorted(down)


def _seats(now: TableNow) -> list[ScreenSeat]:
    seats = []
    for s, wild in zip(now.table.seats, wild_marks(now), strict=True):
        seats.append(
            ScreenSeat(
                seat=s,
                name=now.names[s.position],
                to_act=s.position == now.next.seat,
                cards=[(c.code, c.up) for c in s.cards],
                wild=[c.code is not None and c.code in wild for c in s.cards],
            )
        )
    return seats


def wild_marks(now: TableNow) -> list[set[str]]:
    """Each seat's cards (codes) that are wild as things stand now, worked out once for the
    whole table: a house game's rules over the up cards dealt so far (the follow ranks of
    :func:`tracker.engine.games.table_follow_ranks`, then each seat's
    :func:`tracker.engine.games.wild_options`), today's games as
    :func:`tracker.engine.wild.wild_options` reads them (every card any choice makes wild;
    Low Hole's high and low halves both). While some of a seat's cards are unseen only
    what cannot depend on them is marked, as the rules say of themselves
    (``reads_every_card``, ``ranks_while_unseen``): a house game's fixed and follow ranks;
    today's kings.

    >>> from tracker.engine.stakes import Stakes
    >>> setup = dict(variant="kings_and_little_ones", options={}, stakes=Stakes(1, 2, 5, 10),
    ...              stacks=[100, 100], names=["Ann", "Bob"])
    >>> steps, _ = step(table_now(**setup, steps=[]), {"op": "deal", "card-0-0": "Kc",
    ...     "card-0-1": "9d", "card-0-2": "4h", "card-1-2": "Kd"})
    >>> [sorted(cards) for cards in wild_marks(table_now(**setup, steps=steps))]
    [['4h', 'Kc'], ['Kd']]
    """
    hand, seats = now.hand, now.table.seats
    rules = hand.game.wild
    if not rules:  # no wild cards (seven-card stud)
        return [set() for _ in seats]
    community = parse_card(now.table.community) if now.table.community else None
    marks = _house_marks(now, community) if hand.house else _variant_marks(now, community)
    found = []
    for seat in seats:
        down = [parse_card(c.code) for c in seat.cards if c.code and not c.up]
        up = [parse_card(c.code) for c in seat.cards if c.code and c.up]
        seen = all(c.code for c in seat.cards)
        cards = marks(down, up, seen) if down or up else frozenset()
        found.append({format_card(c) for c in cards})
    return found


_Marks = Callable[[list[int], list[int], bool], "frozenset[int]"]


def _house_marks(now: TableNow, community: int | None) -> _Marks:
    """A house game's wild cards of one seat (down, up, all seen?), the table's follow
    ranks and the rules kept while cards are unseen worked out once."""
    hand = now.hand
    game = hand.game
    order = [c for c in hand.up_order if c is not None]
    complete = hand.street == hand.last_street and hand.phase is not Phase.DEAL
    follow = table_follow_ranks(game, order, complete=complete)
    kept = tuple(w for w in game.wild if not w.reads_every_card)
    unseen: GameDefinition | None = game
    if len(kept) < len(game.wild):  # drop the rules that read every card
        unseen = replace(game, wild=kept) if kept else None

    def marks(down: list[int], up: list[int], seen: bool) -> frozenset[int]:
        rules = game if seen else unseen
        if rules is None:
            return frozenset()
        return frozenset().union(*game_wild_options(rules, down, up, community, follow))

    return marks


def _variant_marks(now: TableNow, community: int | None) -> _Marks:
    """One of today's games: its announcements and halves read once; while cards are
    unseen, only the ranks its rules mark whatever they are."""
    hand = now.hand
    ann = normalize_announcements(hand.variant, hand.options)
    halves = ["high"] + (["low"] if has_low(hand.variant, ann) else [])
    sure = frozenset().union(*(w.ranks_while_unseen for w in hand.game.wild))

    def marks(down: list[int], up: list[int], seen: bool) -> frozenset[int]:
        if not seen and not sure:  # the wild cards follow a hole card nobody has seen
            return frozenset()
        options = [
            o for half in halves for o in wild_options(hand.variant, ann, down, up, community, half)
        ]
        cards = frozenset().union(*options)
        if not seen:  # the lowest card may be among the unseen ones
            cards = frozenset(c for c in cards if c >> 2 in sure)
        return cards

    return marks


def _option_label(page: Screen, now: TableNow, option: Option) -> str:
    label = VERB_LABELS.get(option.verb, option.verb.value)
    if option.verb in BET_VERBS:
        label = f"{label} {option.to}"
    elif option.amount:
        label = f"{label} {option.amount}"
    if option.verb is not Verb.FOLD and option.amount:
        if option.amount == now.hand.stacks[option.seat]:  # type: ignore[index]
            label += " (all in)"
    return label


def _betting(page: Screen, now: TableNow) -> None:
    """A seat to act: one button per option the machine offers, and "check around"."""
    nxt = now.next
    page.prompt = f"{now.names[nxt.seat]} to act"  # type: ignore[index]
    for option in nxt.options:
        style = "quiet" if option.verb is Verb.FOLD else "primary"
        label = _option_label(page, now, option)
        page.buttons.append(Button("act", label, option.seat, option.verb.value, style=style))
    if len(checks_around(now.hand)) > 1:
        page.buttons.append(Button("check_around", "Check around", style="primary"))


def _seat_by_seat(now: TableNow) -> bool:
    """Whether the street goes in one seat at a time: a house game where a card dealt face
    up may bring a pay or an extra card before the next seat's (as the machine deals it)."""
    game = now.hand.game
    return bool(now.hand.house and (game.pays or game.extra_cards))


def _dealing(page: Screen, now: TableNow) -> None:
    """The street's cards: a slot per card due (the face-up ones required), or the
    community card."""
    street = STREETS[now.hand.street]
    if now.next.deals[0].face is Face.COMMUNITY:
        page.community = True
        page.prompt = "The deck is short: one community card, everyone's seventh card"
        return
    page.prompt = f"Deal {street} street: the face-up cards (face-down ones only if seen)"
    by_seat: dict[int, list[Slot]] = {}
    for deal in now.next.deals:
        slots = by_seat.setdefault(deal.seat, [])  # type: ignore[arg-type]
        up = deal.face is Face.UP
        slots.append(Slot(f"card-{deal.seat}-{len(slots)}", up, up))
    if _seat_by_seat(now):
        first = now.next.deals[0].seat
        by_seat = {first: by_seat[first]}  # type: ignore[index]
        page.prompt = (
            f"Deal {street} street to {now.names[first]}: the face-up cards "  # type: ignore[index]
            "(face-down ones only if seen)"
        )
    page.deals = [SeatDeal(s, now.names[s], slots) for s, slots in sorted(by_seat.items())]
    if not now.next.choices and all(not slot.up for d in page.deals for slot in d.slots):
        page.prompt = f"Deal {street} street: face-down cards only if seen"
        page.deal_label = "Deal them face down"


def _bought_face(hand) -> str:
    """Which way a Low Hold buy turns the seventh card (the variant's own rule)."""
    return "up" if hand.rules.seventh_up(hand.options, bought=True, chose_up=False) else "down"


def _seventh_choices(page: Screen, now: TableNow) -> None:
    """Seventh street's open choices: a button per buy or per card to take face up."""
    hand, choices = now.hand, now.next.choices
    face = _bought_face(hand)
    for choice in choices:
        name = now.names[choice.seat]  # type: ignore[index]
        if choice.verb is Verb.BUY:
            label = f"{name} buys it {face} ({choice.amount})"
            page.buttons.append(Button("buy", label, choice.seat, style="quiet"))
        elif choice.verb is Verb.CHOOSE_SEVENTH and not hand.seventh_up[choice.seat]:
            page.buttons.append(Button("seventh", f"{name}: seventh up", choice.seat, choice="up"))
    if choices and not page.community:
        if any(c.verb is Verb.BUY for c in choices):
            page.prompt = (
                f"Seventh street: who pays {choices[0].amount} to get the card face {face}? "
                "Then deal (face-down cards only if seen)"
            )
        else:
            page.prompt = (
                "Seventh street: who takes the card face up? "
                "Then deal (face-down cards only if seen)"
            )


def _showdown(page: Screen, now: TableNow) -> None:
    """The seats still in: slots for the cards nobody has seen, declarations, mucks."""
    hand, nxt = now.hand, now.next
    for seat in nxt.showdown:
        missing = [k for k, c in enumerate(hand.cards[seat]) if c is None]
        declare: list[Button] = []
        if nxt.over and declaring(hand.options) and hand.declarations[seat] is None:
            declare = [
                Button("declare", c.capitalize(), seat, choice=c) for c in ("high", "low", "both")
            ]
        if missing or declare:
            slots = [Slot(f"show-{seat}-{k}", False, True) for k in missing]
            page.shows.append(ShowSeat(seat, now.names[seat], slots, declare))
    page.mucks = [  # instead of showing: the seats with cards nobody has seen
        Button("muck", f"{s.name} mucks", s.seat, style="quiet")
        for s in page.shows
        if s.slots and _can_muck(hand, s.seat)
    ]
    if nxt.over:
        if any(s.slots for s in page.shows):
            page.prompt = "Showdown: show the cards nobody has seen, or muck"
        else:
            page.prompt = "Showdown: each player declares high, low or both"
    elif page.shows:
        page.prompt += "; the hands all in may show now"


def _finish(page: Screen, now: TableNow) -> None:
    """The hand is over: whether it can be recorded, and the table's result to give."""
    hand, nxt = now.hand, now.next
    try:
        hand.verify_complete_hand()
    except ProcedureError:
        return
    page.can_finish = True
    page.prompt = "The hand is over: record it"
    for s in page.shows:
        s.optional = True  # e.g. everyone else mucked: the pot is won without showing
    if len(nxt.showdown) > 1:
        page.result_seats = [(seat, now.names[seat]) for seat in nxt.showdown]
        if has_high(now.variant, hand.options) and has_low(now.variant, hand.options):
            page.result_choices = [
                ("high", "wins high"),
                ("low", "wins low"),
                ("both", "wins both"),
            ]
        else:
            page.result_choices = [("won", "wins")]


def _can_muck(hand, seat: int) -> bool:
    """Whether ``seat`` may concede at the showdown (not the last hand left in a pot)."""
    if not hand.next_event().over:
        return False
    try:
        hand.verify_muck(seat)
    except ProcedureError:
        return False
    return True


def _card(value: Any, field: str) -> int | None:
    text = (value or "").strip()
    if not text or text == "??":
        return None
    return parse_card(text, field)


def _seat(now: TableNow, form: Mapping[str, Any]) -> int:
    n = len(now.names)
    try:
        seat = int(form.get("seat", ""))
    except ValueError:
        raise DomainError("no seat named", field="seat") from None
    if not 0 <= seat < n:
        raise DomainError(f"there is no seat {seat} (seats 0 to {n - 1})", field="seat")
    return seat


def _choice(form: Mapping[str, Any], allowed: tuple[str, ...]) -> str:
    choice = form.get("choice", "")
    if choice not in allowed:
        raise DomainError(f"must be one of {', '.join(allowed)}", field="choice")
    return choice


#: What a hand's variant is for a house game (its definition comes with it: ``game``).
HOUSE = "house"

#: The betting events a button may name by its verb (any other is no betting action).
_BETTING = {v.value: EVENT_TYPES[v.value] for v in VERB_LABELS}


def _act(now: TableNow, form: Mapping[str, Any]) -> TableEvent:
    """The option the machine offered for the button pressed; an event it did not offer
    goes to the machine as it is, which names the rule it breaks."""
    seat, verb = _seat(now, form), form.get("verb", "")
    for option in now.next.options:
        if option.seat == seat and option.verb.value == verb:
            return event_for(option)
    if verb not in _BETTING:
        raise DomainError(f"{verb!r} is not a betting action", field="verb")
    return _BETTING[verb](seat)


def _deals(now: TableNow, form: Mapping[str, Any]) -> list[TableEvent]:
    """The street's cards as the form holds them: one event per seat due cards."""
    by_seat: dict[int, int] = {}
    for deal in now.next.deals:
        if deal.seat is not None:
            by_seat[deal.seat] = by_seat.get(deal.seat, 0) + 1
    if not by_seat:
        why = (
            "the community card goes in by its own field"
            if now.next.deals
            else ("no cards are due now")
        )
        raise DomainError(why, field="op")
    if _seat_by_seat(now):
        first = next(d.seat for d in now.next.deals if d.seat is not None)
        by_seat = {first: by_seat[first]}
    return [
        DealHole(seat, tuple(_card(form.get(f"card-{seat}-{k}"), f"card-{seat}-{k}")
                             for k in range(count)))
        for seat, count in sorted(by_seat.items())
    ]  # fmt: skip


def _show(now: TableNow, form: Mapping[str, Any]) -> TableEvent:
    """All the seat's cards: those known, and those the form gives."""
    seat = _seat(now, form)
    cards = tuple(
        _card(form.get(f"show-{seat}-{k}"), f"show-{seat}-{k}") if card is None else card
        for k, card in enumerate(now.hand.cards[seat])
    )
    return Show(seat, cards)


def events_from_form(now: TableNow, form: Mapping[str, Any]) -> list[TableEvent]:
    """The events a live page's form sends (the machine checks them when applied)."""
    op = form.get("op", "")
    if op == "act":
        return [_act(now, form)]
    if op == "buy":
        return [Buy(_seat(now, form))]
    if op == "muck":
        return [Muck(_seat(now, form))]
    if op == "seventh":
        return [ChooseSeventh(_seat(now, form), _choice(form, ("up", "down")) == "up")]
    if op == "declare":
        return [Declare(_seat(now, form), _choice(form, ("high", "low", "both")))]
    if op == "community":
        return [DealBoard(_card(form.get("community"), "community"))]
    if op == "deal":
        return _deals(now, form)
    if op == "show":
        return [_show(now, form)]
    raise DomainError(f"{op!r} is not something the live logger does", field="op")


def screen_json(page: Screen) -> dict[str, Any]:
    """The screen as JSON, for the phone's page to draw (static/js/logger.js)."""
    data = asdict(page)
    data["seats"] = [
        {
            "seat": s.seat.position,
            "name": s.name,
            "to_act": s.to_act,
            "cards": [
                {
                    "code": code,
                    "up": up,
                    "symbol": card_symbol(parse_card(code)) if code else None,
                    "wild": wild,
                }
                for code, up, wild in s.marked
            ],
            "folded": s.seat.folded,
            "street_chips": s.seat.street_chips,
            "stack": s.seat.stack,
            "last_action": s.seat.last_action,
        }
        for s in page.seats
    ]
    return data


def _setup(data: Mapping[str, Any]) -> dict[str, Any]:
    stakes = data["stakes"]
    return {
        "variant": data["variant"],
        "options": data.get("options") or {},
        "stakes": Stakes.coerce(stakes),
        "stacks": list(data["stacks"]),
        "names": list(data["names"]),
        "game": load_game(data["game"]) if data.get("game") else None,
    }


def phone_screen(setup_json: str, steps_json: str) -> str:
    """The screen of a hand, JSON in and out (what the phone's page calls): ``setup`` holds
    ``variant``, ``options``, ``stakes`` (ante, bring_in, small_bet, big_bet), ``stacks``
    and ``names``; ``steps`` the stored steps.

    >>> setup = json.dumps({"variant": "seven_card_stud", "options": {}, "names": ["A", "B"],
    ...     "stakes": {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10},
    ...     "stacks": [100, 100]})
    >>> json.loads(phone_screen(setup, "[]"))["pot"]
    2
    """
    now = table_now(**_setup(json.loads(setup_json)), steps=json.loads(steps_json))
    return json.dumps(screen_json(screen(now)))


def phone_step(setup_json: str, steps_json: str, form_json: str) -> str:
    """A tap on the phone: the form applied to the hand (JSON in and out). The answer holds
    ``steps`` (the hand's steps after it), ``events`` (the tap's events, for the outbox:
    the server applies them again and checks them) and ``screen``; or ``error`` (its
    ``message`` and ``field``) when the machine refuses the tap, which changes nothing.

    >>> setup = json.dumps({"variant": "seven_card_stud", "options": {}, "names": ["A", "B"],
    ...     "stakes": {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10},
    ...     "stacks": [100, 100]})
    >>> answer = json.loads(phone_step(setup, "[]", json.dumps({"op": "deal",
    ...     "card-0-2": "2c", "card-1-2": "Kd"})))
    >>> answer["events"], answer["screen"]["prompt"]
    ([{'event': 'deal', 'seat': 0, 'cards': [None, None, '2c']}, {'event': 'deal', 'seat': 1, 'cards': [None, None, 'Kd']}], 'A to act')
    >>> json.loads(phone_step(setup, "[]", json.dumps({"op": "act", "seat": "0",
    ...     "verb": "fold"})))["error"]["message"][:20]
    'third street is not '
    """
    setup = _setup(json.loads(setup_json))
    now = table_now(**setup, steps=json.loads(steps_json))
    try:
        steps, done = step(now, json.loads(form_json))
    except DomainError as exc:
        return json.dumps({"error": {"message": exc.message, "field": exc.field}})
    page = screen(table_now(**setup, steps=steps))
    return json.dumps(
        {"steps": steps, "events": [event_to_json(e) for e in done], "screen": screen_json(page)}
    )


def phone_replay(setup_json: str, steps_json: str, changes_json: str) -> str:
    """The hand's steps after changes not yet answered by the server (the phone's outbox,
    in order: ``{"op": "events", "events": [...]}``, ``{"op": "check_around"}``,
    ``{"op": "undo"}``, or a form's ``op`` and ``form``; a ``finish`` or ``discard`` ends the
    list), JSON in and out, with the
    screen: what the phone draws after a reload, offline.

    >>> setup = json.dumps({"variant": "seven_card_stud", "options": {}, "names": ["A", "B"],
    ...     "stakes": {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10},
    ...     "stacks": [100, 100]})
    >>> deal = {"op": "events", "events": [{"event": "deal", "seat": 0, "cards": [None, None, "2c"]},
    ...     {"event": "deal", "seat": 1, "cards": [None, None, "Kd"]}]}
    >>> answer = json.loads(phone_replay(setup, "[]", json.dumps([deal, {"op": "undo"}, deal])))
    >>> len(answer["steps"]), answer["screen"]["prompt"]
    (2, 'A to act')
    """
    setup = _setup(json.loads(setup_json))
    n = len(setup["names"])
    steps = list(json.loads(steps_json))
    for change in json.loads(changes_json):
        op = change.get("op")
        if op in ("finish", "discard"):
            break
        if op == "undo":
            steps = undo_steps(steps)
            continue
        now = table_now(**setup, steps=steps)
        if op == "check_around":
            done = check_around(now.hand)
        elif op == "events":
            events = [event_from_json(e, n=n) for e in change.get("events") or ()]
            done = [now.hand.apply(event, automate=False) for event in events]
        else:  # a form's fields, as the page without the engine sent them
            done = [
                now.hand.apply(e, automate=False) for e in events_from_form(now, change["form"])
            ]
        steps = steps + change_steps(done, now.hand.automate())
    page = screen(table_now(**setup, steps=steps))
    return json.dumps({"steps": steps, "screen": screen_json(page)})


def hand_title(number: int, variant: str) -> str:
    """The logger's heading for a hand.

    >>> hand_title(7, "seven_card_stud")
    'Hand 7 · Seven-Card Stud'
    """
    return f"Hand {number} · {VARIANT_TITLES.get(variant, variant)}"


def stakes_line(level: int, stakes: Mapping[str, int]) -> str:
    """The logger's line under the heading: the level and its stakes.

    >>> stakes_line(2, {"ante": 6, "bring_in": 15, "small_bet": 30, "big_bet": 60})
    'Level 2: ante 6, bring-in 15, bets 30/60'
    """
    return (
        f"Level {level}: ante {stakes['ante']}, bring-in {stakes['bring_in']}, "
        f"bets {stakes['small_bet']}/{stakes['big_bet']}"
    )


def _house_game(night: Mapping[str, Any], slug: str, players: int) -> dict[str, Any]:
    """The night's house game ``slug`` (as the phone holds it: ``game``, ``name``,
    ``version`` and ``definition``), if it can be dealt to ``players``."""
    houses = {g["game"]: g for g in night.get("games") or () if g.get("game")}
    if slug not in houses:
        raise DomainError(
            f"{slug!r} is not a house game of this night ({', '.join(houses) or 'none'})",
            field="game",
        )
    house = houses[slug]
    most = load_game(house["definition"]).player_limit
    if players > most:
        raise DomainError(
            f"{house['name']} is dealt to at most {most} players, and {players} are still in",
            field="game",
        )
    return dict(house)


def night_game(
    night: Mapping[str, Any],
    chosen: Mapping[str, Any] | None,
    *,
    same: Mapping[str, Any],
    players: int,
) -> tuple[str, dict[str, Any], dict[str, Any] | None]:
    """The next hand's game, announcements and house game: the night's game; on a dealer's
    choice night (``variant`` ``None``) the game ``chosen`` among the night's ``games``
    (each ``variant`` with its announcements, the house rules; a house game ``game`` by its
    slug, with its ``name``, ``version`` and ``definition``), its announcements over the
    game's, or the game of this hand (``same``) again if none is chosen (a house game: the
    version the night holds, ``same["game_slug"]``). Refuses a game the night does not
    offer (field ``variant``, a house game ``game``), a bad announcement
    (``options.<name>``), or a game dealt to fewer players than are still in. The third
    part is the house game dealt (variant ``house``, no announcements), else None.

    >>> night = {"variant": None, "games": [{"variant": "low_hold", "options": {"buy_price": 20}}]}
    >>> night_game(night, {"variant": "low_hold"}, same={}, players=3)[1]["buy_price"]
    20
    >>> night_game(night, {"variant": "razz"}, same={}, players=3)
    Traceback (most recent call last):
    ...
    tracker.engine.errors.DomainError: 'razz' is not a game of this night (low_hold)

    A house game is dealt offline under the version the phone holds, and again as the
    game of this hand when none is chosen:

    >>> from tracker.engine.games import dump_game
    >>> from tracker.engine.game_presets import PRESETS
    >>> night["games"].append({"variant": "house", "game": "queens", "name": "Queens",
    ...     "version": 2, "definition": dump_game(PRESETS["follow_the_queen"])})
    >>> variant, options, house = night_game(night, {"game": "queens"}, same={}, players=3)
    >>> variant, options, house["name"], house["version"]
    ('house', {}, 'Queens', 2)
    >>> night_game(night, None, same={"variant": "house", "game_slug": "queens"}, players=3)[2]["version"]
    2
    >>> night_game(night, {"game": "baseball"}, same={}, players=3)
    Traceback (most recent call last):
    ...
    tracker.engine.errors.DomainError: 'baseball' is not a house game of this night (queens)
    >>> night_game(night, {"game": "queens"}, same={}, players=8)
    Traceback (most recent call last):
    ...
    tracker.engine.errors.DomainError: Queens is dealt to at most 7 players, and 8 are still in
    """
    if night.get("variant"):
        return night["variant"], dict(night.get("options") or {}), None
    if chosen and chosen.get("game"):
        return HOUSE, {}, _house_game(night, chosen["game"], players)
    if not chosen or not chosen.get("variant"):
        if same.get("variant") == HOUSE:
            return HOUSE, {}, _house_game(night, same.get("game_slug") or "", players)
        return same["variant"], dict(same.get("options") or {}), None
    games = {g["variant"]: g for g in night.get("games") or () if not g.get("game")}
    variant = chosen["variant"]
    if variant not in games:
        raise DomainError(
            f"{variant!r} is not a game of this night ({', '.join(games)})", field="variant"
        )
    options = {**(games[variant].get("options") or {}), **(chosen.get("options") or {})}
    options = normalize_announcements(variant, options)
    if players > max_players(variant):
        raise DomainError(
            f"{VARIANT_TITLES[variant]} is dealt to at most {max_players(variant)} players, "
            f"and {players} are still in",
            field="variant",
        )
    return variant, options, None


def phone_next_hand(
    night_json: str, setup_json: str, steps_json: str, chosen_json: str = "null"
) -> str:
    """The night's next hand, dealt on the phone once the hand on its screen is over (JSON
    in and out): what the server's state of play would deal, by the same rules
    (:func:`tracker.engine.tournament.next_hand`) from the stacks this hand leaves.

    ``night`` holds the seats in clockwise order (``seat``, ``player``, ``name``), the
    stacks of the players not in this hand (``others``, by player id), ``first_dealer``,
    ``schedule``, ``hands_per_level``, ``hand_limit`` and the night's ``variant`` and
    ``options`` (``null`` on a dealer's choice night, with its ``games``: ``chosen``, the
    start form's ``variant`` and ``options``, picks one, :func:`night_game`; none chosen,
    the same game again), and the chips bought since this hand started (``bought``, by
    player id, for hand ``number``). ``setup`` is this hand's (with ``number``,
    ``positions``: player ids, the dealer last, and ``level``). The answer is the next
    hand's ``setup`` (``title`` and ``stakes_line`` too; a house game's ``game``, its
    definition, with ``game_slug`` and ``game_version``, the version the night holds) and its
    ``screen``, ``over`` saying why the night deals no more hands, or ``error`` (``message``,
    ``field``) for a game the night does not offer.

    >>> night = json.dumps({"seats": [{"seat": 0, "player": 7, "name": "A"},
    ...     {"seat": 1, "player": 8, "name": "B"}], "others": {}, "first_dealer": 0,
    ...     "schedule": [[1, 2, 5, 10]], "hands_per_level": 5, "hand_limit": 50,
    ...     "variant": "seven_card_stud", "options": {}})
    >>> setup = json.dumps({"variant": "seven_card_stud", "options": {}, "names": ["B", "A"],
    ...     "stakes": {"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10},
    ...     "stacks": [100, 100], "number": 1, "positions": [8, 7], "level": 1})
    >>> steps = json.loads(phone_step(setup, "[]", json.dumps({"op": "deal",
    ...     "card-0-2": "2c", "card-1-2": "Kd"})))["steps"]
    >>> steps = json.loads(phone_step(setup, json.dumps(steps), json.dumps({"op": "act",
    ...     "seat": "0", "verb": "bring_in"})))["steps"]
    >>> steps = json.loads(phone_step(setup, json.dumps(steps), json.dumps({"op": "act",
    ...     "seat": "1", "verb": "fold"})))["steps"]
    >>> nxt = json.loads(phone_next_hand(night, setup, json.dumps(steps)))["setup"]
    >>> nxt["number"], nxt["positions"], nxt["names"], nxt["stacks"], nxt["title"]
    (2, [7, 8], ['A', 'B'], [99, 101], 'Hand 2 · Seven-Card Stud')
    """
    night = json.loads(night_json)
    data = json.loads(setup_json)
    setup = _setup(data)
    now = table_now(**setup, steps=json.loads(steps_json))
    finishing = now.hand.settle().finishing_stacks
    by_player = {int(pid): chips for pid, chips in (night.get("others") or {}).items()}
    by_player.update(zip(data["positions"], finishing, strict=True))
    if night.get("number") == data["number"]:  # bought since this hand started
        for pid, chips in (night.get("bought") or {}).items():
            by_player[int(pid)] = by_player.get(int(pid), 0) + chips
    seats = night["seats"]
    seat_of = {s["player"]: s["seat"] for s in seats}
    upcoming = next_hand(
        seats=[s["seat"] for s in seats],
        stacks={s["seat"]: by_player.get(s["player"], 0) for s in seats},
        hands_played=data["number"],
        previous_dealer=seat_of[data["positions"][-1]],
        first_dealer=night.get("first_dealer"),
        schedule=night["schedule"],
        hands_per_level=night["hands_per_level"],
        hand_limit=night["hand_limit"],
    )
    if upcoming.over:
        return json.dumps({"over": f"the night is over after hand {data['number']}: "
                                   f"{upcoming.over}"})  # fmt: skip
    player_at = {s["seat"]: s for s in seats}
    dealt = [player_at[n] for n in upcoming.seats]
    try:
        variant, options, house = night_game(
            night, json.loads(chosen_json), same=data, players=len(upcoming.seats)
        )
    except DomainError as exc:
        field = next(iter(exc.fields), None)
        return json.dumps({"error": {"message": exc.message, "field": field}})
    level = upcoming.stakes
    stakes = {k: getattr(level, k) for k in ("ante", "bring_in", "small_bet", "big_bet")}
    nxt = {
        "variant": variant,
        "options": options or {},
        "stakes": stakes,
        "level": level.level,
        "stacks": [by_player.get(s["player"], 0) for s in dealt],
        "names": [s["name"] for s in dealt],
        "positions": [s["player"] for s in dealt],
        "number": upcoming.number,
        "title": hand_title(upcoming.number, variant),
        "stakes_line": stakes_line(level.level, stakes),
        # a house game: the version the phone holds (the server checks it when the start
        # arrives) and its definition, which the phone's engine deals
        "game": house["definition"] if house else None,
        "game_slug": house["game"] if house else None,
        "game_version": house["version"] if house else None,
    }
    if house:
        nxt["title"] = f"Hand {upcoming.number} · {house['name']}"
    page = screen(table_now(**_setup(nxt), steps=[]))
    return json.dumps({"setup": nxt, "screen": screen_json(page)})
