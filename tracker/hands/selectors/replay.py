"""The hand replayer: a recorded hand as a sequence of table states, street by street.

A full-history hand is walked action by action from its stored PHH actions
(``Hand.entry["actions"]``) through the stud state machine, and the replayer's
frames observer (``tracker.engine.frames``) notes each street: cards dealt face
up or down, the antes, bring-in, bets, calls, raises and folds, the uncalled
chips given back, Low Hold buys, and the pot as it grows. The pots, the showdown
and the payouts shown come from the engine's stored reading
(``Hand.engine_reading``); the end of the hand (its street frame and its last step)
says who took each pot and how much in the result that stands (the ``Pot`` rows,
:func:`pots_taken`), with the hand the engine read for a winner it agrees with.

A quick-entry hand has no history: the hand page (web/presenters/hands.py) shows
what was entered (chips in, the street each seat folded on, the cards shown).

Streets are numbered as stud players say them: 3 (third street) to 7 (seventh
street); 8 is the end of the hand (the showdown, or the uncontested result).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tracker.engine.cards import format_card, parse_card, symbol_text
from tracker.engine.errors import DomainError
from tracker.engine.events import event_from_json
from tracker.engine.frames import END, STREET_TITLES, FramesObserver, PotTaken, StreetFrame
from tracker.engine.games import GameDefinition, wild_now
from tracker.engine.live import live_hand
from tracker.engine.procedure import history_from_entry, walk_history
from tracker.hands.models import Hand, Pot

STREET_SHORT = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th", 8: "Showdown"}
FOLD_LABELS = {
    "third": "folded on 3rd street",
    "fourth": "folded on 4th street",
    "fifth": "folded on 5th street",
    "sixth": "folded on 6th street",
    "seventh": "folded on 7th street",
    "showdown": "mucked at the showdown",
}


def _canon(token: str | None) -> str | None:
    if token is None:
        return None
    try:
        return format_card(parse_card(token))
    except DomainError:
        return None


@dataclass
class CardView:
    code: str | None  # canonical "Kd", or None for a card nobody saw
    up: bool
    wild_as: str | None = None  # what a wild card stood for (high hand), symbol form
    wild_low_as: str | None = None  # ... and in the low hand
    wild: bool = False  # wild for its player (a house game's reading: the player's ``wild``)
    new: bool = False  # dealt on the street being shown

    @property
    def flags(self) -> str:
        out = [] if self.up else ["down"]
        if self.wild or self.wild_as or self.wild_low_as:
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
    step: int | None = None  # a frame of the action-by-action view: its index
    first_step: int | None = None  # a street's frame: the index of its first step

    @property
    def key(self) -> str:
        """The frame's name in links and the page: "5" (fifth street) or "step-12"."""
        return str(self.number) if self.step is None else f"step-{self.step}"

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
# Walking a full history: the stud state machine, watched by the frames observer


@dataclass
class ReplayFrames:
    streets: list[StreetView]  # the table after each street, and the end of the hand
    steps: list[StreetView]  # the table after each action


def pots_taken(hand: Hand, pots: Iterable[Pot]) -> list[PotTaken]:
    """The settled pots of ``hand`` by seat position: the chips of the result that stands
    and, for a taker the engine also names in that pot, the hand it won with in words."""
    position = {pid: k for k, pid in enumerate(hand.positions)}
    reading = hand.engine_reading or {}
    payouts = reading.get("payouts") or []
    players = (reading.get("showdown") or {}).get("players") or []

    def words(seat: int, half: str) -> str:
        data = players[seat] if seat < len(players) else None
        return ((data or {}).get(half) or {}).get("text", "")

    out = []
    for pot in pots:
        shares = tuple(
            (position[pid], chips)
            for pid, chips in sorted(
                pot.award_chips.items(), key=lambda kv: position.get(kv[0], 99)
            )
            if chips and pid in position
        )
        paid = payouts[pot.index] if pot.index < len(payouts) else {}
        why = []
        for seat, _ in shares:
            high = seat in paid.get("high_winners", ()) and words(seat, "high")
            low = seat in paid.get("low_winners", ()) and words(seat, "low")
            text = " and ".join(t for t in (high, low) if t)  # "8-6-4-3-2 low"
            if text:
                why.append((seat, text))
        out.append(PotTaken(pot.index, pot.amount, shares, tuple(why)))
    return out


def replay_frames(
    hand: Hand,
    names: dict[int, str],
    seats: dict[int, int],
    actions: list[str],
    *,
    pots: Iterable[Pot] = (),
) -> ReplayFrames:
    """The table street by street and action by action of a full history (raises
    ProcedureError on a history the engine refuses); ``pots``: the hand's settled pots,
    for the end of the hand (who took each and how much)."""
    players = list(hand.positions)
    n = len(players)
    frames = FramesObserver([names.get(pid, f"player {pid}") for pid in players])
    entry = hand.entry or {}
    game = hand.game_version.game_definition if hand.game_version_id is not None else None
    if game is not None and "events" in entry:  # a house game's hand kept as its events
        walked = live_hand(
            variant=hand.variant,
            options={},
            stakes=hand.stakes,
            stacks=hand.starting_stacks,
            events=[event_from_json(e, n=n) for e in entry.get("events") or []],
            observers=[frames],
            game=game,
        )
    else:
        history = history_from_entry(
            variant=hand.variant,
            options=hand.options or {},
            stakes=hand.stakes,
            starting_stacks=hand.starting_stacks,
            entry={**entry, "actions": list(actions)},
        )
        walked = walk_history(
            history, max_players=max(len(players), 2), observers=[frames], game=game
        )
    wild = _wild_by_position(hand)
    wild_at = _WildByStreet(game, n)

    def view(frame: StreetFrame, step: int | None = None) -> StreetView:
        marks = wild if frame.number == END else wild_at(frame, step is not None)
        return StreetView(
            number=frame.number,
            seats=[
                SeatView(
                    player_id=players[s.position],
                    name=frames.names[s.position],
                    seat=seats.get(players[s.position], -1),
                    position=s.position,
                    dealer=s.position == n - 1,
                    cards=[
                        CardView(c.code, c.up, new=c.new, wild=c.code in marks[s.position])
                        for c in s.cards
                    ],
                    folded=s.folded,
                    street_chips=s.street_chips,
                    total=s.total,
                    stack=s.stack,
                    last_action=s.last_action,
                    bought=s.bought,
                )
                for s in frame.seats
            ],
            actions=frame.actions,
            pot=frame.pot,
            community=frame.community,
            step=step,
        )

    streets = [view(frame) for frame in frames.finish(walked, pots_taken(hand, pots))]
    steps = [view(frame, k) for k, frame in enumerate(frames.steps)]
    first = {}
    for k, step in enumerate(steps):
        first.setdefault(step.number, k)
        step.prev = k - 1 if k else None
        step.next = k + 1 if k + 1 < len(steps) else None
    for street in streets:
        street.first_step = first.get(street.number)
    return ReplayFrames(streets, steps)


class _WildByStreet:
    """Each position's wild cards as they stood on a frame: a house game's wild rules
    (:func:`tracker.engine.games.wild_now`) over the up cards dealt so far, in the order
    dealt (street by street, from the dealer's left). The end of the hand shows the
    engine's reading instead."""

    def __init__(self, game: GameDefinition | None, n: int) -> None:
        self.game, self.n = game, n
        self.order: dict[bool, list[int]] = {False: [], True: []}
        self.seen: dict[bool, set[str]] = {False: set(), True: set()}
        # third street is the game's first street; the last street completes the deal
        self.last = 0 if game is None else len(game.streets) + 2

    def __call__(self, frame: StreetFrame, steps: bool) -> list[set[str]]:
        if self.game is None or not self.game.wild:
            return [set() for _ in range(self.n)]
        order, seen = self.order[steps], self.seen[steps]
        for s in frame.seats:
            for c in s.cards:
                if c.up and c.code and c.code not in seen:
                    seen.add(c.code)
                    order.append(parse_card(c.code))
        community = parse_card(frame.community) if frame.community else None
        out = []
        for s in frame.seats:
            down = [parse_card(c.code) for c in s.cards if c.code and not c.up]
            up = [parse_card(c.code) for c in s.cards if c.code and c.up]
            complete = frame.number >= self.last
            cards = wild_now(self.game, down, up, order, complete=complete, community=community)
            out.append({format_card(c) for c in cards})
        return out


def street_frames(
    hand: Hand, names: dict[int, str], seats: dict[int, int], actions: list[str]
) -> list[StreetView]:
    """The table after each street of a full history (see :func:`replay_frames`)."""
    return replay_frames(hand, names, seats, actions).streets


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
            card.wild_as = f"{symbol_text(stand_ins[code])} played as {symbol_text(code)}"
        five.append(card)
    return HandView(
        text=data.get("text", ""),
        category=data.get("category", ""),
        five=five,
        wild=[(w["card"], w["as"]) for w in data.get("wild", [])],
        qualifies=data.get("qualifies", True),
    )


def _wild_by_position(hand: Hand) -> list[set[str]]:
    """Each position's wild cards as the engine's reading says them (a house game's
    reading has a ``wild`` list per player; today's variants mark only what a card stood
    for)."""
    showdown = (hand.engine_reading or {}).get("showdown") or {}
    players = showdown.get("players") or []
    found: list[set[str]] = [set() for _ in hand.positions]
    for pos, data in enumerate(players[: len(found)]):
        if data:
            found[pos] = set(data.get("wild") or [])
    return found


def mark_wild(cards: list[CardView], high: dict | None, low: dict | None) -> None:
    high_as = {w["card"]: w["as"] for w in (high or {}).get("wild", [])}
    low_as = {w["card"]: w["as"] for w in (low or {}).get("wild", [])}
    for c in cards:
        if c.code in high_as:
            c.wild_as = symbol_text(high_as[c.code])
        if c.code in low_as:
            c.wild_low_as = symbol_text(low_as[c.code])
