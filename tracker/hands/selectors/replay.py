"""The hand replayer: a recorded hand as a sequence of table states, street by street.

A full-history hand is walked action by action from its stored PHH actions
(``Hand.entry["actions"]``): cards dealt face up or down, the antes, bring-in,
bets, calls, raises and folds, the uncalled chips given back, Low Hold buys, and
the pot as it grows. The walk only *shows* the hand: the hand was checked by the
engine when it was recorded, and the pots, the showdown and the payouts shown
come from the engine's stored reading (``Hand.engine_reading``), never from here.

A quick-entry hand has no history: it shows what was entered (chips in, the
street each seat folded on, the cards shown).

Streets are numbered as stud players say them: 3 (third street) to 7 (seventh
street); 8 is the end of the hand (the showdown, or the uncontested result).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker.core.permissions import CAN_VOID, role_of
from tracker.engine.announcements import ANNOUNCEMENTS, VARIANT_ANNOUNCEMENTS, VARIANT_TITLES
from tracker.engine.cards import card_symbol, format_card, parse_card
from tracker.engine.errors import DomainError
from tracker.hands.models import EntryMode, Hand, HandStatus
from tracker.leagues.selectors import visible_hand
from tracker.selectors.pages import STATUS_HELP, STATUS_LABELS, announcement_text

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


@dataclass
class ShowdownSeat:
    player_id: int
    name: str
    cards: list[CardView]
    high: HandView | None
    low: HandView | None
    declare: str | None
    high_winner: bool
    low_winner: bool
    contributed: int
    won: int | None

    @property
    def net(self) -> int | None:
        return None if self.won is None else self.won - self.contributed


@dataclass
class PotView:
    index: int
    amount: int
    eligible: list[str]
    reason: str
    engine: list[tuple[str, int]]
    table: list[tuple[str, int]] | None
    stands: list[tuple[str, int]]
    disputed: bool

    @property
    def title(self) -> str:
        return "Main pot" if self.index == 0 else f"Side pot {self.index}"


@dataclass
class EntrySeat:
    """A quick-entry seat as entered."""

    name: str
    seat: int
    dealer: bool
    put_in: int | None
    folded: str | None
    cards: list[CardView]
    bought: bool
    declare: str | None
    seventh: str | None
    starting_stack: int

    @property
    def fold_label(self) -> str:
        return FOLD_LABELS.get(self.folded or "", "in to the end")


@dataclass
class HandReplay:
    hand: Hand
    variant_title: str
    announcements: list[tuple[str, str, str]]  # (name, value, help)
    status_label: str
    status_help: str
    streets: list[StreetView]
    current: int  # street number shown first
    entry_seats: list[EntrySeat]
    showdown: list[ShowdownSeat]
    community: str | None
    pots: list[PotView]
    table_text: str | None
    payouts_pending: bool
    walk_error: str = ""
    previous_id: int | None = None
    next_id: int | None = None
    raw_actions: list[str] = field(default_factory=list)
    can_void: bool = False  # the viewer may declare this (invalid) hand void

    @property
    def is_full(self) -> bool:
        return self.hand.entry_mode == EntryMode.FULL

    @property
    def current_view(self) -> StreetView | None:
        for s in self.streets:
            if s.number == self.current:
                return s
        return self.streets[-1] if self.streets else None


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


def _named(award: dict | None, names: dict[int, str]) -> list[tuple[str, int]] | None:
    if award is None:
        return None
    return [(names.get(int(pid), pid), chips) for pid, chips in award.items() if chips]


def _table_text(table: dict | None, names: dict[int, str]) -> str | None:
    if not table:
        return None

    def who(ids) -> str:
        return ", ".join(names.get(x, str(x)) for x in ids or []) or "nobody"

    def one(entry: dict) -> str:
        if "winners" in entry:
            return who(entry["winners"])
        parts = []
        if entry.get("high"):
            parts.append(f"high: {who(entry['high'])}")
        if entry.get("low"):
            parts.append(f"low: {who(entry['low'])}")
        return "; ".join(parts) or "nobody"

    if "pots" in table:
        return " · ".join(
            f"{'main pot' if k == 0 else f'side pot {k}'}: {one(e)}"
            for k, e in enumerate(table["pots"])
        )
    return one(table)


def _announcements(hand: Hand) -> list[tuple[str, str, str]]:
    out = []
    for name in VARIANT_ANNOUNCEMENTS.get(hand.variant, ()):
        if name not in (hand.options or {}):
            continue
        text = announcement_text(name, hand.options[name])
        out.append((name.replace("_", " "), text, ANNOUNCEMENTS[name].help))
    return out


def hand_replay(user, pk: int, street: int | None = None) -> HandReplay:
    hand = visible_hand(user, pk)
    tournament = hand.tournament
    seat_rows = {s.player_id: s for s in hand.hand_seats.select_related("player")}
    seats_by_player = {s.player_id: s for s in tournament.seats.select_related("player")}
    names = {pid: s.player.name for pid, s in seats_by_player.items()}
    seat_numbers = {pid: s.number for pid, s in seats_by_player.items()}
    reading = hand.engine_reading or None
    showdown = (reading or {}).get("showdown") or None

    streets: list[StreetView] = []
    walk_error = ""
    raw_actions: list[str] = []
    entry_seats: list[EntrySeat] = []
    n = len(hand.positions)
    if hand.entry_mode == EntryMode.FULL:
        raw_actions = [str(a) for a in (hand.entry or {}).get("actions") or []]
        try:
            streets = _Walk(hand, names, seat_numbers).run(raw_actions)
        except (ValueError, IndexError, KeyError, TypeError) as exc:
            walk_error = f"This history cannot be shown street by street ({exc})."
            streets = []
    else:
        by_player = {s.get("player"): s for s in (hand.entry or {}).get("seats", [])}
        for pos, pid in enumerate(hand.positions):
            e = by_player.get(pid, {})
            cards = dealt_order(e.get("down") or [], e.get("up") or [])
            entry_seats.append(
                EntrySeat(
                    name=names.get(pid, str(pid)),
                    seat=seat_numbers.get(pid, -1),
                    dealer=pos == n - 1,
                    put_in=e.get("put_in"),
                    folded=e.get("folded"),
                    cards=cards,
                    bought=bool(e.get("bought")),
                    declare=e.get("declare"),
                    seventh=e.get("seventh"),
                    starting_stack=hand.starting_stacks[pos]
                    if pos < len(hand.starting_stacks)
                    else 0,
                )
            )

    # The showdown, as the engine read it.
    show_seats: list[ShowdownSeat] = []
    if showdown:
        high_w = set(showdown.get("high_winners", []))
        low_w = set(showdown.get("low_winners", []))
        final = {s.player_id: s for s in streets[-1].seats} if streets else {}
        for pos, data in enumerate(showdown.get("players", [])):
            if not data:
                continue
            pid = hand.positions[pos]
            walked = final.get(pid)
            if walked is not None and all(c.code for c in walked.cards):
                cards = [CardView(c.code, c.up) for c in walked.cards]
            else:
                cards = dealt_order(data.get("down", []), data.get("up", []))
            mark_wild(cards, data.get("high"), data.get("low"))
            row = seat_rows.get(pid)
            show_seats.append(
                ShowdownSeat(
                    player_id=pid,
                    name=names.get(pid, str(pid)),
                    cards=cards,
                    high=hand_view(data.get("high")),
                    low=hand_view(data.get("low")),
                    declare=data.get("declare"),
                    high_winner=pos in high_w,
                    low_winner=pos in low_w,
                    contributed=row.contributed if row else 0,
                    won=row.won if row else None,
                )
            )
        # Mark the wild cards in the replay's last view too.
        if streets:
            by_pid = {s.player_id: s for s in show_seats}
            for seat in streets[-1].seats:
                shown = by_pid.get(seat.player_id)
                if shown is not None:
                    for c, s in zip(seat.cards, shown.cards, strict=False):
                        if c.code == s.code:
                            c.wild_as, c.wild_low_as = s.wild_as, s.wild_low_as

    # The end of the hand in the replayer: who took what, as settled.
    if streets and streets[-1].number == END and hand.status != HandStatus.RECORDED:
        texts = {s.player_id: s.high.text for s in show_seats if s.high and s.high_winner}
        for seat in streets[-1].seats:
            row = seat_rows.get(seat.player_id)
            if row is not None and row.won:
                seat.last_action = f"takes {row.won}"
                why = f" with {texts[seat.player_id]}" if seat.player_id in texts else ""
                streets[-1].actions.append(f"{seat.name} takes {row.won}{why}.")

    payouts = (reading or {}).get("payouts") or []
    pots = []
    for pot in hand.pots.all():
        reason = payouts[pot.index]["reason"] if pot.index < len(payouts) else ""
        pots.append(
            PotView(
                index=pot.index,
                amount=pot.amount,
                eligible=[names.get(pid, str(pid)) for pid in pot.eligible],
                reason=reason,
                engine=_named(pot.engine_award, names) or [],
                table=_named(pot.table_award, names),
                stands=_named(pot.award, names) or [],
                disputed=pot.disputed,
            )
        )

    numbers = [s.number for s in streets]
    for k, s in enumerate(streets):
        s.prev = numbers[k - 1] if k else None
        s.next = numbers[k + 1] if k + 1 < len(numbers) else None
    current = street if street in numbers else (numbers[-1] if numbers else END)
    siblings = list(
        Hand.objects.filter(tournament=tournament, number__in=(hand.number - 1, hand.number + 1))
        .order_by("number")
        .values_list("number", "id")
    )
    sib = dict(siblings)
    return HandReplay(
        hand=hand,
        variant_title=VARIANT_TITLES.get(hand.variant, hand.variant),
        announcements=_announcements(hand),
        status_label=STATUS_LABELS.get(hand.status, hand.status),
        status_help=STATUS_HELP.get(hand.status, ""),
        streets=streets,
        current=current,
        entry_seats=entry_seats,
        showdown=show_seats,
        community=(showdown or {}).get("community") or (hand.entry or {}).get("community"),
        pots=pots,
        table_text=_table_text(hand.table_result, names),
        payouts_pending=hand.status == HandStatus.RECORDED,
        walk_error=walk_error,
        previous_id=sib.get(hand.number - 1),
        next_id=sib.get(hand.number + 1),
        raw_actions=raw_actions,
        can_void=hand.status == HandStatus.INVALID and role_of(user, tournament.league) in CAN_VOID,
    )
