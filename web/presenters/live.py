"""The live logger's page object: the table now, what comes next as buttons and card slots,
and the reading of a page's POST back into steps (tracker/engine/live.py)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from tracker.engine.announcements import VARIANT_TITLES, has_high, has_low
from tracker.engine.cards import format_card, parse_card
from tracker.engine.errors import DomainError
from tracker.engine.frames import FrameSeat, StreetFrame
from tracker.engine.live import checks_around
from tracker.engine.stud import ProcedureError, Verb, declaring
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
    def number(self) -> int:
        return self.state.draft.number


def live_page(state: DraftState) -> LivePage:
    hand, nxt, names, draft = state.hand, state.next, state.names, state.draft
    buttons: list[Button] = []
    deals: list[SeatDeal] = []
    shows: list[ShowSeat] = []
    mucks: list[Button] = []  # who may concede at the showdown
    prompt = ""
    community = False
    deal_label = "Deal"
    if nxt.seat is not None:
        prompt = f"{names[nxt.seat]} to act"
        for option in nxt.options:
            label = VERB_LABELS.get(option.verb, option.verb.value)
            if option.verb in (Verb.COMPLETE, Verb.BET, Verb.RAISE):
                label = f"{label} {option.to}"
            elif option.amount:
                label = f"{label} {option.amount}"
            if option.verb in (Verb.CALL, Verb.BRING_IN, Verb.COMPLETE, Verb.BET, Verb.RAISE):
                if option.amount and option.amount == hand.stacks[nxt.seat]:
                    label += " (all in)"
            style = "quiet" if option.verb is Verb.FOLD else "primary"
            buttons.append(Button("act", label, nxt.seat, option.verb.value, style=style))
        if len(checks_around(hand)) > 1:
            buttons.append(Button("check_around", "Check around", style="primary"))
    elif nxt.deals:
        street = STREETS[hand.street]
        if nxt.deals[0].face is Face.COMMUNITY:
            community = True
            prompt = "The deck is short: one community card, everyone's seventh card"
        else:
            prompt = f"Deal {street} street: the face-up cards (face-down ones only if seen)"
            by_seat: dict[int, list[Slot]] = {}
            for deal in nxt.deals:
                slots = by_seat.setdefault(deal.seat, [])  # type: ignore[arg-type]
                up = deal.face is Face.UP
                slots.append(Slot(f"card-{deal.seat}-{len(slots)}", up, up))
            deals = [SeatDeal(s, names[s], slots) for s, slots in sorted(by_seat.items())]
        down = "down" if hand.options.get("buy_version") == "buderick" else "up"
        for choice in nxt.choices:
            name = names[choice.seat]  # type: ignore[index]
            if choice.verb is Verb.BUY:
                label = f"{name} buys it {down} ({choice.amount})"
                buttons.append(Button("buy", label, choice.seat, style="quiet"))
            elif choice.verb is Verb.CHOOSE_SEVENTH and not hand.seventh_up[choice.seat]:
                buttons.append(Button("seventh", f"{name}: seventh up", choice.seat, choice="up"))
        if nxt.choices and not community:
            kinds = {c.verb for c in nxt.choices}
            if Verb.BUY in kinds:
                price = nxt.choices[0].amount
                prompt = (
                    f"Seventh street: who pays {price} to get the card face {down}? "
                    "Then deal (face-down cards only if seen)"
                )
            else:
                prompt = (
                    "Seventh street: who takes the card face up? "
                    "Then deal (face-down cards only if seen)"
                )
        elif not community and all(not slot.up for d in deals for slot in d.slots):
            prompt = f"Deal {street} street: face-down cards only if seen"
            deal_label = "Deal them face down"
    if nxt.showdown:
        for seat in nxt.showdown:
            missing = [k for k, c in enumerate(hand.cards[seat]) if c is None]
            declare: list[Button] = []
            if nxt.over and declaring(hand.options) and hand.declarations[seat] is None:
                declare = [
                    Button("declare", c.capitalize(), seat, choice=c)
                    for c in ("high", "low", "both")
                ]
            if missing or declare:
                slots = [Slot(f"show-{seat}-{k}", False, True) for k in missing]
                shows.append(ShowSeat(seat, names[seat], slots, declare))
        mucks = [  # instead of showing: the seats with cards nobody has seen
            Button("muck", f"{s.name} mucks", s.seat, style="quiet")
            for s in shows
            if s.slots and _can_muck(hand, s.seat)
        ]
        if nxt.over:
            if any(s.slots for s in shows):
                prompt = "Showdown: show the cards nobody has seen, or muck"
            else:
                prompt = "Showdown: each player declares high, low or both"
        elif not nxt.over and shows:
            prompt += "; the hands all in may show now"
    can_finish = False
    if nxt.over:
        try:
            hand.verify_complete_hand()
        except ProcedureError:
            pass
        else:
            can_finish = True
            prompt = "The hand is over: record it"
    if can_finish:
        for s in shows:
            s.optional = True  # e.g. everyone else mucked: the pot is won without showing
    result_seats: list[tuple[int, str]] = []
    result_choices: list[tuple[str, str]] = []
    if can_finish and len(nxt.showdown) > 1:
        result_seats = [(seat, names[seat]) for seat in nxt.showdown]
        if has_high(draft.variant, hand.options) and has_low(draft.variant, hand.options):
            result_choices = [("high", "wins high"), ("low", "wins low"), ("both", "wins both")]
        else:
            result_choices = [("won", "wins")]
    table = state.table
    seats = [
        LiveSeat(
            seat=s,
            name=names[s.position],
            to_act=s.position == nxt.seat,
            cards=[(c.code, c.up) for c in s.cards],
        )
        for s in table.seats
    ]
    seen_up, seen_down = seen_cards(table)
    return LivePage(
        state=state,
        title=f"Hand {draft.number} · {VARIANT_TITLES.get(draft.variant, draft.variant)}",
        stakes=f"Level {draft.level}: ante {draft.ante}, bring-in {draft.bring_in}, "
        f"bets {draft.small_bet}/{draft.big_bet}",
        street=f"{STREETS[hand.street].capitalize()} street",
        pot=hand.pot_total(),
        seats=seats,
        prompt=prompt,
        buttons=buttons,
        deals=deals,
        community=community,
        shows=shows,
        mucks=mucks,
        can_finish=can_finish,
        deal_label=deal_label,
        choices_open=bool(nxt.choices),
        log=state.log,
        result_seats=result_seats,
        result_choices=result_choices,
        seen_up=seen_up,
        seen_down=seen_down,
    )


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


def _can_muck(hand, seat: int) -> bool:
    """Whether ``seat`` may concede at the showdown (not the last hand left in a pot)."""
    if not hand.next_event().over:
        return False
    try:
        hand.verify_muck(seat)
    except ProcedureError:
        return False
    return True


def _card(value: Any, field: str) -> str | None:
    text = (value or "").strip()
    if not text or text == "??":
        return None
    return format_card(parse_card(text, field))


def _seat(post: Mapping[str, Any]) -> int:
    try:
        return int(post.get("seat", ""))
    except ValueError:
        raise DomainError("no seat named", field="seat") from None


def steps_from_post(state: DraftState, post: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The steps a live page's form sends (the engine checks them when applied)."""
    op = post.get("op", "")
    if op == "act":
        return [{"kind": "act", "seat": _seat(post), "verb": post.get("verb")}]
    if op in ("buy", "muck"):
        return [{"kind": op, "seat": _seat(post)}]
    if op in ("seventh", "declare"):
        return [{"kind": op, "seat": _seat(post), "choice": post.get("choice")}]
    if op == "community":
        return [{"kind": "community", "cards": [_card(post.get("community"), "community")]}]
    if op == "deal":
        steps = []
        by_seat: dict[int, int] = {}
        for deal in state.next.deals:
            by_seat[deal.seat] = by_seat.get(deal.seat, 0) + 1  # type: ignore[index]
        for seat, count in sorted(by_seat.items()):
            cards = [_card(post.get(f"card-{seat}-{k}"), f"card-{seat}-{k}") for k in range(count)]
            steps.append({"kind": "deal", "seat": seat, "cards": cards})
        return steps
    if op == "show":
        seat = _seat(post)
        held = state.hand.cards[seat]
        cards = [
            _card(post.get(f"show-{seat}-{k}"), f"show-{seat}-{k}")
            if card is None
            else format_card(card)
            for k, card in enumerate(held)
        ]
        return [{"kind": "show", "seat": seat, "cards": cards}]
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
