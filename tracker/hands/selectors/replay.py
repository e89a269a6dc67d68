"""The hand replayer: a recorded hand as a sequence of table states, street by street.

A full-history hand is walked action by action from its stored PHH actions
(``Hand.entry["actions"]``): cards dealt face up or down, the antes, bring-in,
bets, calls, raises and folds, the uncalled chips given back, Low Hold buys, and
the pot as it grows. The walk only *shows* the hand: the hand was checked by the
engine when it was recorded, and the pots, the showdown and the payouts shown
come from the engine's stored reading (``Hand.engine_reading``), never from here.

A quick-entry hand has no history: the hand page (web/presenters/hands.py) shows
what was entered (chips in, the street each seat folded on, the cards shown).

Streets are numbered as stud players say them: 3 (third street) to 7 (seventh
street); 8 is the end of the hand (the showdown, or the uncontested result).
"""

from __future__ import annotations

from dataclasses import dataclass

from tracker.engine.cards import card_symbol, format_card, parse_card
from tracker.engine.errors import DomainError
from tracker.hands.models import Hand

STREET_KEYS = ("third", "fourth", "fifth", "sixth", "seventh")
STREET_TITLES = {
    3: "Third street",
    4: "Fourth street",
    5: "Fifth street",
    6: "Sixth street",
    7: "Seventh street",
    8: "Showdown",
}
STREET_SHORT = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th", 8: "Showdown"}
FOLD_LABELS = {
    "third": "folded on 3rd street",
    "fourth": "folded on 4th street",
    "fifth": "folded on 5th street",
    "sixth": "folded on 6th street",
    "seventh": "folded on 7th street",
    "showdown": "mucked at the showdown",
}
END = 8


def _canon(token: str | None) -> str | None:
    if token is None:
        return None
    try:
        return format_card(parse_card(token))
    except DomainError:
        return None


def _sym(token: str) -> str:
    try:
        return card_symbol(parse_card(token))
    except DomainError:
        return token


@dataclass
class CardView:
    code: str | None  # canonical "Kd", or None for a card nobody saw
    up: bool
    wild_as: str | None = None  # what a wild card stood for (high hand), symbol form
    wild_low_as: str | None = None  # ... and in the low hand
    new: bool = False  # dealt on the street being shown

    @property
    def flags(self) -> str:
        out = [] if self.up else ["down"]
        if self.wild_as or self.wild_low_as:
            out.append("wild")
        if self.new:
            out.append("new")
        return ",".join(out)

    @property
    def wild_note(self) -> str:
        parts = []
        if self.wild_as:
            parts.append(f"as {self.wild_as}")
        if self.wild_low_as and self.wild_low_as != self.wild_as:
            parts.append(f"as {self.wild_low_as} for low")
        return ", ".join(parts)


def dealt_order(down: list[str], up: list[str]) -> list[CardView]:
    """A stud hand in the order dealt: two down, four up, then the seventh card
    (the third down card, or the fifth up card when it was taken face up)."""
    down = [_canon(c) or c for c in down]
    up = [_canon(c) or c for c in up]
    cards = [CardView(c, False) for c in down[:2]] + [CardView(c, True) for c in up[:4]]
    return cards + [CardView(c, False) for c in down[2:]] + [CardView(c, True) for c in up[4:]]


@dataclass
class SeatView:
    player_id: int
    name: str
    seat: int
    position: int
    dealer: bool
    cards: list[CardView]
    folded: str | None = None  # street key, "showdown" for a muck
    street_chips: int = 0  # put in on the street shown
    total: int = 0  # put in so far
    stack: int = 0  # behind
    last_action: str = ""
    bought: bool = False

    @property
    def fold_label(self) -> str:
        return FOLD_LABELS.get(self.folded or "", "")


@dataclass
class StreetView:
    number: int
    seats: list[SeatView]
    actions: list[str]
    pot: int
    community: str | None = None
    prev: int | None = None  # the street before and after, for the step links
    next: int | None = None

    @property
    def title(self) -> str:
        return STREET_TITLES[self.number]

    @property
    def short(self) -> str:
        return STREET_SHORT[self.number]


@dataclass
class HandView:
    """One player's hand as the engine read it at the showdown."""

    text: str
    category: str
    five: list[CardView]  # the five cards played, stand-ins marked wild
    wild: list[tuple[str, str]]  # (wild card, what it stood for)
    qualifies: bool = True


# --------------------------------------------------------------------------
# Walking a full history


class _Walk:
    def __init__(self, hand: Hand, names: dict[int, str], seats: dict[int, int]):
        self.hand = hand
        self.players = list(hand.positions)
        n = self.n = len(self.players)
        self.names = [names.get(pid, f"player {pid}") for pid in self.players]
        self.seat_numbers = [seats.get(pid, -1) for pid in self.players]
        self.stacks = list(hand.starting_stacks)
        self.antes = [min(hand.ante, s) for s in self.stacks]
        for i in range(n):
            self.stacks[i] -= self.antes[i]
        self.live = list(self.antes)
        self.bets = [0] * n
        self.buys = [0] * n
        self.cards: list[list[CardView]] = [[] for _ in range(n)]
        self.folded: list[str | None] = [None] * n
        self.last: list[str] = [""] * n
        self.street = 0
        self.community: str | None = None
        self.bought_done = False
        self.log: list[str] = [
            f"Everyone antes {hand.ante}." if hand.ante else "No ante at this level."
        ]
        self.shows: list[str] = []
        self.views: list[StreetView] = []
        entry = hand.entry or {}
        self.seventh_choice = list(entry.get("seventh_card") or [None] * n)
        self.buy_flags = [bool(b) for b in (entry.get("buys") or [False] * n)]
        self.options = hand.options or {}

    # -- helpers

    def name(self, p: int) -> str:
        return self.names[p]

    def seventh_up(self, p: int) -> bool:
        variant = self.hand.variant
        if variant == "kings_and_little_ones":
            return p < len(self.seventh_choice) and self.seventh_choice[p] == "up"
        if variant == "low_hold":
            bought = p < len(self.buy_flags) and self.buy_flags[p]
            contributed = self.options.get("buy_version", "contributed") == "contributed"
            return bought if contributed else not bought
        return False

    def face(self, p: int, index: int) -> bool:
        if index < 2:
            return False
        if index < 6:
            return True
        return self.seventh_up(p)

    def pot(self) -> int:
        return sum(self.live) + sum(self.bets) + sum(self.buys)

    def player(self, token: str) -> int:
        if token[:1] == "p" and token[1:].isdigit() and 1 <= int(token[1:]) <= self.n:
            return int(token[1:]) - 1
        raise ValueError(f"not a player: {token!r}")

    # -- streets

    def enter_street(self, street: int) -> None:
        if street <= self.street:
            return
        self.flush_shows()
        self.close_street()
        self.street = street
        self.log = []
        for i in range(self.n):
            self.last[i] = ""
            for c in self.cards[i]:
                c.new = False
        if street == 4 and not self.bought_done:
            self.bought_done = True
            price = self.options.get("buy_price") or self.hand.big_bet
            for p in range(self.n):
                if p < len(self.buy_flags) and self.buy_flags[p] and self.folded[p] is None:
                    self.stacks[p] -= price
                    self.buys[p] = price
                    face = "up" if self.seventh_up(p) else "down"
                    self.log.append(f"{self.name(p)} pays {price} to take the seventh card {face}.")
                    self.last[p] = f"buys ({price})"

    def close_street(self) -> None:
        bets = self.bets
        top = max(bets) if bets else 0
        if top:
            second = sorted(bets)[-2] if self.n > 1 else 0
            if top > second:
                p = bets.index(top)
                self.stacks[p] += top - second
                bets[p] = second
                self.log.append(f"{top - second} uncalled, returned to {self.name(p)}.")
        self.views.append(self.snapshot(self.street + 3))
        for i in range(self.n):
            self.live[i] += bets[i]
            bets[i] = 0

    def flush_shows(self) -> None:
        self.log.extend(self.shows)
        self.shows = []

    def snapshot(self, number: int) -> StreetView:
        seats = []
        for i, pid in enumerate(self.players):
            seats.append(
                SeatView(
                    player_id=pid,
                    name=self.names[i],
                    seat=self.seat_numbers[i],
                    position=i,
                    dealer=i == self.n - 1,
                    cards=[CardView(c.code, c.up, new=c.new) for c in self.cards[i]],
                    folded=self.folded[i],
                    street_chips=self.bets[i],
                    total=self.live[i] + self.bets[i] + self.buys[i],
                    stack=self.stacks[i],
                    last_action=self.last[i],
                    bought=bool(self.buys[i]),
                )
            )
        return StreetView(
            number=number,
            seats=seats,
            actions=list(self.log),
            pot=self.pot(),
            community=self.community,
        )

    # -- actions

    def put(self, p: int, amount: int) -> str:
        amount = max(0, min(amount, self.stacks[p]))
        self.stacks[p] -= amount
        self.bets[p] += amount
        return " and is all in" if self.stacks[p] == 0 else ""

    def run(self, actions: list[str]) -> list[StreetView]:
        for action in actions:
            words = str(action).split("#", 1)[0].split()
            if not words:
                continue
            if words[0] == "d":
                if len(words) == 4 and words[1] == "dh":
                    self.deal(self.player(words[2]), words[3])
                elif len(words) == 3 and words[1] == "db":
                    self.enter_street(4)
                    self.community = _canon(words[2])
                    self.log.append(f"Community card {_sym(words[2])}, everyone's seventh card.")
                continue
            p = self.player(words[0])
            verb = words[1] if len(words) > 1 else ""
            if verb == "sm":
                self.show(p, words[2] if len(words) > 2 else None)
                continue
            self.flush_shows()
            name = self.name(p)
            if verb == "pb":
                allin = self.put(p, self.hand.bring_in)
                text = f"brings in {self.bets[p]}{allin}"
            elif verb == "cc":
                to_call = max(self.bets) - self.bets[p]
                if to_call <= 0:
                    text = "checks"
                else:
                    before = self.bets[p]
                    allin = self.put(p, to_call)
                    text = f"calls {self.bets[p] - before}{allin}"
            elif verb == "cbr":
                target = int(words[2])
                top = max(self.bets)
                allin = self.put(p, target - self.bets[p])
                if self.street == 0 and 0 < top < self.hand.small_bet:
                    text = f"completes to {target}{allin}"
                elif top == 0:
                    text = f"bets {target}{allin}"
                else:
                    text = f"raises to {target}{allin}"
            elif verb == "f":
                self.folded[p] = STREET_KEYS[min(self.street, 4)]
                text = "folds"
            else:
                raise ValueError(f"not an action: {action!r}")
            self.last[p] = text
            self.log.append(f"{name} {text}.")
        return self.finish()

    def deal(self, p: int, text: str) -> None:
        codes = [text[k : k + 2] for k in range(0, len(text), 2)]
        after = len(self.cards[p]) + len(codes)
        self.enter_street(min(max(after - 3, 0), 4))
        for code in codes:
            index = len(self.cards[p])
            self.cards[p].append(CardView(_canon(code), self.face(p, index), new=True))
        if len(self.cards[p]) <= 3 and after == 3:
            up = [c for c in self.cards[p] if c.up]
            if up and up[0].code:
                self.last[p] = f"door card {_sym(up[0].code)}"

    def show(self, p: int, text: str | None) -> None:
        if text is None:
            self.folded[p] = "showdown"
            self.shows.append(f"{self.name(p)} mucks.")
            self.last[p] = "mucks"
            return
        self.last[p] = "shows"
        if text != "-":
            codes = [_canon(text[k : k + 2]) for k in range(0, len(text), 2)]
            held = self.cards[p]
            if len(codes) == len(held):
                targets = list(range(len(held)))
            else:
                targets = [k for k, c in enumerate(held) if not c.up]
            for k, code in zip(targets, codes, strict=False):
                held[k].code = code
        shown = " ".join(_sym(c.code) for c in self.cards[p] if c.code)
        self.shows.append(f"{self.name(p)} shows {shown}.")

    def finish(self) -> list[StreetView]:
        self.close_street()
        self.log = list(self.shows)
        self.shows = []
        for i in range(self.n):
            self.last[i] = ""
            for c in self.cards[i]:
                c.new = False
        in_hand = [i for i in range(self.n) if self.folded[i] is None]
        if len(in_hand) == 1:
            self.log.append(f"Everyone else folded: {self.name(in_hand[0])} takes the pot.")
        self.views.append(self.snapshot(END))
        return self.views


def street_frames(
    hand: Hand, names: dict[int, str], seats: dict[int, int], actions: list[str]
) -> list[StreetView]:
    """The table after each street of a full history (raises on a history it cannot walk)."""
    return _Walk(hand, names, seats).run(actions)


# --------------------------------------------------------------------------
# The engine's reading


def hand_view(data: dict | None) -> HandView | None:
    if not data:
        return None
    stand_ins = {w["as"]: w["card"] for w in data.get("wild", [])}
    five = []
    for code in data.get("cards", []):
        card = CardView(code, True)
        if code in stand_ins:
            card.wild_as = f"{_sym(stand_ins[code])} played as {_sym(code)}"
        five.append(card)
    return HandView(
        text=data.get("text", ""),
        category=data.get("category", ""),
        five=five,
        wild=[(w["card"], w["as"]) for w in data.get("wild", [])],
        qualifies=data.get("qualifies", True),
    )


def mark_wild(cards: list[CardView], high: dict | None, low: dict | None) -> None:
    high_as = {w["card"]: w["as"] for w in (high or {}).get("wild", [])}
    low_as = {w["card"]: w["as"] for w in (low or {}).get("wild", [])}
    for c in cards:
        if c.code in high_as:
            c.wild_as = _sym(high_as[c.code])
        if c.code in low_as:
            c.wild_low_as = _sym(low_as[c.code])
