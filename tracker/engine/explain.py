"""Turning a value into what the players see: the five cards, the wild cards, the words.

A :class:`Made` hand is a key plus the five cards as played: each entry is
``(card_as_played, wild_card_or_None)``. :func:`explain_high` rebuilds the
five cards of a high key from the natural and wild cards (the fast
evaluator only computes the key); :func:`hand_dict` turns a :class:`Made`
into the JSON hand of the API::

    {"category": "four_of_a_kind", "ranks": [4, 4, 4, 4, 11],
     "cards": ["4s", "4h", "4d", "4c", "Jd"],
     "wild": [{"card": "Kd", "as": "4h"}, {"card": "2c", "as": "4d"}],
     "text": "four fours, jack kicker (K♦ as 4♥, 2♣ as 4♦)"}
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from .cards import _CANON, _SYMBOL, make_card, rank_char, rank_name
from .hands import (
    CATEGORIES,
    FIVE_OF_A_KIND,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    ONE_PAIR,
    RANK_BIT,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    best_high,
    category_of,
    ranks_of,
    suited_value,
)

__all__ = ["Made", "explain_high", "hand_dict", "high_text"]

_SUITS_DESC = (3, 2, 1, 0)


class Made(NamedTuple):
    """A valued hand: ``key`` and the five ``(card as played, wild card or None)``."""

    key: int
    played: tuple[tuple[int, int | None], ...]


class _Builder:
    """Picks natural cards and assigns wild cards while rebuilding a hand."""

    __slots__ = ("free", "held", "played", "represented", "wilds")

    def __init__(self, naturals: Sequence[int], wild_cards: Sequence[int]):
        self.held = set(naturals)
        self.free = set(naturals)
        self.wilds = sorted(wild_cards)  # the best one is popped first
        self.represented: set[int] = set()
        self.played: list[tuple[int, int | None]] = []

    def natural(self, rank: int, suit: int | None = None) -> bool:
        """Play an unused natural card of ``rank`` (of ``suit`` if given), best suit first."""
        base = 48 if rank == 1 else (rank - 2) << 2  # make_card(rank, 0)
        free = self.free
        if suit is None:
            for c in (base + 3, base + 2, base + 1, base):
                if c in free:
                    free.discard(c)
                    self.played.append((c, None))
                    return True
            return False
        c = base + suit
        if c in free:
            free.discard(c)
            self.played.append((c, None))
            return True
        return False

    def wild(self, rank: int, suits: Sequence[int] = _SUITS_DESC, duplicate: bool = False) -> None:
        """Play the next wild card as a card of ``rank``: the first suit of ``suits`` that
        is neither held naturally nor already stood for (or, with ``duplicate``, the
        first suit of ``suits`` when none is left)."""
        base = 48 if rank == 1 else (rank - 2) << 2
        held, represented = self.held, self.represented
        for s in suits:
            c = base + s
            if c not in held and c not in represented:
                break
        else:
            if not duplicate:  # pragma: no cover - the evaluator only asks for possible hands
                raise AssertionError(f"no card of rank {rank} left for a wild card")
            c = base + suits[0]
        represented.add(c)
        self.played.append((c, self.wilds.pop()))

    def card(self, rank: int, suit: int | None = None) -> None:
        if not self.natural(rank, suit):
            self.wild(rank, _SUITS_DESC if suit is None else (suit,))

    def group(self, rank: int, size: int) -> None:
        """``size`` cards of ``rank``: naturals first, then wild cards as missing suits."""
        for _ in range(size):
            if not self.natural(rank):
                self.wild(rank)


def explain_high(
    naturals: Sequence[int],
    wild_cards: Sequence[int],
    double_ace_flush: bool = False,
    *,
    key: int | None = None,
) -> Made:
    """The best high hand with the five cards that make it (``key``: its value, when the
    caller has it already)."""
    if key is None:
        key = best_high(naturals, len(wild_cards), double_ace_flush)
    if not wild_cards:
        return _explain_natural(naturals, key)
    cat = category_of(key)
    ranks = ranks_of(key)
    b = _Builder(naturals, wild_cards)
    if cat == FIVE_OF_A_KIND:
        r = ranks[0]
        for _ in range(5):
            if not b.natural(r):
                b.wild(r, duplicate=True)
    elif cat in (STRAIGHT_FLUSH, FLUSH):
        suit = _suit_for(naturals, len(wild_cards), double_ace_flush, key)
        aces = 0
        for r in ranks:
            if r == 1:
                r = 14
            if r == 14:
                aces += 1
                if aces == 2:  # the double ace
                    b.wild(14, (suit,), duplicate=True)
                    continue
            b.card(r, suit)
    elif cat == FOUR_OF_A_KIND:
        b.group(ranks[0], 4)
        b.card(ranks[4])
    elif cat == FULL_HOUSE:
        b.group(ranks[0], 3)
        b.group(ranks[3], 2)
    elif cat == THREE_OF_A_KIND:
        b.group(ranks[0], 3)
        b.card(ranks[3])
        b.card(ranks[4])
    elif cat == TWO_PAIR:
        b.group(ranks[0], 2)
        b.group(ranks[2], 2)
        b.card(ranks[4])
    elif cat == ONE_PAIR:
        b.group(ranks[0], 2)
        for r in ranks[2:]:
            b.card(r)
    elif cat == STRAIGHT:
        chosen = {}
        for r in ranks:
            r = 14 if r == 1 else r
            chosen[r] = next(
                (make_card(r, s) for s in _SUITS_DESC if make_card(r, s) in b.free), None
            )
        nat_suits = {c & 3 for c in chosen.values() if c is not None}
        # a wild card takes a suit that keeps the five cards from being all one suit
        wild_suits = [s for s in _SUITS_DESC if len(nat_suits) != 1 or s not in nat_suits]
        for r, c in chosen.items():
            if c is None:
                b.wild(r, wild_suits)
            else:
                b.natural(r, c & 3)
    else:  # HIGH_CARD
        for r in ranks:
            b.card(r)
    return Made(key, tuple(b.played))


def _explain_natural(naturals: Sequence[int], key: int) -> Made:
    """:func:`explain_high` without wild cards: each rank of the key is played by the best
    suit held of that rank (of the flush's suit, for a flush), as the builder would."""
    cat = category_of(key)
    if cat == STRAIGHT_FLUSH or cat == FLUSH:
        counts = [0, 0, 0, 0]
        for c in naturals:
            counts[c & 3] += 1
        suit = counts.index(max(counts))  # seven cards hold five of one suit at most once
        pool = [c for c in naturals if c & 3 == suit]
    else:
        pool = naturals
    held = set(pool)
    played = []
    for r in ranks_of(key):
        base = (12 if r == 1 else r - 2) << 2  # the rank's first card (an ace low is 1)
        for c in (base + 3, base + 2, base + 1, base):  # spades first, as the builder
            if c in held:
                held.discard(c)
                played.append((c, None))
                break
    return Made(key, tuple(played))


def _suit_for(naturals: Sequence[int], wilds: int, double_ace_flush: bool, key: int) -> int:
    masks = [0, 0, 0, 0]
    for c in naturals:
        masks[c & 3] |= RANK_BIT[c]
    for s in _SUITS_DESC:
        if suited_value(masks[s], wilds, double_ace_flush) == key:
            return s
    raise AssertionError("no suit makes this flush")  # pragma: no cover


# --- words ----------------------------------------------------------------------------


def _names(ranks: Sequence[int]) -> str:
    return "-".join(rank_name(r) for r in ranks)


@lru_cache(maxsize=16384)
def high_text(key: int) -> str:
    """Plain words for a high key, e.g. ``"four fours, jack kicker"`` (kept per key: there
    are a few thousand natural hand values)."""
    cat = category_of(key)
    r = ranks_of(key)
    if cat == FIVE_OF_A_KIND:
        return f"five {rank_name(r[0], True)}"
    if cat == STRAIGHT_FLUSH:
        if r[0] == 14:
            return "royal flush"
        return f"{rank_name(r[0])}-high straight flush"
    if cat == FOUR_OF_A_KIND:
        return f"four {rank_name(r[0], True)}, {rank_name(r[4])} kicker"
    if cat == FULL_HOUSE:
        return f"full house, {rank_name(r[0], True)} full of {rank_name(r[3], True)}"
    if cat == FLUSH:
        return f"{rank_name(r[0])}-high flush ({'-'.join(rank_char(x) for x in r)})"
    if cat == STRAIGHT:
        return f"{rank_name(r[0])}-high straight"
    if cat == THREE_OF_A_KIND:
        return f"three {rank_name(r[0], True)}, {_names(r[3:])} kickers"
    if cat == TWO_PAIR:
        return (
            f"two pair, {rank_name(r[0], True)} and {rank_name(r[2], True)}, "
            f"{rank_name(r[4])} kicker"
        )
    if cat == ONE_PAIR:
        return f"pair of {rank_name(r[0], True)}, {_names(r[2:])} kickers"
    return f"{rank_name(r[0])} high, {_names(r[1:])}"


def _wild_text(played: Sequence[tuple[int, int | None]]) -> str:
    parts = [f"{_SYMBOL[w]} as {_SYMBOL[c]}" for c, w in played if w is not None]
    return f" ({', '.join(parts)})" if parts else ""


def hand_dict(
    made: Made,
    *,
    category: str,
    ranks: list[int],
    text: str,
    note: str = "",
    extra: dict | None = None,
) -> dict:
    """The JSON hand: category, ranks, cards, wild, text (and ``extra`` keys)."""
    out = {
        "category": category,
        "ranks": ranks,
        "cards": [_CANON[c] for c, _ in made.played],
        "wild": [{"card": _CANON[w], "as": _CANON[c]} for c, w in made.played if w is not None],
        "text": text + _wild_text(made.played) + note,
    }
    if extra:
        out.update(extra)
    return out


def high_hand_dict(made: Made) -> dict:
    category, ranks, text = _high_words(made.key)
    if all(w is None for _, w in made.played):  # no wild card: nothing to say about them
        return {
            "category": category,
            "ranks": list(ranks),
            "cards": [_CANON[c] for c, _ in made.played],
            "wild": [],
            "text": text,
        }
    return hand_dict(made, category=category, ranks=list(ranks), text=text)


def natural_high(cards: Sequence[int], double_ace_flush: bool = False) -> tuple[int, dict]:
    """The high key of ``cards`` (no wild card) and its JSON hand, the same as
    ``high_hand_dict(explain_high(cards, ()))``, with less work.

    >>> from tracker.engine.cards import parse_card
    >>> key, hand = natural_high([parse_card(c) for c in "As Ad 7c 7h 2s 3d 9c".split()])
    >>> hand["text"], hand["cards"]
    ('two pair, aces and sevens, nine kicker', ['As', 'Ad', '7h', '7c', '9c'])
    """
    key = best_high(cards, 0, double_ace_flush)
    category, ranks, text = _high_words(key)
    if category == "flush" or category == "straight_flush":
        counts = [0, 0, 0, 0]
        for c in cards:
            counts[c & 3] += 1
        suit = counts.index(max(counts))
        held = {c for c in cards if c & 3 == suit}
    else:
        held = set(cards)
    played = []
    for r in ranks:
        base = (12 if r == 1 else r - 2) << 2
        for c in (base + 3, base + 2, base + 1, base):
            if c in held:
                held.discard(c)
                played.append(_CANON[c])
                break
    return key, {
        "category": category,
        "ranks": list(ranks),
        "cards": played,
        "wild": [],
        "text": text,
    }


@lru_cache(maxsize=16384)
def _high_words(key: int) -> tuple[str, tuple[int, ...], str]:
    """A high key's category, ranks and words, worked out once per key."""
    return CATEGORIES[category_of(key)], tuple(ranks_of(key)), high_text(key)
