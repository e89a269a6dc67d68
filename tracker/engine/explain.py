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

from .cards import _CANON, _SYMBOL, rank_char, rank_name
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


# The suits held of one rank as 4 bits (bit s: suit s) -> how ``n`` cards of that rank are
# played: ``(suit, wild)`` each, the suits held first (spades first), then wild cards on the
# suits not held (spades first), then, in five of a kind, the spade again.
_GROUP_PLAY: tuple[tuple[tuple[tuple[int, bool], ...], ...], ...] = tuple(
    tuple(
        (
            tuple((s, False) for s in _SUITS_DESC if h >> s & 1)
            + tuple((s, True) for s in _SUITS_DESC if not h >> s & 1)
            + ((3, True),) * 5
        )[:n]
        for n in range(6)
    )
    for h in range(16)
)
# _GROUP_PLAY written out per rank index: (the five cards' names, the cards the wild cards
# stand for), so a group is played with one lookup
_GROUP_CARDS: tuple = tuple(
    tuple(
        tuple(
            (
                tuple(_CANON[r << 2 | s] for s, _w in play),
                tuple(r << 2 | s for s, w in play if w),
            )
            for play in by_count
        )
        for by_count in _GROUP_PLAY
    )
    for r in range(13)
)
_TOP_SUIT: tuple[int, ...] = tuple(  # the best suit held of a rank (-1: none)
    next((s for s in _SUITS_DESC if h >> s & 1), -1) for h in range(16)
)
_SUIT_CARDS: tuple[int, ...] = tuple(sum(1 << (4 * r + s) for r in range(13)) for s in range(4))
_RUNS: dict[int, tuple[tuple[int, int], ...]] = {}  # key -> (rank index, count) of its groups


def _runs(key: int) -> tuple[tuple[int, int], ...]:
    """The ranks of a high key, best first, as ``(rank index, how many)``."""
    runs = _RUNS.get(key)
    if runs is None:
        counts: dict[int, int] = {}
        for r in ranks_of(key):
            r = 12 if r == 1 else r - 2  # an ace playing low is an ace
            counts[r] = counts.get(r, 0) + 1
        runs = _RUNS[key] = tuple(counts.items())
    return runs


def _wild_played(
    naturals: Sequence[int], wild_cards: Sequence[int], double_ace_flush: bool, key: int
) -> list[tuple[int, int | None]]:
    """The five ``(card as played, wild card or None)`` of the high ``key``, built directly.

    Each rank of the key is played by the natural cards of that rank, best suit first (the
    flush's suit, in a flush), and then by wild cards, the highest first, each standing for
    the first suit (spades first) of that rank neither held nor stood for already: the rule
    that a wild card never stands for a card the player holds. Five of a kind and the double
    ace of a flush may stand for a card held (the spade, the flush's ace) when none is left;
    in a straight the wild cards take a suit that keeps the five from being one suit.

    >>> from tracker.engine.cards import format_card, parse_card
    >>> nat = [parse_card(c) for c in "4c 4s Jd 8h 3c".split()]
    >>> key = best_high(nat, 2)
    >>> [(format_card(c), w if w is None else format_card(w))
    ...  for c, w in _wild_played(nat, [51, 0], False, key)]
    [('4s', None), ('4c', None), ('4h', 'As'), ('4d', '2c'), ('Jd', None)]
    """
    wilds = sorted(wild_cards)  # the best one is popped first
    held = 0  # the natural cards as a bit mask (card c is bit c): a rank's suits are 4 bits
    for c in naturals:
        held |= 1 << c
    cat = key >> 20
    played: list[tuple[int, int | None]] = []
    if cat == STRAIGHT_FLUSH or cat == FLUSH:
        suit = _suit_for(naturals, len(wild_cards), double_ace_flush, key)
        ace = 48 | suit
        for r in ranks_of(key):
            c = (12 if r == 1 or r == 14 else r - 2) << 2 | suit
            if held >> c & 1:
                played.append((c, None))
                if c == ace:
                    held ^= 1 << c  # a second ace is the double ace: a wild card
            else:  # a missing card of the suit, or the double ace
                played.append((c, wilds.pop()))
        return played
    if cat == STRAIGHT:
        return _straight_played(held, wilds, key)
    for r, n in _runs(key):
        base = r << 2
        for s, wild in _GROUP_PLAY[held >> base & 15][n]:
            played.append((base | s, wilds.pop() if wild else None))
    return played


def _straight_played(held: int, wilds: list[int], key: int) -> list[tuple[int, int | None]]:
    """A straight's five cards: the best natural card of each rank (``held``: the natural
    cards' bit mask), and wild cards in a suit that keeps the five from being all one suit
    (spades first)."""
    chosen = []
    suits = 0
    for r in ranks_of(key):
        base = 48 if r == 1 else (r - 2) << 2
        s = _TOP_SUIT[held >> base & 15]
        if s < 0:
            chosen.append((base, False))
        else:
            chosen.append((base | s, True))
            suits |= 1 << s
    s = 2 if suits == 8 else 3  # all the natural cards spades: the wild cards hearts
    return [(c, None) if natural else (c | s, wilds.pop()) for c, natural in chosen]


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
    return Made(key, tuple(_wild_played(naturals, wild_cards, double_ace_flush, key)))


def wild_high(
    naturals: Sequence[int],
    wild_cards: Sequence[int],
    double_ace_flush: bool = False,
    *,
    key: int | None = None,
) -> tuple[int, dict]:
    """The high key and JSON hand of natural cards and wild cards: the same as
    ``high_hand_dict(explain_high(naturals, wild_cards, double_ace_flush, key=key))``, with
    less work.

    >>> from tracker.engine.cards import parse_card
    >>> key, hand = wild_high([parse_card(c) for c in "Ks Kd 7c 7h 2s".split()], [9, 10])
    >>> hand["text"]
    'four kings, seven kicker (4♥ as K♥, 4♦ as K♣)'
    """
    if key is None:
        key = best_high(naturals, len(wild_cards), double_ace_flush)
    if not wild_cards:
        return key, high_hand_dict(_explain_natural(naturals, key))
    cat = key >> 20
    if cat != FLUSH and cat != STRAIGHT_FLUSH:
        held = 0  # the natural cards as a bit mask (card c is bit c); a flush builds its own
        for c in naturals:
            held |= 1 << c
        hand = grouped_high(key, held, sorted(wild_cards) if len(wild_cards) > 1 else wild_cards)
        if hand is not None:
            return key, hand
    return key, played_high(naturals, wild_cards, double_ace_flush, key)


def grouped_high(key: int, held: int, wilds_up: Sequence[int]) -> dict | None:
    """The JSON hand of the high ``key`` played by groups (every category but flush and
    straight flush), from the natural cards' bit mask ``held`` (card c is bit c) and the wild
    cards, lowest first (at least one); ``None`` for a straight whose natural cards are all
    spades (:func:`played_high` plays it: the wild cards step off the suit).

    >>> from tracker.engine.cards import parse_card
    >>> nat = [parse_card(c) for c in "Ks Kd 7c 7h 2s".split()]
    >>> key = best_high(nat, 2)
    >>> grouped_high(key, sum(1 << c for c in nat), [9, 10])["cards"]
    ['Ks', 'Kd', 'Kh', 'Kc', '7h']
    """
    category, ranks, text = _WORDS.get(key) or _high_words(key)
    runs = _RUNS.get(key) or _runs(key)
    if key >> 20 == STRAIGHT:  # played as groups of one, unless the natural cards are all spades
        for r, _n in runs:
            suits = held >> (r << 2) & 15
            if suits and not suits & 8:
                break  # a natural card not a spade: the wild cards take spades
        else:
            return None
    canon = _CANON
    wild: list[dict] = []
    cards: list[str] = []
    if len(wilds_up) == 1:  # one wild card (the most usual): it stands for one card
        w = wilds_up[0]
        c = -1
        for r, n in runs:
            names, stood = _GROUP_CARDS[r][held >> (r << 2) & 15][n]
            cards += names
            if stood:
                (c,) = stood
        if c >= 0:
            wild.append({"card": canon[w], "as": canon[c]})
            text = f"{text} ({_AS[w][c]})"
    else:
        wilds = list(wilds_up)  # the best one is popped first
        parts: list[str] = []
        for r, n in runs:
            names, stood = _GROUP_CARDS[r][held >> (r << 2) & 15][n]
            cards += names
            for c in stood:  # the cards the wild cards stand for
                w = wilds.pop()
                wild.append({"card": canon[w], "as": canon[c]})
                parts.append(_AS[w][c])
        if parts:
            text += f" ({', '.join(parts)})"
    return {"category": category, "ranks": list(ranks), "cards": cards, "wild": wild, "text": text}


def played_high(
    naturals: Sequence[int], wild_cards: Sequence[int], double_ace_flush: bool, key: int
) -> dict:
    """The JSON hand of the high ``key`` played card by card (:func:`_wild_played`): a flush,
    a straight flush, a straight of spades."""
    category, ranks, text = _WORDS.get(key) or _high_words(key)
    canon = _CANON
    cards = []
    wild = []
    parts = []
    for c, w in _wild_played(naturals, wild_cards, double_ace_flush, key):
        cards.append(canon[c])
        if w is not None:
            wild.append({"card": canon[w], "as": canon[c]})
            parts.append(_AS[w][c])
    if parts:
        text += f" ({', '.join(parts)})"
    return {"category": category, "ranks": list(ranks), "cards": cards, "wild": wild, "text": text}


# "K♦ as 4♥": wild card w standing for card c, _AS[w][c]
_AS: tuple[tuple[str, ...], ...] = tuple(
    tuple(f"{_SYMBOL[w]} as {_SYMBOL[c]}" for c in range(52)) for w in range(52)
)


# " (K♦ as 4♥)": the words added to a hand's for one wild card w standing for card c,
# _IN_PARENS[w][c]
_IN_PARENS: tuple[tuple[str, ...], ...] = tuple(tuple(f" ({a})" for a in row) for row in _AS)


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
    held = 0  # the cards as a bit mask (card c is bit c): a rank's suits are 4 bits
    for c in cards:
        held |= 1 << c
    if category == "flush" or category == "straight_flush":
        counts = [0, 0, 0, 0]
        for c in cards:
            counts[c & 3] += 1
        held &= _SUIT_CARDS[counts.index(max(counts))]
    played: list[str] = []
    # each rank by its best suits held (of the flush's suit)
    for r, n in _RUNS.get(key) or _runs(key):
        played += _GROUP_CARDS[r][held >> (r << 2) & 15][n][0]
    return key, {
        "category": category,
        "ranks": list(ranks),
        "cards": played,
        "wild": [],
        "text": text,
    }


# high key -> its category, ranks and words (:func:`_high_words`)
_WORDS: dict[int, tuple[str, tuple[int, ...], str]] = {}


def _high_words(key: int) -> tuple[str, tuple[int, ...], str]:
    """A high key's category, ranks and words, worked out once per key (a few thousand keys:
    every five-card value with and without wild cards)."""
    words = _WORDS.get(key)
    if words is None:
        words = _WORDS[key] = CATEGORIES[category_of(key)], tuple(ranks_of(key)), high_text(key)
    return words
