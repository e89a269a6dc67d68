"""The hand replayer's frames: an observer of the stud walk that keeps one frame per street.

:class:`FramesObserver` watches a walk of :class:`tracker.engine.stud.StudHand`
and records, at the end of every street, what the table looked like: each
seat's cards (face up or down, those dealt on the street marked new), the
chips put in on the street and in all, the stack behind, the seat's last
action, and the street's log in words ("Bob completes to 20."). A last frame
(number 8) shows the end of the hand. ``steps`` holds the same table after
every action (a street's cards dealt, a bet, a buy, a show), each with its
line of words, for the replayer's action-by-action view; its last step is the end of the
hand, saying who took each pot and how much. Pots, showdown and payouts are not worked out
here: the settlement's reading holds them, and :meth:`FramesObserver.finish` is given the
pots as settled (:class:`PotTaken`). Without them only an uncontested pot can be told.

>>> from tracker.engine.procedure import walk_history
>>> frames = FramesObserver(["Ann", "Bob"])
>>> hand = walk_history({
...     "variant": "F7S", "antes": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10,
...     "starting_stacks": [100, 100],
...     "actions": ["d dh p1 AsKs2c", "d dh p2 QhQd3c", "p1 pb", "p2 cbr 5", "p1 f"],
... }, observers=[frames])
>>> street = frames.finish(hand)[0]
>>> street.number, street.actions
(3, ['Everyone antes 1.', 'Ann brings in 2.', 'Bob completes to 5.', 'Ann folds.', '3 uncalled, returned to Bob.'])
>>> [(s.total, s.stack, s.last_action) for s in street.seats]
[(3, 97, 'folds'), (3, 97, 'completes to 5')]
>>> [step.actions for step in frames.steps]  # doctest: +NORMALIZE_WHITESPACE
[['Third street is dealt: Ann 2♣, Bob 3♣.'], ['Ann brings in 2.'], ['Bob completes to 5.'],
 ['Ann folds. 3 uncalled, returned to Bob.'], ['Everyone else folded: Bob takes the pot (6).']]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from .cards import card_symbol, format_card
from .stud import Event, HandObserver, StudHand, Verb
from .variants import STREETS, Face

__all__ = [
    "END",
    "STREET_TITLES",
    "FrameCard",
    "FrameSeat",
    "FramesObserver",
    "PotTaken",
    "StreetFrame",
    "pot_words",
]

END = 8  # the frame after seventh street: the end of the hand
STREET_TITLES = {3: "Third street", 4: "Fourth street", 5: "Fifth street",
                 6: "Sixth street", 7: "Seventh street", END: "Showdown"}  # fmt: skip


@dataclass
class FrameCard:
    code: str | None  # canonical "Kd", or None for a card nobody saw
    up: bool
    new: bool = False  # dealt on the street of the frame


@dataclass
class FrameSeat:
    position: int
    cards: list[FrameCard]
    folded: str | None  # street key, "showdown" for a muck
    street_chips: int  # put in on the street
    total: int  # put in so far
    stack: int  # behind
    last_action: str
    bought: bool


@dataclass
class StreetFrame:
    number: int  # 3..7, or END
    seats: list[FrameSeat]
    actions: list[str]
    pot: int
    community: str | None = None


@dataclass(frozen=True)
class PotTaken:
    """One pot at the end of the hand, as settled: ``shares`` pairs (seat, chips) of the
    result that stands; ``why`` pairs (seat, the hand it won with, in words)."""

    pot: int  # 0: the main pot, k: side pot k
    amount: int
    shares: tuple[tuple[int, int], ...]
    why: tuple[tuple[int, str], ...] = ()


def pot_words(
    pots: Sequence[PotTaken], names: Sequence[str], uncontested: bool = False
) -> list[str]:
    """Who took each pot and how much, one line per pot.

    >>> pot_words([PotTaken(0, 48, ((1, 48),), ((1, "three sevens"),))], ["Ann", "Bob"])
    ['Bob takes the pot (48) with three sevens.']
    >>> pot_words([PotTaken(0, 6, ((0, 6),))], ["Ann", "Bob"], uncontested=True)
    ['Everyone else folded: Ann takes the pot (6).']
    >>> pot_words([PotTaken(0, 49, ((0, 25), (1, 24)))], ["Ann", "Bob"])
    ['The pot (49) is split: Ann 25, Bob 24.']
    >>> pot_words([PotTaken(0, 90, ((0, 90),)), PotTaken(1, 40, ((1, 20), (2, 20)))],
    ...           ["Ann", "Bob", "Cat"])
    ['Ann takes the main pot (90).', 'Side pot 1 (40) is split: Bob 20, Cat 20.']
    """
    lines = []
    for pot in pots:
        why = dict(pot.why)
        title = (
            "the pot"
            if len(pots) == 1
            else ("the main pot" if pot.pot == 0 else f"side pot {pot.pot}")
        )
        shares = [(seat, chips) for seat, chips in pot.shares if chips]
        if not shares:
            lines.append(f"{title[0].upper()}{title[1:]} ({pot.amount}): nobody takes it.")
        elif len(shares) == 1:
            seat = shares[0][0]
            with_ = f" with {why[seat]}" if seat in why else ""
            line = f"{names[seat]} takes {title} ({pot.amount}){with_}."
            lines.append(f"Everyone else folded: {line}" if uncontested else line)
        else:
            each = ", ".join(
                f"{names[seat]} {chips}" + (f" with {why[seat]}" if seat in why else "")
                for seat, chips in shares
            )
            lines.append(f"{title[0].upper()}{title[1:]} ({pot.amount}) is split: {each}.")
    return lines


def _sym(card: int | None) -> str:
    return card_symbol(card) if card is not None else "??"


@dataclass
class FramesObserver(HandObserver):
    """Builds one :class:`StreetFrame` per street; ``names`` are the seats' names.

    ``tables`` off keeps of each step only its words (the step's frame has no seats and
    no pot): what the live logger's log needs, without a copy of the table per action.

    >>> from tracker.engine.procedure import walk_history
    >>> words = FramesObserver(["Ann", "Bob"], tables=False)
    >>> hand = walk_history({
    ...     "variant": "F7S", "antes": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10,
    ...     "starting_stacks": [100, 100],
    ...     "actions": ["d dh p1 AsKs2c", "d dh p2 QhQd3c", "p1 pb", "p2 cbr 5", "p1 f"],
    ... }, observers=[words])
    >>> [(step.actions, step.seats) for step in words.steps]  # doctest: +NORMALIZE_WHITESPACE
    [(['Third street is dealt: Ann 2♣, Bob 3♣.'], []), (['Ann brings in 2.'], []),
     (['Bob completes to 5.'], []), (['Ann folds. 3 uncalled, returned to Bob.'], [])]
    """

    names: Sequence[str]
    frames: list[StreetFrame] = field(default_factory=list)  # one per street, and the end
    steps: list[StreetFrame] = field(default_factory=list)  # one per action, and the end
    tables: bool = True  # each step with the table after it (else its words only)

    def __post_init__(self) -> None:
        n = len(self.names)
        self.cards: list[list[FrameCard]] = [[] for _ in range(n)]
        self.folded: list[str | None] = [None] * n
        self.last = [""] * n
        self.street_chips = [0] * n
        self.total = [0] * n
        self.bought = [False] * n
        self.log: list[str] = []
        self.shows: list[str] = []
        self.number = 3
        self.community: str | None = None
        self.ante_noted = False
        self.dealt_up: list[str] = []  # the up cards of the street being dealt, in words

    def name(self, seat: int) -> str:
        return self.names[seat]

    def flush_shows(self) -> None:
        self.log.extend(self.shows)
        self.shows = []

    def snapshot(self, number: int, hand: StudHand) -> StreetFrame:
        seats = [
            FrameSeat(
                position=i,
                cards=[FrameCard(c.code, c.up, c.new) for c in self.cards[i]],
                folded=self.folded[i],
                street_chips=self.street_chips[i],
                total=self.total[i],
                stack=hand.stacks[i],
                last_action=self.last[i],
                bought=self.bought[i],
            )
            for i in range(len(self.names))
        ]
        return StreetFrame(number, seats, list(self.log), sum(self.total), self.community)

    def new_street(self, number: int, hand: StudHand) -> None:
        self.flush_shows()
        self.frames.append(self.snapshot(self.number, hand))
        self.number = number
        self.log = []
        self.street_chips = [0] * len(self.names)
        for i in range(len(self.names)):
            self.last[i] = ""
            for c in self.cards[i]:
                c.new = False

    def put(self, seat: int, amount: int, all_in: bool) -> str:
        self.street_chips[seat] += amount
        self.total[seat] += amount
        return " and is all in" if all_in else ""

    def step(self, hand: StudHand, text: str) -> None:
        """The table after one action, with what happened in words (the words only
        when ``tables`` is off)."""
        if not self.tables:
            self.steps.append(StreetFrame(self.number, [], [text], 0, self.community))
            return
        frame = self.snapshot(self.number, hand)
        frame.actions = [text]
        self.steps.append(frame)

    def on_event(self, event: Event, hand: StudHand) -> None:
        handler = _HANDLERS.get(event.verb)
        if handler is not None:
            handler(self, event, hand)
        elif event.seat is not None:
            self._on_betting(event, hand, event.seat)
        # SHOWDOWN, END and the like: nothing to show yet

    def _on_ante(self, event: Event, hand: StudHand) -> None:
        self.total[event.seat] += event.amount  # type: ignore[index]
        if not self.ante_noted:
            self.ante_noted = True
            ante = hand.stakes.ante
            self.log.append(f"Everyone antes {ante}." if ante else "No ante at this level.")

    def _on_street(self, event: Event, hand: StudHand) -> None:
        if event.street.number > self.number:
            self.new_street(event.street.number, hand)

    def _on_deal(self, event: Event, hand: StudHand) -> None:
        seat, up = event.seat, event.verb is Verb.DEAL_UP
        card = event.cards[0]
        code = format_card(card) if card is not None else None
        self.cards[seat].append(FrameCard(code, up, True))  # type: ignore[index]
        if len(self.cards[seat]) == 3 and up and code:  # type: ignore[index]
            self.last[seat] = f"door card {_sym(card)}"  # type: ignore[index]
        if up:
            self.dealt_up.append(f"{self.name(seat)} {_sym(card)}")  # type: ignore[arg-type]
        if not hand.to_deal:
            shown = f": {', '.join(self.dealt_up)}" if self.dealt_up else ""
            self.step(hand, f"{STREET_TITLES[self.number]} is dealt{shown}.")
            self.dealt_up = []

    def _on_community(self, event: Event, hand: StudHand) -> None:
        card = event.cards[0]
        self.community = format_card(card)  # type: ignore[arg-type]
        text = f"Community card {_sym(card)}, everyone's seventh card."
        self.log.append(text)
        self.step(hand, text)

    def _on_buy(self, event: Event, hand: StudHand) -> None:
        seat = event.seat
        self.bought[seat] = True  # type: ignore[index]
        self.total[seat] += event.amount  # type: ignore[index]
        face = "up" if hand.next_face(seat) is Face.UP else "down"  # type: ignore[arg-type]
        text = f"{self.name(seat)} pays {event.amount} to take the seventh card {face}."  # type: ignore[arg-type]
        self.log.append(text)
        self.last[seat] = f"buys ({event.amount})"  # type: ignore[index]
        self.step(hand, text)

    def _on_pay(self, event: Event, hand: StudHand) -> None:
        """A house game's pay rule: the price of the card just dealt face up, straight to
        the pot (no bet: nobody calls it)."""
        seat = event.seat
        self.flush_shows()
        self.total[seat] += event.amount  # type: ignore[index]
        all_in = " and is all in" if event.all_in else ""
        text = f"{self.name(seat)} pays {event.amount} for the card dealt face up{all_in}."  # type: ignore[arg-type]
        self.log.append(text)
        self.last[seat] = f"pays {event.amount}"  # type: ignore[index]
        self.step(hand, text)

    def _on_choose_seventh(self, event: Event, hand: StudHand) -> None:
        self.step(hand, f"{self.name(event.seat)} takes the seventh card {event.choice}.")  # type: ignore[arg-type]

    def _on_return(self, event: Event, hand: StudHand) -> None:
        seat = event.seat
        given = min(event.amount, self.street_chips[seat])  # type: ignore[index]
        self.street_chips[seat] -= given  # type: ignore[index]
        self.total[seat] -= event.amount  # type: ignore[index]
        text = f"{event.amount} uncalled, returned to {self.name(seat)}."  # type: ignore[arg-type]
        self.log.append(text)
        if self.steps:  # part of the action that ended the betting
            last = self.steps.pop()
            self.step(hand, " ".join((*last.actions, text)))

    def _on_show(self, event: Event, hand: StudHand) -> None:
        seat = event.seat
        self.last[seat] = "shows"  # type: ignore[index]
        for frame_card, card in zip(self.cards[seat], event.cards, strict=False):  # type: ignore[index]
            if card is not None:
                frame_card.code = format_card(card)
        shown = " ".join(_sym(c) for c in event.cards if c is not None)
        text = f"{self.name(seat)} shows {shown}."  # type: ignore[arg-type]
        self.shows.append(text)
        self.step(hand, text)

    def _on_muck(self, event: Event, hand: StudHand) -> None:
        seat = event.seat
        self.folded[seat] = "showdown"  # type: ignore[index]
        self.last[seat] = "mucks"  # type: ignore[index]
        text = f"{self.name(seat)} mucks."  # type: ignore[arg-type]
        self.shows.append(text)
        self.step(hand, text)

    def _on_betting(self, event: Event, hand: StudHand, seat: int) -> None:
        text = self._betting_words(event, seat)
        if text is None:
            return
        self.flush_shows()
        self.last[seat] = text
        self.log.append(f"{self.name(seat)} {text}.")
        self.step(hand, f"{self.name(seat)} {text}.")

    def _betting_words(self, event: Event, seat: int) -> str | None:
        """What a seat's betting action says ("calls 20 and is all in"), its chips put in;
        None for a verb that is no betting action."""
        verb = event.verb
        if verb is Verb.CHECK:
            return "checks"
        if verb is Verb.FOLD:
            self.folded[seat] = STREETS[event.street]
            return "folds"
        said = _BETTING_WORDS.get(verb)
        if said is None:
            return None
        words, amount_of = said
        chips = self.put(seat, event.amount, event.all_in)
        return f"{words} {event.amount if amount_of == 'amount' else event.to}{chips}"

    def finish(self, hand: StudHand, pots: Sequence[PotTaken] = ()) -> list[StreetFrame]:
        """After the walk: the last street's frame and the end of the hand. ``pots``: the
        pots as settled; the last step says who took each and how much (without them, an
        uncontested pot still can be told, a showdown's cannot).

        The last step never repeats the one before: the shows and mucks of the showdown had
        their own steps; the end of the hand says who took the pots.
        """
        self.frames.append(self.snapshot(self.number, hand))
        shows = list(self.shows)
        self.shows = []
        for i in range(len(self.names)):
            self.last[i] = ""
            for c in self.cards[i]:
                c.new = False
        uncontested = hand.n_in == 1 and not hand.at_showdown  # (a muck is no fold)
        if not pots and hand.n_in == 1:
            winner = hand.in_hand.index(True)
            pots = [PotTaken(0, sum(self.total), ((winner, sum(self.total)),))]
        taken: dict[int, int] = {}
        for pot in pots:
            for seat, chips in pot.shares:
                taken[seat] = taken.get(seat, 0) + chips
        for seat, chips in taken.items():
            if chips:
                self.last[seat] = f"takes {chips}"
        ending = pot_words(pots, self.names, uncontested)
        if not ending and hand.at_showdown:
            ending = ["Showdown: who takes the pot is known once the engine has settled the hand."]
        self.log = shows + ending
        end = self.snapshot(END, hand)
        self.frames.append(end)
        if ending:
            last = self.snapshot(END, hand)
            last.actions = [" ".join(ending)]
            self.steps.append(last)
        return self.frames


# The observer's answer to each event (betting actions: _BETTING_WORDS).
_HANDLERS = {
    Verb.ANTE: FramesObserver._on_ante,
    Verb.STREET: FramesObserver._on_street,
    Verb.DEAL_UP: FramesObserver._on_deal,
    Verb.DEAL_DOWN: FramesObserver._on_deal,
    Verb.DEAL_COMMUNITY: FramesObserver._on_community,
    Verb.BUY: FramesObserver._on_buy,
    Verb.PAY: FramesObserver._on_pay,
    Verb.CHOOSE_SEVENTH: FramesObserver._on_choose_seventh,
    Verb.RETURN: FramesObserver._on_return,
    Verb.SHOW: FramesObserver._on_show,
    Verb.MUCK: FramesObserver._on_muck,
}
# A betting action's words and which of the event's amounts follows them ("to": the total it
# makes the bet, "amount": the chips put in).
_BETTING_WORDS = {
    Verb.BRING_IN: ("brings in", "to"),
    Verb.CALL: ("calls", "amount"),
    Verb.COMPLETE: ("completes to", "to"),
    Verb.BET: ("bets", "to"),
    Verb.RAISE: ("raises to", "to"),
}
