"""The live logger's page object: the table now, what comes next as buttons and card slots
(one per option the machine's ``next_event()`` offers), and the reading of a page's POST
back into table events (tracker/engine/events.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.utils.html import format_html_join

from tracker.engine.announcements import VARIANT_TITLES, has_high, has_low
from tracker.engine.cards import parse_card
from tracker.engine.errors import DomainError
from tracker.engine.events import (
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
)
from tracker.engine.frames import FrameSeat, StreetFrame
from tracker.engine.live import checks_around
from tracker.engine.stud import BET_VERBS, Option, ProcedureError, Verb, declaring
from tracker.engine.variants import STREETS, Face
from tracker.hands.selectors.live import DraftState

VERB_LABELS = {
    Verb.BRING_IN: "Bring in",
    Verb.COMPLETE: "Complete to",
    Verb.BET: "Bet",
    Verb.RAISE: "Raise to",
    Verb.CALL: "Call",
    Verb.CHECK: "Check",
    Verb.FOLD: "Fold",
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
    name: str  # the POST field
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
class LiveSeat:
    seat: FrameSeat
    name: str
    to_act: bool
    cards: list[tuple[str | None, bool]]  # (code, up)


@dataclass
class LivePage:
    state: DraftState
    title: str
    stakes: str
    street: str
    pot: int
    seats: list[LiveSeat]
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

    @property
    def version(self) -> int:
        return self.state.draft.version

    @property
    def log_items(self) -> str:
        """The log as the page's list items, escaped (one join: a template loop over a
        late street's sixty lines costs as much as the rest of the page)."""
        return format_html_join("", "<li>{}</li>", ((line,) for line in self.log))

    @property
    def number(self) -> int:
        return self.state.draft.number


def live_page(state: DraftState) -> LivePage:
    """The page for where the draft stands: the table, then what comes next (betting
    buttons, the street's cards, the showdown), and whether it can be recorded."""
    hand, nxt, draft = state.hand, state.next, state.draft
    seen_up, seen_down = seen_cards(state.table)
    page = LivePage(
        state=state,
        title=f"Hand {draft.number} · {VARIANT_TITLES.get(draft.variant, draft.variant)}",
        stakes=f"Level {draft.level}: ante {draft.ante}, bring-in {draft.bring_in}, "
        f"bets {draft.small_bet}/{draft.big_bet}",
        street=f"{STREETS[hand.street].capitalize()} street",
        pot=hand.pot_total(),
        seats=_seats(state),
        prompt="",
        buttons=[],
        deals=[],
        community=False,
        shows=[],
        mucks=[],
        can_finish=False,
        deal_label="Deal",
        choices_open=bool(nxt.choices),
        log=state.log,
        seen_up=seen_up,
        seen_down=seen_down,
    )
    if nxt.seat is not None:
        _betting(page)
    elif nxt.deals:
        _dealing(page)
        _seventh_choices(page)
    if nxt.showdown:
        _showdown(page)
    if nxt.over:
        _finish(page)
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


def _seats(state: DraftState) -> list[LiveSeat]:
    return [
        LiveSeat(
            seat=s,
            name=state.names[s.position],
            to_act=s.position == state.next.seat,
            cards=[(c.code, c.up) for c in s.cards],
        )
        for s in state.table.seats
    ]


def _option_label(page: LivePage, option: Option) -> str:
    label = VERB_LABELS.get(option.verb, option.verb.value)
    if option.verb in BET_VERBS:
        label = f"{label} {option.to}"
    elif option.amount:
        label = f"{label} {option.amount}"
    if option.verb is not Verb.FOLD and option.amount:
        if option.amount == page.state.hand.stacks[option.seat]:  # type: ignore[index]
            label += " (all in)"
    return label


def _betting(page: LivePage) -> None:
    """A seat to act: one button per option the machine offers, and "check around"."""
    nxt = page.state.next
    page.prompt = f"{page.state.names[nxt.seat]} to act"  # type: ignore[index]
    for option in nxt.options:
        style = "quiet" if option.verb is Verb.FOLD else "primary"
        label = _option_label(page, option)
        page.buttons.append(Button("act", label, option.seat, option.verb.value, style=style))
    if len(checks_around(page.state.hand)) > 1:
        page.buttons.append(Button("check_around", "Check around", style="primary"))


def _dealing(page: LivePage) -> None:
    """The street's cards: a slot per card due (the face-up ones required), or the
    community card."""
    state = page.state
    street = STREETS[state.hand.street]
    if state.next.deals[0].face is Face.COMMUNITY:
        page.community = True
        page.prompt = "The deck is short: one community card, everyone's seventh card"
        return
    page.prompt = f"Deal {street} street: the face-up cards (face-down ones only if seen)"
    by_seat: dict[int, list[Slot]] = {}
    for deal in state.next.deals:
        slots = by_seat.setdefault(deal.seat, [])  # type: ignore[arg-type]
        up = deal.face is Face.UP
        slots.append(Slot(f"card-{deal.seat}-{len(slots)}", up, up))
    page.deals = [SeatDeal(s, state.names[s], slots) for s, slots in sorted(by_seat.items())]
    if not state.next.choices and all(not slot.up for d in page.deals for slot in d.slots):
        page.prompt = f"Deal {street} street: face-down cards only if seen"
        page.deal_label = "Deal them face down"


def _bought_face(hand) -> str:
    """Which way a Low Hold buy turns the seventh card (the variant's own rule)."""
    return "up" if hand.rules.seventh_up(hand.options, bought=True, chose_up=False) else "down"


def _seventh_choices(page: LivePage) -> None:
    """Seventh street's open choices: a button per buy or per card to take face up."""
    state = page.state
    hand, choices = state.hand, state.next.choices
    face = _bought_face(hand)
    for choice in choices:
        name = state.names[choice.seat]  # type: ignore[index]
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


def _showdown(page: LivePage) -> None:
    """The seats still in: slots for the cards nobody has seen, declarations, mucks."""
    state = page.state
    hand, nxt = state.hand, state.next
    for seat in nxt.showdown:
        missing = [k for k, c in enumerate(hand.cards[seat]) if c is None]
        declare: list[Button] = []
        if nxt.over and declaring(hand.options) and hand.declarations[seat] is None:
            declare = [
                Button("declare", c.capitalize(), seat, choice=c) for c in ("high", "low", "both")
            ]
        if missing or declare:
            slots = [Slot(f"show-{seat}-{k}", False, True) for k in missing]
            page.shows.append(ShowSeat(seat, state.names[seat], slots, declare))
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


def _finish(page: LivePage) -> None:
    """The hand is over: whether it can be recorded, and the table's result to give."""
    state = page.state
    hand, nxt = state.hand, state.next
    try:
        hand.verify_complete_hand()
    except ProcedureError:
        return
    page.can_finish = True
    page.prompt = "The hand is over: record it"
    for s in page.shows:
        s.optional = True  # e.g. everyone else mucked: the pot is won without showing
    if len(nxt.showdown) > 1:
        page.result_seats = [(seat, state.names[seat]) for seat in nxt.showdown]
        if has_high(state.draft.variant, hand.options) and has_low(
            state.draft.variant, hand.options
        ):
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


def _seat(state: DraftState, post: Mapping[str, Any]) -> int:
    n = len(state.names)
    try:
        seat = int(post.get("seat", ""))
    except ValueError:
        raise DomainError("no seat named", field="seat") from None
    if not 0 <= seat < n:
        raise DomainError(f"there is no seat {seat} (seats 0 to {n - 1})", field="seat")
    return seat


def _choice(post: Mapping[str, Any], allowed: tuple[str, ...]) -> str:
    choice = post.get("choice", "")
    if choice not in allowed:
        raise DomainError(f"must be one of {', '.join(allowed)}", field="choice")
    return choice


#: The betting events a button may name by its verb (any other is no betting action).
_BETTING = {v.value: EVENT_TYPES[v.value] for v in VERB_LABELS}


def _act(state: DraftState, post: Mapping[str, Any]) -> TableEvent:
    """The option the machine offered for the button pressed; an event it did not offer
    goes to the machine as it is, which names the rule it breaks."""
    seat, verb = _seat(state, post), post.get("verb", "")
    for option in state.next.options:
        if option.seat == seat and option.verb.value == verb:
            return event_for(option)
    if verb not in _BETTING:
        raise DomainError(f"{verb!r} is not a betting action", field="verb")
    return _BETTING[verb](seat)


def _deals(state: DraftState, post: Mapping[str, Any]) -> list[TableEvent]:
    """The street's cards as the form holds them: one event per seat due cards."""
    by_seat: dict[int, int] = {}
    for deal in state.next.deals:
        if deal.seat is not None:
            by_seat[deal.seat] = by_seat.get(deal.seat, 0) + 1
    if not by_seat:
        why = (
            "the community card goes in by its own field"
            if state.next.deals
            else ("no cards are due now")
        )
        raise DomainError(why, field="op")
    return [
        DealHole(seat, tuple(_card(post.get(f"card-{seat}-{k}"), f"card-{seat}-{k}")
                             for k in range(count)))
        for seat, count in sorted(by_seat.items())
    ]  # fmt: skip


def _show(state: DraftState, post: Mapping[str, Any]) -> TableEvent:
    """All the seat's cards: those known, and those the form gives."""
    seat = _seat(state, post)
    cards = tuple(
        _card(post.get(f"show-{seat}-{k}"), f"show-{seat}-{k}") if card is None else card
        for k, card in enumerate(state.hand.cards[seat])
    )
    return Show(seat, cards)


def events_from_post(state: DraftState, post: Mapping[str, Any]) -> list[TableEvent]:
    """The events a live page's form sends (the machine checks them when applied)."""
    op = post.get("op", "")
    if op == "act":
        return [_act(state, post)]
    if op == "buy":
        return [Buy(_seat(state, post))]
    if op == "muck":
        return [Muck(_seat(state, post))]
    if op == "seventh":
        return [ChooseSeventh(_seat(state, post), _choice(post, ("up", "down")) == "up")]
    if op == "declare":
        return [Declare(_seat(state, post), _choice(post, ("high", "low", "both")))]
    if op == "community":
        return [DealBoard(_card(post.get("community"), "community"))]
    if op == "deal":
        return _deals(state, post)
    if op == "show":
        return [_show(state, post)]
    raise DomainError(f"{op!r} is not something the live logger does", field="op")


def table_result_from_post(state: DraftState, post: Mapping[str, Any]) -> dict[str, Any] | None:
    """The table's result sent with "Record hand" (``result-<seat>``), if any was given:
    ``{"winners": [ids]}`` or ``{"high": [...], "low": [...]}`` (docs/recording.md)."""
    ids = state.draft.positions
    winners: list[int] = []
    high: list[int] = []
    low: list[int] = []
    for seat in range(len(ids)):
        value = post.get(f"result-{seat}", "")
        if value == "won":
            winners.append(ids[seat])
        if value in ("high", "both"):
            high.append(ids[seat])
        if value in ("low", "both"):
            low.append(ids[seat])
    if winners and (high or low):
        raise DomainError(
            "name the winners either as winning or as high/low, not both ways",
            field="table_result",
        )
    if winners:
        return {"winners": winners}
    if high or low:
        return {"high": high, "low": low}
    return None


def next_json(state: DraftState) -> dict[str, Any]:
    """What the machine's ``next_event()`` offers, as JSON (the outbox's answer)."""
    nxt = state.next
    return {
        "phase": nxt.phase.value,
        "street": STREETS[nxt.street],
        "seat": nxt.seat,
        "options": [
            {"verb": o.verb.value, "seat": o.seat, "amount": o.amount, "to": o.to}
            for o in nxt.options
        ],
        "deals": [{"seat": d.seat, "face": d.face.value} for d in nxt.deals],
        "choices": [
            {"verb": o.verb.value, "seat": o.seat, "amount": o.amount} for o in nxt.choices
        ],
        "showdown": list(nxt.showdown),
        "over": nxt.over,
    }


def table_json(state: DraftState) -> dict[str, Any]:
    """The table now, as JSON: the pot, the community card, each seat's cards and chips."""
    table = state.table
    return {
        "pot": table.pot,
        "community": table.community,
        "seats": [
            {
                "seat": s.position,
                "name": state.names[s.position],
                "stack": s.stack,
                "street_chips": s.street_chips,
                "total": s.total,
                "folded": s.folded,
                "cards": [{"code": c.code, "up": c.up} for c in s.cards],
            }
            for s in table.seats
        ],
    }


def live_json(page: LivePage) -> dict[str, Any]:
    """The draft as the outbox answers it: its version, what comes next, the table."""
    draft = page.state.draft
    return {
        "draft": draft.pk,
        "number": draft.number,
        "version": draft.version,
        "status": draft.status,
        "prompt": page.prompt,
        "can_finish": page.can_finish,
        "next": next_json(page.state),
        "table": table_json(page.state),
        "log": page.log,
    }
