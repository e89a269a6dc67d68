"""Drivers of the stud state machine: a PHH history, and a hand entered as results.

The rules live in :class:`tracker.engine.stud.StudHand`; this module reads
the two ways a finished hand arrives and drives one walk of the machine:

* :func:`replay_hand` (:func:`walk_history` without the settlement) takes a
  full hand history -- the PHH fields (``variant = "F7S"``, ``antes``,
  ``bring_in``, ``small_bet``, ``big_bet``, ``starting_stacks``,
  ``actions``) plus our ``_`` fields (``_variant``, ``_options``,
  ``_seventh_card``, ``_buys``, ``_declarations``) -- and turns every
  action into a verb, raising :class:`ProcedureError` at the first event at
  fault, located at its action (``actions[12]``) or field (``_buys[0]``).
* :func:`settle_quick` (:func:`walk_quick`) takes a quick-entry record, a
  :class:`QuickEntry` (chips each seat put in, who folded on which street, the
  cards shown), checks the chips, and walks the results machine
  (:class:`tracker.engine.results.ResultsHand`, a ``StudHand`` without betting
  rounds): the cards as dealt, the folds street by street, the buys, choices and
  declarations. Each rule is one ``check_`` method of its driver, raising the
  DomainError that names the field at fault (``put_in[2]``, ``shown[1].down[0]``).

Both return a :class:`HandResult`: contributions, main and side pots, the
showdown reading of the hand-value engine, the payout of every pot and the
finishing stacks. Chips are conserved exactly (checked on every hand).
Observers (:class:`tracker.engine.stud.HandObserver`) passed to either see
every event of the walk.

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
from dataclasses import dataclass
from typing import Any

from .announcements import check_variant, normalize_announcements, options_from_text
from .announcements import max_players as variant_max_players
from .cards import card_of_text, format_card, parse_card
from .errors import DomainError
from .events import (
    Buy,
    ChooseSeventh,
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
    ReturnUncalled,
    Show,
)
from .games import GameDefinition
from .phh import (
    ENTRY_FIELDS,
    OUR_FIELDS,
    PHH_OPTIONAL,
    PHH_REQUIRED,
    PHH_VARIANT,
    PHHActionError,
    PHHError,
    game_from_phh,
    parse_action,
)
from .pots import Evaluate
from .results import ResultsHand
from .stakes import Stakes, chip_amount
from .stud import (  # noqa: F401 -- re-exported
    Code,
    Face,
    HandObserver,
    HandResult,
    Phase,
    ProcedureError,
    StudHand,
    Subject,
    declaring,
)
from .variants import BURNS, DECK_SIZE, STREETS, VARIANT_RULES

__all__ = [
    "STREETS",
    "HandResult",
    "ProcedureError",
    "QuickEntry",
    "replay_hand",
    "settle_quick",
    "ENTRY_FIELDS",
    "history_from_entry",
    "walk_history",
    "walk_quick",
]

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
    game: GameDefinition | None = None


def _check_fields(hand: Mapping[str, Any]) -> list[str]:
    """Every field is PHH's or ours, the required ones are there; warnings for a
    user-defined field that is not ours."""
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
    return warnings


def _read_variant(hand: Mapping[str, Any]) -> tuple[str, dict]:
    """PHH's F7S with our variant (``_variant``) and its announcements (``_options``)."""
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
    return variant, options


def _read_stacks(value: Any, variant: str, max_players: int | None) -> list[int]:
    if not isinstance(value, (list, tuple)):
        raise _field_error("must be a list of chip counts, one per player", "starting_stacks")
    n = len(value)
    limit = max_players if max_players is not None else variant_max_players(variant)
    if n < 2 or n > limit:
        raise _field_error(
            f"{variant} is dealt to 2 to {limit} players, not {n}",
            "starting_stacks",
            "player_count",
        )
    return [chip_amount(s, f"starting_stacks[{i}]", minimum=1) for i, s in enumerate(value)]


def _read_ante(value: Any, n: int) -> int:
    """One ante for everyone (a per-player list of equal antes is accepted)."""
    if not isinstance(value, (list, tuple)):
        return chip_amount(value, "antes")
    antes = [chip_amount(a, f"antes[{i}]") for i, a in enumerate(_per_player(value, n, "antes"))]
    if len(set(antes)) > 1:
        raise _field_error("every player antes the same amount", "antes")
    return antes[0]


def _read_choices(
    hand: Mapping[str, Any], n: int, variant: str, options: dict
) -> tuple[list[str | None], list[bool], list[str | None]]:
    """Our per-player choices (``_seventh_card``, ``_buys``, ``_declarations``), each only
    where the game has it."""
    seventh = _choices(hand.get("_seventh_card"), n, "_seventh_card", ("up", "down"))
    rules = VARIANT_RULES[variant]
    if not rules.chooses_seventh and any(seventh):
        raise _field_error(
            "only Kings and Little Ones lets players choose the seventh card up or down",
            "_seventh_card",
        )
    buys = _flags(hand.get("_buys"), n, "_buys")
    if not rules.buys and any(buys):
        raise _field_error("only Low Hold has buys", "_buys")
    declarations = _choices(hand.get("_declarations"), n, "_declarations", ("high", "low", "both"))
    if not declaring(options) and any(declarations):
        raise _field_error(
            "players declare only in a high-low game announced with declaration 'declare'",
            "_declarations",
        )
    return seventh, buys, declarations


def _read_game(hand: Mapping[str, Any], game: GameDefinition | None) -> GameDefinition | None:
    """The house game of the hand: ``game`` as given, else its ``_game`` field read
    (:func:`tracker.engine.phh.game_from_phh`, naming the part at fault), else None."""
    if game is not None or hand.get("_game") is None:
        return game
    try:
        return game_from_phh(hand["_game"])
    except PHHError as exc:
        raise _field_error(exc.message, next(iter(exc.fields), "_game"), "invalid_game") from None


def _read_spec(
    hand: Mapping[str, Any], max_players: int | None, game: GameDefinition | None = None
) -> _Spec:
    if not isinstance(hand, Mapping):
        raise ProcedureError("a hand must be a table of PHH fields", code=Code.INVALID_HAND)
    warnings = _check_fields(hand)
    game = _read_game(hand, game)
    if game is not None:
        return _read_game_spec(hand, max_players, game, warnings)
    variant, options = _read_variant(hand)
    stacks = _read_stacks(hand["starting_stacks"], variant, max_players)
    n = len(stacks)
    ante = _read_ante(hand["antes"], n)
    stakes = Stakes(ante, hand["bring_in"], hand["small_bet"], hand["big_bet"])
    actions = hand["actions"]
    if not isinstance(actions, (list, tuple)) or not all(isinstance(a, str) for a in actions):
        raise _field_error("must be a list of action strings", "actions")
    seventh, buys, declarations = _read_choices(hand, n, variant, options)
    return _Spec(
        variant, options, stakes, stacks, list(actions), seventh, buys, declarations, warnings
    )


def _read_game_spec(
    hand: Mapping[str, Any], max_players: int | None, game: GameDefinition, warnings: list[str]
) -> _Spec:
    """The spec of a house game's hand: the variant is the game's name, no announcements
    (the definition says it all), the choices only where the definition has them."""
    if hand["variant"] != PHH_VARIANT:
        raise _field_error(f"must be {PHH_VARIANT!r}", "variant", "invalid_variant")
    if hand.get("_options"):
        raise _field_error("a house game has no announcements: its _game says it all", "_options")
    raw = hand["starting_stacks"]
    if not isinstance(raw, (list, tuple)):
        raise _field_error("must be a list of chip counts, one per player", "starting_stacks")
    limit = max_players if max_players is not None else game.player_limit
    if len(raw) < 2 or len(raw) > limit:
        raise _field_error(
            f"{game.title} is dealt to 2 to {limit} players, not {len(raw)}",
            "starting_stacks",
            "player_count",
        )
    stacks = [chip_amount(s, f"starting_stacks[{i}]", minimum=1) for i, s in enumerate(raw)]
    n = len(stacks)
    stakes = Stakes(
        _read_ante(hand["antes"], n), hand["bring_in"], hand["small_bet"], hand["big_bet"]
    )
    actions = hand["actions"]
    if not isinstance(actions, (list, tuple)) or not all(isinstance(a, str) for a in actions):
        raise _field_error("must be a list of action strings", "actions")
    seventh = _choices(hand.get("_seventh_card"), n, "_seventh_card", ("up", "down"))
    if not any("choice" in s.faces for s in game.streets) and any(seventh):
        raise _field_error(f"{game.title} has no card dealt up or down by choice", "_seventh_card")
    buys = _flags(hand.get("_buys"), n, "_buys")
    if game.buy is None and any(buys):
        raise _field_error(f"{game.title} has no buys", "_buys")
    declarations = _choices(hand.get("_declarations"), n, "_declarations", ("high", "low", "both"))
    declares = game.pot.kind == "high_low" and game.pot.declaration == "declare"
    if not declares and any(declarations):
        raise _field_error(f"players do not declare in {game.title}", "_declarations")
    return _Spec(
        game.name, {}, stakes, stacks, list(actions), seventh, buys, declarations, warnings, game
    )


# --------------------------------------------------------------------------
# The PHH driver

_CHOICE_FIELDS = {Subject.BUY: "_buys", Subject.SEVENTH: "_seventh_card"}


def _choice_street(hand: StudHand) -> int:
    """The street of the card of the player's choice: the first that deals a ``choice``
    card, else the last (the seventh card of today's games)."""
    streets = hand.game.streets
    return next((k for k, s in enumerate(streets) if "choice" in s.faces), hand.last_street)


def _chosen_card(hand: StudHand, name: str) -> str:
    """The card a buy or an up/down choice was for: the seventh card of today's games; a
    house game's card of the player's choice (its ``choice`` street may be any) or last
    card (a buy)."""
    if not hand.house:
        return "the seventh card"
    return "the card of the player's choice" if "seventh" in name else "the last card"


class _PHHDriver:
    """Turns PHH actions into events (:func:`tracker.engine.phh.parse_action`) and plays
    them on one :class:`StudHand`."""

    __slots__ = ("spec", "hand", "index", "action", "chosen")

    def __init__(self, spec: _Spec, observers: Sequence[HandObserver]) -> None:
        self.spec = spec
        self.hand = StudHand(
            variant=spec.variant,
            stakes=spec.stakes,
            stacks=spec.stacks,
            options=spec.options,
            observers=observers,
            game=spec.game,
        )
        self.index = 0
        self.action: str | None = None
        self.chosen: set[str] = set()  # "_buys", "_seventh_card": applied on their street

    def run(self) -> StudHand:
        hand = self.hand
        hand.apply(PostAntes())
        actions = self.spec.actions
        n = hand.n
        # What ``hand.apply`` plays for each event type: this machine has no automations,
        # so the table is called at once, one call an action fewer.
        play = hand._APPLY
        try:
            for index, action in enumerate(actions):
                self.index = index
                self.action = action
                try:
                    event = parse_action(action, n=n)
                except PHHActionError as exc:
                    self.moment(exc)
                    raise
                if event is not None:
                    play[type(event)](hand, event)
                if hand.seventh_open and len(self.chosen) < 2:
                    self.choose()
        except ProcedureError as exc:
            if exc.action_index is None:
                raise self._locate(exc) from None
            raise
        self.index = len(actions)
        self.action = None
        try:
            self.finish()
        except ProcedureError as exc:
            if exc.action_index is None:
                raise self._locate(exc) from None
            raise
        return hand

    def moment(self, exc: PHHActionError) -> None:
        """Before a malformed action's own fault, whether such an event could happen now
        (a deal while betting, a bet out of turn, a show before the showdown)."""
        hand = self.hand
        if exc.about is DealHole:
            hand._check_dealing()
            if not hand.in_hand[exc.seat] or hand.community_due:  # type: ignore[index]
                hand.verify_deal(exc.seat, None)  # type: ignore[arg-type]
        elif exc.about is CompleteBetOrRaise:
            hand._check_turn(exc.seat)
        elif exc.about is Show:
            hand._check_showing(exc.seat)  # type: ignore[arg-type]
        elif exc.about is not None:
            hand._check_dealing()

    def _locate(self, exc: ProcedureError) -> ProcedureError:
        name = _CHOICE_FIELDS.get(exc.subject)
        if name is None and exc.subject is Subject.DECLARATION and exc.seat is not None:
            name = "_declarations"
        field = f"{name}[{exc.seat}]" if name is not None and exc.seat is not None else None
        return exc.locate(field=field, action_index=self.index, action=self.action)

    def choose(self) -> None:
        """A street of choices is reached: apply the recorded buys on the last street and
        the up/down choices on the street of the card of the player's choice (the seventh
        card of today's games; a house game's may come before the last), each once."""
        spec = self.spec
        hand = self.hand
        chosen = self.chosen
        if "_buys" not in chosen and hand.street == hand.last_street:
            chosen.add("_buys")
            for i in range(hand.n):
                if spec.buys[i]:
                    hand.apply(Buy(i))
        if "_seventh_card" not in chosen and hand.street == _choice_street(hand):
            chosen.add("_seventh_card")
            for i in range(hand.n):
                choice = spec.seventh[i]
                if choice is not None:
                    hand.apply(ChooseSeventh(i, choice == "up"))

    def finish(self) -> None:
        hand = self.hand
        spec = self.spec
        hand.verify_over()
        for name, values in (("_buys", spec.buys), ("_seventh_card", spec.seventh)):
            if name not in self.chosen:
                for i, v in enumerate(values):
                    if v:
                        raise ProcedureError(
                            f"the hand ended before {_chosen_card(hand, name)}: there was "
                            "nothing to choose",
                            code=Code.INVALID_CHOICE.value,
                            field=f"{name}[{i}]",
                            action_index=self.index,
                        )
        showdown = hand.n_in >= 2
        for i in range(hand.n):
            decl = spec.declarations[i]
            if showdown and hand.in_hand[i] and None in hand.cards[i]:
                hand.verify_complete_hand()  # names the first seat with unknown cards
            if decl is not None:
                hand.apply(Declare(i, decl))
        hand.verify_complete_hand()


def history_from_entry(
    *,
    variant: str,
    options: Mapping[str, Any],
    stakes: Stakes | Mapping[str, int],
    starting_stacks: Sequence[int],
    entry: Mapping[str, Any],
) -> dict[str, Any]:
    """The PHH hand of a recorded full-history entry (``actions`` and the per-seat
    choices under :data:`ENTRY_FIELDS`): what :func:`replay_hand` takes.

    >>> history = history_from_entry(variant="low_hold", options={}, starting_stacks=[100, 100],
    ...     stakes={"ante": 1, "bring_in": 2, "small_bet": 5, "big_bet": 10},
    ...     entry={"actions": [], "buys": [True, False]})
    >>> history["_variant"], history["antes"], history["_buys"]
    ('low_hold', 1, [True, False])
    """
    stakes = Stakes.coerce(stakes)
    history: dict[str, Any] = {
        "variant": PHH_VARIANT,
        "_variant": variant,
        "_options": dict(options),  # every announcement, nulls included (a null is meant)
        "antes": stakes.ante,
        "bring_in": stakes.bring_in,
        "small_bet": stakes.small_bet,
        "big_bet": stakes.big_bet,
        "starting_stacks": list(starting_stacks),
        "actions": entry.get("actions"),
    }
    for theirs, ours in ENTRY_FIELDS.items():
        if entry.get(ours) is not None:
            history[theirs] = entry[ours]
    return history


def walk_history(
    hand: Mapping[str, Any],
    *,
    max_players: int | None = None,
    observers: Sequence[HandObserver] = (),
    game: GameDefinition | None = None,
) -> StudHand:
    """Walk a full hand history through the state machine (no settlement).

    Raises :class:`ProcedureError` at the first fault, naming the field or the
    action (``action_index``, ``action``). ``game``: the hand is of that house game (else
    of its ``_game`` field, if any).
    """
    try:
        spec = _read_spec(hand, max_players, game)
    except ProcedureError:
        raise
    except DomainError as exc:
        raise ProcedureError(
            exc.message, code=exc.code, field=next(iter(exc.fields), None)
        ) from None
    driver = _PHHDriver(spec, observers)
    driver.run()
    return driver.hand


def replay_hand(
    hand: Mapping[str, Any],
    *,
    evaluate: Evaluate | None = None,
    max_players: int | None = None,
    observers: Sequence[HandObserver] = (),
    game: GameDefinition | None = None,
) -> HandResult:
    """Replay a full hand history and settle it.

    ``hand`` is a PHH hand as a mapping (what :func:`tracker.engine.phh.loads`
    returns, or the same structure in JSON); see docs/phh.md for every field.
    ``evaluate`` replaces the hand-value engine (``evaluate_showdown``);
    ``max_players`` overrides the variant's player limit (RULES.md: 7, Low
    Hole 8) to replay foreign histories, e.g. eight-handed PHH stud. ``game`` plays the
    hand as that house game (a ``_game`` field does the same; ``variant`` stays F7S).

    Raises :class:`ProcedureError` (a DomainError) at the first fault,
    naming the field or the action (``action_index``, ``action``).
    """
    try:
        spec = _read_spec(hand, max_players, game)
    except ProcedureError:
        raise
    except DomainError as exc:
        raise ProcedureError(
            exc.message, code=exc.code, field=next(iter(exc.fields), None)
        ) from None
    driver = _PHHDriver(spec, observers)
    walked = driver.run()
    try:
        result = walked.settle(evaluate=evaluate, warnings=spec.warnings)
    except ProcedureError:
        raise
    except DomainError as exc:
        raise ProcedureError(
            exc.message, code=exc.code, action_index=driver.index, action=None
        ) from exc
    stated = hand.get("finishing_stacks")
    if stated is not None and list(stated) != result.finishing_stacks:
        raise ProcedureError(
            f"the hand states finishing stacks {list(stated)}, the replay gives "
            f"{result.finishing_stacks}",
            code=Code.FINISHING_STACKS.value,
            field="finishing_stacks",
        )
    return result


# --------------------------------------------------------------------------
# Quick entry: the results of a hand, walked through the same machine


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
        code=Code.INVALID_STREET.value,
        field=field,
    )


def _choices_quick(value: Any, n: int, name: str, allowed: tuple[str, ...]) -> list[str | None]:
    try:
        return _choices(value, n, name, allowed)
    except ProcedureError as exc:
        raise DomainError(
            exc.message, code=Code.INVALID, field=next(iter(exc.fields), name)
        ) from None


#: Where a quick entry holds what a machine error is about (seat-indexed lists).
_QUICK_FIELDS = {
    Subject.BUY: "buys",
    Subject.SEVENTH: "seventh_card",
    Subject.DECLARATION: "declarations",
    Subject.CHIPS: "put_in",
    Subject.CARDS: "shown",
    Subject.ACTION: "folded",
}


def _quick_error(exc: ProcedureError, field: str | None = None) -> DomainError:
    """A machine error as quick entry names it: the seat's field of the record."""
    if exc.field is not None:
        return exc  # already located
    if field is None:
        if exc.subject is Subject.COMMUNITY:
            field = "community"
        elif exc.seat is not None and exc.subject in _QUICK_FIELDS:
            field = f"{_QUICK_FIELDS[exc.subject]}[{exc.seat}]"
    return exc.locate(field=field)


@dataclass(slots=True)
class _Shown:
    """One seat's shown cards as queues (each card leaves its queue as it is dealt), and
    how many of each face were given (the field path of a card is worked out from them
    only when a card is at fault).

    >>> shown = _read_shown({"down": ["As", "Kd"], "up": ["2c"]}, 3)
    >>> shown.down.pop(0) == parse_card("As"), shown.path(False, shown.down)
    (True, 'shown[3].down[0]')
    """

    seat: int
    down: list[int]
    up: list[int]
    given: bool
    n_down: int = 0
    n_up: int = 0

    def path(self, up: bool, queue: list[int]) -> str:
        """The field of the card just taken from ``queue`` (the seat's ``up`` or down)."""
        part, given = ("up", self.n_up) if up else ("down", self.n_down)
        return f"shown[{self.seat}].{part}[{given - len(queue) - 1}]"


def _read_shown(entry: Any, i: int) -> _Shown:
    if entry is None:
        return _Shown(i, [], [], False)
    if not isinstance(entry, Mapping):
        raise DomainError("must be an object with down and up cards", field=f"shown[{i}]")
    parts: dict[str, list[int]] = {}
    for part in ("down", "up"):
        raw = entry.get(part, [])
        if not isinstance(raw, (list, tuple)):
            raise DomainError("must be a list of cards", field=f"shown[{i}].{part}")
        parts[part] = [
            card if (card := card_of_text(token)) is not None
            else parse_card(token, f"shown[{i}].{part}[{k}]")  # raises, naming the card
            for k, token in enumerate(raw)
        ]  # fmt: skip
    down, up = parts["down"], parts["up"]
    return _Shown(i, down, up, True, len(down), len(up))


@dataclass(frozen=True, slots=True, kw_only=True)
class QuickEntry:
    """A hand logged without its action history (quick entry): what
    :func:`settle_quick` and :func:`walk_quick` take.

    Per seat: ``put_in`` is every chip the seat put in (ante, bets, calls
    and a Low Hold buy; an uncalled bet may be included, it is returned);
    ``folded`` the street the seat folded on ("third".."seventh", or
    "showdown" for a hand mucked there) or None; ``shown`` the cards shown
    (``{"down": [...], "up": [...]}`` in the order dealt) or None; ``buys``
    whether the seat bought (Low Hold); ``declarations`` high/low/both;
    ``seventh_card`` up/down (Kings and Little Ones). ``community`` is the
    community card, if one was dealt. ``game``: a house game's definition (then
    ``variant`` is its name and ``options`` are not read). ``paid``: per seat, the
    chips it paid under the game's pay rule (Baseball's three up), part of its
    ``put_in``, or None. A number: each pay takes the rule's price (a ``pot`` price:
    all of it, for one card that costs). A list: each pay, in the order of the
    seat's up cards (needed for two cards that cost under a ``pot`` price: each pay
    matches the pot as it is then, so at least the antes and the pays before it).
    A seat dealt the card that costs without a pay must fold on that street. The
    fields are read as given: the walk checks them, naming the field at fault.

    >>> entry = QuickEntry(variant="seven_card_stud", stakes={"ante": 1, "bring_in": 2,
    ...     "small_bet": 5, "big_bet": 10}, starting_stacks=[100, 100], put_in=[3, 1],
    ...     folded=[None, "third"])
    >>> settle_quick(entry).finishing_stacks
    [101, 99]

    Baseball's three up paid (the pot then: the two antes), the other seat folding later:

    >>> from tracker.engine.game_presets import PRESETS
    >>> entry = QuickEntry(variant="baseball", game=PRESETS["baseball"], stakes={"ante": 1,
    ...     "bring_in": 2, "small_bet": 5, "big_bet": 10}, starting_stacks=[100, 100],
    ...     put_in=[1, 3], paid=[None, 2], folded=["fourth", None],
    ...     shown=[{"down": [], "up": ["2c", "Kd"]}, {"down": [], "up": ["3c", "8h"]}])
    >>> result = settle_quick(entry)
    >>> result.finishing_stacks, result.paid
    ([99, 101], [0, 2])

    Two threes up under the ``pot`` price: each pay given, the second matching the pot
    after the first (the antes, 2, and the first pay, 2):

    >>> entry = QuickEntry(variant="baseball", game=PRESETS["baseball"], stakes={"ante": 1,
    ...     "bring_in": 2, "small_bet": 5, "big_bet": 10}, starting_stacks=[100, 100],
    ...     put_in=[1, 7], paid=[None, [2, 4]], folded=["fourth", None],
    ...     shown=[{"down": [], "up": ["2c", "Kd"]}, {"down": [], "up": ["3c", "3h"]}])
    >>> settle_quick(entry).paid
    [0, 6]
    """

    variant: str
    stakes: Stakes | Mapping[str, int] | Any
    starting_stacks: Sequence[int]
    put_in: Sequence[int]
    folded: Sequence[str | int | None]
    shown: Sequence[Mapping[str, Any] | None] | None = None
    community: str | None = None
    options: Mapping[str, Any] | None = None
    buys: Sequence[bool] | None = None
    declarations: Sequence[str | None] | None = None
    seventh_card: Sequence[str | None] | None = None
    game: GameDefinition | None = None
    paid: Sequence[int | Sequence[int] | None] | None = None


def _per_seat(value: Any, n: int, name: str) -> list:
    if not isinstance(value, (list, tuple)) or len(value) != n:
        raise DomainError(f"must be a list with one entry per seat ({n})", field=name)
    return list(value)


def _quick_stacks(value: Any, variant: str, limit: int) -> list[int]:
    """The starting stacks: a list of 2 to ``limit`` chip counts of at least 1."""
    if not isinstance(value, (list, tuple)):
        raise DomainError("must be a list of chip counts", field="starting_stacks")
    n = len(value)
    if n < 2 or n > limit:
        raise DomainError(
            f"{variant} is dealt to 2 to {limit} players, not {n}",
            code=Code.PLAYER_COUNT.value,
            field="starting_stacks",
        )
    return [chip_amount(s, f"starting_stacks[{i}]", minimum=1) for i, s in enumerate(value)]


def _quick_put_in(value: Any, starting: list[int]) -> list[int]:
    """Every seat's chips put in, none over its starting stack."""
    n = len(starting)
    total = [chip_amount(v, f"put_in[{i}]") for i, v in enumerate(_per_seat(value, n, "put_in"))]
    for i in range(n):
        if total[i] > starting[i]:
            raise DomainError(
                f"seat {i} put in {total[i]} but had only {starting[i]}",
                code=Code.OVER_STACK.value,
                field=f"put_in[{i}]",
            )
    return total


def _quick_folds(value: Any, n: int) -> list[int | None]:
    """The street each seat folded on (None: still in); someone is still in."""
    folds = [_street_number(v, f"folded[{i}]") for i, v in enumerate(_per_seat(value, n, "folded"))]
    if all(s is not None for s in folds):
        raise DomainError("someone must still be in at the end of the hand", field="folded")
    return folds


def _quick_paid(value: Any, total: list[int]) -> tuple[list[int], list[list[int] | None]]:
    """The chips each seat paid under a pay rule (0: none), each part of its ``put_in``;
    and per seat the pays one by one when given as a list (else None)."""
    n = len(total)
    if value is None:
        return [0] * n, [None] * n
    paid: list[int] = []
    each: list[list[int] | None] = []
    for i, v in enumerate(_per_seat(value, n, "paid")):
        if isinstance(v, (list, tuple)):
            pays = [chip_amount(a, f"paid[{i}][{k}]", minimum=1) for k, a in enumerate(v)]
            paid.append(sum(pays))
            each.append(pays)
        else:
            paid.append(0 if v is None else chip_amount(v, f"paid[{i}]"))
            each.append(None)
    for i in range(n):
        if paid[i] > total[i]:
            raise DomainError(
                f"seat {i} paid {paid[i]} but put in only {total[i]} in all",
                code=Code.INVALID_PAY.value,
                field=f"paid[{i}]",
            )
    return paid, each


def _quick_buys(value: Any, n: int) -> list[bool]:
    """Whether each seat bought (Low Hold): true or false, or none given."""
    if value is None:
        return [False] * n
    flags = []
    for i, b in enumerate(_per_seat(value, n, "buys")):
        if not isinstance(b, bool):
            raise DomainError("must be true or false", field=f"buys[{i}]")
        flags.append(b)
    return flags


@dataclass
class _Quick:
    """A quick entry read field by field (each checked on its own), before the walk."""

    variant: str
    options: dict
    stakes: Stakes
    starting: list[int]
    total: list[int]
    folds: list[int | None]
    buys: list[bool]
    price: int
    choices: list[str | None]
    declarations: list[str | None]
    cards: list[_Shown]
    community: int | None
    game: GameDefinition | None = None
    paid: list[int] | None = None
    pays: list[list[int] | None] | None = None  # per seat, each pay (given as a list)

    @classmethod
    def read(cls, entry: QuickEntry, max_players: int | None) -> _Quick:
        game = entry.game
        stakes = Stakes.coerce(entry.stakes)
        if game is None:
            variant = entry.variant
            check_variant(variant)
            options = normalize_announcements(variant, entry.options)
            limit = max_players if max_players is not None else variant_max_players(variant)
        else:
            variant, options = game.name, {}
            limit = max_players if max_players is not None else game.player_limit
        starting = _quick_stacks(entry.starting_stacks, variant, limit)
        n = len(starting)
        total = _quick_put_in(entry.put_in, starting)
        folds = _quick_folds(entry.folded, n)
        buys = _quick_buys(entry.buys, n)
        paid, pays = _quick_paid(entry.paid, total)
        if any(paid) and (game is None or not game.pays):
            seat = next(i for i in range(n) if paid[i])
            raise DomainError(
                f"{variant if game is None else game.title} has no pay rule",
                code=Code.INVALID_PAY.value,
                field=f"paid[{seat}]",
            )
        if game is None:
            price = VARIANT_RULES[variant].buy_price(options, stakes.big_bet)
        else:
            buy = game.buy
            price = 0 if buy is None else buy.price if buy.price is not None else stakes.big_bet
        choices = _choices_quick(entry.seventh_card, n, "seventh_card", ("up", "down"))
        declarations = _choices_quick(
            entry.declarations, n, "declarations", ("high", "low", "both")
        )
        shown = [None] * n if entry.shown is None else _per_seat(entry.shown, n, "shown")
        cards = [_read_shown(seat, i) for i, seat in enumerate(shown)]
        community = None
        if entry.community is not None and entry.community != "":
            community = parse_card(entry.community, "community")
        return cls(
            variant, options, stakes, starting, total, folds, buys, price, choices,
            declarations, cards, community, game, paid, pays,
        )  # fmt: skip


class _QuickDriver:
    """Walks a quick entry (:class:`_Quick`) through one :class:`ResultsHand`: the chips
    first, then each street's cards as dealt and its folds, then the showdown. Each
    ``check_`` method is one rule, raising the DomainError that names its field."""

    __slots__ = (
        "quick", "hand", "community", "pay_left", "pays_left", "pays_taken", "folded_at_pay",
    )  # fmt: skip

    def __init__(self, quick: _Quick, observers: Sequence[HandObserver]) -> None:
        self.quick = quick
        n = len(quick.starting)
        self.hand = ResultsHand(
            variant=quick.variant,
            stakes=quick.stakes,
            stacks=quick.starting,
            options=quick.options,
            labels=[f"seat {i}" for i in range(n)],
            observers=observers,
            game=quick.game,
        )
        self.community = quick.community  # None once dealt
        self.pay_left = list(quick.paid or [0] * n)  # the chips paid not yet taken by a pay
        # Per seat, the pays given one by one not yet taken (None: paid given as a number).
        self.pays_left = [None if p is None else list(p) for p in quick.pays or [None] * n]
        self.pays_taken = 0  # the chips every pay so far put in the pot
        self.folded_at_pay: set[int] = set()  # seats that folded rather than pay

    def run(self) -> ResultsHand:
        hand = self.hand
        hand.apply(PostAntes())
        self.put_chips()
        try:
            for street in range(5):
                if hand.phase is Phase.OVER:
                    break
                self.walk_street(street)
        except ProcedureError as exc:
            raise _quick_error(exc) from None
        self.check_choices_reached()
        self.check_community_used()
        for i in range(hand.n):
            self.check_paid_used(i)
        try:
            self.showdown()
        except ProcedureError as exc:
            raise _quick_error(exc) from None
        for i in range(hand.n):
            self.check_shown_dealt(i)
            self.check_shown_complete(i)
        try:
            hand.verify_complete_hand()
        except ProcedureError as exc:
            raise _quick_error(exc) from None
        return hand

    # -- the chips: what can be checked without the betting

    def put_chips(self) -> None:
        quick, hand = self.quick, self.hand
        n = hand.n
        rules = hand.rules
        paid = quick.paid or [0] * n
        live = [
            quick.total[i] - (quick.price if quick.buys[i] and rules.buys else 0) - paid[i]
            for i in range(n)
        ]
        for i in range(n):
            self.check_ante(i, live[i])
        returned = self.uncalled(live)
        matched = [live[i] - returned[i] for i in range(n)]
        after = [quick.starting[i] - quick.total[i] + returned[i] for i in range(n)]
        in_hand = [s is None for s in quick.folds]
        most = max(matched[i] for i in range(n) if in_hand[i])
        for i in range(n):
            if in_hand[i]:
                self.check_called(i, matched[i], most, after[i])
            else:
                self.check_fold_not_over(i, matched[i], most)
        for i in range(n):
            hand.apply(Contribute(i, live[i] - hand.antes[i]))
            if returned[i]:
                hand.apply(ReturnUncalled(i, returned[i]))

    def check_ante(self, seat: int, live: int) -> None:
        """Everyone antes: a seat put in at least its ante besides a buy."""
        ante = self.hand.antes[seat]
        if live < ante:
            raise DomainError(
                f"seat {seat} put in {live} besides buys, less than the ante of {ante}",
                code=Code.MISSING_ANTE.value,
                field=f"put_in[{seat}]",
            )

    def uncalled(self, live: list[int]) -> list[int]:
        """The part of the biggest contribution nobody matched was not called: it goes
        back -- unless its owner folded, which no legal hand does."""
        returned = [0] * len(live)
        top = max(live)
        if live.count(top) == 1:
            second = sorted(live)[-2]
            p = live.index(top)
            if self.quick.folds[p] is not None:
                raise DomainError(
                    f"seat {p} folded but put in {top}, more than anyone else ({second}): "
                    "nobody folds to their own bet",
                    code=Code.UNMATCHED.value,
                    field=f"put_in[{p}]",
                )
            returned[p] = top - second
        return returned

    def check_called(self, seat: int, matched: int, most: int, after: int) -> None:
        """A seat still in matched the most anyone still in put in, unless all in."""
        if matched < most and after > 0:
            raise DomainError(
                f"seat {seat} is still in but put in {matched}, less than the {most} others "
                "still in put in, without being all in",
                code=Code.UNMATCHED.value,
                field=f"put_in[{seat}]",
            )

    def check_fold_not_over(self, seat: int, matched: int, most: int) -> None:
        """A seat that folded put in no more than anyone still in."""
        if matched > most:
            raise DomainError(
                f"seat {seat} folded but put in {matched}, more than anyone still in ({most})",
                code=Code.UNMATCHED.value,
                field=f"put_in[{seat}]",
            )

    # -- the walk: each street's cards as dealt, then its folds

    def walk_street(self, street: int) -> None:
        hand = self.hand
        if hand.seventh_open:
            self.choose_seventh()
        if hand.community_due:
            self.deal_community()
        else:
            self.deal_cards()
        for i, fold in enumerate(self.quick.folds):
            if fold == street and i not in self.folded_at_pay:
                hand.apply(Fold(i))
        if hand.phase is Phase.BET:
            hand.apply(EndBetting())

    def choose_seventh(self) -> None:
        """The buys (on the last street) and the up/down choices (on the street that deals
        the card of the player's choice: a house game's may come before the last)."""
        quick, hand = self.quick, self.hand
        buying = hand.street == hand.last_street
        choosing = hand.street == _choice_street(hand)  # elsewhere the machine refuses them
        for i in range(hand.n):
            if quick.buys[i] and buying:
                hand.apply(Buy(i))
            if quick.choices[i] is not None and choosing:
                hand.apply(ChooseSeventh(i, quick.choices[i] == "up"))

    def deal_community(self) -> None:
        """The deck ran short at seventh street: the community card was dealt."""
        hand = self.hand
        if self.community is None:
            raise DomainError(
                f"{hand.n_in} players reached seventh street and only "
                f"{DECK_SIZE - BURNS - hand.dealt} cards were left: a community card "
                "was dealt",
                code=Code.COMMUNITY_CARD.value,
                field="community",
            )
        hand.apply(DealBoard(self.community))
        self.community = None

    def deal_cards(self) -> None:
        """Each card due, from the seat's shown cards of that face (unknown when none). In a
        game with extra cards one at a time, as the machine lists them: an extra card comes
        due as its up card is dealt, as the seat's next card (so the order of the up cards
        is the table's)."""
        hand = self.hand
        cards = self.quick.cards
        one_by_one = bool(hand.game.extra_cards)
        # One card a deal, each the next due in the machine's order, none while a price is
        # due: ``hand.deal`` refuses a card as applying DealHole would (the same checks in
        # the same order, no automations here), without the count check of a list of cards.
        deal = hand.deal
        deals = hand.deals_due()
        while deals:
            for due in deals[:1] if one_by_one else deals:
                seat = due.seat
                shown = cards[seat]  # type: ignore[index]
                up = due.face is Face.UP
                queue = shown.up if up else shown.down
                card = queue.pop(0) if queue else None
                try:
                    deal(seat, card)  # type: ignore[arg-type]  # the face it is due
                except ProcedureError as exc:
                    path = shown.path(up, queue) if card is not None else None
                    raise _quick_error(exc, path) from None
                if hand.paying is not None:
                    self.pay_or_fold(hand.paying, card)
            deals = hand.deals_due() if one_by_one else ()

    def pay_or_fold(self, seat: int, card: int | None) -> None:
        """A card dealt face up costs (a pay rule): the seat pays from its ``paid`` (the
        rule's price, or all of it for a ``pot`` price; given as a list, the next pay),
        else folds on this street."""
        hand = self.hand
        street = hand.street_names[hand.street]
        what = f"the {format_card(card) if card is not None else 'card'} up on {street} street"
        queue = self.pays_left[seat]
        if queue is not None:
            if queue:
                self.take_pay(seat, queue.pop(0), what)
                return
        elif self.pay_left[seat]:
            left = self.pay_left[seat]
            price = hand.pay_price
            self.take_pay(seat, left if price == "pot" else min(int(price), left), what)
            return
        if self.quick.folds[seat] != hand.street:
            if queue is None and hand.pay_price == "pot" and hand.paid[seat]:
                why = (
                    f"seat {seat} paid {hand.paid[seat]} in one sum, and {what} costs too: "
                    "under a pot price give each pay, in the order of the up cards"
                )
            else:
                why = (
                    f"seat {seat} was dealt {what}, which costs: give the chips it paid "
                    "(paid), or its fold on that street"
                )
            raise DomainError(why, code=Code.INVALID_PAY.value, field=f"paid[{seat}]")
        hand.apply(Fold(seat))
        self.folded_at_pay.add(seat)

    def take_pay(self, seat: int, amount: int, what: str) -> None:
        """``seat`` pays ``amount`` for ``what``; a pay given one by one is checked against
        the price (``pot``: at least the antes and every pay before it, unless all in)."""
        hand, quick = self.hand, self.quick
        price = hand.pay_price
        queue = self.pays_left[seat]
        if queue is not None:
            k = len((quick.pays or [])[seat] or []) - len(queue) - 1
            all_in = quick.total[seat] == quick.starting[seat]
            least = sum(hand.antes) + self.pays_taken if price == "pot" else int(price)
            if price == "pot" and amount < least and not all_in:
                raise DomainError(
                    f"seat {seat} paid {amount} for {what}, less than the pot then (at "
                    f"least {least}: the antes and the pays before it)",
                    code=Code.INVALID_PAY.value,
                    field=f"paid[{seat}][{k}]",
                )
            if price != "pot" and amount != least and not (all_in and amount < least):
                raise DomainError(
                    f"seat {seat} paid {amount} for {what}; the price is {least}",
                    code=Code.INVALID_PAY.value,
                    field=f"paid[{seat}][{k}]",
                )
        hand.pay_price = amount  # the chips the entry says (quick entry has no pot so far)
        hand.apply(Pay(seat))
        self.pay_left[seat] -= amount
        self.pays_taken += amount

    def check_paid_used(self, seat: int) -> None:
        """Every chip a seat says it paid was taken by a pay its cards called for."""
        queue = self.pays_left[seat]
        if queue:
            given = len((self.quick.pays or [])[seat] or [])
            raise DomainError(
                f"seat {seat} gave {given} pays, but its cards face up called for "
                f"{given - len(queue)}",
                code=Code.INVALID_PAY.value,
                field=f"paid[{seat}][{given - len(queue)}]",
            )
        if self.pay_left[seat]:
            paid = (self.quick.paid or [])[seat]
            raise DomainError(
                f"seat {seat} paid {paid}, but its cards face up called for "
                f"{paid - self.pay_left[seat]}",
                code=Code.INVALID_PAY.value,
                field=f"paid[{seat}]",
            )

    def check_choices_reached(self) -> None:
        """A hand over before its last street had no buys, nor up/down choices if it was
        over before the street of the card of the player's choice."""
        hand, quick = self.hand, self.quick
        if hand.phase is not Phase.OVER or hand.street >= hand.last_street:
            return
        choice_street = _choice_street(hand)
        for i in range(hand.n):
            if quick.buys[i]:
                raise DomainError(
                    f"seat {i} did not reach the seventh card",
                    code=Code.INVALID_BUY.value,
                    field=f"buys[{i}]",
                )
            if quick.choices[i] is not None and hand.street < choice_street:
                raise DomainError(
                    f"seat {i} was not dealt {_chosen_card(hand, 'seventh_card')}"
                    if hand.house
                    else f"seat {i} took no seventh card of their own",
                    code=Code.INVALID_CHOICE.value,
                    field=f"seventh_card[{i}]",
                )

    def check_community_used(self) -> None:
        """A community card given was dealt: the deck ran short."""
        if self.community is not None:
            left = DECK_SIZE - BURNS - self.hand.dealt
            raise DomainError(
                "a community card is dealt only when the deck cannot give every player still "
                f"in a seventh card ({left} left after the burns)",
                code=Code.COMMUNITY_CARD.value,
                field="community",
            )

    # -- the showdown: mucks, declarations, every card shown

    def showdown(self) -> None:
        quick, hand = self.quick, self.hand
        for i, fold in enumerate(quick.folds):
            if fold == 5:
                hand.apply(Muck(i))
        for i, choice in enumerate(quick.declarations):
            if choice is not None:
                hand.apply(Declare(i, choice))  # type: ignore[arg-type]

    def check_shown_dealt(self, seat: int) -> None:
        """Every card shown was dealt: none left over."""
        entry = self.quick.cards[seat]
        if entry.down or entry.up:
            faces = self.hand.faces[seat]
            n_down = faces.count(False)
            raise DomainError(
                f"seat {seat} was dealt at most {n_down} down and {len(faces) - n_down} up cards",
                code=Code.MISSING_CARDS.value,
                field=f"shown[{seat}]",
            )

    def check_shown_complete(self, seat: int) -> None:
        """Everyone at the showdown shows every card they hold."""
        hand = self.hand
        if hand.n_in < 2 or not hand.in_hand[seat]:
            return
        if not self.quick.cards[seat].given:
            raise DomainError(
                f"seat {seat} reached the showdown: their cards are needed",
                code=Code.MISSING_CARDS.value,
                field=f"shown[{seat}]",
            )
        held = hand.cards[seat]
        if None in held:
            faces = hand.faces[seat]
            n_down = faces.count(False)
            got_down = sum(1 for c, up in zip(held, faces, strict=True) if c is not None and not up)
            got_up = sum(1 for c in held if c is not None) - got_down
            raise DomainError(
                f"seat {seat} holds {n_down} down and {len(faces) - n_down} up cards at the "
                f"showdown, not {got_down} and {got_up}",
                code=Code.MISSING_CARDS.value,
                field=f"shown[{seat}]",
            )


def walk_quick(
    entry: QuickEntry,
    *,
    max_players: int | None = None,
    observers: Sequence[HandObserver] = (),
) -> ResultsHand:
    """Check a quick entry and walk it through the results machine
    (:class:`ResultsHand`); see :func:`settle_quick`. Returns the walked hand, ready
    to settle."""
    return _QuickDriver(_Quick.read(entry, max_players), observers).run()


def settle_quick(
    entry: QuickEntry | None = None,
    /,
    *,
    evaluate: Evaluate | None = None,
    max_players: int | None = None,
    observers: Sequence[HandObserver] = (),
    **fields: Any,
) -> HandResult:
    """Settle a hand logged without its action history (quick entry): a
    :class:`QuickEntry`, or its fields as keywords.

    Checks what can be checked: antes paid by everyone who could, nobody
    over their stack, everyone still in matched the largest contribution
    among them unless all in, no folded seat over that; then the machine
    walks the hand: buys and seventh-card choices only where the game has
    them, the community card exactly when the deck ran short, shown cards
    valid, distinct and complete. Raises DomainError naming the field
    (``put_in[2]``, ``shown[1].down[0]``, ...).

    >>> settle_quick(variant="seven_card_stud", stakes={"ante": 1, "bring_in": 2,
    ...     "small_bet": 5, "big_bet": 10}, starting_stacks=[100, 100], put_in=[3, 1],
    ...     folded=[None, "third"]).finishing_stacks
    [101, 99]
    """
    if entry is None:
        entry = QuickEntry(**fields)
    elif fields:
        raise TypeError("settle_quick takes a QuickEntry or its fields, not both")
    hand = walk_quick(entry, max_players=max_players, observers=observers)
    try:
        return hand.settle(evaluate=evaluate)
    except ProcedureError as exc:
        raise _quick_error(exc) from None
