"""One stud hand as an open state machine: every table event is a verb.

:class:`StudHand` holds one hand of any of the four games from the antes to
the showdown. Each table event is a method (a *verb*); each verb has a
companion ``verify_<verb>`` that checks it without acting and raises a
:class:`ProcedureError` whose ``code`` (a :class:`Code`), ``seat`` and
``subject`` are data, never text to parse. :meth:`StudHand.next_event`
answers "what happens next?": who acts and which verbs are legal with their
exact amounts, which cards are expected, or that the hand is over.
:meth:`StudHand.settle` pays the pots (the hand-value engine reads the
showdown). Observers (:class:`HandObserver`) watch a walk: after every
event they get the event and the hand, whose :meth:`StudHand.pots` are the
pots so far.

Seats are indices clockwise from the dealer's left (the dealer is the last
index). Cards are ints (:mod:`tracker.engine.cards`); ``None`` is a card
nobody saw.

A heads-up hand, played verb by verb:

>>> from tracker.engine.cards import parse_card as c
>>> hand = StudHand(variant="seven_card_stud", stakes=Stakes(1, 2, 5, 10), stacks=[100, 100])
>>> hand.next_event().options
(Option(verb=<Verb.ANTE: 'ante'>, seat=None, amount=0, to=0),)
>>> hand.post_antes()
>>> [(d.seat, d.face.value) for d in hand.next_event().deals]
[(0, 'down'), (1, 'down'), (0, 'down'), (1, 'down'), (0, 'up'), (1, 'up')]
>>> for seat, cards in ((0, "As Ks 2c"), (1, "Qh Qd 3c")):
...     for face, card in zip(("down", "down", "up"), cards.split()):
...         hand.deal(seat, c(card), up=face == "up")
>>> turn = hand.next_event()
>>> turn.seat, [(o.verb.value, o.amount) for o in turn.options]
(0, [('bring_in', 2), ('complete', 5)])
>>> hand.bring_in(0)
>>> [(o.verb.value, o.amount) for o in hand.next_event().options]
[('fold', 0), ('call', 2), ('complete', 5)]
>>> hand.verify_check(1)
Traceback (most recent call last):
...
tracker.engine.stud.ProcedureError: p2 has 2 to call and cannot check
>>> hand.fold(1)
>>> hand.over, [p.to_dict() for p in hand.pots()]
(True, [{'amount': 2, 'eligible': [0]}])
>>> hand.settle().finishing_stacks
[101, 99]
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

from .cards import format_card
from .errors import Code, DomainError
from .events import (
    BET_EVENTS,
    Bet,
    BringIn,
    Buy,
    Call,
    Check,
    CheckOrCall,
    ChooseSeventh,
    Complete,
    CompleteBetOrRaise,
    Contribute,
    DealBoard,
    DealHole,
    Declare,
    EndBetting,
    Fold,
    Muck,
    Pay,
    PostAntes,
    RaiseTo,
    ReturnUncalled,
    Show,
    TableEvent,
    event_for,
)
from .game_presets import definition_for_variant
from .games import STREET_NAMES, GameDefinition, PayRule, bring_in_seat, dump_game, first_to_act
from .pots import Evaluate, Pot, PotAward, build_pots, settle_pots
from .stakes import Stakes
from .variants import (
    DECK_SIZE,
    LOW_HOLD,
    MAX_BETS_PER_ROUND,
    STREETS,
    VARIANT_RULES,
    Face,
    SeventhCard,
    Street,
    VariantRules,
)

__all__ = [
    "ALL_AUTOMATIONS",
    "Automation",
    "BET_VERBS",
    "Code",
    "Deal",
    "Event",
    "HandObserver",
    "HandResult",
    "NextEvent",
    "Option",
    "Phase",
    "ProcedureError",
    "StudHand",
    "Subject",
    "Verb",
    "declaring",
]


class Subject(StrEnum):
    """What part of a hand record an error is about (drivers map it to their field)."""

    ACTION = "action"  # a betting action, a deal, a show or muck
    BUY = "buy"
    SEVENTH = "seventh_card"
    DECLARATION = "declaration"
    CHIPS = "chips"
    CARDS = "cards"
    COMMUNITY = "community"
    HAND = "hand"


class ProcedureError(DomainError):
    """A refusal by the stud procedure.

    ``code`` is a :class:`Code` (compares equal to its string), ``seat`` the
    seat at fault (or None), ``subject`` a :class:`Subject`. Drivers locate
    it in their input with :meth:`locate`: ``field`` (``actions[12]``,
    ``_buys[0]``, ``put_in[2]``), ``action_index`` and ``action`` (the PHH
    action text); ``hand`` and ``source`` are set by readers of many hands.
    ``str(err)`` gives the full located message.
    """

    code = Code.ILLEGAL_ACTION.value

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        field: str | None = None,
        seat: int | None = None,
        subject: Subject = Subject.ACTION,
        action_index: int | None = None,
        action: str | None = None,
        hand: str | int | None = None,
        source: str | None = None,
    ) -> None:
        if field is None and action_index is not None:
            field = f"actions[{action_index}]"
        super().__init__(message, code=None if code is None else str(code), field=field)
        self.field = field
        self.seat = seat
        self.subject = subject
        self.action_index = action_index
        self.action = action
        self.hand = hand
        self.source = source

    def locate(
        self,
        *,
        field: str | None = None,
        action_index: int | None = None,
        action: str | None = None,
    ) -> ProcedureError:
        """Name where in the driver's input the fault is (the field defaults to
        ``actions[action_index]``); returns the error for ``raise``."""
        if action_index is not None:
            self.action_index = action_index
            self.action = action
            if field is None:
                field = f"actions[{action_index}]"
        if field is not None:
            self.field = field
            self.fields = {field: [self.message]}
        return self

    def location(self) -> str:
        parts = []
        if self.source:
            parts.append(str(self.source))
        if self.hand is not None:
            parts.append(f"hand {self.hand}")
        if self.action_index is not None:
            if self.action is not None:
                parts.append(f"action {self.action_index} {self.action!r}")
            else:
                parts.append(f"after the last action ({self.action_index} actions)")
        return ", ".join(parts)

    def __str__(self) -> str:
        where = self.location()
        return f"{where}: {self.message}" if where else self.message

    def as_dict(self) -> dict:
        data = super().as_dict()
        data.update(hand=self.hand, action_index=self.action_index, action=self.action)
        return data


class Phase(StrEnum):
    """Where the hand stands."""

    ANTES = "antes"  # nothing has happened yet
    DEAL = "deal"  # cards of the street are due
    BET = "bet"  # a betting round is on
    SHOWDOWN = "showdown"  # the betting is over with two or more still in
    OVER = "over"  # everyone else folded or mucked


class Verb(StrEnum):
    """Every table event. The last four happen by themselves (events only)."""

    ANTE = "ante"
    BRING_IN = "bring_in"
    COMPLETE = "complete"
    BET = "bet"
    RAISE = "raise"
    CALL = "call"
    CHECK = "check"
    FOLD = "fold"
    DEAL_DOWN = "deal_down"
    DEAL_UP = "deal_up"
    DEAL_COMMUNITY = "deal_community"
    BUY = "buy"
    PAY = "pay"  # a house game's pay rule: pay the price or fold
    CHOOSE_SEVENTH = "choose_seventh"
    DECLARE = "declare"
    SHOW = "show"
    MUCK = "muck"
    CONTRIBUTE = "contribute"  # results entry: chips put in, without the betting
    END_BETTING = "end_betting"  # results entry: the street's betting is over
    RETURN = "return"  # the uncalled part of a bet goes back
    STREET = "street"  # a new street begins
    SHOWDOWN = "showdown"  # the betting is over with two or more still in
    END = "end"  # the hand is over


#: The verbs that put in a completion, a bet or a raise.
BET_VERBS = frozenset((Verb.COMPLETE, Verb.BET, Verb.RAISE))


class Automation(StrEnum):
    """What a machine built with ``automations`` does by itself (:meth:`StudHand.automate`)."""

    ANTES = "antes"  # everyone antes as the hand begins
    UNSEEN_DEALS = "unseen_deals"  # face-down cards nobody saw, when only such cards are due
    FORCED_ACTIONS = "forced_actions"  # a betting action that is the only legal one


ALL_AUTOMATIONS = frozenset(Automation)


@dataclass(frozen=True, slots=True)
class Event:
    """What happened. ``amount``: chips moved (put in, returned, paid);
    ``to``: the seat's bet on the street after a bring-in, completion, bet,
    raise or call; ``cards``: cards dealt or shown; ``choice``: up/down or a
    declaration; ``street``: the street it happened on."""

    verb: Verb
    street: Street
    seat: int | None = None
    amount: int = 0
    to: int = 0
    cards: tuple[int | None, ...] = ()
    choice: str | None = None
    all_in: bool = False


@dataclass(frozen=True, slots=True)
class Option:
    """A legal verb for the seat to act: ``amount`` is what it puts in now,
    ``to`` the seat's bet on the street afterwards (all in when short)."""

    verb: Verb
    seat: int | None = None
    amount: int = 0
    to: int = 0


@dataclass(frozen=True, slots=True)
class Deal:
    """A card expected next: ``seat``'s card with this ``face``, or the
    community card (``seat`` None)."""

    seat: int | None
    face: Face


_DEALS: list[tuple[Deal, Deal]] = []


def _deals_of(n: int) -> list[tuple[Deal, Deal]]:
    """Per seat of ``n``, its down and up :class:`Deal` (made once: a deal is a value).

    >>> _deals_of(2)[1][True]
    Deal(seat=1, face=<Face.UP: 'up'>)
    """
    while len(_DEALS) < n:
        i = len(_DEALS)
        _DEALS.append((Deal(i, Face.DOWN), Deal(i, Face.UP)))
    return _DEALS


@dataclass(frozen=True, slots=True)
class NextEvent:
    """The answer of :meth:`StudHand.next_event`.

    ``seat`` acts with one of ``options`` (betting); or ``deals`` lists the
    cards due in dealing order; ``choices`` the optional seventh-card
    choices still open (Low Hold buys, Kings and Little Ones up or down) as
    options per seat; ``showdown`` the seats that may still show, muck or
    declare; ``over`` is true once nothing more can happen.
    """

    phase: Phase
    street: Street
    seat: int | None = None
    options: tuple[Option, ...] = ()
    deals: tuple[Deal, ...] = ()
    choices: tuple[Option, ...] = ()
    showdown: tuple[int, ...] = ()
    over: bool = False


class HandObserver:
    """Watches a walk: subclass and override what you need (no-ops here)."""

    def on_event(self, event: Event, hand: StudHand) -> None:
        """After every event, the hand already changed by it."""


@dataclass
class HandResult:
    """The settlement of one hand (per-seat lists are in seat order).

    ``contributions`` are the chips each seat left in the pots (antes,
    bring-in, bets, calls and buys, less any uncalled bet returned);
    ``antes``, ``buys`` and ``returned`` break out the ante, the Low Hold
    buy and the uncalled chips given back. ``folded`` names the street a
    seat folded on (``"showdown"`` for a hand mucked at the showdown), or
    ``None``. ``winnings`` is what each seat took from the pots.
    """

    variant: str
    options: dict
    stakes: Stakes
    starting_stacks: list[int]
    antes: list[int]
    buys: list[int]
    returned: list[int]
    contributions: list[int]
    folded: list[str | None]
    community: str | None
    pots: list[Pot]
    showdown: dict | None
    payouts: list[PotAward]
    winnings: list[int]
    finishing_stacks: list[int]
    warnings: list[str] = field(default_factory=list)
    game: GameDefinition | None = None
    paid: list[int] | None = None

    def to_dict(self) -> dict:
        """JSON-ready output (a house game's hand adds ``game``, its definition as
        ``dump_game`` writes it, and ``paid``, the pay-rule chips of each seat, which
        ``buys`` include)."""
        out = {
            "variant": self.variant,
            "options": dict(self.options),
            "stakes": self.stakes.as_dict(),
            "starting_stacks": list(self.starting_stacks),
            "antes": list(self.antes),
            "buys": list(self.buys),
            "returned": list(self.returned),
            "contributions": list(self.contributions),
            "folded": list(self.folded),
            "community": self.community,
            "pots": [p.to_dict() for p in self.pots],
            "showdown": self.showdown,
            "payouts": [p.to_dict() for p in self.payouts],
            "winnings": list(self.winnings),
            "finishing_stacks": list(self.finishing_stacks),
            "warnings": list(self.warnings),
        }
        if self.game is not None:
            out["game"] = dump_game(self.game)
            out["paid"] = list(self.paid or [])
        return out


_VARIANT_GAMES: dict[tuple[str, str], GameDefinition] = {}


def variant_definition(variant: str, options: Mapping[str, Any]) -> GameDefinition:
    """The definition the machine deals and bets one of today's four games by
    (:func:`~tracker.engine.game_presets.definition_for_variant`): the variant's, with Low
    Hold's ``buy_version``, the one announcement that changes the deal (the wild rules and
    the pot are the showdown's, read from the announcements by ``evaluate_showdown``).

    >>> variant_definition("low_hold", {"buy_version": "buderick"}).streets[-1].faces
    ('up',)
    >>> variant_definition("seven_card_stud", {}) is variant_definition("seven_card_stud", {})
    True
    """
    buderick = variant == LOW_HOLD and options.get("buy_version") == "buderick"
    key = (variant, "buderick" if buderick else "contributed")
    game = _VARIANT_GAMES.get(key)
    if game is None:
        announced = {"buy_version": key[1]} if variant == LOW_HOLD else None
        game = _VARIANT_GAMES[key] = definition_for_variant(variant, announced)
    return game


def declaring(options: Mapping[str, Any]) -> bool:
    """Whether players declare high, low or both (a high-low game announced so)."""
    return options.get("declaration") == "declare" and options.get("game") == "high_low"


_RANK_WORDS = (
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen",
    "king", "ace",
)  # fmt: skip


def _rank_name(rule: PayRule) -> str:
    """The rank a pay rule costs, in words: ``"three"``."""
    return _RANK_WORDS[rule.rank - 2]


#: A prime per rank index (card >> 2): the product of an up board's primes names its ranks
#: as a multiset, the key of :data:`_UP_KEYS`.
_RANK_PRIMES = (2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41)
_UP_KEYS: dict[int, tuple] = {}  # worked out once per multiset of up ranks


def up_key(up: Sequence[int]) -> tuple:
    """The strength of face-up cards at natural value, for the order of action:
    quads, full house, trips, two pair, pair, high card (no straights or flushes).
    Suits play no part, so each multiset of ranks is worked out once.

    >>> from tracker.engine.cards import parse_card as c
    >>> up_key([c("Kd"), c("Kh")]) > up_key([c("Ad"), c("Qh")])
    True
    >>> up_key([c("Kd"), c("7h"), c("Kc")])
    (1, 11, 5)
    """
    code = 1
    for card in up:
        code *= _RANK_PRIMES[card >> 2]
    key = _UP_KEYS.get(code)
    if key is None:
        key = _UP_KEYS[code] = _up_key(up)
    return key


def _up_key(up: Sequence[int]) -> tuple:
    """:func:`up_key` worked out: the ranks counted, the groups in order."""
    counts: dict[int, int] = {}
    for card in up:
        r = card >> 2
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(((k, r) for r, k in counts.items()), reverse=True)
    top = groups[0][0]
    if top == 4:
        category = 5
    elif top == 3:
        category = 4 if len(groups) > 1 and groups[1][0] >= 2 else 3
    elif top == 2:
        category = 2 if len(groups) > 1 and groups[1][0] == 2 else 1
    else:
        category = 0
    return (category, *(r for _, r in groups))


class StudHand:
    """One hand of stud (any of the four games), event by event.

    Each table event is a verb method with its ``verify_`` companion, and the same
    as data: :meth:`apply` plays a :mod:`tracker.engine.events` event, :meth:`verify`
    checks one. ``automations`` (:class:`Automation`) are what the machine then does
    by itself: the antes, the face-down cards nobody saw, a forced betting action.

    A hand entered as results is its own machine, the subclass
    :class:`tracker.engine.results.ResultsHand` (``results=True`` makes one): it
    overrides what differs -- no betting rounds, chips given per seat, face-up cards
    that may be unknown. ``labels`` name the seats in messages (default ``p1``,
    ``p2``, ... as PHH does).
    """

    __slots__ = (
        "n", "variant", "rules", "options", "stakes", "starting", "labels",
        "stacks", "live", "bets", "antes", "buys", "returned", "in_hand", "n_in", "folded",
        "cards", "faces", "known", "dealt", "street", "phase", "pending", "next_faces",
        "to_deal", "community", "community_due", "closed", "actors", "max_bet", "count",
        "unit", "last_inc", "acted", "short", "bring_in_due", "completion_due",
        "seventh_open", "seventh_up", "bought", "at_showdown", "declarations", "observers",
        "shown", "events", "automations", "game", "street_names", "last_street", "declares",
        "up_order", "paying", "pay_price", "paid", "extra_due", "house", "acts_on_cards",
    )  # fmt: skip

    #: How each event type is played and checked (:func:`_event_tables`, per class).
    _APPLY: ClassVar[dict[type, Callable[[StudHand, Any], Any]]]
    _VERIFY: ClassVar[dict[type, Callable[[StudHand, Any], Any]]]

    def __new__(cls, *, results: bool = False, **_: Any) -> StudHand:
        """``results=True`` gives the machine of a hand entered as results."""
        if results and cls is StudHand:
            from .results import ResultsHand  # the subclass imports this module

            cls = ResultsHand
        return object.__new__(cls)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._APPLY, cls._VERIFY = _event_tables(cls)

    def __init__(
        self,
        *,
        variant: str | None = None,
        stakes: Stakes,
        stacks: Sequence[int],
        options: Mapping[str, Any] | None = None,
        labels: Sequence[str] | None = None,
        results: bool = False,  # read by __new__: which machine
        observers: Sequence[HandObserver] = (),
        automations: Collection[Automation] = (),
        game: GameDefinition | None = None,
    ) -> None:
        n = self.n = len(stacks)
        self.options = dict(options or {})
        self.house = game is not None
        self.paying: int | None = None  # the seat to pay a pay rule's price or fold
        self.pay_price: int | str = 0
        if game is None:
            if variant is None:
                raise ProcedureError(
                    "a hand needs a variant or a game", code=Code.INVALID_VARIANT, field="variant"
                )
            self.variant = variant
            self.rules: VariantRules = VARIANT_RULES[variant]
            self.game: GameDefinition = variant_definition(variant, self.options)
            self.street_names: tuple[str, ...] = STREETS
            self.last_street = Street.SEVENTH
            self.declares = declaring(self.options)
        else:
            self.game = game
            self._set_game(game, variant, n)
        self.stakes = stakes
        self.starting = list(stacks)
        self.labels = list(labels) if labels is not None else [f"p{i + 1}" for i in range(n)]
        self.observers = list(observers)
        self.stacks = list(stacks)
        self.live = [0] * n
        self.bets = [0] * n
        self.antes = [0] * n
        self.buys = [0] * n
        self.returned = [0] * n
        self.in_hand = [True] * n
        self.n_in = n
        self.folded: list[str | None] = [None] * n
        self.cards: list[list[int | None]] = [[] for _ in range(n)]
        self.faces: list[list[bool]] = [[] for _ in range(n)]
        self.known: set[int] = set()
        self.dealt = 0
        self.street = Street.THIRD
        self.phase = Phase.ANTES
        self.pending = [0] * n
        self.next_faces: list[list[bool]] = [[] for _ in range(n)]
        self.to_deal = 0
        self.community: int | None = None
        self.community_due = False
        self.closed = False
        self.actors: list[int] = []
        self.max_bet = 0
        self.count = 0
        self.unit = stakes.small_bet
        self.last_inc = 0
        self.acted: set[int] = set()
        self.short: list[int] = []
        self.bring_in_due = False
        self.completion_due = False
        self.seventh_open = False  # the seventh-card choices may still be made
        self.seventh_up = [False] * n
        self.bought = [False] * n
        self.at_showdown: tuple[int, ...] = ()
        self.declarations: list[str | None] = [None] * n
        self.shown = [False] * n
        self.events = 0
        self.up_order: list[int | None] = []
        self.acts_on_cards = bool(self.game.extra_cards or self.game.pays)
        self.paid = [0] * n
        self.extra_due = [0] * n
        self.automations = frozenset(automations)
        if self.automations:
            self.automate()

    def _set_game(self, game: GameDefinition, variant: str | None, n: int) -> None:
        """Read a house game's definition: its rules, street names and limits."""
        streets = game.streets
        if len(streets) > len(Street):
            raise ProcedureError(
                f"{game.title} deals {len(streets)} streets; the machine deals at most "
                f"{len(Street)}",
                code=Code.INVALID_VARIANT,
                field="game.streets",
            )
        game.refuse_players(n, field="stacks", error=ProcedureError)
        self.variant = variant if variant is not None else game.name
        last = streets[-1].faces
        seventh = (
            SeventhCard.BUY
            if game.buy is not None
            else SeventhCard.CHOICE
            if "choice" in last
            else SeventhCard.DOWN
        )
        wild = "none" if not game.wild else ", ".join(w.kind for w in game.wild)
        self.rules = VariantRules(game.name, game.title, game.player_limit, seventh, wild)
        names, held = [], 0
        for street in streets:
            held += len(street.faces)
            names.append(STREET_NAMES[held - 1])
        self.street_names = tuple(names)
        self.last_street = Street(len(streets) - 1)
        self.declares = game.pot.kind == "high_low" and game.pot.declaration == "declare"

    # ------------------------------------------------------------------
    # Reading the state

    @property
    def over(self) -> bool:
        """True when no more betting, dealing or choosing can happen (shows and
        declarations may still be recorded at a showdown)."""
        return self.phase in (Phase.SHOWDOWN, Phase.OVER)

    def label(self, seat: int) -> str:
        return self.labels[seat]

    def pots(self) -> list[Pot]:
        """The pots so far, the current street's bets included.

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street()
        >>> hand.bring_in(0); hand.complete(1)
        >>> [p.to_dict() for p in hand.pots()]  # p2's completion is not called yet
        [{'amount': 6, 'eligible': [0, 1]}, {'amount': 3, 'eligible': [1]}]
        """
        live = [self.live[i] + self.bets[i] for i in range(self.n)]
        return self._pots(live, self.in_hand, self.folded)

    def _pots(self, live: list[int], in_hand: list[bool], folded: list[str | None]) -> list[Pot]:
        """The pots of ``live`` chips. A muck gives up the pots someone still in can
        win; a pot that only players who mucked reached stays theirs (a side pot
        nobody else put chips in for is not lost by conceding the main pot)."""
        if "showdown" not in folded:
            return build_pots(live, in_hand, self.buys)
        reached = [in_hand[i] or folded[i] == "showdown" for i in range(self.n)]
        pots: list[Pot] = []
        for pot in build_pots(live, reached, self.buys):
            eligible = tuple(s for s in pot.eligible if in_hand[s]) or pot.eligible
            if pots and pots[-1].eligible == eligible:
                pots[-1] = Pot(pots[-1].amount + pot.amount, eligible)
            else:
                pots.append(Pot(pot.amount, eligible))
        return pots

    def pot_total(self) -> int:
        return sum(self.live) + sum(self.bets) + sum(self.buys)

    def up_cards(self, seat: int) -> list[int]:
        return [c for c, up in zip(self.cards[seat], self.faces[seat], strict=True) if up]

    def cards_due(self, seat: int) -> int:
        """How many cards ``seat`` is still due on this street.

        >>> from tracker.engine.examples import new_hand
        >>> hand = new_hand()
        >>> hand.cards_due(0)  # the antes come first
        0
        >>> hand.post_antes()
        >>> hand.deal(0, 51)
        >>> hand.cards_due(0), hand.cards_due(1)
        (2, 3)
        """
        return self.pending[seat] if self.phase is Phase.DEAL else 0

    def next_face(self, seat: int) -> Face:
        """The face of the next card due to ``seat`` on this street.

        >>> from tracker.engine.examples import antes_posted
        >>> hand = antes_posted()
        >>> hand.next_face(0)
        <Face.DOWN: 'down'>
        >>> hand.deal(0, 51); hand.deal(0, 50)
        >>> hand.next_face(0)
        <Face.UP: 'up'>
        >>> hand.deal(0, 49); hand.next_face(0)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: p1 is due no card now
        """
        if self.phase is not Phase.DEAL or not self.pending[seat]:
            raise self.fail(
                f"{self.label(seat)} is due no card now", Code.DEAL_COUNT, seat, Subject.CARDS
            )
        faces = self.next_faces[seat]
        return Face.UP if faces[len(faces) - self.pending[seat]] else Face.DOWN

    def next_event(self) -> NextEvent:
        """Who acts and what they may do, which cards are due, or that it is over.

        >>> from tracker.engine.examples import deal_round, new_hand
        >>> hand = new_hand()
        >>> hand.next_event().phase
        <Phase.ANTES: 'antes'>
        >>> hand.post_antes()
        >>> hand.next_event().deals[0]
        Deal(seat=0, face=<Face.DOWN: 'down'>)
        >>> deal_round(hand, "As Qh Ks Qd 2c 3c")
        >>> turn = hand.next_event()
        >>> turn.phase, turn.seat, [(o.verb.value, o.to) for o in turn.options]
        (<Phase.BET: 'bet'>, 0, [('bring_in', 2), ('complete', 5)])
        >>> hand.bring_in(0); hand.fold(1)
        >>> hand.next_event().over
        True
        """
        phase = self.phase
        street = self.street
        if phase is Phase.ANTES:
            return NextEvent(phase, street, options=(Option(Verb.ANTE),))
        if phase is Phase.BET:
            return self._betting_event()
        if phase is Phase.DEAL:
            if self.paying is not None:
                return self._pay_event()
            if self.community_due:
                deals: tuple[Deal, ...] = (Deal(None, Face.COMMUNITY),)
            else:
                deals = self._deal_order()
            showdown = tuple(i for i in range(self.n) if self.in_hand[i]) if self.closed else ()
            return NextEvent(
                phase, street, deals=deals, choices=self._seventh_choices(), showdown=showdown
            )
        seats = self.at_showdown if phase is Phase.SHOWDOWN else ()
        return NextEvent(
            phase, street, showdown=tuple(i for i in seats if self.in_hand[i]), over=True
        )

    def _betting_event(self) -> NextEvent:
        """The next event while a street is bet: the seat to act and its options."""
        seat = self.actors[0]
        return NextEvent(Phase.BET, self.street, seat=seat, options=self.legal_options(seat))

    def _pay_event(self) -> NextEvent:
        """A pay rule's price is due: the seat pays it or folds before the dealing goes on."""
        seat = self.paying
        assert seat is not None
        options = (Option(Verb.PAY, seat, self._pay_amount(seat)), Option(Verb.FOLD, seat))
        return NextEvent(Phase.DEAL, self.street, seat=seat, options=options)

    def _seventh_choices(self) -> tuple[Option, ...]:
        """The buys and up/down choices open before the seventh card is dealt."""
        return self._game_choices()

    def deals_due(self) -> tuple[Deal, ...]:
        """The cards due now in dealing order: ``next_event().deals``, without the rest
        of the answer (the choices, the seats at the showdown).

        >>> from tracker.engine.examples import antes_posted
        >>> hand = antes_posted()
        >>> hand.deals_due() == hand.next_event().deals
        True
        >>> hand.deals_due()[4]
        Deal(seat=0, face=<Face.UP: 'up'>)
        """
        if self.phase is not Phase.DEAL or self.paying is not None:
            return ()
        if self.community_due:
            return (Deal(None, Face.COMMUNITY),)
        return self._deal_order()

    def _deal_order(self) -> tuple[Deal, ...]:
        """The cards due, dealt round the table one at a time from the dealer's left."""
        out = []
        pending = list(self.pending)
        faces = self.next_faces
        n = self.n
        deals = _deals_of(n)
        if self.game.extra_cards:  # an extra card (Baseball's four up) comes at once
            for i in range(n):
                for _ in range(self.extra_due[i]):
                    out.append(deals[i][faces[i][len(faces[i]) - pending[i]]])
                    pending[i] -= 1
        while any(pending):
            for i in range(n):
                if pending[i]:
                    out.append(deals[i][faces[i][len(faces[i]) - pending[i]]])
                    pending[i] -= 1
        return tuple(out)

    def legal_options(self, seat: int) -> tuple[Option, ...]:
        """The verbs ``seat`` may use now, with their exact amounts (empty when
        it is not their turn).

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street()
        >>> hand.legal_options(1)
        ()
        >>> hand.bring_in(0)
        >>> hand.legal_options(1)
        (Option(verb=<Verb.FOLD: 'fold'>, seat=1, amount=0, to=0),
         Option(verb=<Verb.CALL: 'call'>, seat=1, amount=2, to=2),
         Option(verb=<Verb.COMPLETE: 'complete'>, seat=1, amount=5, to=5))
        """
        if self.phase is not Phase.BET or self.actors[0] != seat:
            return ()
        stack = self.stacks[seat]
        out: list[Option] = []
        if self.bring_in_due:
            amount = min(stack, self.stakes.bring_in)
            out.append(Option(Verb.BRING_IN, seat, amount, self.bets[seat] + amount))
        else:
            to_call = self.max_bet - self.bets[seat]
            if to_call > 0:
                amount = min(to_call, stack)
                out.append(Option(Verb.FOLD, seat))
                out.append(Option(Verb.CALL, seat, amount, self.bets[seat] + amount))
            else:
                out.append(Option(Verb.CHECK, seat))
        if self.bring_in_due and self.stakes.bring_in >= self.stakes.small_bet:
            return tuple(out)  # the bring-in is the full small bet: the completion itself
        try:
            verb, target = self._bet_target(seat)
        except ProcedureError:
            return tuple(out)
        out.append(Option(verb, seat, target - self.bets[seat], target))
        return tuple(out)

    # ------------------------------------------------------------------
    # Errors and events

    def fail(
        self,
        message: str,
        code: Code = Code.ILLEGAL_ACTION,
        seat: int | None = None,
        subject: Subject = Subject.ACTION,
    ) -> ProcedureError:
        return ProcedureError(message, code=code.value, seat=seat, subject=subject)

    def watch(self, observer: HandObserver) -> None:
        """Add an observer; it sees every event from now on."""
        self.observers.append(observer)

    def _emit(self, event: Event) -> None:
        self.events += 1
        for observer in self.observers:
            observer.on_event(event, self)

    # ------------------------------------------------------------------
    # Events as data: apply, verify, automations

    def apply(self, event: TableEvent, *, automate: bool = True) -> TableEvent:
        """Play one event (the verb's own checks refuse a wrong one), then, unless
        ``automate`` is false, what the machine's automations do after it. Returns the
        event as played: a completion, bet or raise with its size.

        >>> from tracker.engine.cards import parse_card as c
        >>> from tracker.engine.events import BringIn, DealHole, RaiseTo
        >>> hand = StudHand(variant="seven_card_stud", stakes=Stakes(1, 2, 5, 10),
        ...                 stacks=[100, 100], automations=ALL_AUTOMATIONS)
        >>> hand.apply(DealHole(0, (None, None, c("2c"))))
        DealHole(seat=0, cards=(None, None, 0))
        >>> _ = hand.apply(DealHole(1, (None, None, c("Kd")))); _ = hand.apply(BringIn(0))
        >>> hand.apply(RaiseTo(1))
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: p2 cannot raise now: the moment calls for a complete (to
        5)
        """
        played = self._APPLY[type(event)](self, event)
        if automate and self.automations:
            self.automate()
        return played

    def verify(self, event: TableEvent) -> TableEvent:
        """Check one event without playing it (its verb's ``verify_`` companion);
        returns it as it would be played.

        >>> from tracker.engine.events import Complete, Fold
        >>> from tracker.engine.examples import third_street
        >>> hand = third_street()
        >>> hand.verify(Complete(0))
        Complete(seat=0, to=5)
        >>> hand.verify(Fold(1))
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: it is p1's turn, not p2's
        """
        return self._VERIFY[type(event)](self, event)

    def verify_deal_cards(self, seat: int, cards: Sequence[int | None]) -> None:
        """Check dealing ``cards`` to ``seat`` in order, each with the face it is due.

        >>> from tracker.engine.examples import antes_posted
        >>> hand = antes_posted()
        >>> hand.verify_deal_cards(0, [None, None, 51, 50])
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: p1 is due 3 more card(s) on third street, not 4
        """
        due = self._check_deal_count(seat, cards)
        faces = self.next_faces[seat]
        seen: set[int] = set()
        for k, card in enumerate(cards):
            if k == 0:
                self.verify_deal(seat, card)
            elif card is None:
                if faces[len(faces) - due + k]:
                    self._check_unknown_up(seat)
            elif not 0 <= card < 52:
                raise self.fail(f"{card!r} is not a card", Code.INVALID_CARD, seat, Subject.CARDS)
            elif card in self.known or card in seen:
                raise self.fail(
                    f"{format_card(card)} has already been dealt",
                    Code.DUPLICATE_CARD,
                    seat,
                    Subject.CARDS,
                )
            if card is not None:
                seen.add(card)

    def _check_unknown_up(self, seat: int) -> None:
        """A face-up card dealt unknown: refused, everyone sees it."""
        raise self.fail(
            "a face-up card is seen by everyone and cannot be unknown ('??')",
            Code.UNKNOWN_CARD,
            seat,
            Subject.CARDS,
        )

    def _check_deal_count(self, seat: int, cards: Sequence[int | None]) -> int:
        self._check_dealing()
        if not self.in_hand[seat] or self.community_due:
            self.verify_deal(seat, None)  # raises: out of the hand, or a community card
        due = self.pending[seat]
        if not cards or len(cards) > due:
            raise self.fail(
                f"{self.label(seat)} is due {due} more card(s) on {self.street_names[self.street]} "
                f"street, not {len(cards)}",
                Code.DEAL_COUNT,
                seat,
            )
        return due

    def deal_cards(self, seat: int, cards: Sequence[int | None]) -> None:
        """Deal ``seat`` its next ``cards`` in order, each with the face it is due
        (PHH's ``d dh``); each card is checked as :meth:`deal` checks it."""
        if (
            self.phase is not Phase.DEAL
            or not self.in_hand[seat]
            or self.community_due
            or not cards
            or len(cards) > self.pending[seat]
        ):
            self._check_deal_count(seat, cards)  # raises, naming the rule
        for card in cards:
            self.deal(seat, card)

    def automate(self) -> list[TableEvent]:
        """Do what follows by itself, with the machine's ``automations``: the antes; the
        cards nobody sees (unknown until shown) when all that is due is face down and no
        seventh-card choice is open; a betting action that is the only legal one (e.g. a
        bring-in as large as the small bet, the completion itself). Returns the events.

        >>> from tracker.engine.examples import deal_round
        >>> hand = StudHand(variant="seven_card_stud", stakes=Stakes(1, 5, 5, 10),
        ...                 stacks=[100, 100], automations=ALL_AUTOMATIONS)
        >>> hand.antes  # posted by themselves
        [1, 1]
        >>> deal_round(hand, "As Qh Ks Qd 2c 3c")
        >>> hand.automate()
        [BringIn(seat=0)]
        """
        done: list[TableEvent] = []
        autos = self.automations
        while True:
            phase = self.phase
            if phase is Phase.ANTES and Automation.ANTES in autos:
                done.append(self.apply(PostAntes(), automate=False))
            elif phase is Phase.DEAL and Automation.UNSEEN_DEALS in autos and self._unseen_due():
                for seat in range(self.n):
                    if self.pending[seat]:
                        event = DealHole(seat, (None,) * self.pending[seat])
                        done.append(self.apply(event, automate=False))
            elif (
                phase is Phase.BET
                and Automation.FORCED_ACTIONS in autos
                and len(options := self._forced_options()) == 1
            ):
                done.append(self.apply(event_for(options[0]), automate=False))
            else:
                return done

    def _forced_options(self) -> tuple[Option, ...]:
        """The options of the seat to act (a forced action is the only one)."""
        return self.legal_options(self.actors[0])

    def _unseen_due(self) -> bool:
        """Whether every card due now is a face-down one and no seventh-card choice is open."""
        if self.community_due or not self.to_deal or self.paying is not None:
            return False
        nxt = self.next_event()
        return not nxt.choices and all(d.face is Face.DOWN for d in nxt.deals)

    # ------------------------------------------------------------------
    # Antes

    def verify_post_antes(self) -> None:
        """The antes come first, once.

        >>> from tracker.engine.examples import new_hand
        >>> hand = new_hand()
        >>> hand.verify_post_antes()
        >>> hand.post_antes()
        >>> hand.verify_post_antes()
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: the antes have been posted
        """
        if self.phase is not Phase.ANTES:
            raise self.fail("the antes have been posted", Code.ILLEGAL_ACTION)

    def post_antes(self) -> None:
        """Everyone antes (a stack short of the ante goes all in for it); third
        street's dealing begins.

        >>> from tracker.engine.examples import antes_posted
        >>> hand = antes_posted()
        >>> hand.antes, hand.stacks, hand.next_event().phase
        ([1, 1], [99, 99], <Phase.DEAL: 'deal'>)
        """
        self.verify_post_antes()
        ante = self.stakes.ante
        for i in range(self.n):
            paid = self.antes[i] = min(ante, self.stacks[i])
            self.stacks[i] -= paid
            self.live[i] = paid
        if self.observers:
            for i in range(self.n):
                self._emit(Event(Verb.ANTE, self.street, i, self.antes[i]))
        self.phase = Phase.DEAL
        self._game_street()
        if self.observers:
            self._emit(Event(Verb.STREET, self.street))

    # ------------------------------------------------------------------
    # Dealing

    def _check_dealing(self) -> None:
        if self.phase is Phase.DEAL:
            return
        if self.phase is Phase.BET:
            raise self._betting_not_over()
        if self.phase is Phase.OVER:
            raise self.fail("the hand is over: everyone else has folded", Code.HAND_OVER)
        if self.phase is Phase.ANTES:
            raise self.fail("the antes come first", Code.OUT_OF_TURN)
        raise self.fail("all the cards of the hand have been dealt", Code.DEAL_COUNT)

    def _betting_not_over(self) -> ProcedureError:
        """A deal while the street is bet: someone is to act first."""
        return self.fail(
            f"the {self.street_names[self.street]} street betting is not over: "
            f"{self.label(self.actors[0])} is to act",
            Code.OUT_OF_TURN,
        )

    def _take(self, card: int, seat: int | None = None) -> None:
        if card in self.known:
            raise self.fail(
                f"{format_card(card)} has already been dealt",
                Code.DUPLICATE_CARD,
                seat,
                Subject.CARDS,
            )
        self.known.add(card)

    def verify_deal(self, seat: int, card: int | None, *, up: bool | None = None) -> bool:
        """Check dealing ``card`` (``None``: unknown) to ``seat`` face up or down
        (``up`` None: the face it is due). Returns whether it comes face up.

        >>> from tracker.engine.cards import parse_card as c
        >>> from tracker.engine.examples import antes_posted
        >>> hand = antes_posted()
        >>> hand.verify_deal(0, c("As"))
        False
        >>> hand.deal(0, c("As"))
        >>> hand.verify_deal(1, c("As"))
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: As has already been dealt
        >>> hand.verify_deal(1, c("Qh"), up=True)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: p2's next card comes face down
        """
        self._check_dealing()
        if not self.in_hand[seat]:
            raise self.fail(
                f"{self.label(seat)} is out of the hand and gets no more cards",
                Code.DEAL_COUNT,
                seat,
            )
        if self.paying is not None:
            raise self._pay_first(seat)
        if self.community_due:
            raise self.fail(
                "the deck cannot give every player still in a seventh card "
                f"({DECK_SIZE - self._burns() - self.dealt} left after the burns for {self.n_in} "
                "players): one community card is dealt instead ('d db card')",
                Code.COMMUNITY_CARD,
                seat,
            )
        if not self.pending[seat]:
            raise self.fail(
                f"{self.label(seat)} is due 0 more card(s) on {self.street_names[self.street]} street, not 1",
                Code.DEAL_COUNT,
                seat,
            )
        if card is not None and not 0 <= card < 52:
            raise self.fail(f"{card!r} is not a card", Code.INVALID_CARD, seat, Subject.CARDS)
        faces = self.next_faces[seat]
        expected = faces[len(faces) - self.pending[seat]]
        if up is not None and expected != up:
            raise self.fail(
                f"{self.label(seat)}'s next card comes face {'up' if expected else 'down'}",
                Code.DEAL_COUNT,
                seat,
            )
        if card is None:
            if expected:
                self._check_unknown_up(seat)
        elif card in self.known:
            raise self.fail(
                f"{format_card(card)} has already been dealt",
                Code.DUPLICATE_CARD,
                seat,
                Subject.CARDS,
            )
        return expected

    def deal(self, seat: int, card: int | None, *, up: bool | None = None) -> None:
        """Deal ``seat`` its next card; ``up`` must match the face it is due
        (:meth:`next_face`); None deals it with that face.

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street()
        >>> [format_card(card) for card in hand.up_cards(0)], hand.next_event().phase
        (['2c'], <Phase.BET: 'bet'>)
        """
        pending = self.pending[seat]
        if (
            self.phase is Phase.DEAL
            and pending
            and self.paying is None
            and not self.community_due
            and self.in_hand[seat]
            and card is not None
            and 0 <= card < 52
            and card not in self.known
        ):  # every check of verify_deal passes but the face: read it here
            faces = self.next_faces[seat]
            expected = faces[len(faces) - pending]
            if up is not None and up != expected:
                self.verify_deal(seat, card, up=up)  # raises, naming the face due
            up = expected
        else:
            up = self.verify_deal(seat, card, up=up)  # raises, or a card nobody saw
        if card is not None:
            self.known.add(card)
        self.seventh_open = False
        self.cards[seat].append(card)
        self.faces[seat].append(up)
        self.pending[seat] -= 1
        self.to_deal -= 1
        self.dealt += 1
        if self.observers:
            verb = Verb.DEAL_UP if up else Verb.DEAL_DOWN
            self._emit(Event(verb, self.street, seat, cards=(card,)))
        if up:
            self.up_order.append(card)
        if self.acts_on_cards:
            self._game_dealt(seat, card, up)
        elif not self.to_deal:
            self._end_dealing()

    def deal_down(self, seat: int, card: int | None) -> None:
        """Deal ``seat`` a face-down card (``None``: nobody saw it).

        >>> from tracker.engine.cards import parse_card as c
        >>> from tracker.engine.examples import antes_posted
        >>> hand = antes_posted()
        >>> hand.deal_down(0, c("As"))
        >>> hand.deal_down(1, None)  # nobody saw p2's first card
        >>> hand.cards, hand.cards_due(1)
        ([[51], [None]], 2)
        """
        self.deal(seat, card, up=False)

    def deal_up(self, seat: int, card: int | None) -> None:
        """Deal ``seat`` a face-up card.

        >>> from tracker.engine.cards import parse_card as c
        >>> from tracker.engine.examples import antes_posted
        >>> hand = antes_posted()
        >>> hand.deal_down(0, c("As")); hand.deal_down(0, c("Ks"))
        >>> hand.deal_up(0, c("2c"))
        >>> hand.up_cards(0) == [c("2c")]
        True
        >>> hand.deal_up(1, c("3c"))
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: p2's next card comes face down
        """
        self.deal(seat, card, up=True)

    def verify_deal_community(self, card: int | None) -> None:
        """Check dealing the community card ``card``.

        >>> from tracker.engine.cards import parse_card as c
        >>> from tracker.engine.examples import community_card_due
        >>> hand = community_card_due()
        >>> hand.verify_deal_community(c("As"))
        >>> hand.verify_deal_community(c("2c"))  # card 0, dealt to p1
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: 2c has already been dealt
        >>> hand.verify_deal(0, c("As"))
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: the deck cannot give every player still in a seventh
        card (5 left after the burns for 7 players): one community card is dealt instead ('d db
        card')
        """
        self._check_dealing()
        if card is not None and not 0 <= card < 52:
            raise self.fail(f"{card!r} is not a card", Code.INVALID_CARD, None, Subject.COMMUNITY)
        if self.paying is not None:
            raise self._pay_first(self.paying)
        if not self.community_due:
            if self.street < self.last_street or len(self.game.streets[-1].faces) != 1:
                why = f"there is no community card on {self.street_names[self.street]} street"
            else:
                left = DECK_SIZE - self._burns() - self.dealt
                why = (
                    f"{left} cards are left after the burns, enough for the {self.n_in} players "
                    "still in: each gets their own seventh card"
                )
            raise self.fail(why, Code.COMMUNITY_CARD, None, Subject.COMMUNITY)
        if card is None:
            raise self.fail(
                "the community card is face up and cannot be unknown ('??')",
                Code.UNKNOWN_CARD,
                None,
                Subject.COMMUNITY,
            )
        if card in self.known:
            raise self.fail(
                f"{format_card(card)} has already been dealt",
                Code.DUPLICATE_CARD,
                None,
                Subject.COMMUNITY,
            )

    def deal_community(self, card: int) -> None:
        """Deal the community card: everyone's seventh card, when the deck is short.

        >>> from tracker.engine.cards import parse_card as c
        >>> from tracker.engine.examples import community_card_due
        >>> hand = community_card_due()
        >>> hand.next_event().deals
        (Deal(seat=None, face=<Face.COMMUNITY: 'community'>),)
        >>> hand.deal_community(c("As"))
        >>> format_card(hand.community), hand.next_event().phase  # seventh street's betting
        ('As', <Phase.BET: 'bet'>)
        """
        self.verify_deal_community(card)
        self.known.add(card)
        self.seventh_open = False
        self.community = card
        self.community_due = False
        self.to_deal = 0
        self.up_order.append(card)
        if self.observers:
            self._emit(Event(Verb.DEAL_COMMUNITY, self.street, cards=(card,)))
        self._end_dealing()

    def _end_dealing(self) -> None:
        if self.closed:
            self._next_street()
        else:
            self._start_betting()

    def _next_street(self) -> None:
        if self.street == self.last_street:
            self.phase = Phase.SHOWDOWN
            self.at_showdown = tuple(i for i in range(self.n) if self.in_hand[i])
            if self.observers:
                self._emit(Event(Verb.SHOWDOWN, self.street))
            return
        self.street = Street(self.street + 1)
        self.phase = Phase.DEAL
        self._game_street()
        if self.observers:
            self._emit(Event(Verb.STREET, self.street))

    def _refresh_faces(self, seat: int) -> None:
        """The faces of ``seat``'s cards due on this street, after a buy or a choice."""
        self.next_faces[seat] = self._game_faces(seat)

    def _burns(self) -> int:
        """The cards burned in the hand: one before each street."""
        return len(self.game.streets)

    # ------------------------------------------------------------------
    # The seventh card: Low Hold buys, Kings and Little Ones up or down

    def _check_seventh_choice(self, seat: int, code: Code, subject: Subject, what: str) -> None:
        if not self.in_hand[seat]:
            raise self.fail(
                f"{self.label(seat)} is out of the hand and {what}", code, seat, subject
            )
        if self.phase is not Phase.DEAL or self.street != self.last_street or not self.seventh_open:
            raise self.fail(
                "the seventh-card choices are made before the seventh card is dealt",
                code,
                seat,
                subject,
            )

    def verify_buy(self, seat: int) -> int:
        """Check a Low Hold buy; returns its price.

        >>> from tracker.engine.examples import new_hand, recorded_to_seventh
        >>> hand = recorded_to_seventh(variant="low_hold")
        >>> hand.verify_buy(0)
        10
        >>> hand.buy(0)
        >>> hand.verify_buy(0)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: p1 has bought
        >>> hand = new_hand()
        >>> hand.verify_buy(0)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: only Low Hold has buys
        """
        if not self.rules.buys:
            what = f"{self.game.title} has no buy" if self.house else "only Low Hold has buys"
            raise self.fail(what, Code.INVALID_BUY, seat, Subject.BUY)
        self._check_seventh_choice(seat, Code.INVALID_BUY, Subject.BUY, "cannot buy")
        if self.community_due:
            raise self.fail(
                "no one buys: the seventh card is a community card, face up for everyone",
                Code.INVALID_BUY,
                seat,
                Subject.BUY,
            )
        if self.bought[seat]:
            raise self.fail(f"{self.label(seat)} has bought", Code.INVALID_BUY, seat, Subject.BUY)
        price = self._buy_price()
        if self.stacks[seat] < price:
            raise self.fail(
                f"{self.label(seat)} has {self.stacks[seat]} chips and cannot pay the buy of "
                f"{price}",
                Code.INVALID_BUY,
                seat,
                Subject.BUY,
            )
        return price

    def buy(self, seat: int) -> None:
        """Low Hold: ``seat`` pays the buy price (dead money, not a bet) to turn
        its seventh card over (``buy_version`` says which way).

        >>> from tracker.engine.examples import seventh_street
        >>> hand = seventh_street(variant="low_hold", options={"buy_version": "contributed"})
        >>> [(o.verb.value, o.seat, o.amount) for o in hand.next_event().choices]
        [('buy', 0, 10), ('buy', 1, 10)]
        >>> hand.buy(1)
        >>> hand.buys, hand.next_face(0), hand.next_face(1)  # contributed: the buy turns it up
        ([0, 10], <Face.DOWN: 'down'>, <Face.UP: 'up'>)
        """
        price = self.verify_buy(seat)
        self.stacks[seat] -= price
        self.buys[seat] = price
        self.bought[seat] = True
        self._refresh_faces(seat)
        if self.observers:
            self._emit(Event(Verb.BUY, self.street, seat, price))

    def verify_choose_seventh(self, seat: int, up: bool) -> None:
        """Check ``seat`` choosing its seventh card up or down.

        >>> from tracker.engine.examples import recorded_to_seventh
        >>> hand = recorded_to_seventh(variant="kings_and_little_ones")
        >>> hand.verify_choose_seventh(1, True)
        >>> hand.deal(0, 12)
        >>> hand.verify_choose_seventh(1, True)  # the seventh card's dealing has begun
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: the seventh-card choices are made before the seventh
        card is dealt
        """
        if self.house:
            self._check_game_choice(seat)
        elif not self.rules.chooses_seventh:
            raise self.fail(
                "only Kings and Little Ones lets players choose the seventh card up or down",
                Code.INVALID_CHOICE,
                seat,
                Subject.SEVENTH,
            )
        else:
            self._check_seventh_choice(
                seat, Code.INVALID_CHOICE, Subject.SEVENTH, "takes no seventh card"
            )
        if self.community_due:
            raise self.fail(
                "no one chooses: the seventh card is a community card",
                Code.INVALID_CHOICE,
                seat,
                Subject.SEVENTH,
            )

    def choose_seventh(self, seat: int, up: bool) -> None:
        """Kings and Little Ones: ``seat`` takes its seventh card up or down
        (down unless chosen).

        >>> from tracker.engine.examples import seventh_street
        >>> hand = seventh_street(variant="kings_and_little_ones")
        >>> [(o.verb.value, o.seat) for o in hand.next_event().choices]
        [('choose_seventh', 0), ('choose_seventh', 1)]
        >>> hand.choose_seventh(0, True)
        >>> hand.next_face(0), hand.next_face(1)
        (<Face.UP: 'up'>, <Face.DOWN: 'down'>)
        """
        self.verify_choose_seventh(seat, up)
        self.seventh_up[seat] = up
        self._refresh_faces(seat)
        if self.observers:
            self._emit(Event(Verb.CHOOSE_SEVENTH, self.street, seat, choice="up" if up else "down"))

    # ------------------------------------------------------------------
    # A house game's deal: streets, choices, extra cards and pay rules

    def _game_street(self) -> None:
        """Set up the dealing of this street of the game's definition."""
        game = self.game
        n = self.n
        k = int(self.street)
        faces = game.streets[k].faces
        last = self.street == self.last_street
        if self.acts_on_cards:
            self.extra_due = [0] * n
        self.seventh_open = last or "choice" in faces
        if faces == ("community",) or (
            last and len(faces) == 1 and DECK_SIZE - len(game.streets) - self.dealt < self.n_in
        ):
            self.community_due = True
            self.pending = [0] * n
            self.to_deal = 1
            return
        if "choice" in faces:
            self.seventh_up = [False] * n
        if self.seventh_open or self.acts_on_cards:
            self.next_faces = [self._game_faces(i) for i in range(n)]
        else:  # the same faces for everyone, never changed on the street
            self.next_faces = [[f == "up" for f in faces]] * n
        k = len(faces)
        self.pending = [k if i else 0 for i in self.in_hand]
        self.to_deal = k * self.n_in

    def _game_faces(self, seat: int) -> list[bool]:
        """Whether each card of this street comes up for ``seat``: the definition's faces,
        the player's choice for a ``choice`` card, a bought last card turned over."""
        game = self.game
        faces = game.streets[self.street].faces
        chose = self.seventh_up[seat]
        out = [f == "up" or (f == "choice" and chose) for f in faces]
        buy = game.buy
        if buy is not None and self.street == self.last_street:
            bought = self.bought[seat]
            out[-1] = bought if buy.version == "contributed" else not bought
        return out

    def _game_choices(self) -> tuple[Option, ...]:
        """The buys (last street) and up/down choices open before the street is dealt."""
        game = self.game
        choices: list[Option] = []
        if not self.seventh_open or self.community_due:
            return ()
        buys = game.buy is not None and self.street == self.last_street
        choice = "choice" in game.streets[self.street].faces
        for i in range(self.n):
            if not self.in_hand[i]:
                continue
            if buys and not self.bought[i]:
                price = self._buy_price()
                if self.stacks[i] >= price:
                    choices.append(Option(Verb.BUY, i, price))
            elif choice:
                choices.append(Option(Verb.CHOOSE_SEVENTH, i))
        return tuple(choices)

    def _check_game_choice(self, seat: int) -> None:
        """A house game's up/down choice: on a street with a ``choice`` card, before it
        is dealt."""
        game = self.game
        if "choice" not in game.streets[self.street].faces or self.phase is not Phase.DEAL:
            raise self.fail(
                f"{game.title} deals no card of the player's choice now",
                Code.INVALID_CHOICE,
                seat,
                Subject.SEVENTH,
            )
        if not self.in_hand[seat]:
            raise self.fail(
                f"{self.label(seat)} is out of the hand and takes no card",
                Code.INVALID_CHOICE,
                seat,
                Subject.SEVENTH,
            )
        if not self.seventh_open:
            raise self.fail(
                "the up or down choices are made before the street's cards are dealt",
                Code.INVALID_CHOICE,
                seat,
                Subject.SEVENTH,
            )

    def _buy_price(self) -> int:
        """The price of a buy: the game's or the announced price, else one big bet."""
        game = self.game
        if not self.house:
            return self.rules.buy_price(self.options, self.stakes.big_bet)
        price = game.buy.price if game.buy is not None else None
        return self.stakes.big_bet if price is None else price

    def _game_dealt(self, seat: int, card: int | None, up: bool) -> None:
        """After a card of a game with extra-card or pay rules: an extra card due at once, a
        price to pay; the betting begins once every card is dealt and paid for."""
        if self.extra_due[seat]:
            self.extra_due[seat] -= 1
        if up and card is not None:
            self._card_rules(seat, (card >> 2) + 2)
        if self.paying is None and not self.to_deal:
            self._end_dealing()

    def _card_rules(self, seat: int, rank: int) -> None:
        """The extra-card and pay rules a card of ``rank`` dealt face up to ``seat`` sets off."""
        game = self.game
        for extra in game.extra_cards:
            if extra.rank == rank:
                faces = self.next_faces[seat]
                faces.insert(len(faces) - self.pending[seat], extra.face == "up")
                self.pending[seat] += 1
                self.to_deal += 1
                self.extra_due[seat] += 1
        for rule in game.pays:
            if rule.rank == rank:
                self.paying = seat
                self.pay_price = rule.price

    def _pay_amount(self, seat: int) -> int:
        """What ``seat`` pays now: the price (``pot``: the pot so far), all in if short."""
        price = self.pay_price
        amount = self.pot_total() if price == "pot" else int(price)
        return min(amount, self.stacks[seat])

    def _pay_first(self, seat: int | None) -> ProcedureError:
        """Anything while a price is due: the payer pays or folds first."""
        payer = self.paying
        assert payer is not None
        return self.fail(
            f"{self.label(payer)} pays {self._pay_amount(payer)} for the card just dealt face "
            "up, or folds, before the hand goes on",
            Code.OUT_OF_TURN,
            seat,
        )

    def verify_pay(self, seat: int) -> int:
        """Check ``seat`` paying a pay rule's price; returns the chips it puts in.

        >>> from tracker.engine.examples import baseball_three_up
        >>> hand = baseball_three_up()
        >>> hand.verify_pay(1)
        2
        >>> hand.verify_pay(0)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: p2 pays or folds for the card just dealt face up, not p1
        """
        if self.paying is None or self.paying != seat:
            if not self.game.pays:
                why = f"{self.game.title} has no pay rule"
            elif self.paying is None:
                ranks = ", ".join(_rank_name(r) for r in self.game.pays)
                why = f"{self.label(seat)} has nothing to pay: only a {ranks} dealt face up costs"
            else:
                why = (
                    f"{self.label(self.paying)} pays or folds for the card just dealt face up, "
                    f"not {self.label(seat)}"
                )
            raise self.fail(why, Code.INVALID_PAY, seat, Subject.CHIPS)
        return self._pay_amount(seat)

    def pay(self, seat: int) -> None:
        """A house game's pay rule: ``seat`` pays the price into the pot (dead money, as a
        buy is) and stays in; the dealing goes on.

        >>> from tracker.engine.examples import baseball_three_up
        >>> hand = baseball_three_up()
        >>> nxt = hand.next_event()
        >>> nxt.seat, [(o.verb.value, o.amount) for o in nxt.options]
        (1, [('pay', 2), ('fold', 0)])
        >>> hand.pay(1)
        >>> hand.buys, hand.paid, hand.next_event().phase
        ([0, 2], [0, 2], <Phase.BET: 'bet'>)
        """
        amount = self.verify_pay(seat)
        self.stacks[seat] -= amount
        self.buys[seat] += amount
        self.paid[seat] += amount
        self.paying = None
        if self.observers:
            self._emit(Event(Verb.PAY, self.street, seat, amount, all_in=not self.stacks[seat]))
        if not self.to_deal:
            self._end_dealing()

    def _fold_unpaid(self, seat: int) -> None:
        """``seat`` folds rather than pay the price: out of the hand, the dealing goes on."""
        self.paying = None
        self.to_deal -= self.pending[seat]
        self.pending[seat] = 0
        self.extra_due[seat] = 0
        self._drop(seat)
        if not self._end_if_alone() and not self.to_deal:
            self._end_dealing()

    def _drop(self, seat: int) -> None:
        """``seat`` folds: out of the hand on this street."""
        self.in_hand[seat] = False
        self.n_in -= 1
        self.folded[seat] = self.street_names[self.street]
        if self.observers:
            self._emit(Event(Verb.FOLD, self.street, seat))

    def _end_if_alone(self) -> bool:
        """The hand is over when one seat is left in it; returns whether it is."""
        if self.n_in != 1:
            return False
        self.phase = Phase.OVER
        if self.observers:
            self._emit(Event(Verb.END, self.street))
        return True

    def _game_opener(self) -> int:
        """Who acts first on this street of a house game: the bring-in on the first street
        (the definition's lowest or highest door card), then the best or lowest board."""
        game = self.game
        in_hand = self.in_hand
        aces_high = game.order_aces == "high"
        if self.street == Street.THIRD:
            if game.bring_in == "lowest" and aces_high and all(in_hand):
                # the lowest door card, aces high, clubs lowest: the card int order
                return min(range(self.n), key=self._door)
            seats = [i for i in range(self.n) if in_hand[i] and self._door(i) < 52]
            if not seats:
                return in_hand.index(True)
            return seats[bring_in_seat(game, [self._door(i) for i in seats])]
        if game.first_to_act == "best_board" and aces_high:
            opener, best = -1, None
            for i in range(self.n):
                if in_hand[i]:
                    key = up_key(self.up_cards(i))
                    if best is None or key > best:
                        best, opener = key, i
            return opener
        boards = [self.up_cards(i) if in_hand[i] else None for i in range(self.n)]
        return first_to_act(game, boards)  # type: ignore[arg-type]

    # ------------------------------------------------------------------
    # Betting

    def _start_betting(self) -> None:
        n = self.n
        in_hand = self.in_hand
        stacks = self.stacks
        self.seventh_open = False
        if sum(1 for i in range(n) if in_hand[i] and stacks[i]) <= 1:
            # Nobody left to bet against: no more betting in this hand.
            self.closed = True
            self._end_round()
            return
        opener = self._game_opener()
        order = [(opener + k) % n for k in range(n)]
        self.actors = [j for j in order if in_hand[j] and stacks[j]]
        self.max_bet = 0
        self.count = 0
        self.unit = self.stakes.big_bet if self._big_street() else self.stakes.small_bet
        self.last_inc = 0
        self.acted = set()
        self.short = []
        self.bring_in_due = self.completion_due = self.street == Street.THIRD
        self.phase = Phase.BET

    def _big_street(self) -> bool:
        """Whether this street is bet in the big bet."""
        return self.game.streets[self.street].unit == "big"

    def _door(self, i: int) -> int:
        for c, up in zip(self.cards[i], self.faces[i], strict=True):
            if up:
                return c if c is not None else 98
        return 99

    def _check_turn(self, seat: int | None) -> None:
        if self.phase is not Phase.BET:
            if self.phase is Phase.DEAL:
                if self.paying is not None:
                    raise self._pay_first(seat)
                who = [self.label(i) for i in range(self.n) if self.pending[i]]
                due = f"cards for {', '.join(who)}" if who else "the community card"
                raise self.fail(
                    f"{self.street_names[self.street]} street is not fully dealt yet: {due} first",
                    Code.OUT_OF_TURN,
                    seat,
                )
            if self.phase is Phase.OVER:
                raise self.fail("the hand is over: everyone else has folded", Code.HAND_OVER, seat)
            if self.phase is Phase.ANTES:
                raise self.fail("the antes come first", Code.OUT_OF_TURN, seat)
            raise self.fail(
                "the betting is over: only showing or mucking remains", Code.HAND_OVER, seat
            )
        if self.actors[0] != seat:
            why = "" if self.in_hand[seat] else f" ({self.label(seat)} has folded)"
            if self.in_hand[seat] and not self.stacks[seat]:
                why = f" ({self.label(seat)} is all in)"
            raise self.fail(
                f"it is {self.label(self.actors[0])}'s turn, not {self.label(seat)}'s{why}",
                Code.OUT_OF_TURN,
                seat,
            )

    def _bring_in_pending(self, seat: int) -> None:
        if self.bring_in_due:
            raise self.fail(
                f"{self.label(seat)} has the lowest door card and must bring in ('pb') or complete",
                Code.BRING_IN,
                seat,
            )

    def _put(self, seat: int, amount: int) -> None:
        self.stacks[seat] -= amount
        self.bets[seat] += amount
        if self.bets[seat] > self.max_bet:
            self.max_bet = self.bets[seat]

    def verify_bring_in(self, seat: int) -> None:
        """Check ``seat`` posting the bring-in.

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street()
        >>> hand.verify_bring_in(0)
        >>> hand.verify_bring_in(1)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: it is p1's turn, not p2's
        >>> hand.bring_in(0)
        >>> hand.verify_bring_in(1)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: no bring-in is due
        """
        self._check_turn(seat)
        if not self.bring_in_due:
            raise self.fail("no bring-in is due", Code.ILLEGAL_ACTION, seat)

    def bring_in(self, seat: int) -> None:
        """The lowest door card posts the bring-in (all in if short).

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street()
        >>> hand.next_event().seat  # p1's 2c is the lowest door card
        0
        >>> hand.bring_in(0)
        >>> hand.bets, hand.next_event().seat
        ([2, 0], 1)
        """
        self.verify_bring_in(seat)
        amount = min(self.stacks[seat], self.stakes.bring_in)
        self._put(seat, amount)
        self.bring_in_due = False
        if self.bets[seat] >= self.stakes.small_bet:
            # A bring-in of the full small bet is the bet of the round.
            self.completion_due = False
            self.count = 1
            self.last_inc = self.bets[seat]
        self.actors.pop(0)
        self.acted.add(seat)
        if self.observers:
            self._emit(
                Event(
                    Verb.BRING_IN, self.street, seat, amount, self.bets[seat],
                    all_in=not self.stacks[seat],
                )
            )  # fmt: skip
        self._after_action()

    def verify_check_or_call(self, seat: int) -> int:
        """Check a check or a call; returns the chips it puts in.

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street()
        >>> hand.verify_check_or_call(0)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: p1 has the lowest door card and must bring in ('pb') or
        complete
        >>> hand.bring_in(0)
        >>> hand.verify_check_or_call(1)
        2
        """
        self._check_turn(seat)
        self._bring_in_pending(seat)
        amount = self.max_bet - self.bets[seat]
        return amount if amount < self.stacks[seat] else self.stacks[seat]

    def check_or_call(self, seat: int) -> None:
        """PHH's ``cc``: check with nothing to call, else call (all in if short).

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street()
        >>> hand.bring_in(0)
        >>> hand.check_or_call(1)  # calls the bring-in; third street is over
        >>> hand.street, [p.amount for p in hand.pots()]
        (<Street.FOURTH: 1>, [6])
        """
        amount = self.verify_check_or_call(seat)
        self._put(seat, amount)
        self.actors.pop(0)
        self.acted.add(seat)
        if self.observers:
            verb = Verb.CALL if amount else Verb.CHECK
            self._emit(
                Event(
                    verb, self.street, seat, amount, self.bets[seat], all_in=not self.stacks[seat]
                )
            )
        self._after_action()

    def verify_check(self, seat: int) -> None:
        """Check ``seat`` checking.

        >>> from tracker.engine.examples import fourth_street
        >>> hand = fourth_street()
        >>> hand.verify_check(0)
        >>> hand.bet(0)
        >>> hand.verify_check(1)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: p2 has 5 to call and cannot check
        """
        self.verify_check_or_call(seat)
        to_call = self.max_bet - self.bets[seat]
        if to_call:
            raise self.fail(
                f"{self.label(seat)} has {to_call} to call and cannot check",
                Code.ILLEGAL_ACTION,
                seat,
            )

    def check(self, seat: int) -> None:
        """Check: nothing to call.

        >>> from tracker.engine.examples import fourth_street
        >>> hand = fourth_street()
        >>> hand.check(0); hand.check(1)
        >>> hand.street, hand.next_event().phase
        (<Street.FIFTH: 2>, <Phase.DEAL: 'deal'>)
        """
        self.verify_check(seat)
        self.check_or_call(seat)

    def verify_call(self, seat: int) -> int:
        """Check ``seat`` calling; returns the chips it puts in.

        >>> from tracker.engine.examples import deal_round, third_street
        >>> hand = third_street()
        >>> hand.bring_in(0)
        >>> hand.verify_call(1)
        2
        >>> hand.call(1)
        >>> deal_round(hand, "Ah 4d")
        >>> hand.verify_call(0)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: p1 has nothing to call and may check
        """
        amount = self.verify_check_or_call(seat)
        if self.max_bet - self.bets[seat] <= 0:
            raise self.fail(
                f"{self.label(seat)} has nothing to call and may check", Code.ILLEGAL_ACTION, seat
            )
        return amount

    def call(self, seat: int) -> None:
        """Call the bet (all in if short).

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street()
        >>> hand.bring_in(0); hand.complete(1)
        >>> hand.call(0)
        >>> hand.street, [p.to_dict() for p in hand.pots()]
        (<Street.FOURTH: 1>, [{'amount': 12, 'eligible': [0, 1]}])
        """
        self.verify_call(seat)
        self.check_or_call(seat)

    def verify_fold(self, seat: int) -> None:
        """Check ``seat`` folding.

        >>> from tracker.engine.examples import deal_round, third_street
        >>> hand = third_street()
        >>> hand.verify_fold(0)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: p1 has the lowest door card and must bring in ('pb') or
        complete
        >>> hand.bring_in(0); hand.call(1)
        >>> deal_round(hand, "Ah 4d")
        >>> hand.verify_fold(0)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: p1 has nothing to call and may check, not fold
        """
        if self.paying is not None and self.paying == seat:
            return  # folds instead of paying the price
        self._check_turn(seat)
        self._bring_in_pending(seat)
        if self.bets[seat] >= self.max_bet:
            raise self.fail(
                f"{self.label(seat)} has nothing to call and may check, not fold",
                Code.ILLEGAL_ACTION,
                seat,
            )

    def fold(self, seat: int) -> None:
        """Fold: out of the hand, chips put in stay in the pots.

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street()
        >>> hand.bring_in(0)
        >>> hand.fold(1)
        >>> hand.folded, hand.next_event().over
        ([None, 'third'], True)
        """
        self.verify_fold(seat)
        if self.paying is not None:
            self._fold_unpaid(seat)
            return
        self.in_hand[seat] = False
        self.n_in -= 1
        self.folded[seat] = self.street_names[self.street]
        self.actors.pop(0)
        self.acted.add(seat)
        if self.observers:
            self._emit(Event(Verb.FOLD, self.street, seat))
        self._after_action()

    def _bet_target(self, seat: int) -> tuple[Verb, int]:
        """The kind and size of a completion, bet or raise by ``seat`` now, or
        the error refusing any."""
        stakes = self.stakes
        bets = self.bets
        stacks = self.stacks
        max_bet = self.max_bet
        to_call = max_bet - bets[seat]
        if self.count >= MAX_BETS_PER_ROUND:
            raise self.fail(
                "the betting is capped: a bet and three raises have been made this round",
                Code.RAISE_CAP,
                seat,
            )
        if stacks[seat] <= to_call:
            raise self.fail(
                f"{self.label(seat)} has {stacks[seat]} chips, not more than the {to_call} to "
                "call: they may call (all in) or fold",
                Code.BET_SIZE,
                seat,
            )
        if not any(
            i != seat and self.in_hand[i] and stacks[i] + bets[i] > max_bet for i in range(self.n)
        ):
            raise self.fail(
                "everyone else still in is all in: there is nobody to bet against",
                Code.ILLEGAL_ACTION,
                seat,
            )
        if self.short and sum(self.short) < self.last_inc and seat in self.acted:
            who = self.label(seat)
            raise self.fail(
                f"{who} has acted and the all-in since then was less than a full raise: "
                f"it does not reopen the betting, {who} may only call or fold",
                Code.REOPEN,
                seat,
            )
        if self.completion_due:
            verb, full = Verb.COMPLETE, stakes.small_bet
        elif max_bet == 0:
            verb, full = Verb.BET, self.unit
        else:
            verb, full = Verb.RAISE, max_bet + self.unit
        most = stacks[seat] + bets[seat]
        return verb, (full if full <= most else most)

    def verify_complete_bet_or_raise(self, seat: int, to: int | None = None) -> tuple[Verb, int]:
        """Check a completion, bet or raise to ``to`` chips (the seat's bet on
        the street afterwards; None: the legal size). Returns (verb, to).

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street()
        >>> hand.bring_in(0)
        >>> hand.verify_complete_bet_or_raise(1)
        (<Verb.COMPLETE: 'complete'>, 5)
        >>> hand.verify_complete_bet_or_raise(1, 10)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: the completion is to the small bet (5), not 10
        >>> hand.complete(1); hand.raise_to(0); hand.raise_to(1); hand.raise_to(0)
        >>> hand.verify_complete_bet_or_raise(1)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: the betting is capped: a bet and three raises have been
        made this round
        """
        self._check_turn(seat)
        verb, target = self._bet_target(seat)
        if to is not None and to != target:
            max_bet = self.max_bet
            if verb is Verb.COMPLETE:
                full = self.stakes.small_bet
                what = f"the completion is to the small bet ({full})"
            elif verb is Verb.BET:
                full = self.unit
                size = "small" if not self._big_street() else "big"
                what = f"a bet is one {size} bet ({full})"
            else:
                full = max_bet + self.unit
                what = f"a raise is to {max_bet} + {self.unit} = {full}"
            if target < full:
                what += f"; {self.label(seat)} has only enough for {target} (all in)"
            raise self.fail(f"{what}, not {to}", Code.BET_SIZE, seat)
        return verb, target

    def complete_bet_or_raise(self, seat: int, to: int | None = None) -> None:
        """PHH's ``cbr``: complete, bet or raise, whichever the moment calls for,
        to ``to`` chips (checked against the legal size; None: that size).

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street()
        >>> hand.bring_in(0)
        >>> hand.complete_bet_or_raise(1, 5)  # a completion
        >>> hand.complete_bet_or_raise(0)  # a raise, to the legal size
        >>> hand.bets
        [10, 5]
        """
        verb, target = self.verify_complete_bet_or_raise(seat, to)
        self._raise(seat, verb, target)

    def _verify_kind(self, seat: int, to: int | None, kind: Verb) -> int:
        verb, target = self.verify_complete_bet_or_raise(seat, to)
        if verb is not kind:
            raise self.fail(
                f"{self.label(seat)} cannot {kind.value} now: the moment calls for a "
                f"{verb.value} (to {target})",
                Code.ILLEGAL_ACTION,
                seat,
            )
        return target

    def verify_complete(self, seat: int, to: int | None = None) -> int:
        """Check ``seat`` completing the bring-in; returns the seat's bet afterwards.

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street()
        >>> hand.bring_in(0)
        >>> hand.verify_complete(1)
        5
        >>> hand.verify_complete(1, 4)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: the completion is to the small bet (5), not 4
        """
        return self._verify_kind(seat, to, Verb.COMPLETE)

    def complete(self, seat: int, to: int | None = None) -> None:
        """Third street: complete the bring-in to the small bet.

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street()
        >>> hand.bring_in(0)
        >>> hand.complete(1)
        >>> hand.bets, [(o.verb.value, o.to) for o in hand.next_event().options]
        ([2, 5], [('fold', 0), ('call', 5), ('raise', 10)])
        """
        self._raise(seat, Verb.COMPLETE, self.verify_complete(seat, to))

    def verify_bet(self, seat: int, to: int | None = None) -> int:
        """Check ``seat`` betting; returns the seat's bet afterwards.

        >>> from tracker.engine.examples import deal_round, third_street
        >>> hand = third_street()
        >>> hand.verify_bet(0)  # third street has a completion, not a bet
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: p1 cannot bet now: the moment calls for a complete (to
        5)
        >>> hand.bring_in(0); hand.call(1)
        >>> deal_round(hand, "Ah 4d")
        >>> hand.verify_bet(0)
        5
        """
        return self._verify_kind(seat, to, Verb.BET)

    def bet(self, seat: int, to: int | None = None) -> None:
        """Bet one unit of the street.

        >>> from tracker.engine.examples import fourth_street
        >>> hand = fourth_street()
        >>> hand.next_event().seat  # the ace leads
        0
        >>> hand.bet(0)
        >>> hand.bets, hand.next_event().seat
        ([5, 0], 1)
        """
        self._raise(seat, Verb.BET, self.verify_bet(seat, to))

    def verify_raise_to(self, seat: int, to: int | None = None) -> int:
        """Check ``seat`` raising; returns the seat's bet afterwards.

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street()
        >>> hand.bring_in(0); hand.complete(1)
        >>> hand.verify_raise_to(0)
        10
        >>> hand.verify_raise_to(0, 12)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: a raise is to 5 + 5 = 10, not 12
        """
        return self._verify_kind(seat, to, Verb.RAISE)

    def raise_to(self, seat: int, to: int | None = None) -> None:
        """Raise by one unit of the street (all in if short).

        >>> from tracker.engine.examples import third_street
        >>> hand = third_street()
        >>> hand.bring_in(0); hand.complete(1)
        >>> hand.raise_to(0)
        >>> hand.bets, [(o.verb.value, o.to) for o in hand.next_event().options]
        ([10, 5], [('fold', 0), ('call', 10), ('raise', 15)])
        """
        self._raise(seat, Verb.RAISE, self.verify_raise_to(seat, to))

    def _raise(self, seat: int, verb: Verb, amount: int) -> None:
        bets = self.bets
        stacks = self.stacks
        increment = amount - self.max_bet
        put = amount - bets[seat]
        self._put(seat, put)
        n = self.n
        in_hand = self.in_hand
        self.actors = [j % n for j in range(seat + 1, seat + n) if in_hand[j % n] and stacks[j % n]]
        if increment >= self.last_inc:
            self.acted = {seat}
        else:
            self.acted.add(seat)
        if increment > self.last_inc:
            self.last_inc = increment
        self.count += 1
        if stacks[seat]:
            self.short.clear()
        else:
            self.short.append(increment)
            if sum(self.short) >= self.last_inc:
                self.short.clear()
        self.bring_in_due = self.completion_due = False
        if self.observers:
            self._emit(Event(verb, self.street, seat, put, amount, all_in=not stacks[seat]))
        self._after_action()

    def _after_action(self) -> None:
        if self.n_in == 1 or not self.actors:
            self._end_round()

    def _end_round(self) -> None:
        bets = self.bets
        live = self.live
        totals = [live[i] + bets[i] for i in range(self.n)]
        top = max(totals)
        second = sorted(totals)[-2]
        if top > second:
            # What nobody matched goes back: the uncalled part of a bet, or of an
            # ante bigger than every other stack (no pot holds one player's chips only).
            p = totals.index(top)
            excess = top - second
            from_bets = min(excess, bets[p])
            bets[p] -= from_bets
            live[p] -= excess - from_bets
            self.stacks[p] += excess
            self.returned[p] += excess
            if self.observers:
                self._emit(Event(Verb.RETURN, self.street, p, excess))
        if self.max_bet:
            for i in range(self.n):
                live[i] += bets[i]
                bets[i] = 0
        self.max_bet = 0
        self.actors = []
        if self.n_in == 1:
            self.phase = Phase.OVER
            if self.observers:
                self._emit(Event(Verb.END, self.street))
            return
        if (
            not self.closed
            and sum(1 for i in range(self.n) if self.in_hand[i] and self.stacks[i]) <= 1
        ):
            self.closed = True
        self._next_street()

    # ------------------------------------------------------------------
    # Results entry: the chips without the betting (refused here; a
    # :class:`tracker.engine.results.ResultsHand` takes them)

    def verify_end_betting(self) -> None:
        """A hand played out has no end of betting by hand.

        >>> from tracker.engine.examples import new_hand
        >>> new_hand().verify_end_betting()
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: the betting ends by itself when everyone has acted
        """
        raise self.fail("the betting ends by itself when everyone has acted", Code.ILLEGAL_ACTION)

    def end_betting(self) -> None:
        """Refused (:meth:`verify_end_betting`)."""
        self.verify_end_betting()

    def verify_contribute(self, seat: int, amount: int) -> None:
        """A hand played out puts chips in by its betting actions.

        >>> from tracker.engine.examples import new_hand
        >>> new_hand().verify_contribute(0, 5)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: chips go in by betting actions in a hand played out
        """
        raise self.fail(
            "chips go in by betting actions in a hand played out", Code.ILLEGAL_ACTION, seat
        )

    def contribute(self, seat: int, amount: int) -> None:
        """Refused (:meth:`verify_contribute`)."""
        self.verify_contribute(seat, amount)

    def verify_return_uncalled(self, seat: int, amount: int) -> None:
        """A hand played out returns uncalled chips by itself."""
        raise self.fail(
            "uncalled chips go back by themselves at the end of a betting round",
            Code.ILLEGAL_ACTION,
            seat,
        )

    def return_uncalled(self, seat: int, amount: int) -> None:
        """Refused (:meth:`verify_return_uncalled`)."""
        self.verify_return_uncalled(seat, amount)

    # ------------------------------------------------------------------
    # Showdown

    def _check_showing(self, seat: int) -> None:
        phase = self.phase
        if not (
            phase is Phase.SHOWDOWN or phase is Phase.OVER or (self.closed and phase is Phase.DEAL)
        ):
            raise self.fail(
                "cards are shown or mucked only once the betting is over", Code.OUT_OF_TURN, seat
            )
        if not self.in_hand[seat]:
            raise self.fail(f"{self.label(seat)} is out of the hand", Code.ILLEGAL_ACTION, seat)

    def verify_muck(self, seat: int) -> None:
        """Check ``seat`` mucking at the showdown.

        >>> from tracker.engine.examples import all_in_showdown
        >>> hand = all_in_showdown()
        >>> hand.verify_muck(1)
        >>> hand.muck(1)
        >>> hand.verify_muck(0)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: everyone else has mucked: p1 must show to win
        """
        self._check_showing(seat)
        if self.phase is Phase.OVER:
            raise self.fail(
                f"{self.label(seat)} has won the pot uncontested: nothing to muck",
                Code.ILLEGAL_ACTION,
                seat,
            )
        if self.n_in == 1:
            raise self.fail(
                f"everyone else has mucked: {self.label(seat)} must show to win",
                Code.ILLEGAL_ACTION,
                seat,
            )
        if "showdown" in self.folded:
            # Two who mucked must not be left as the only contenders of a pot.
            in_hand = list(self.in_hand)
            in_hand[seat] = False
            folded = list(self.folded)
            folded[seat] = "showdown"
            live = [self.live[i] + self.bets[i] for i in range(self.n)]
            for pot in self._pots(live, in_hand, folded):
                if seat in pot.eligible and len(pot.eligible) > 1:
                    if not any(in_hand[s] for s in pot.eligible):
                        others = ", ".join(self.label(s) for s in pot.eligible if s != seat)
                        raise self.fail(
                            f"{self.label(seat)} and {others} mucked: nobody else can win "
                            "a pot they contest, so one of them must show",
                            Code.ILLEGAL_ACTION,
                            seat,
                        )

    def muck(self, seat: int) -> None:
        """Give up the hand at the showdown (not a fold: the seat reached it).

        >>> from tracker.engine.examples import all_in_showdown
        >>> hand = all_in_showdown()
        >>> hand.next_event().showdown
        (0, 1)
        >>> hand.muck(1)
        >>> hand.folded, hand.settle().finishing_stacks
        ([None, 'showdown'], [103, 0])
        """
        self.verify_muck(seat)
        self.in_hand[seat] = False
        self.n_in -= 1
        self.folded[seat] = "showdown"
        if self.phase is Phase.DEAL:
            self.pending[seat] = 0
        if self.observers:
            self._emit(Event(Verb.MUCK, self.street, seat))
        if self.phase is Phase.DEAL:
            if self.n_in == 1:
                self.phase = Phase.OVER
                if self.observers:
                    self._emit(Event(Verb.END, self.street))
            elif not self.community_due:
                self.to_deal = sum(self.pending)
                if not self.to_deal:
                    self._end_dealing()

    def verify_show(self, seat: int, cards: Sequence[int | None] | None = None) -> list[int]:
        """Check showing ``cards`` (all the seat's cards in the order dealt, or
        just the face-down ones; None: show the cards already known). Returns
        the positions the cards fill.

        >>> from tracker.engine.cards import parse_card as c
        >>> from tracker.engine.examples import all_in_showdown
        >>> hand = all_in_showdown(seen=False)
        >>> hand.verify_show(1, [c("Qh"), c("Qd"), c("8s")])  # p2's face-down cards
        [0, 1, 6]
        >>> hand.verify_show(1)
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: p2's cards are not all known: show them card by card
        >>> hand.verify_show(1, [c("Qh")])
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: p2 holds 7 cards (3 face down): show all of them in the
        order dealt, or just the face-down ones
        """
        self._check_showing(seat)
        held = self.cards[seat]
        if cards is None:
            if None in held:
                raise self.fail(
                    f"{self.label(seat)}'s cards are not all known: show them card by card",
                    Code.UNKNOWN_CARD,
                    seat,
                    Subject.CARDS,
                )
            return []
        if len(cards) == len(held):
            positions = list(range(len(held)))
        else:
            positions = [k for k, up in enumerate(self.faces[seat]) if not up]
            if len(cards) != len(positions):
                raise self.fail(
                    f"{self.label(seat)} holds {len(held)} cards ({len(positions)} face down): "
                    "show all of them in the order dealt, or just the face-down ones",
                    Code.INVALID_SHOW,
                    seat,
                    Subject.CARDS,
                )
        fresh: set[int] = set()
        for pos, card in zip(positions, cards, strict=True):
            if card is None:
                raise self.fail(
                    "a shown card cannot be unknown ('??')", Code.UNKNOWN_CARD, seat, Subject.CARDS
                )
            was = held[pos]
            if was is None:
                if card in self.known or card in fresh:
                    raise self.fail(
                        f"{format_card(card)} has already been dealt",
                        Code.DUPLICATE_CARD,
                        seat,
                        Subject.CARDS,
                    )
                fresh.add(card)
            elif was != card:
                raise self.fail(
                    f"{self.label(seat)}'s card {pos + 1} was dealt as {format_card(was)}, not "
                    f"{format_card(card)}",
                    Code.INVALID_SHOW,
                    seat,
                    Subject.CARDS,
                )
        return positions

    def show(self, seat: int, cards: Sequence[int | None] | None = None) -> None:
        """Show the hand (see :meth:`verify_show` for ``cards``).

        >>> from tracker.engine.cards import parse_card as c
        >>> from tracker.engine.examples import all_in_showdown
        >>> hand = all_in_showdown(seen=False)
        >>> hand.show(0)  # every card of p1's is known
        >>> hand.show(1, [c("Qh"), c("Qd"), c("8s")])  # p2's face-down cards
        >>> hand.showdown_hands()[1]
        {'down': ['Qh', 'Qd', '8s'], 'up': ['3c', '4d', '5d', '6d']}
        """
        positions = self.verify_show(seat, cards)
        held = self.cards[seat]
        for pos, card in zip(positions, cards or (), strict=True):
            if held[pos] is None:
                self.known.add(card)  # type: ignore[arg-type]
                held[pos] = card
        self.shown[seat] = True
        if self.observers:
            self._emit(Event(Verb.SHOW, self.street, seat, cards=tuple(held)))

    def verify_declare(self, seat: int, choice: str) -> None:
        """Check ``seat`` declaring high, low or both.

        >>> from tracker.engine.examples import declare_showdown, new_hand
        >>> hand = declare_showdown()
        >>> hand.verify_declare(0, "high")
        >>> hand.verify_declare(0, "hi")
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: 'hi' is not one of high, low, both
        >>> hand = new_hand()
        >>> hand.verify_declare(0, "high")
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: players declare only in a high-low game announced with
        declaration 'declare'
        """
        if not self.declares:
            raise self.fail(
                "players declare only in a high-low game announced with declaration 'declare'",
                Code.DECLARATION,
                seat,
                Subject.DECLARATION,
            )
        if choice not in ("high", "low", "both"):
            raise self.fail(
                f"{choice!r} is not one of high, low, both", Code.DECLARATION, seat,
                Subject.DECLARATION,
            )  # fmt: skip
        if self.phase is not Phase.SHOWDOWN and self.phase is not Phase.OVER:
            raise self.fail(
                "players declare at the showdown, once the betting is over",
                Code.DECLARATION,
                seat,
                Subject.DECLARATION,
            )
        if seat not in self.at_showdown:
            raise self.fail(
                f"{self.label(seat)} did not reach the showdown and cannot declare",
                Code.DECLARATION,
                seat,
                Subject.DECLARATION,
            )

    def declare(self, seat: int, choice: str) -> None:
        """A declare game: ``seat`` at the showdown declares high, low or both.

        >>> from tracker.engine.examples import declare_showdown
        >>> hand = declare_showdown()
        >>> hand.declare(0, "high"); hand.declare(1, "low")
        >>> hand.showdown_hands()[1]["declare"], hand.settle().finishing_stacks
        ('low', [100, 3])
        """
        self.verify_declare(seat, choice)
        self.declarations[seat] = choice
        if self.observers:
            self._emit(Event(Verb.DECLARE, self.street, seat, choice=choice))

    # ------------------------------------------------------------------
    # The end

    def verify_over(self) -> None:
        """Check no more dealing or betting is due (the hand reached its end)."""
        if self.phase is Phase.DEAL or self.phase is Phase.ANTES:
            if self.phase is Phase.ANTES:
                due = "the antes"
            elif self.community_due:
                due = "the community card"
            else:
                due = "cards for " + ", ".join(
                    self.label(i) for i in range(self.n) if self.pending[i]
                )
            raise self.fail(
                f"the hand is incomplete: {self.street_names[self.street]} street still needs {due}",
                Code.INCOMPLETE_HAND,
            )
        if self.phase is Phase.BET:
            raise self._incomplete_betting()

    def _incomplete_betting(self) -> ProcedureError:
        """The hand ends while a street is bet: someone is still to act."""
        return self.fail(
            f"the hand is incomplete: {self.label(self.actors[0])} is to act on "
            f"{self.street_names[self.street]} street",
            Code.INCOMPLETE_HAND,
        )

    def verify_complete_hand(self) -> None:
        """Check the hand is over and every showdown hand is known and declared."""
        self.verify_over()
        if self.n_in < 2:
            return
        for i in range(self.n):
            if not self.in_hand[i]:
                continue
            if None in self.cards[i]:
                raise self.fail(
                    f"{self.label(i)} reached the showdown but not all their cards are known: "
                    f"show them ('{self.label(i)} sm cards')",
                    Code.UNKNOWN_CARD,
                    i,
                    Subject.CARDS,
                )
            if self.declarations[i] is None and self.declares:
                raise self.fail(
                    f"{self.label(i)} must declare high, low or both",
                    Code.DECLARATION,
                    i,
                    Subject.DECLARATION,
                )

    def showdown_hands(self) -> dict[int, dict]:
        """The cards of every seat still in at a showdown (empty without one)."""
        hands: dict[int, dict] = {}
        if self.n_in >= 2:
            for i in range(self.n):
                if self.in_hand[i]:
                    pairs = list(zip(self.cards[i], self.faces[i], strict=True))
                    entry: dict[str, Any] = {
                        "down": [format_card(c) for c, up in pairs if not up],  # type: ignore[arg-type]
                        "up": [format_card(c) for c, up in pairs if up],  # type: ignore[arg-type]
                    }
                    if self.declarations[i] is not None:
                        entry["declare"] = self.declarations[i]
                    hands[i] = entry
        return hands

    def settle(
        self, *, evaluate: Evaluate | None = None, warnings: Sequence[str] = ()
    ) -> HandResult:
        """Check the hand is complete, then pay every pot (the hand-value engine
        reads the showdown; ``evaluate`` replaces it). Chips are conserved exactly.

        >>> from tracker.engine.examples import all_in_showdown, new_hand
        >>> hand = all_in_showdown()
        >>> result = hand.settle()
        >>> [p.to_dict() for p in result.pots], result.showdown["high_winners"]
        ([{'amount': 6, 'eligible': [0, 1]}], [0])
        >>> result.winnings, result.finishing_stacks
        ([6, 0], [103, 0])
        >>> hand = new_hand()
        >>> hand.settle()
        Traceback (most recent call last):
        ...
        tracker.engine.stud.ProcedureError: the hand is incomplete: third street still needs the
        antes
        """
        self.verify_complete_hand()
        n = self.n
        pots = self._pots(self.live, self.in_hand, self.folded)
        community = format_card(self.community) if self.community is not None else None
        if self.house:
            from .game_settle import settle_game_pots

            settlement = settle_game_pots(
                pots,
                n_players=n,
                game=self.game,
                hands=self.showdown_hands(),
                community=community,
                up_order=[format_card(c) for c in self.up_order if c is not None],
                evaluate=evaluate,
            )
        else:
            settlement = settle_pots(
                pots,
                n_players=n,
                variant=self.variant,
                options=self.options,
                hands=self.showdown_hands(),
                community=community,
                evaluate=evaluate,
            )
        starting = self.starting
        finishing = [self.stacks[i] + settlement.winnings[i] for i in range(n)]
        contributions = [self.live[i] + self.buys[i] for i in range(n)]
        if sum(finishing) != sum(starting) or sum(p.amount for p in pots) != sum(contributions):
            raise AssertionError(
                f"chips not conserved: started {sum(starting)}, finished {sum(finishing)}, "
                f"pots {sum(p.amount for p in pots)}, contributions {sum(contributions)}"
            )
        if any(
            finishing[i] != starting[i] - contributions[i] + settlement.winnings[i]
            for i in range(n)
        ):
            raise AssertionError("finishing stacks do not match contributions and winnings")
        return HandResult(
            variant=self.variant,
            options=self.options,
            stakes=self.stakes,
            starting_stacks=list(starting),
            antes=list(self.antes),
            buys=list(self.buys),
            returned=list(self.returned),
            contributions=contributions,
            folded=list(self.folded),
            community=community,
            pots=pots,
            showdown=settlement.showdown,
            payouts=settlement.payouts,
            winnings=settlement.winnings,
            finishing_stacks=finishing,
            warnings=list(warnings),
            game=self.game if self.house else None,
            paid=list(self.paid) if self.house else None,
        )


def _bet_target(hand: StudHand, event: Any) -> tuple[Verb, int]:
    """The verb and size of a completion, bet or raise event, checked by its companion."""
    cls = type(event)
    if cls is CompleteBetOrRaise:
        return hand.verify_complete_bet_or_raise(event.seat, event.to)
    verb = _BET_VERB[cls]
    return verb, hand._verify_kind(event.seat, event.to, verb)


def _bet_play(hand: StudHand, event: Any) -> Any:
    verb, to = _bet_target(hand, event)
    hand._raise(event.seat, verb, to)
    return event if event.to == to else type(event)(event.seat, to)


def _bet_check(hand: StudHand, event: Any) -> Any:
    _, to = _bet_target(hand, event)
    return event if event.to == to else type(event)(event.seat, to)


_BET_VERB = {Complete: Verb.COMPLETE, Bet: Verb.BET, RaiseTo: Verb.RAISE}


def _seat_verb(do: Callable[[StudHand, int], None]) -> Callable[[StudHand, Any], Any]:
    def play(hand: StudHand, event: Any) -> Any:
        do(hand, event.seat)
        return event

    return play


def _seat_check(verify: Callable[..., Any]) -> Callable[[StudHand, Any], Any]:
    def check(hand: StudHand, event: Any) -> Any:
        verify(hand, event.seat)
        return event

    return check


def _played(do: Callable[..., None], *fields: str) -> Callable[[StudHand, Any], Any]:
    """The verb ``do`` played with the event's ``fields`` (none, one or two: a closure each,
    so that no field list is walked per event)."""
    if not fields:

        def play(hand: StudHand, event: Any) -> Any:
            do(hand)
            return event

    elif len(fields) == 1:
        (first,) = fields

        def play(hand: StudHand, event: Any) -> Any:
            do(hand, getattr(event, first))
            return event

    else:
        first, second = fields

        def play(hand: StudHand, event: Any) -> Any:
            do(hand, getattr(event, first), getattr(event, second))
            return event

    return play


def _event_tables(cls: type[StudHand]) -> tuple[dict, dict]:
    """How each event type is played, and checked, by ``cls``'s verb and ``verify_``
    companion (a subclass's overrides included)."""
    play: dict[type, Callable[[StudHand, Any], Any]] = {
        PostAntes: _played(cls.post_antes),
        DealHole: _played(cls.deal_cards, "seat", "cards"),
        DealBoard: _played(cls.deal_community, "card"),
        BringIn: _seat_verb(cls.bring_in),
        **dict.fromkeys(BET_EVENTS, _bet_play),
        Call: _seat_verb(cls.call),
        Check: _seat_verb(cls.check),
        CheckOrCall: _seat_verb(cls.check_or_call),
        Fold: _seat_verb(cls.fold),
        Buy: _seat_verb(cls.buy),
        Pay: _seat_verb(cls.pay),
        ChooseSeventh: _played(cls.choose_seventh, "seat", "up"),
        Show: _played(cls.show, "seat", "cards"),
        Muck: _seat_verb(cls.muck),
        Declare: _played(cls.declare, "seat", "choice"),
        Contribute: _played(cls.contribute, "seat", "amount"),
        ReturnUncalled: _played(cls.return_uncalled, "seat", "amount"),
        EndBetting: _played(cls.end_betting),
    }
    check: dict[type, Callable[[StudHand, Any], Any]] = {
        PostAntes: _played(cls.verify_post_antes),
        DealHole: _played(cls.verify_deal_cards, "seat", "cards"),
        DealBoard: _played(cls.verify_deal_community, "card"),
        BringIn: _seat_check(cls.verify_bring_in),
        **dict.fromkeys(BET_EVENTS, _bet_check),
        Call: _seat_check(cls.verify_call),
        Check: _seat_check(cls.verify_check),
        CheckOrCall: _seat_check(cls.verify_check_or_call),
        Fold: _seat_check(cls.verify_fold),
        Buy: _seat_check(cls.verify_buy),
        Pay: _seat_check(cls.verify_pay),
        ChooseSeventh: _played(cls.verify_choose_seventh, "seat", "up"),
        Show: _played(cls.verify_show, "seat", "cards"),
        Muck: _seat_check(cls.verify_muck),
        Declare: _played(cls.verify_declare, "seat", "choice"),
        Contribute: _played(cls.verify_contribute, "seat", "amount"),
        ReturnUncalled: _played(cls.verify_return_uncalled, "seat", "amount"),
        EndBetting: _played(cls.verify_end_betting),
    }
    return play, check


StudHand._APPLY, StudHand._VERIFY = _event_tables(StudHand)
