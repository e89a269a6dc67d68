"""Low Hole's hands, both halves from one sum of a seat's seven cards.

In Low Hole a seat's wild cards are the cards it holds of one rank: the lowest hole card's
(:func:`.wild.low_hole_split`), or, for an ace-low low half with an ace in the hole, the
aces. So each card is given one int (:data:`_CARD_SUM`) holding its rank count and suit count
(:data:`.hands.CARD_WORD`) and, above them, its own bit; the sum of a seat's seven is at once
the counting word of the high value's table and the bit mask of the cards held, and taking
one rank's cards out of it (one lookup: :data:`_OF_RANK`) leaves the natural cards' sum. The
high value is then one lookup in the table of rank counts (the flush test on the suit counts
in the same sum), its five cards are played from the bit mask (:func:`.explain.grouped_high`),
and an ace-to-five low of five different ranks is one lookup by its natural ranks' counts
(:data:`_ACE_TO_FIVE`) and the first card of each rank in the hand's order. The rest (a flush,
a low that must play a pair, another low ranking, a hand not of seven cards) goes the long
way, by the same functions, so every answer is theirs:

>>> from tracker.engine.cards import parse_card
>>> ann = {"double_ace_flush": False, "low_ranking": "ace_to_five", "low_qualifier": 8}
>>> cards = [parse_card(c) for c in "4d 9c Kh 4s 2d Ah 7c".split()]
>>> hk, high, lk, low = low_hole_hands(cards[:3], cards, ann, True, True)
>>> high["text"], low["text"]
('three aces, king-nine kickers (4♠ as A♠, 4♦ as A♦)', '7-4-3-2-A low (4♦ as 4♠, 4♠ as 3♠)')
>>> (hk, high, lk, low) == _long_way(cards[:3], cards, ann, True, True)
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import _CANON
from .explain import _AS, grouped_high, played_high, wild_high
from .hands import _GROUPED7, CARD_WORD, FLUSH, STRAIGHT_FLUSH, _grouped7_miss, best_high
from .low import _FIVES, _five_lowest, low_hand
from .wild import low_hole_split

__all__ = ["low_hole_hands"]

_HELD = 68  # card c's own bit in a seat's sum: bit 68 + c, above the rank and suit counts
_CARD_SUM: tuple[int, ...] = tuple(CARD_WORD[c] | 1 << (_HELD + c) for c in range(52))
_RANKS = (1 << 52) - 1  # the rank counts of a sum (4 bits a rank)
_SUITS = 0xFFFF  # the suit counts, once shifted down by 52
# rank index -> the suits held of it (4 bits) -> (what those cards add to a seat's sum, how
# many they are, the cards lowest first)
_OF_RANK: tuple[tuple[tuple[int, int, tuple[int, ...]], ...], ...] = tuple(
    tuple(
        (
            sum(_CARD_SUM[r << 2 | s] for s in range(4) if h >> s & 1),
            h.bit_count(),
            tuple(r << 2 | s for s in range(4) if h >> s & 1),
        )
        for h in range(16)
    )
    for r in range(13)
)


def low_hole_hands(
    down: Sequence[int],
    cards: list[int],
    ann: Mapping[str, Any],
    want_high: bool,
    want_low: bool,
) -> tuple[int | None, dict | None, int | None, dict | None]:
    """A Low Hole seat's ``(high key, high hand, low key, low hand)`` (``cards``: all of its
    cards, ``down`` first; the low key ``None`` when the low does not qualify), the same as
    :func:`.explain.wild_high` and :func:`.low.low_hand` on :func:`.wild.low_hole_split`'s
    cards; a half not wanted is ``None``.

    >>> from tracker.engine.cards import parse_card
    >>> ann = {"double_ace_flush": False, "low_ranking": "ace_to_five", "low_qualifier": 8}
    >>> cards = [parse_card(c) for c in "Ad 9c Kh As 2d Kc Qc".split()]
    >>> _hk, high, lk, low = low_hole_hands(cards[:3], cards, ann, True, True)
    >>> high["text"]  # the nine of clubs wild
    'full house, aces full of kings (9♣ as A♥)'
    >>> lk, low["text"]  # the aces wild
    (None, 'Q-9-3-2-A low (A♦ as 3♠, A♠ as A♠); does not qualify (8 or better needed)')
    """
    if len(cards) != 7:
        return _long_way(down, cards, ann, want_high, want_low)
    a, b, c, d, e, f, g = cards
    cs = _CARD_SUM
    total = cs[a] + cs[b] + cs[c] + cs[d] + cs[e] + cs[f] + cs[g]
    rank = min(down) >> 2
    out, wilds, wild_cards = _OF_RANK[rank][total >> (_HELD + (rank << 2)) & 15]
    hk = high = lk = low = None
    if want_high:
        hk, high = _high(total - out, wilds, wild_cards, cards, rank, ann["double_ace_flush"])
    if want_low:
        if ann["low_ranking"] != "ace_to_five":
            return hk, high, *_long_way(down, cards, ann, False, True)[2:]
        if rank != 12 and max(down) >= 48:  # a hole ace: the aces are the low half's wild cards
            rank = 12
            out, wilds, wild_cards = _OF_RANK[12][total >> (_HELD + 48) & 15]
        lk, low = _ace_to_five(total - out, wilds, wild_cards, cards, rank, ann["low_qualifier"])
    return hk, high, lk, low


def _long_way(
    down: Sequence[int], cards: list[int], ann: Mapping[str, Any], want_high: bool, want_low: bool
) -> tuple[int | None, dict | None, int | None, dict | None]:
    """:func:`low_hole_hands` through the cards split into lists."""
    high_naturals, high_wild, low_naturals, low_wild = low_hole_split(ann, down, cards)
    hk = high = lk = low = None
    if want_high:
        hk, high = wild_high(high_naturals, high_wild, ann["double_ace_flush"])
    if want_low:
        lk, ok, low = low_hand(low_naturals, low_wild, ann["low_ranking"], ann["low_qualifier"])
        if not ok:
            lk = None
    return hk, high, lk, low


def _high(
    nat: int, wilds: int, wild_cards: tuple[int, ...], cards: list[int], rank: int, da: bool
) -> tuple[int, dict]:
    """The high key and hand of the natural cards' sum ``nat`` and ``wild_cards`` (lowest
    first: the cards of ``rank`` among ``cards``)."""
    word = nat & _RANKS
    key = _GROUPED7.get(word) or _grouped7_miss(word)
    naturals = None
    # a suit with at least 5 - wilds cards could make a flush or a straight flush
    if key < 0x800000 and ((nat >> 52 & _SUITS) + (3 + wilds) * 0x1111) & 0x8888:
        naturals = [c for c in cards if c >> 2 != rank]
        key = best_high(naturals, wilds, da)
    cat = key >> 20
    if cat != FLUSH and cat != STRAIGHT_FLUSH:
        hand = grouped_high(key, nat >> _HELD, wild_cards)
        if hand is not None:
            return key, hand
    if naturals is None:
        naturals = [c for c in cards if c >> 2 != rank]
    return key, played_high(naturals, wild_cards, da, key)


# the natural cards' rank counts (4 bits a rank) | wild count << 52 -> an ace-to-five low of
# five different ranks: (value, ranks, words, the rank index of each card high first, -1
# for a wild card's place, the wild cards' places with their rank's first card); False when
# a pair must be played
_ACE_TO_FIVE: dict[int, tuple | bool] = {}


def _ace_to_five_entry(word: int, wilds: int) -> tuple | bool:
    """What :data:`_ACE_TO_FIVE` keeps for ``word | wilds << 52``: :func:`.low._five_lowest`
    by rank index.

    >>> _ace_to_five_entry(0x1000000002011, 1)[2:]  # an ace, a deuce, a trey, two fives
    ('5-4-3-2-A low', (3, -1, 1, 0, 12), ((1, 8),))
    """
    bits = 0  # the low ranks held: bit r for low rank r (an ace is 1)
    for i in range(13):
        if word >> (4 * i) & 15:
            bits |= 1 << (1 if i == 12 else i + 2)
    tag = bits | wilds << 15 | 1 << 18
    found = _FIVES.get(tag)
    if found is None:
        found = _FIVES[tag] = _five_lowest(bits, wilds, True)
    if not found:
        return False
    _five, value, _straight, _some_wild, ranks, text, layout, slots = found
    by_index = tuple(-1 if r == 0 else 12 if r == 1 else r - 2 for r in layout)
    return value, ranks, text, by_index, slots


def _ace_to_five(
    nat: int,
    wilds: int,
    wild_cards: tuple[int, ...],
    cards: list[int],
    rank: int,
    qualifier: int | None,
) -> tuple[int | None, dict]:
    """The ace-to-five low key (``None`` when it does not qualify) and hand of the natural
    cards' sum ``nat`` and ``wild_cards`` (lowest first: the cards of ``rank`` among
    ``cards``), as :func:`.low.low_hand` has them."""
    word = nat & _RANKS
    found = _ACE_TO_FIVE.get(word | wilds << 52)
    if found is None:
        found = _ACE_TO_FIVE[word | wilds << 52] = _ace_to_five_entry(word, wilds)
    if not found:  # a pair must be played: the search
        naturals = [c for c in cards if c >> 2 != rank]
        key, ok, hand = low_hand(naturals, wild_cards, "ace_to_five", qualifier)
        return (key if ok else None), hand
    value, ranks, text, layout, slots = found
    a, b, c, d, e, f, g = cards
    # the first card of each rank in the hand's order (a later one is written over); -1: a
    # wild card's place, written below
    first = {-1: 0, g >> 2: g, f >> 2: f, e >> 2: e, d >> 2: d, c >> 2: c, b >> 2: b, a >> 2: a}
    canon = _CANON
    i, j, k, m, n = layout
    played = [canon[first[i]], canon[first[j]], canon[first[k]], canon[first[m]], canon[first[n]]]
    if not slots:
        wild: list[dict] = []
    elif len(slots) == 1:  # the best wild card on the lowest rank missing, in spades
        (at, base), w = slots[0], wild_cards[-1]
        played[at] = canon[base | 3]
        wild = [{"card": canon[w], "as": canon[base | 3]}]
        text = f"{text} ({_AS[w][base | 3]})"
    else:  # the slots take the highest wild cards, high first
        wild = []
        parts = []
        for (at, base), w in zip(slots, wild_cards[-len(slots) :], strict=True):
            played[at] = canon[base | 3]
            wild.append({"card": canon[w], "as": canon[base | 3]})
            parts.append(_AS[w][base | 3])
        text += f" ({', '.join(parts)})"
    ok = qualifier is None or value >> 16 <= 8
    if not ok:
        text += f"; does not qualify ({qualifier} or better needed)"
    return (-value if ok else None), {
        "category": "high_card",
        "ranks": list(ranks),
        "cards": played,
        "wild": wild,
        "text": text,
        "qualifies": ok,
    }
