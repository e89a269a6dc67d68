"""Evaluate a showdown: validate it, value every hand, name the winners.

See docs/engine.md for the full contract; in short::

    evaluate_showdown({
        "variant": "kings_and_little_ones",
        "options": {"king_required": True},
        "community": None,
        "players": [{"down": ["Kd", "4c", "2c"], "up": ["4s", "7h", "9h", "Jd"]}, ...],
    })
    -> {"players": [{"high": {...hand...}, "low": None}, ...],
        "high_winners": [0], "low_winners": []}
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from typing import Any

from .announcements import (
    MAX_PLAYERS,
    check_variant,
    has_high,
    has_low,
    normalize_announcements,
)
from .cards import format_card, parse_card
from .errors import Code, DomainError
from .explain import natural_high, wild_high
from .hands import best_high
from .low import best_low, low_hand
from .low_hole import low_hole_hands
from .variants import VARIANT_RULES, SeventhCard
from .wild import hand_wild_options

__all__ = ["Seat", "ShowdownError", "evaluate_showdown", "hand_keys", "parse_showdown"]

_TOP_KEYS = ("variant", "options", "community", "players")
_PLAYER_KEYS = ("down", "up", "declare")
_TOP_KEY_SET = frozenset(_TOP_KEYS)
_DECLARES = ("high", "low", "both")


class ShowdownError(DomainError):
    code = "invalid_showdown"


class Seat:
    """One player's parsed cards (card ints) and declaration."""

    __slots__ = ("declare", "down", "up")

    def __init__(self, down: list[int], up: list[int], declare: str | None):
        self.down = down
        self.up = up
        self.declare = declare


def _card_list(value: Any, at: str, key: str) -> list:
    if type(value) is list:  # the usual case, without the slower abstract-class check
        return value
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise ShowdownError("must be a list of cards", field=f"{at}.{key}")
    return list(value)


# Card texts as written most often ("Kd", "kd", "KD", "10h"), one dict lookup each; any other
# spelling goes through parse_card.
_FAST_CARDS: dict[str, int] = {}
for _card in range(52):
    for _text in {format_card(_card), format_card(_card).lower(), format_card(_card).upper()}:
        _FAST_CARDS[_text] = _card
        if _text[0] in "Tt":
            _FAST_CARDS["10" + _text[1]] = _card
del _card, _text


def parse_showdown(showdown: Any) -> tuple[str, dict, int | None, list[Seat]]:
    """Check a showdown and parse it to ``(variant, announcements, community, seats)``.

    Raises :class:`DomainError` naming the field at fault.

    >>> variant, ann, community, seats = parse_showdown({"variant": "seven_card_stud",
    ...     "players": [{"down": ["As", "Ks", "Qs"], "up": ["Js", "Ts", "2d", "3c"]}]})
    >>> variant, community, [format_card(c) for c in seats[0].up]
    ('seven_card_stud', None, ['Js', 'Ts', '2d', '3c'])
    >>> parse_showdown({"variant": "seven_card_stud", "players": [], "pot": 3})
    Traceback (most recent call last):
    ...
    tracker.engine.showdown.ShowdownError: unknown field 'pot' (fields: variant, options, community, players)
    """
    if type(showdown) is not dict and not isinstance(showdown, Mapping):
        raise ShowdownError("a showdown must be an object with variant, options, players")
    if not showdown.keys() <= _TOP_KEY_SET:
        _refuse_unknown(showdown, _TOP_KEYS, "")
    variant, ann = _variant_and_announcements(showdown)
    cards = _Cards()
    community = None
    if showdown.get("community") is not None:
        community = cards.take(showdown["community"], (None,))
    players = _players(showdown, variant)
    declaring = ann.get("declaration") == "declare" and ann.get("game") == "high_low"
    quick = community is None and not declaring
    two_down = VARIANT_RULES[variant].seventh is not SeventhCard.DOWN  # 2 down, 5 up allowed
    if quick:
        hands = _quick_hands(players, two_down)
        if hands is not None:
            return variant, ann, community, [Seat([*d], c[len(d) :], None) for d, c in hands]
    seats = []
    for i, p in enumerate(players):
        seat = cards.quick(p, i, two_down) if quick else None
        if seat is None:
            seat = _seat(p, i, cards, variant, community, declaring)
        seats.append(seat)
    return variant, ann, community, seats


def _as_written(down: Any, up: Any, two_down: bool) -> bool:
    """Whether ``down`` and ``up`` are lists of seven cards in all, three down (or two when
    ``two_down``): the shape the quick readers take.

    >>> _as_written(["As", "Kd", "2c"], ["3h", "4h", "5h", "6h"], False)
    True
    >>> _as_written(["As", "Kd"], ["3h", "4h", "5h", "6h", "7h"], False)
    False
    """
    if type(down) is not list or type(up) is not list or len(down) + len(up) != 7:
        return False
    return len(down) == 3 or (len(down) == 2 and two_down)


# one player's down cards and all of the cards, down first (the community card last)
_Hand = tuple[Sequence[int], list[int]]


def _quick_hands(players: Sequence, two_down: bool) -> list[_Hand] | None:
    """Every player as written most often (:meth:`_Cards.quick`: only ``down`` and ``up``,
    three down and four up, or two and five when ``two_down``), read at once, each list of
    cards unpacked and looked up in one expression, the cards checked new all together;
    ``None`` when one is not so, and the players are then read one by one.

    >>> _quick_hands([{"down": ["2c", "2d", "2h"], "up": ["2s", "3c", "3d", "3h"]}], False)
    [((0, 1, 2), [0, 1, 2, 3, 4, 5, 6])]
    >>> _quick_hands([{"down": ["2c", "2d"], "up": ["2s", "3c", "3d", "3h", "3s"]}], True)
    [((0, 1), [0, 1, 3, 4, 5, 6, 7])]
    >>> _quick_hands([{"down": ["2c", "2d"], "up": ["2s", "3c", "3d", "3h", "3s"]}], False)
    >>> _quick_hands([{"down": ["2c", "2d", "2h"], "up": ["2s", "3c", "3d", "2c"]}], False)
    """
    fast = _FAST_CARDS
    hands: list[_Hand] = []
    every: list[int] = []
    try:
        for p in players:
            if type(p) is not dict or len(p) != 2:
                return None
            down, up = p["down"], p["up"]
            if type(down) is not list or type(up) is not list:
                return None
            try:  # the counts checked by the unpacking itself
                a, b, c = down
                d, e, f, g = up
            except ValueError:  # not three down and four up: two and five, or refused
                if len(down) != 2 or len(up) != 5 or not two_down:
                    return None
                a, b = fast[down[0]], fast[down[1]]
                cards = [a, b, *map(fast.__getitem__, up)]
                hands.append(((a, b), cards))
            else:
                a, b, c = fast[a], fast[b], fast[c]
                cards = [a, b, c, fast[d], fast[e], fast[f], fast[g]]
                hands.append(((a, b, c), cards))
            every += cards
    except (KeyError, TypeError):  # a field missing, a card spelt otherwise or not a key
        return None
    if len(set(every)) != len(every):
        return None
    return hands


def _seat(
    p: Any, i: int, cards: _Cards, variant: str, community: int | None, declaring: bool
) -> Seat:
    """Player ``i``, checked field by field (each error names its field)."""
    at = f"players[{i}]"
    if type(p) is not dict and not isinstance(p, Mapping):
        raise ShowdownError("a player must be an object with down and up", field=at)
    _refuse_unknown(p, _PLAYER_KEYS, f"{at}.")
    for key in ("down", "up"):
        if key not in p:
            raise ShowdownError("required", code=Code.REQUIRED, field=f"{at}.{key}")
    down, up = cards.player(p, i, at)
    _check_counts(variant, community, down, up, at)
    return Seat(down, up, _declare(p, at, declaring))


def _refuse_unknown(fields: Mapping, known: Sequence[str], prefix: str) -> None:
    """Refuse a field not ``known`` (its path: ``prefix`` and the field)."""
    for key in fields:
        if key not in known:
            raise ShowdownError(
                f"unknown field {key!r} (fields: {', '.join(known)})", field=f"{prefix}{key}"
            )


def _variant_and_announcements(showdown: Mapping) -> tuple[str, dict]:
    """The variant and its announcements (the defaults when none are given)."""
    if "variant" not in showdown:
        raise ShowdownError("the variant is required", code=Code.REQUIRED, field="variant")
    variant = check_variant(showdown["variant"])
    options = showdown.get("options")
    if options is not None and type(options) is not dict:
        return variant, normalize_announcements(variant, options)
    return variant, dict(_frame(variant, options)[1])  # worked out once


# What every showdown of one variant and set of options needs, worked out once: (variant,
# announcements, has a high half, has a low half, has no wild card, double_ace_flush, is Low
# Hole, may hold two down and five up, most players, not declared: may be read the quick way)
_Frame = tuple[str, dict, bool, bool, bool, bool, bool, bool, int, bool]

# :func:`_options_key` -> its frame, for the few option sets a night plays
_FRAMES: dict[Hashable, _Frame] = {}


def _options_key(variant: str, options: dict | None) -> Hashable:
    """The key of ``variant`` and ``options`` in :data:`_FRAMES`: the variant alone when no
    option is given, else with the name, type and value of each (``1`` is not ``True``).

    >>> _options_key("low_hole", {}), _options_key("low_hole", {"game": "high_low"})
    ('low_hole', ('low_hole', ('game', <class 'str'>, 'high_low')))
    """
    if not options:
        return variant
    if len(options) == 1:  # the most usual: no loop
        ((name, value),) = options.items()
        return (variant, (name, type(value), value))
    return (variant, *[(k, type(v), v) for k, v in options.items()])


def _frame(variant: str, options: dict | None) -> _Frame:
    """The frame of ``variant`` (a variant) and ``options``, kept once worked out (raises
    :class:`.AnnouncementError` for a bad option).

    >>> _frame("low_hole", {"game": "high_low"})[2:]
    (True, True, False, False, True, False, 8, True)
    """
    try:
        key = _options_key(variant, options)
        frame = _FRAMES.get(key)
    except TypeError:  # a value that cannot be kept (a list): checked afresh
        return _new_frame(variant, normalize_announcements(variant, options))
    if frame is None:
        frame = _new_frame(variant, normalize_announcements(variant, options))
        if len(_FRAMES) >= 512:
            _FRAMES.clear()
        _FRAMES[key] = frame
    return frame


def _new_frame(variant: str, ann: dict) -> _Frame:
    """The frame of ``variant`` and its announcements ``ann`` (normalized)."""
    rules = VARIANT_RULES[variant]
    declared = ann.get("declaration") == "declare" and ann.get("game") == "high_low"
    return (
        variant,
        ann,
        has_high(variant, ann),
        has_low(variant, ann),
        not rules.has_wild,
        ann["double_ace_flush"],
        variant == "low_hole",
        rules.seventh is not SeventhCard.DOWN,
        MAX_PLAYERS[variant],
        not declared,
    )


def _quick_read(showdown: Any) -> tuple[_Frame, list[_Hand]] | None:
    """A showdown as written most often (no community card, no declaration, the players as
    :func:`_quick_hands` takes them), read without checking field by field: its frame and
    every player's hand; ``None`` for any other, or the first of its variant and options, to
    be read by :func:`parse_showdown` (which refuses what is wrong).

    >>> _frame("seven_card_stud", None)[0]
    'seven_card_stud'
    >>> frame, hands = _quick_read({"variant": "seven_card_stud",
    ...     "players": [{"down": ["As", "Ks", "Qs"], "up": ["Js", "Ts", "2d", "3c"]}]})
    >>> hands
    [((51, 47, 43), [51, 47, 43, 39, 35, 1, 4])]
    >>> _quick_read({"variant": "seven_card_stud", "players": [], "pot": 3}) is None
    True
    """
    if type(showdown) is not dict:
        return None
    try:
        variant, players = showdown["variant"], showdown["players"]
    except KeyError:
        return None
    # no field but variant, players and those two
    if len(showdown) != 2 + ("options" in showdown) + ("community" in showdown):
        return None
    options = showdown.get("options")
    if type(variant) is not str or type(players) is not list:
        return None
    if showdown.get("community") is not None or (options is not None and type(options) is not dict):
        return None
    try:
        frame = _FRAMES.get(_options_key(variant, options))
    except TypeError:  # an option that cannot be a key
        return None
    if frame is None or not frame[9] or not 0 < len(players) <= frame[8]:
        return None
    hands = _quick_hands(players, frame[7])
    return None if hands is None else (frame, hands)


def _players(showdown: Mapping, variant: str) -> Sequence:
    """The list of players: one at least, and no more than the variant seats."""
    players = showdown.get("players")
    if type(players) is not list and (
        isinstance(players, str) or not isinstance(players, Sequence)
    ):
        raise ShowdownError("must be a list of players", field="players")
    if not players:
        raise ShowdownError("a showdown needs at least one player", field="players")
    limit = MAX_PLAYERS[variant]
    if len(players) > limit:
        raise ShowdownError(
            f"{len(players)} players; {variant} seats at most {limit}",
            code=Code.TOO_MANY_PLAYERS,
            field="players",
        )
    return players


def _declare(p: Mapping, at: str, declaring: bool) -> str | None:
    """The player's declaration: required when the hand is declared, else none."""
    declare = p.get("declare")
    if declare is not None and declare not in _DECLARES:
        raise ShowdownError(f"{declare!r} is not one of high, low, both", field=f"{at}.declare")
    if declaring and declare is None:
        raise ShowdownError(
            "required: the hand is played high-low with declarations (high, low or both)",
            code=Code.REQUIRED,
            field=f"{at}.declare",
        )
    return declare if declaring else None


_PLAYER_KEY_SET = frozenset(_PLAYER_KEYS)


class _Cards:
    """The cards of one showdown read so far, with where each was seen, as (player,
    "down"/"up", index); the field path is written only for an error ("players[1].up[2]"),
    not for every card, and the places of the cards read the quick way only when a card is
    read one by one (to name where it was seen first)."""

    def __init__(self) -> None:
        self.seen: dict[int, tuple] = {}
        self.cards: set[int] = set()  # every card read
        self.unplaced: list[tuple[int, list[int], list[int]]] = []  # (player, down, up)

    @staticmethod
    def path(at: tuple) -> str:
        return "community" if at[0] is None else f"players[{at[0]}].{at[1]}[{at[2]}]"

    def place(self) -> None:
        """Write where each card read the quick way was seen."""
        seen = self.seen
        for i, down, up in self.unplaced:
            for j, card in enumerate(down):
                seen[card] = (i, "down", j)
            for j, card in enumerate(up):
                seen[card] = (i, "up", j)
        self.unplaced = []

    def take(self, token: Any, at: tuple) -> int:
        """One card, named at ``at``: parsed, and refused if it was seen before."""
        card = _FAST_CARDS.get(token) if type(token) is str else None
        if card is None:
            card = parse_card(token, self.path(at))
        self.place()
        if card in self.seen:
            other, field = self.path(self.seen[card]), self.path(at)
            msg = f"{format_card(card)} appears twice: {other} and {field}"
            raise ShowdownError(msg, code=Code.DUPLICATE_CARD, fields={other: [msg], field: [msg]})
        self.seen[card] = at
        self.cards.add(card)
        return card

    def quick(self, p: Any, i: int, two_down: bool) -> Seat | None:
        """Player ``i`` as written most often (an object of three down and four up cards, or
        two and five when ``two_down``, spelt as :data:`_FAST_CARDS` has them, all new, no
        declaration, no community card), read without checking field by field; ``None`` for
        any other, to be read so."""
        if type(p) is not dict or not p.keys() <= _PLAYER_KEY_SET:
            return None
        if len(p) == 3 and p["declare"] is not None:
            return None
        down, up = p.get("down"), p.get("up")
        if not _as_written(down, up, two_down):
            return None
        fast = _FAST_CARDS.get
        try:
            down = [*map(fast, down)]
            up = [*map(fast, up)]
        except TypeError:  # a token that cannot be a key: read it one by one
            return None
        fresh = set(down)
        fresh.update(up)
        if None in fresh or len(fresh) != 7 or not fresh.isdisjoint(self.cards):
            return None
        self.cards |= fresh
        self.unplaced.append((i, down, up))
        return Seat(down, up, None)

    def player(self, p: Mapping, i: int, at: str) -> tuple[list[int], list[int]]:
        """Player ``i``'s down and up cards: looked up as written most often, and card by
        card (naming each place) only when one is spelt otherwise or seen twice."""
        fast = _FAST_CARDS.get
        down = _card_list(p["down"], at, "down")
        up = _card_list(p["up"], at, "up")
        down = [fast(t) if type(t) is str else None for t in down] if down else []
        up = [fast(t) if type(t) is str else None for t in up] if up else []
        fresh = set(down)
        fresh.update(up)
        if None in fresh or len(fresh) != len(down) + len(up) or not fresh.isdisjoint(self.cards):
            down = [self.take(t, (i, "down", j)) for j, t in enumerate(p["down"])]
            up = [self.take(t, (i, "up", j)) for j, t in enumerate(p["up"])]
            return down, up
        self.cards |= fresh
        self.unplaced.append((i, down, up))
        return down, up


def _check_counts(variant: str, community: int | None, down: list, up: list, at: str) -> None:
    nd, nu = len(down), len(up)
    if community is not None:
        if (nd, nu) != (2, 4):
            raise ShowdownError(
                f"{nd} down and {nu} up; with a community card each player holds "
                "2 down and 4 up (6 cards)",
                code=Code.WRONG_CARD_COUNT,
                field=at,
            )
        return
    if nd + nu != 7:
        raise ShowdownError(
            f"{nd + nu} cards ({nd} down, {nu} up); each player holds 7 "
            "(or 6 when there is a community card)",
            code=Code.WRONG_CARD_COUNT,
            field=at,
        )
    if VARIANT_RULES[variant].seventh is SeventhCard.DOWN:  # always face down (RULES.md)
        if nd != 3:
            raise ShowdownError(
                f"{nd} down and {nu} up; in {variant} the seventh card comes face down "
                "(3 down, 4 up)",
                code=Code.WRONG_CARD_COUNT,
                field=f"{at}.down",
            )
    elif nd not in (2, 3):
        raise ShowdownError(
            f"{nd} down and {nu} up; a player holds 3 down and 4 up, or 2 down and 5 up "
            "when the seventh card was taken face up",
            code=Code.WRONG_CARD_COUNT,
            field=f"{at}.down",
        )


# --- valuing ----------------------------------------------------------------------


def _high_entry(
    variant: str, ann: dict, down: Sequence[int], up: Sequence[int], cards: list[int]
) -> tuple[int, dict]:
    """The high key and the JSON hand of a seat (``cards``: all of its cards): the short way
    when it has no wild card."""
    da = ann["double_ace_flush"]
    options = hand_wild_options(variant, ann, down, up, cards, "high")
    if len(options) == 1:  # one way to play the hand (no wild card, or one set): value it once
        opt = options[0]
        if not opt:
            return natural_high(cards, da)
        return wild_high([c for c in cards if c not in opt], list(opt), da)
    best_opt, best_key = None, -1
    for opt in options:
        key = best_high([c for c in cards if c not in opt], len(opt), da)
        if key > best_key:
            best_opt, best_key = opt, key
    return wild_high([c for c in cards if c not in best_opt], list(best_opt), da, key=best_key)


def _low_entry(
    variant: str, ann: dict, down: Sequence[int], up: Sequence[int], cards: list[int]
) -> tuple[int | None, dict]:
    """The low key (``None`` when the low does not qualify) and the JSON hand of a seat
    (``cards``: all of its cards): the best qualifying low of its wild options, else the best
    low at all (the first on a tie)."""
    ranking, qualifier = ann["low_ranking"], ann["low_qualifier"]
    options = hand_wild_options(variant, ann, down, up, cards, "low")
    if len(options) == 1:  # one way to play the hand: no choice to make
        opt = options[0]
        key, ok, hand = low_hand(
            [c for c in cards if c not in opt] if opt else cards, sorted(opt), ranking, qualifier
        )
        return (key if ok else None), hand
    best = None
    for opt in options:
        found = low_hand([c for c in cards if c not in opt], sorted(opt), ranking, qualifier)
        if best is None or (found[1], found[0]) > (best[1], best[0]):
            best = found
    key, ok, hand = best
    return (key if ok else None), hand


def hand_keys(
    variant: str,
    announcements: Mapping[str, Any],
    down: Sequence[int],
    up: Sequence[int],
    community: int | None = None,
) -> tuple[int | None, int | None]:
    """Fast values of one player's hand, no explanation: ``(high_key, low_key)``.

    Cards are ints; ``announcements`` must be normalized. ``high_key`` is
    ``None`` when the game has no high half, ``low_key`` when it has no low
    half or no five cards qualify. Bigger keys are better hands.
    """
    cards = list(down) + list(up) + ([] if community is None else [community])
    high = low = None
    if has_high(variant, announcements):
        da = announcements["double_ace_flush"]
        for opt in hand_wild_options(variant, announcements, down, up, cards, "high"):
            k = best_high([c for c in cards if c not in opt], len(opt), da)
            if high is None or k > high:
                high = k
    if has_low(variant, announcements):
        for opt in hand_wild_options(variant, announcements, down, up, cards, "low"):
            k = best_low(
                [c for c in cards if c not in opt],
                len(opt),
                announcements["low_ranking"],
                announcements["low_qualifier"],
            )
            if k is not None and (low is None or k > low):
                low = k
    return high, low


def _best_of(keys: Sequence[int | None]) -> list[int]:
    """The indices of the best key (``None``: no hand), in order.

    >>> _best_of([3, 7, 5]), _best_of([7, None, 7]), _best_of([None, None]), _best_of([])
    ([1], [0, 2], [], [])
    """
    if None in keys:
        present = [k for k in keys if k is not None]
        if not present:
            return []
        top = max(present)
    elif keys:
        top = max(keys)
    else:
        return []
    if keys.count(top) == 1:  # the usual case: one winner, found without a loop in Python
        return [keys.index(top)]
    return [i for i, k in enumerate(keys) if k == top]


def _winners(keys: dict[int, int]) -> list[int]:
    if not keys:
        return []
    top = max(keys.values())
    return sorted(i for i, k in keys.items() if k == top)


def decide_winners(
    high: Sequence[int | None], low: Sequence[int | None], declares: Sequence[str | None] | None
) -> tuple[list[int], list[int]]:
    """Winner indices from keys (``None`` = no hand that half / no qualifying low).

    Without declarations (``declares`` is None) cards speak. With them, a
    player competes only for the half (or halves) declared. A player who
    declares ``both`` must win or tie both ways against every player who
    declared that way (other ``both`` players included); one who does not
    is out of both halves, and the winners are found again among the rest.
    (A ``both`` player who passed the first check still wins both ways
    among fewer players; the loop only makes that explicit.) A half nobody
    is left to win has no winners.
    """
    n = len(high)
    if declares is None:
        return _best_of(high), _best_of(low)
    out: set[int] = set()
    while True:
        hi_c = {
            i: high[i]
            for i in range(n)
            if i not in out and declares[i] in ("high", "both") and high[i] is not None
        }
        lo_c = {
            i: low[i]
            for i in range(n)
            if i not in out and declares[i] in ("low", "both") and low[i] is not None
        }
        hi, lo = _winners(hi_c), _winners(lo_c)
        losers = {
            i
            for i in range(n)
            if i not in out and declares[i] == "both" and not (i in hi and i in lo)
        }
        if not losers:
            return hi, lo
        out |= losers


def evaluate_showdown(showdown: Mapping[str, Any]) -> dict:
    """Value every player's hand and name the winners (see the module doc).

    >>> result = evaluate_showdown({"variant": "seven_card_stud", "players": [
    ...     {"down": ["As", "Ad", "7c"], "up": ["7h", "2s", "3d", "9c"]},
    ...     {"down": ["Ks", "Kd", "7d"], "up": ["7s", "2h", "3c", "9d"]}]})
    >>> [p["high"]["text"] for p in result["players"]], result["high_winners"]
    (['two pair, aces and sevens, nine kicker', 'two pair, kings and sevens, nine kicker'], [0])
    """
    read = _quick_read(showdown)
    if read is not None:
        frame, hands = read
        return _evaluate(frame, hands, None, None)
    variant, ann, community, seats = parse_showdown(showdown)
    hands = []
    for seat in seats:
        cards = seat.down + seat.up
        if community is not None:
            cards.append(community)
        hands.append((seat.down, cards))
    declares = [s.declare for s in seats] if seats[0].declare is not None else None
    return _evaluate(_new_frame(variant, ann), hands, community, declares)


_LEAST = float("-inf")  # below every key


def _evaluate(
    frame: _Frame, hands: list[_Hand], community: int | None, declares: list[str | None] | None
) -> dict:
    """:func:`evaluate_showdown`'s answer for the players' ``hands`` (at least one) in a
    showdown of ``frame`` with the ``community`` card, declared as ``declares`` (``None``:
    cards speak); with cards speaking the winners are kept seat by seat, as
    :func:`_best_of` has them."""
    variant, ann, want_high, want_low, natural, da, split, _two, _most, _quick = frame
    players: list[dict[str, Any]] = []
    keys: list[tuple[int | None, int | None]] = []  # for declarations
    hi: list[int] = []
    lo: list[int] = []
    top_hi = top_lo = _LEAST
    i = 0
    for down, cards in hands:
        if split:  # one way to play each half: both from one sum of the cards
            hk, high, lk, low = low_hole_hands(down, cards, ann, want_high, want_low)
        elif natural and not want_low:  # the short way
            hk, high = natural_high(cards, da)
            lk = low = None
        else:
            n = len(down)
            up = cards[n:] if community is None else cards[n:-1]
            hk, high, lk, low = _hands(variant, ann, want_high, want_low, down, up, cards)
        players.append({"high": high, "low": low})
        if declares is not None:
            keys.append((hk, lk))
        if hk is not None and hk >= top_hi:
            if hk == top_hi:
                hi.append(i)
            else:
                top_hi, hi = hk, [i]
        if lk is not None and lk >= top_lo:
            if lk == top_lo:
                lo.append(i)
            else:
                top_lo, lo = lk, [i]
        i += 1
    if declares is not None:
        for entry, declare in zip(players, declares, strict=True):
            entry["declare"] = declare
        hi, lo = decide_winners([k[0] for k in keys], [k[1] for k in keys], declares)
    return {"players": players, "high_winners": hi, "low_winners": lo}


def _hands(
    variant: str,
    ann: dict,
    want_high: bool,
    want_low: bool,
    down: Sequence[int],
    up: Sequence[int],
    cards: list[int],
) -> tuple[int | None, dict | None, int | None, dict | None]:
    """A seat's ``(high key, high hand, low key, low hand)`` (``cards``: all of its cards) in
    a game other than Low Hole; a half the game has not is ``None``."""
    hk = lk = high = low = None
    if want_high:
        if VARIANT_RULES[variant].has_wild:
            hk, high = _high_entry(variant, ann, down, up, cards)
        else:  # the short way
            hk, high = natural_high(cards, ann["double_ace_flush"])
    if want_low:
        lk, low = _low_entry(variant, ann, down, up, cards)
    return hk, high, lk, low
