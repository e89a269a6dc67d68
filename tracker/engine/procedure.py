"""The seven-card stud procedure: replay a hand, check it, and settle it.

Two ways in, one settlement:

* :func:`replay_hand` takes a full hand history -- the PHH fields (``variant
  = "F7S"``, ``antes``, ``bring_in``, ``small_bet``, ``big_bet``,
  ``starting_stacks``, ``actions``) plus our ``_`` fields (``_variant``,
  ``_options``, ``_seventh_card``, ``_buys``, ``_declarations``) -- replays
  every event against the rules of RULES.md and either accepts it or
  raises :class:`ProcedureError` at the first event at fault.
* :func:`settle_quick` takes a quick-entry record (chips each seat put in,
  who folded on which street, the cards shown) and checks what can be
  checked without the action history.

Both return a :class:`HandResult`: contributions, main and side pots, the
showdown reading of the hand-value engine, the payout of every pot and the
finishing stacks. Chips are conserved exactly (checked on every hand).

Seats are indices in clockwise order from the dealer's left: index 0 sits
left of the dealer, the dealer is the last index (PHH's ``p1`` is index 0).
docs/procedure.md states every rule the replay applies.

>>> result = replay_hand({
...     "variant": "F7S", "antes": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10,
...     "starting_stacks": [100, 100],
...     "actions": ["d dh p1 AsKs2c", "d dh p2 QhQd3c", "p1 pb", "p2 f"],
... })
>>> result.finishing_stacks, [p.to_dict() for p in result.pots]  # the bring-in went uncalled
([101, 99], [{'amount': 2, 'eligible': [0]}])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .announcements import check_variant, normalize_announcements, options_from_text
from .announcements import max_players as variant_max_players
from .cards import format_card, parse_card
from .errors import DomainError
from .pots import Evaluate, Pot, PotAward, build_pots, settle_pots
from .stakes import Stakes, chip_amount

__all__ = [
    "STREETS",
    "HandResult",
    "ProcedureError",
    "replay_hand",
    "settle_quick",
]

STREETS = ("third", "fourth", "fifth", "sixth", "seventh")
DECK_SIZE = 52
BURNS = 5  # one card is burned before each of the five streets
MAX_BETS_PER_ROUND = 4  # a bet (the completion on third street) and three raises

PHH_VARIANT = "F7S"
PHH_REQUIRED = (
    "variant",
    "antes",
    "bring_in",
    "small_bet",
    "big_bet",
    "starting_stacks",
    "actions",
)
PHH_OPTIONAL = frozenset(
    (
        "author event url venue address city region postal_code country time time_zone "
        "time_zone_abbreviation day month year hand level seats seat_count table players "
        "finishing_stacks winnings currency currency_symbol ante_trimming_status time_limit "
        "time_banks"
    ).split()
)
OUR_FIELDS = ("_variant", "_options", "_seventh_card", "_buys", "_declarations")

# Two-character card codes of PHH, any case; None is the unknown card "??".
_CODES: dict[str, int | None] = {"??": None}
for _c in range(52):
    _t = format_card(_c)
    for _r in {_t[0].upper(), _t[0].lower()}:
        for _s in {_t[1].upper(), _t[1].lower()}:
            _CODES[_r + _s] = _c
del _c, _t, _r, _s

_DEAL, _BET, _SHOWDOWN, _OVER = range(4)


class ProcedureError(DomainError):
    """A hand refused by the replay, located at the action at fault.

    ``action_index`` is the 0-based index in ``actions`` (``len(actions)``
    when the history stops before the hand is over), ``action`` its text;
    ``hand`` and ``source`` are filled in by callers that read many hands
    (a .phhs file). ``str(err)`` gives the full located message.
    """

    code = "illegal_action"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        field: str | None = None,
        action_index: int | None = None,
        action: str | None = None,
        hand: str | int | None = None,
        source: str | None = None,
    ) -> None:
        if field is None and action_index is not None:
            field = f"actions[{action_index}]"
        super().__init__(message, code=code, field=field)
        self.field = field
        self.action_index = action_index
        self.action = action
        self.hand = hand
        self.source = source

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

    def to_dict(self) -> dict:
        """JSON-ready output."""
        return {
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


# --------------------------------------------------------------------------
# Reading the hand spec


def _field_error(message: str, field: str, code: str = "invalid_hand") -> ProcedureError:
    return ProcedureError(message, code=code, field=field)


def _per_player(value: Any, n: int, name: str) -> list:
    if not isinstance(value, (list, tuple)):
        raise _field_error(f"must be a list with one entry per player ({n})", name)
    if len(value) != n:
        raise _field_error(
            f"has {len(value)} entries but there are {n} players (starting_stacks)", name
        )
    return list(value)


def _choices(value: Any, n: int, name: str, allowed: tuple[str, ...]) -> list[str | None]:
    """A per-player list of choices; null or "" (TOML has no null) means none."""
    if value is None:
        return [None] * n
    out: list[str | None] = []
    for i, item in enumerate(_per_player(value, n, name)):
        if item is None or item == "":
            out.append(None)
        elif isinstance(item, str) and item.lower() in allowed:
            out.append(item.lower())
        else:
            raise _field_error(
                f"{item!r} is not one of {', '.join(allowed)} (or null)", f"{name}[{i}]"
            )
    return out


def _flags(value: Any, n: int, name: str) -> list[bool]:
    if value is None:
        return [False] * n
    out = []
    for i, item in enumerate(_per_player(value, n, name)):
        if not isinstance(item, bool):
            raise _field_error(f"must be true or false, not {item!r}", f"{name}[{i}]")
        out.append(item)
    return out


@dataclass
class _Spec:
    variant: str
    options: dict
    stakes: Stakes
    stacks: list[int]
    actions: list[str]
    seventh: list[str | None]
    buys: list[bool]
    declarations: list[str | None]
    warnings: list[str]


def _read_spec(hand: Mapping[str, Any], max_players: int | None) -> _Spec:
    if not isinstance(hand, Mapping):
        raise ProcedureError("a hand must be a table of PHH fields", code="invalid_hand")
    warnings: list[str] = []
    for key in hand:
        if key in PHH_REQUIRED or key in PHH_OPTIONAL or key in OUR_FIELDS:
            continue
        if isinstance(key, str) and key.startswith("_"):
            warnings.append(f"user-defined field {key!r} is not ours and was ignored")
        elif key in ("blinds_or_straddles", "min_bet"):
            raise _field_error("is not a field of fixed-limit seven-card stud (F7S)", key)
        else:
            raise _field_error(
                "is not a PHH field (user-defined fields start with '_')",
                str(key),
                "unknown_field",
            )
    missing = [k for k in PHH_REQUIRED if k not in hand]
    if missing:
        raise _field_error(f"missing required field(s): {', '.join(missing)}", missing[0])
    if hand["variant"] != PHH_VARIANT:
        raise _field_error(
            f"must be {PHH_VARIANT!r} (fixed-limit seven-card stud): our wild variants keep "
            f"{PHH_VARIANT!r} and name themselves in _variant",
            "variant",
            "invalid_variant",
        )
    if hand.get("ante_trimming_status", False) is not False:
        raise _field_error("must be false: antes are never trimmed", "ante_trimming_status")
    variant = hand.get("_variant") or "seven_card_stud"
    try:
        check_variant(variant, "_variant")
    except DomainError as exc:
        raise _field_error(exc.message, "_variant", exc.code) from None
    raw_options = hand.get("_options")
    if raw_options is not None and not isinstance(raw_options, Mapping):
        raise _field_error("must be a table of announcements", "_options")
    options = normalize_announcements(
        variant,
        options_from_text(raw_options or {}),
        field="_options",
    )

    stacks_raw = hand["starting_stacks"]
    if not isinstance(stacks_raw, (list, tuple)):
        raise _field_error("must be a list of chip counts, one per player", "starting_stacks")
    n = len(stacks_raw)
    limit = max_players if max_players is not None else variant_max_players(variant)
    if n < 2 or n > limit:
        raise _field_error(
            f"{variant} is dealt to 2 to {limit} players, not {n}",
            "starting_stacks",
            "player_count",
        )
    stacks = [chip_amount(s, f"starting_stacks[{i}]", minimum=1) for i, s in enumerate(stacks_raw)]

    antes_raw = hand["antes"]
    if isinstance(antes_raw, (list, tuple)):
        antes = [
            chip_amount(a, f"antes[{i}]") for i, a in enumerate(_per_player(antes_raw, n, "antes"))
        ]
        if len(set(antes)) > 1:
            raise _field_error("every player antes the same amount", "antes")
        ante = antes[0]
    else:
        ante = chip_amount(antes_raw, "antes")
    stakes = Stakes(ante, hand["bring_in"], hand["small_bet"], hand["big_bet"])

    actions = hand["actions"]
    if not isinstance(actions, (list, tuple)) or not all(isinstance(a, str) for a in actions):
        raise _field_error("must be a list of action strings", "actions")

    seventh = _choices(hand.get("_seventh_card"), n, "_seventh_card", ("up", "down"))
    if variant != "kings_and_little_ones" and any(seventh):
        raise _field_error(
            "only Kings and Little Ones lets players choose the seventh card up or down",
            "_seventh_card",
        )
    buys = _flags(hand.get("_buys"), n, "_buys")
    if variant != "low_hold" and any(buys):
        raise _field_error("only Low Hold has buys", "_buys")
    declarations = _choices(hand.get("_declarations"), n, "_declarations", ("high", "low", "both"))
    if not _declaring(options) and any(declarations):
        raise _field_error(
            "players declare only in a high-low game announced with declaration 'declare'",
            "_declarations",
        )
    return _Spec(
        variant, options, stakes, stacks, list(actions), seventh, buys, declarations, warnings
    )


def _declaring(options: Mapping[str, Any]) -> bool:
    return options.get("declaration") == "declare" and options.get("game") == "high_low"


def _parse_cards(text: str) -> list[int | None]:
    if len(text) % 2:
        raise ValueError(text)
    return [_CODES[text[k : k + 2]] for k in range(0, len(text), 2)]


# --------------------------------------------------------------------------
# The replay state machine


def _up_key(up: list[int]) -> tuple:
    """The strength of face-up cards at natural value: quads, full house, trips,
    two pair, pair, high card; straights and flushes do not count."""
    counts: dict[int, int] = {}
    for c in up:
        r = c >> 2
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


class _Replay:
    __slots__ = (
        "n", "stakes", "variant", "options", "spec", "stacks", "live", "bets", "antes",
        "buys", "returned", "in_hand", "n_in", "folded", "cards", "faces", "known",
        "dealt", "street", "phase", "pending", "next_faces", "to_deal", "community",
        "community_due", "closed", "actors", "max_bet", "count", "unit", "last_inc",
        "acted", "short", "bring_in_due", "completion_due", "index", "action",
        "seventh_done", "at_showdown",
    )  # fmt: skip

    def __init__(self, spec: _Spec) -> None:
        n = self.n = len(spec.stacks)
        self.spec = spec
        self.stakes = spec.stakes
        self.variant = spec.variant
        self.options = spec.options
        self.stacks = list(spec.stacks)
        self.live = [0] * n
        self.bets = [0] * n
        self.buys = [0] * n
        self.returned = [0] * n
        self.in_hand = [True] * n
        self.n_in = n
        self.folded: list[str | None] = [None] * n
        self.cards: list[list[int | None]] = [[] for _ in range(n)]
        self.faces: list[list[bool]] = [[] for _ in range(n)]
        self.known: set[int] = set()
        self.dealt = 0
        self.street = 0
        self.community: int | None = None
        self.community_due = False
        self.closed = False
        self.actors: list[int] = []
        self.seventh_done = False
        self.at_showdown: tuple[int, ...] = ()
        self.index = 0
        self.action: str | None = None
        ante = self.stakes.ante
        self.antes = [min(ante, s) for s in self.stacks]
        for i in range(n):
            self.stacks[i] -= self.antes[i]
            self.live[i] = self.antes[i]
        self.phase = _DEAL
        self.pending = [3] * n
        self.next_faces = [[False, False, True] for _ in range(n)]
        self.to_deal = 3 * n

    # -- errors ----------------------------------------------------------

    def fail(self, message: str, code: str = "illegal_action", field: str | None = None):
        return ProcedureError(
            message, code=code, field=field, action_index=self.index, action=self.action
        )

    # -- driving ---------------------------------------------------------

    def run(self) -> None:
        for index, action in enumerate(self.spec.actions):
            self.index = index
            self.action = action
            words = action.split("#", 1)[0].split()
            if not words:
                continue  # a no-op: empty or commentary only
            actor = words[0]
            if actor == "d":
                self.deal(words)
                continue
            p = self.player(actor)
            verb = words[1] if len(words) > 1 else ""
            argc = len(words)
            if verb == "cc" and argc == 2:
                self.check_or_call(p)
            elif verb == "cbr" and argc == 3:
                self.complete_bet_or_raise(p, words[2])
            elif verb == "f" and argc == 2:
                self.fold(p)
            elif verb == "pb" and argc == 2:
                self.post_bring_in(p)
            elif verb == "sm" and argc <= 3:
                self.show_or_muck(p, words[2] if argc == 3 else None)
            elif verb == "sd":
                raise self.fail("stud has no draw: 'sd' is not a stud action", "invalid_action")
            else:
                raise self.fail("is not a PHH action", "invalid_action")
        self.index = len(self.spec.actions)
        self.action = None
        self.finish()

    def player(self, token: str) -> int:
        if token[:1] == "p" and token[1:].isdigit():
            p = int(token[1:]) - 1
            if 0 <= p < self.n:
                return p
            raise self.fail(
                f"there is no player {token} (players p1 to p{self.n})", "invalid_action"
            )
        raise self.fail(f"{token!r} is neither the dealer 'd' nor a player 'pN'", "invalid_action")

    # -- dealing ---------------------------------------------------------

    def deal(self, words: list[str]) -> None:
        if len(words) == 4 and words[1] == "dh":
            self.deal_hole(self.player(words[2]), words[3])
        elif len(words) == 3 and words[1] == "db":
            self.deal_community(words[2])
        else:
            raise self.fail(
                "is not a dealing action ('d dh pN cards' or 'd db card')", "invalid_action"
            )

    def check_dealing(self) -> None:
        if self.phase == _DEAL:
            return
        if self.phase == _BET:
            raise self.fail(
                f"the {STREETS[self.street]} street betting is not over: "
                f"p{self.actors[0] + 1} is to act",
                "out_of_turn",
            )
        if self.phase == _OVER:
            raise self.fail("the hand is over: everyone else has folded", "hand_over")
        raise self.fail("all the cards of the hand have been dealt", "deal_count")

    def read_cards(self, text: str) -> list[int | None]:
        try:
            return _parse_cards(text)
        except (KeyError, ValueError):
            raise self.fail(
                f"{text!r} is not a run of two-character cards (rank 2-9 T J Q K A, suit c d h s, "
                "or ?? for an unknown card)",
                "invalid_card",
            ) from None

    def take(self, card: int) -> None:
        if card in self.known:
            raise self.fail(f"{format_card(card)} has already been dealt", "duplicate_card")
        self.known.add(card)

    def deal_hole(self, p: int, text: str) -> None:
        self.check_dealing()
        street = STREETS[self.street]
        if not self.in_hand[p]:
            raise self.fail(f"p{p + 1} is out of the hand and gets no more cards", "deal_count")
        if self.community_due:
            raise self.fail(
                "the deck cannot give every player still in a seventh card "
                f"({DECK_SIZE - BURNS - self.dealt} left after the burns for {self.n_in} players): "
                "one community card is dealt instead ('d db card')",
                "community_card",
            )
        cards = self.read_cards(text)
        due = self.pending[p]
        if len(cards) > due:
            raise self.fail(
                f"p{p + 1} is due {due} more card(s) on {street} street, not {len(cards)}",
                "deal_count",
            )
        faces = self.next_faces[p]
        start = len(faces) - due
        for k, card in enumerate(cards):
            up = faces[start + k]
            if card is None:
                if up:
                    raise self.fail(
                        "a face-up card is seen by everyone and cannot be unknown ('??')",
                        "unknown_card",
                    )
            else:
                self.take(card)
            self.cards[p].append(card)
            self.faces[p].append(up)
        self.pending[p] = due - len(cards)
        self.to_deal -= len(cards)
        self.dealt += len(cards)
        if not self.to_deal:
            self.end_dealing()

    def deal_community(self, text: str) -> None:
        self.check_dealing()
        if not self.community_due:
            if self.street < 4:
                why = f"there is no community card on {STREETS[self.street]} street"
            else:
                left = DECK_SIZE - BURNS - self.dealt
                why = (
                    f"{left} cards are left after the burns, enough for the {self.n_in} players "
                    "still in: each gets their own seventh card"
                )
            raise self.fail(why, "community_card")
        cards = self.read_cards(text)
        if len(cards) != 1:
            raise self.fail("the community card is one card", "deal_count")
        card = cards[0]
        if card is None:
            raise self.fail(
                "the community card is face up and cannot be unknown ('??')", "unknown_card"
            )
        self.take(card)
        self.community = card
        self.community_due = False
        self.to_deal = 0
        self.end_dealing()

    def end_dealing(self) -> None:
        if self.closed:
            self.next_street()
        else:
            self.start_betting()

    def next_street(self) -> None:
        if self.street == 4:
            self.phase = _SHOWDOWN
            self.at_showdown = tuple(i for i in range(self.n) if self.in_hand[i])
            return
        self.street += 1
        self.phase = _DEAL
        in_hand = self.in_hand
        if self.street < 4:
            self.pending = [1 if in_hand[i] else 0 for i in range(self.n)]
            self.next_faces = [[True] for _ in range(self.n)]
            self.to_deal = self.n_in
            return
        self.start_seventh()

    def start_seventh(self) -> None:
        """Before the seventh card: Low Hold's buys (paid together), then the
        community-card check, then each player's face for the card."""
        spec = self.spec
        self.seventh_done = True
        n = self.n
        left = DECK_SIZE - BURNS - self.dealt
        community = left < self.n_in
        buy_version = self.options.get("buy_version")
        price = self.options.get("buy_price")
        if price is None:
            price = self.stakes.big_bet
        for i in range(n):
            if spec.buys[i]:
                fld = f"_buys[{i}]"
                if not self.in_hand[i]:
                    raise self.fail(
                        f"p{i + 1} is out of the hand and cannot buy", "invalid_buy", fld
                    )
                if community:
                    raise self.fail(
                        "no one buys: the seventh card is a community card, face up for everyone",
                        "invalid_buy",
                        fld,
                    )
                if self.stacks[i] < price:
                    raise self.fail(
                        f"p{i + 1} has {self.stacks[i]} chips and cannot pay the buy of {price}",
                        "invalid_buy",
                        fld,
                    )
                self.stacks[i] -= price
                self.buys[i] = price
            if spec.seventh[i] is not None:
                fld = f"_seventh_card[{i}]"
                if not self.in_hand[i]:
                    raise self.fail(
                        f"p{i + 1} is out of the hand and takes no seventh card",
                        "invalid_choice",
                        fld,
                    )
                if community:
                    raise self.fail(
                        "no one chooses: the seventh card is a community card",
                        "invalid_choice",
                        fld,
                    )
        self.phase = _DEAL
        if community:
            self.community_due = True
            self.pending = [0] * n
            self.to_deal = 1
            return
        faces = []
        for i in range(n):
            if self.variant == "low_hold":
                up = spec.buys[i] if buy_version == "contributed" else not spec.buys[i]
            else:
                up = spec.seventh[i] == "up"
            faces.append([up])
        self.next_faces = faces
        self.pending = [1 if self.in_hand[i] else 0 for i in range(n)]
        self.to_deal = self.n_in

    # -- betting ---------------------------------------------------------

    def start_betting(self) -> None:
        n = self.n
        in_hand = self.in_hand
        stacks = self.stacks
        if sum(1 for i in range(n) if in_hand[i] and stacks[i]) <= 1:
            # Nobody left to bet against: no more betting in this hand.
            self.closed = True
            self.end_round()
            return
        if self.street == 0:
            # The lowest door card brings in: natural value, aces high, then
            # clubs < diamonds < hearts < spades -- the card int order.
            opener = min(range(n), key=lambda i: self.door(i))
        else:
            opener = -1
            best = None
            for i in range(n):
                if in_hand[i]:
                    key = _up_key(
                        [c for c, up in zip(self.cards[i], self.faces[i], strict=True) if up]
                    )
                    if best is None or key > best:
                        best, opener = key, i
        order = [(opener + k) % n for k in range(n)]
        self.actors = [j for j in order if in_hand[j] and stacks[j]]
        self.max_bet = 0
        self.count = 0
        self.unit = self.stakes.small_bet if self.street < 2 else self.stakes.big_bet
        self.last_inc = 0
        self.acted = set()
        self.short = []
        self.bring_in_due = self.completion_due = self.street == 0
        self.phase = _BET

    def door(self, i: int) -> int:
        for c, up in zip(self.cards[i], self.faces[i], strict=True):
            if up:
                return c  # up cards are always known
        return 99

    def check_turn(self, p: int) -> None:
        if self.phase != _BET:
            if self.phase == _DEAL:
                who = [f"p{i + 1}" for i in range(self.n) if self.pending[i]]
                due = f"cards for {', '.join(who)}" if who else "the community card"
                raise self.fail(
                    f"{STREETS[self.street]} street is not fully dealt yet: {due} first",
                    "out_of_turn",
                )
            if self.phase == _OVER:
                raise self.fail("the hand is over: everyone else has folded", "hand_over")
            raise self.fail("the betting is over: only showing or mucking remains", "hand_over")
        if self.actors[0] != p:
            why = "" if self.in_hand[p] else f" (p{p + 1} has folded)"
            if self.in_hand[p] and not self.stacks[p]:
                why = f" (p{p + 1} is all in)"
            raise self.fail(
                f"it is p{self.actors[0] + 1}'s turn, not p{p + 1}'s{why}", "out_of_turn"
            )

    def put(self, p: int, amount: int) -> None:
        self.stacks[p] -= amount
        self.bets[p] += amount
        if self.bets[p] > self.max_bet:
            self.max_bet = self.bets[p]

    def post_bring_in(self, p: int) -> None:
        self.check_turn(p)
        if not self.bring_in_due:
            raise self.fail("no bring-in is due", "illegal_action")
        self.put(p, min(self.stacks[p], self.stakes.bring_in))
        self.bring_in_due = False
        if self.bets[p] >= self.stakes.small_bet:
            # A bring-in of the full small bet is the bet of the round.
            self.completion_due = False
            self.count = 1
            self.last_inc = self.bets[p]
        self.actors.pop(0)
        self.acted.add(p)
        self.after_action()

    def check_or_call(self, p: int) -> None:
        self.check_turn(p)
        if self.bring_in_due:
            raise self.fail(
                f"p{p + 1} has the lowest door card and must bring in ('pb') or complete",
                "bring_in",
            )
        amount = self.max_bet - self.bets[p]
        self.put(p, amount if amount < self.stacks[p] else self.stacks[p])
        self.actors.pop(0)
        self.acted.add(p)
        self.after_action()

    def fold(self, p: int) -> None:
        self.check_turn(p)
        if self.bring_in_due:
            raise self.fail(
                f"p{p + 1} has the lowest door card and must bring in ('pb') or complete",
                "bring_in",
            )
        if self.bets[p] >= self.max_bet:
            raise self.fail(
                f"p{p + 1} has nothing to call and may check, not fold", "illegal_action"
            )
        self.in_hand[p] = False
        self.n_in -= 1
        self.folded[p] = STREETS[self.street]
        self.actors.pop(0)
        self.acted.add(p)
        self.after_action()

    def complete_bet_or_raise(self, p: int, text: str) -> None:
        self.check_turn(p)
        try:
            amount = int(text)
        except ValueError:
            raise self.fail(f"{text!r} is not a whole number of chips", "bet_size") from None
        stakes = self.stakes
        bets = self.bets
        stacks = self.stacks
        max_bet = self.max_bet
        to_call = max_bet - bets[p]
        if self.count >= MAX_BETS_PER_ROUND:
            raise self.fail(
                "the betting is capped: a bet and three raises have been made this round",
                "raise_cap",
            )
        if stacks[p] <= to_call:
            raise self.fail(
                f"p{p + 1} has {stacks[p]} chips, not more than the {to_call} to call: "
                "they may call (all in) or fold",
                "bet_size",
            )
        if not any(
            i != p and self.in_hand[i] and stacks[i] + bets[i] > max_bet for i in range(self.n)
        ):
            raise self.fail(
                "everyone else still in is all in: there is nobody to bet against", "illegal_action"
            )
        if self.short and sum(self.short) < self.last_inc and p in self.acted:
            raise self.fail(
                f"p{p + 1} has acted and the all-in since then was less than a full raise: "
                f"it does not reopen the betting, p{p + 1} may only call or fold",
                "reopen",
            )
        if self.completion_due:
            full = stakes.small_bet
            what = f"the completion is to the small bet ({full})"
        elif max_bet == 0:
            full = self.unit
            what = f"a bet is one {'small' if self.street < 2 else 'big'} bet ({full})"
        else:
            full = max_bet + self.unit
            what = f"a raise is to {max_bet} + {self.unit} = {full}"
        target = full if full <= stacks[p] + bets[p] else stacks[p] + bets[p]
        if amount != target:
            if target < full:
                what += f"; p{p + 1} has only enough for {target} (all in)"
            raise self.fail(f"{what}, not {amount}", "bet_size")
        increment = amount - max_bet
        self.put(p, amount - bets[p])
        n = self.n
        in_hand = self.in_hand
        self.actors = [j % n for j in range(p + 1, p + n) if in_hand[j % n] and stacks[j % n]]
        if increment >= self.last_inc:
            self.acted = {p}
        else:
            self.acted.add(p)
        if increment > self.last_inc:
            self.last_inc = increment
        self.count += 1
        if stacks[p]:
            self.short.clear()
        else:
            self.short.append(increment)
            if sum(self.short) >= self.last_inc:
                self.short.clear()
        self.bring_in_due = self.completion_due = False
        self.after_action()

    def after_action(self) -> None:
        if self.n_in == 1 or not self.actors:
            self.end_round()

    def end_round(self) -> None:
        bets = self.bets
        top = max(bets)
        if top:
            second = sorted(bets)[-2]
            if top > second:
                # The part of a bet nobody called goes back to the bettor.
                p = bets.index(top)
                self.stacks[p] += top - second
                self.returned[p] += top - second
                bets[p] = second
            live = self.live
            for i in range(self.n):
                live[i] += bets[i]
                bets[i] = 0
        self.max_bet = 0
        self.actors = []
        if self.n_in == 1:
            self.phase = _OVER
            return
        if (
            not self.closed
            and sum(1 for i in range(self.n) if self.in_hand[i] and self.stacks[i]) <= 1
        ):
            self.closed = True
        self.next_street()

    # -- showdown --------------------------------------------------------

    def show_or_muck(self, p: int, text: str | None) -> None:
        if not (
            self.phase == _SHOWDOWN or self.phase == _OVER or (self.closed and self.phase == _DEAL)
        ):
            raise self.fail(
                "cards are shown or mucked only once the betting is over", "out_of_turn"
            )
        if not self.in_hand[p]:
            raise self.fail(f"p{p + 1} is out of the hand", "illegal_action")
        cards = self.cards[p]
        if text is None:
            if self.phase == _OVER:
                raise self.fail(
                    f"p{p + 1} has won the pot uncontested: nothing to muck", "illegal_action"
                )
            self.in_hand[p] = False
            self.n_in -= 1
            self.folded[p] = "showdown"
            self.pending[p] = 0 if self.phase == _DEAL else self.pending[p]
            if self.n_in == 0:
                raise self.fail(
                    "every player has mucked: someone must show to win", "illegal_action"
                )
            if self.phase == _DEAL and self.n_in == 1:
                self.phase = _OVER
            elif self.phase == _DEAL and not self.community_due:
                self.to_deal = sum(self.pending)
                if not self.to_deal:
                    self.end_dealing()
            return
        if text == "-":
            if None in cards:
                raise self.fail(
                    f"p{p + 1}'s cards are not all known: show them card by card", "unknown_card"
                )
            return
        shown = self.read_cards(text)
        if len(shown) == len(cards):
            positions = range(len(cards))
        else:
            positions = [k for k, up in enumerate(self.faces[p]) if not up]
            if len(shown) != len(positions):
                raise self.fail(
                    f"p{p + 1} holds {len(cards)} cards ({len(positions)} face down): show all of "
                    "them in the order dealt, or just the face-down ones",
                    "invalid_show",
                )
        for pos, card in zip(positions, shown, strict=True):
            if card is None:
                raise self.fail("a shown card cannot be unknown ('??')", "unknown_card")
            held = cards[pos]
            if held is None:
                self.take(card)
                cards[pos] = card
            elif held != card:
                raise self.fail(
                    f"p{p + 1}'s card {pos + 1} was dealt as {format_card(held)}, not "
                    f"{format_card(card)}",
                    "invalid_show",
                )

    def finish(self) -> None:
        if self.phase == _DEAL:
            if self.community_due:
                due = "the community card"
            else:
                due = "cards for " + ", ".join(
                    f"p{i + 1}" for i in range(self.n) if self.pending[i]
                )
            raise self.fail(
                f"the hand is incomplete: {STREETS[self.street]} street still needs {due}",
                "incomplete_hand",
            )
        if self.phase == _BET:
            raise self.fail(
                f"the hand is incomplete: p{self.actors[0] + 1} is to act on "
                f"{STREETS[self.street]} street",
                "incomplete_hand",
            )
        spec = self.spec
        if not self.seventh_done:
            for name, values in (("_buys", spec.buys), ("_seventh_card", spec.seventh)):
                for i, v in enumerate(values):
                    if v:
                        raise self.fail(
                            "the hand ended before the seventh card: there was nothing to choose",
                            "invalid_choice",
                            f"{name}[{i}]",
                        )
        showdown = self.n_in >= 2
        for i in range(self.n):
            decl = spec.declarations[i]
            if showdown and self.in_hand[i]:
                if None in self.cards[i]:
                    raise self.fail(
                        f"p{i + 1} reached the showdown but not all their cards are known: "
                        f"show them ('p{i + 1} sm cards')",
                        "unknown_card",
                    )
                if decl is None and _declaring(self.options):
                    raise self.fail(
                        f"p{i + 1} must declare high, low or both",
                        "declaration",
                        f"_declarations[{i}]",
                    )
            elif decl is not None and i not in self.at_showdown:
                raise self.fail(
                    f"p{i + 1} did not reach the showdown and cannot declare",
                    "declaration",
                    f"_declarations[{i}]",
                )


def _hand_cards(cards: list[int | None], faces: list[bool]) -> dict[str, list[str]]:
    down = [format_card(c) for c, up in zip(cards, faces, strict=True) if not up]
    up = [format_card(c) for c, up in zip(cards, faces, strict=True) if up]
    return {"down": down, "up": up}


def _settle(
    *,
    variant: str,
    options: dict,
    stakes: Stakes,
    starting: list[int],
    stacks_after: list[int],
    antes: list[int],
    live: list[int],
    buys: list[int],
    returned: list[int],
    in_hand: list[bool],
    folded: list[str | None],
    hands: dict[int, dict],
    community: str | None,
    evaluate: Evaluate | None,
    warnings: list[str],
) -> HandResult:
    """Pots, payouts and finishing stacks: the one settlement of both entries."""
    n = len(starting)
    pots = build_pots(live, in_hand, buys)
    settlement = settle_pots(
        pots,
        n_players=n,
        variant=variant,
        options=options,
        hands=hands,
        community=community,
        evaluate=evaluate,
    )
    finishing = [stacks_after[i] + settlement.winnings[i] for i in range(n)]
    contributions = [live[i] + buys[i] for i in range(n)]
    if sum(finishing) != sum(starting) or sum(p.amount for p in pots) != sum(contributions):
        raise AssertionError(
            f"chips not conserved: started {sum(starting)}, finished {sum(finishing)}, "
            f"pots {sum(p.amount for p in pots)}, contributions {sum(contributions)}"
        )
    if any(
        finishing[i] != starting[i] - contributions[i] + settlement.winnings[i] for i in range(n)
    ):
        raise AssertionError("finishing stacks do not match contributions and winnings")
    return HandResult(
        variant=variant,
        options=options,
        stakes=stakes,
        starting_stacks=list(starting),
        antes=antes,
        buys=buys,
        returned=returned,
        contributions=contributions,
        folded=folded,
        community=community,
        pots=pots,
        showdown=settlement.showdown,
        payouts=settlement.payouts,
        winnings=settlement.winnings,
        finishing_stacks=finishing,
        warnings=warnings,
    )


def replay_hand(
    hand: Mapping[str, Any],
    *,
    evaluate: Evaluate | None = None,
    max_players: int | None = None,
) -> HandResult:
    """Replay a full hand history and settle it.

    ``hand`` is a PHH hand as a mapping (what :func:`tracker.engine.phh.loads`
    returns, or the same structure in JSON); see docs/phh.md for every field.
    ``evaluate`` replaces the hand-value engine (``evaluate_showdown``);
    ``max_players`` overrides the variant's player limit (RULES.md: 7, Low
    Hole 8) to replay foreign histories, e.g. eight-handed PHH stud.

    Raises :class:`ProcedureError` (a DomainError) at the first fault,
    naming the field or the action (``action_index``, ``action``).
    """
    try:
        spec = _read_spec(hand, max_players)
    except ProcedureError:
        raise
    except DomainError as exc:
        raise ProcedureError(
            exc.message, code=exc.code, field=next(iter(exc.fields), None)
        ) from None
    replay = _Replay(spec)
    replay.run()
    hands: dict[int, dict] = {}
    if replay.n_in >= 2:
        for i in range(replay.n):
            if replay.in_hand[i]:
                entry = _hand_cards(replay.cards[i], replay.faces[i])
                if spec.declarations[i] is not None:
                    entry["declare"] = spec.declarations[i]
                hands[i] = entry
    community = format_card(replay.community) if replay.community is not None else None
    try:
        result = _settle(
            variant=spec.variant,
            options=spec.options,
            stakes=spec.stakes,
            starting=spec.stacks,
            stacks_after=replay.stacks,
            antes=replay.antes,
            live=replay.live,
            buys=replay.buys,
            returned=replay.returned,
            in_hand=replay.in_hand,
            folded=replay.folded,
            hands=hands,
            community=community,
            evaluate=evaluate,
            warnings=spec.warnings,
        )
    except ProcedureError:
        raise
    except DomainError as exc:
        raise ProcedureError(
            exc.message, code=exc.code, action_index=replay.index, action=None
        ) from exc
    stated = hand.get("finishing_stacks")
    if stated is not None and list(stated) != result.finishing_stacks:
        raise ProcedureError(
            f"the hand states finishing stacks {list(stated)}, the replay gives "
            f"{result.finishing_stacks}",
            code="finishing_stacks_mismatch",
            field="finishing_stacks",
        )
    return result


# --------------------------------------------------------------------------
# Quick entry


def _street_number(value: Any, field: str) -> int | None:
    """None, or the street index 0..4 of 'third'..'seventh' (3..7 also accepted);
    'showdown' (mucked at the showdown) is 5."""
    if value is None or value == "":
        return None
    if isinstance(value, str):
        name = value.lower()
        if name in STREETS:
            return STREETS.index(name)
        if name == "showdown":
            return 5
    elif isinstance(value, int) and not isinstance(value, bool) and 3 <= value <= 7:
        return value - 3
    raise DomainError(
        f"{value!r} is not a street (third..seventh, 3..7, or showdown)",
        code="invalid_street",
        field=field,
    )


def settle_quick(
    *,
    variant: str,
    stakes: Stakes | Mapping[str, int] | Any,
    starting_stacks: Sequence[int],
    put_in: Sequence[int],
    folded: Sequence[str | int | None],
    shown: Sequence[Mapping[str, Any] | None] | None = None,
    community: str | None = None,
    options: Mapping[str, Any] | None = None,
    buys: Sequence[bool] | None = None,
    declarations: Sequence[str | None] | None = None,
    seventh_card: Sequence[str | None] | None = None,
    evaluate: Evaluate | None = None,
    max_players: int | None = None,
) -> HandResult:
    """Settle a hand logged without its action history (quick entry).

    Per seat: ``put_in`` is every chip the seat put in (ante, bets, calls
    and a Low Hold buy; an uncalled bet may be included, it is returned);
    ``folded`` the street the seat folded on ("third".."seventh", or
    "showdown" for a hand mucked there) or None; ``shown`` the cards shown
    (``{"down": [...], "up": [...]}`` in the order dealt) or None; ``buys``
    whether the seat bought (Low Hold); ``declarations`` high/low/both;
    ``seventh_card`` up/down (Kings and Little Ones). ``community`` is the
    community card, if one was dealt.

    Checks what can be checked: antes paid by everyone who could, nobody
    over their stack, everyone still in matched the largest contribution
    among them unless all in, no folded seat over that, buys and seventh-card
    choices only where the game has them, the community card exactly when
    the deck ran short, shown cards valid, distinct and complete. Raises
    DomainError naming the field (``put_in[2]``, ``shown[1].down[0]``, ...).
    """
    check_variant(variant)
    opts = normalize_announcements(variant, options)
    stakes = Stakes.coerce(stakes)
    if not isinstance(starting_stacks, (list, tuple)):
        raise DomainError("must be a list of chip counts", field="starting_stacks")
    n = len(starting_stacks)
    limit = max_players if max_players is not None else variant_max_players(variant)
    if n < 2 or n > limit:
        raise DomainError(
            f"{variant} is dealt to 2 to {limit} players, not {n}",
            code="player_count",
            field="starting_stacks",
        )
    starting = [
        chip_amount(s, f"starting_stacks[{i}]", minimum=1) for i, s in enumerate(starting_stacks)
    ]

    def per_seat(value: Any, name: str) -> list:
        if not isinstance(value, (list, tuple)) or len(value) != n:
            raise DomainError(f"must be a list with one entry per seat ({n})", field=name)
        return list(value)

    total = [chip_amount(v, f"put_in[{i}]") for i, v in enumerate(per_seat(put_in, "put_in"))]
    for i in range(n):
        if total[i] > starting[i]:
            raise DomainError(
                f"seat {i} put in {total[i]} but had only {starting[i]}",
                code="over_stack",
                field=f"put_in[{i}]",
            )
    fold_street = [
        _street_number(v, f"folded[{i}]") for i, v in enumerate(per_seat(folded, "folded"))
    ]
    in_hand = [s is None for s in fold_street]
    n_in = sum(in_hand)
    if n_in == 0:
        raise DomainError("someone must still be in at the end of the hand", field="folded")
    reached = [s is None or s >= 4 for s in fold_street]  # got to seventh street

    # The deck: three cards each on third street, one to each player still in
    # on fourth to sixth, five burns; short of a card each -> a community card.
    dealt = 3 * n + sum(
        1 for s in range(1, 4) for i in range(n) if fold_street[i] is None or fold_street[i] >= s
    )
    reached_count = sum(reached)
    community_due = reached_count >= 2 and DECK_SIZE - BURNS - dealt < reached_count

    buy_flags = [False] * n
    if buys is not None:
        for i, b in enumerate(per_seat(buys, "buys")):
            if not isinstance(b, bool):
                raise DomainError("must be true or false", field=f"buys[{i}]")
            buy_flags[i] = b
    price = opts.get("buy_price")
    if price is None:
        price = stakes.big_bet
    buy_amounts = [0] * n
    for i in range(n):
        if not buy_flags[i]:
            continue
        fld = f"buys[{i}]"
        if variant != "low_hold":
            raise DomainError("only Low Hold has buys", code="invalid_buy", field=fld)
        if not reached[i] or reached_count < 2:
            raise DomainError(
                f"seat {i} did not reach the seventh card", code="invalid_buy", field=fld
            )
        if community_due:
            raise DomainError(
                "no one buys when the seventh card is a community card",
                code="invalid_buy",
                field=fld,
            )
        buy_amounts[i] = price
    live = [total[i] - buy_amounts[i] for i in range(n)]
    antes = [min(stakes.ante, s) for s in starting]
    for i in range(n):
        if live[i] < antes[i]:
            raise DomainError(
                f"seat {i} put in {live[i]} besides buys, less than the ante of {antes[i]}",
                code="missing_ante",
                field=f"put_in[{i}]",
            )
    stacks_after = [starting[i] - total[i] for i in range(n)]
    returned = [0] * n
    top = max(live)
    if live.count(top) == 1:
        # The part of the biggest contribution nobody matched was not called:
        # it goes back -- unless its owner folded, which no legal hand does.
        second = sorted(live)[-2]
        p = live.index(top)
        if not in_hand[p]:
            raise DomainError(
                f"seat {p} folded but put in {top}, more than anyone else ({second}): "
                "nobody folds to their own bet",
                code="unmatched",
                field=f"put_in[{p}]",
            )
        returned[p] = top - second
        live[p] = second
        stacks_after[p] += top - second
    most = max(live[i] for i in range(n) if in_hand[i])
    for i in range(n):
        if in_hand[i] and live[i] < most and stacks_after[i] > 0:
            raise DomainError(
                f"seat {i} is still in but put in {live[i]}, less than the {most} others "
                "still in put in, without being all in",
                code="unmatched",
                field=f"put_in[{i}]",
            )
        if not in_hand[i] and live[i] > most:
            raise DomainError(
                f"seat {i} folded but put in {live[i]}, more than anyone still in ({most})",
                code="unmatched",
                field=f"put_in[{i}]",
            )

    if community is not None and community != "":
        card = parse_card(community, "community")
        if not community_due:
            raise DomainError(
                "a community card is dealt only when the deck cannot give every player still "
                f"in a seventh card ({DECK_SIZE - BURNS - dealt} left after the burns for "
                f"{reached_count})",
                code="community_card",
                field="community",
            )
        community_text: str | None = format_card(card)
        seen = {card}
    else:
        if community_due and n_in >= 2:
            raise DomainError(
                f"{reached_count} players reached seventh street and only "
                f"{DECK_SIZE - BURNS - dealt} cards were left: a community card was dealt",
                code="community_card",
                field="community",
            )
        community_text = None
        seen = set()

    choices = _choices_quick(seventh_card, n, "seventh_card", ("up", "down"))
    for i, choice in enumerate(choices):
        if choice is not None:
            if variant != "kings_and_little_ones":
                raise DomainError(
                    "only Kings and Little Ones lets players choose the seventh card up or down",
                    code="invalid_choice",
                    field=f"seventh_card[{i}]",
                )
            if not reached[i] or community_due:
                raise DomainError(
                    f"seat {i} took no seventh card of their own",
                    code="invalid_choice",
                    field=f"seventh_card[{i}]",
                )
    decls = _choices_quick(declarations, n, "declarations", ("high", "low", "both"))
    declare = _declaring(opts)
    showdown = n_in >= 2
    shown_list = [None] * n if shown is None else per_seat(shown, "shown")
    hands: dict[int, dict] = {}
    for i in range(n):
        at_showdown = showdown and in_hand[i]
        if decls[i] is not None and not declare:
            raise DomainError(
                "players declare only in a high-low game announced with declaration 'declare'",
                code="declaration",
                field=f"declarations[{i}]",
            )
        if declare and at_showdown and decls[i] is None:
            raise DomainError(
                "must declare high, low or both", code="declaration", field=f"declarations[{i}]"
            )
        if decls[i] is not None and not (reached[i] and (in_hand[i] or fold_street[i] == 5)):
            raise DomainError(
                f"seat {i} did not reach the showdown",
                code="declaration",
                field=f"declarations[{i}]",
            )
        entry = shown_list[i]
        if entry is None:
            if at_showdown:
                raise DomainError(
                    f"seat {i} reached the showdown: their cards are needed",
                    code="missing_cards",
                    field=f"shown[{i}]",
                )
            continue
        if not isinstance(entry, Mapping):
            raise DomainError("must be an object with down and up cards", field=f"shown[{i}]")
        down_cards, up_cards = [], []
        for part, into in (("down", down_cards), ("up", up_cards)):
            raw = entry.get(part, [])
            if not isinstance(raw, (list, tuple)):
                raise DomainError("must be a list of cards", field=f"shown[{i}].{part}")
            for k, token in enumerate(raw):
                fld = f"shown[{i}].{part}[{k}]"
                c = parse_card(token, fld)
                if c in seen:
                    raise DomainError(
                        f"{format_card(c)} is shown twice", code="duplicate_card", field=fld
                    )
                seen.add(c)
                into.append(c)
        # How many of each a seat holds when it reaches the showdown.
        if community_due and reached[i]:
            full_down, full_up = 2, 4
        elif variant == "low_hold":
            bought = buy_flags[i]
            up7 = bought if opts.get("buy_version") == "contributed" else not bought
            full_down, full_up = (2, 5) if up7 else (3, 4)
        else:
            full_down, full_up = (2, 5) if choices[i] == "up" else (3, 4)
        if at_showdown:
            if len(down_cards) != full_down or len(up_cards) != full_up:
                raise DomainError(
                    f"seat {i} holds {full_down} down and {full_up} up cards at the showdown, "
                    f"not {len(down_cards)} and {len(up_cards)}",
                    code="missing_cards",
                    field=f"shown[{i}]",
                )
            hand = {
                "down": [format_card(c) for c in down_cards],
                "up": [format_card(c) for c in up_cards],
            }
            if decls[i] is not None:
                hand["declare"] = decls[i]
            hands[i] = hand
        else:
            street = min(4 if fold_street[i] is None else fold_street[i], 4)
            most_down, most_up = (full_down, full_up) if street == 4 else (2, 1 + street)
            if len(down_cards) > most_down or len(up_cards) > most_up:
                raise DomainError(
                    f"seat {i} was dealt at most {most_down} down and {most_up} up cards",
                    code="missing_cards",
                    field=f"shown[{i}]",
                )
    folded_names = [
        None if s is None else ("showdown" if s == 5 else STREETS[s]) for s in fold_street
    ]
    return _settle(
        variant=variant,
        options=opts,
        stakes=stakes,
        starting=starting,
        stacks_after=stacks_after,
        antes=antes,
        live=live,
        buys=buy_amounts,
        returned=returned,
        in_hand=in_hand,
        folded=folded_names,
        hands=hands if showdown else {},
        community=community_text,
        evaluate=evaluate,
        warnings=[],
    )


def _choices_quick(value: Any, n: int, name: str, allowed: tuple[str, ...]) -> list[str | None]:
    try:
        return _choices(value, n, name, allowed)
    except ProcedureError as exc:
        raise DomainError(exc.message, code="invalid", field=next(iter(exc.fields), name)) from None
