"""Low Hole's hands, both halves from one sum of a seat's seven cards.

In Low Hole a seat's wild cards are the cards it holds of one rank: the lowest hole card's
(:func:`.wild.low_hole_split`), or, for an ace-low low half with an ace in the hole, the
aces. So each card is given one int (:data:`_CARD_SUM`) holding its rank count and suit count
(:data:`.hands.CARD_WORD`) and, above them, its own bit; the sum of a seat's seven is at once
the counting word of the high value's table and the bit mask of the cards held, and taking
one rank's cards out of it (one lookup: :data:`_OF_RANK`) leaves the natural cards' sum. The
high value is then one lookup in the table of rank counts (the flush test on the suit counts
in the same sum), its five cards are played from the bit mask by the key's groups
(:data:`_PLANS`, as :func:`.explain.grouped_high`; a flush by its suit's cards,
:func:`_suited_high`), and an ace-to-five low of five different ranks is one lookup by its
natural ranks' counts (:data:`_ACE_TO_FIVE`) and the first card of each rank in the hand's
order (one that must play a pair: :func:`_pair_low`). The rest (a straight whose natural cards
are all spades, another low ranking, a hand not of seven cards or not three down) goes the
long way, by the same functions, and every answer is theirs:

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
from .explain import (
    _AS,
    _GROUP_CARDS,
    _IN_PARENS,
    _RUNS,
    _WORDS,
    _high_words,
    _runs,
    played_high,
    wild_high,
)
from .hands import (
    _GROUPED7,
    _SUITED,
    CARD_WORD,
    CATEGORIES,
    ONE_PAIR,
    STRAIGHT,
    TWO_PAIR,
    _grouped7_miss,
    _suited_miss,
    pack,
)
from .low import _FIVES, _five_lowest, low_hand, low_text
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

    Both halves are written out here, in one function, for the usual seat (seven cards, three
    of them down): a high hand played by groups (:data:`_PLANS`) and an ace-to-five low of
    five different ranks (:data:`_ACE_TO_FIVE`); a flush goes to :func:`_suited_high`, the
    rest the long way.

    >>> from tracker.engine.cards import parse_card
    >>> ann = {"double_ace_flush": False, "low_ranking": "ace_to_five", "low_qualifier": 8}
    >>> cards = [parse_card(c) for c in "Ad 9c Kh As 2d Kc Qc".split()]
    >>> _hk, high, lk, low = low_hole_hands(cards[:3], cards, ann, True, True)
    >>> high["text"]  # the nine of clubs wild
    'full house, aces full of kings (9♣ as A♥)'
    >>> lk, low["text"]  # the aces wild
    (None, 'Q-9-3-2-A low (A♦ as 3♠, A♠ as A♠); does not qualify (8 or better needed)')
    """
    if len(cards) != 7 or len(down) != 3:
        return _long_way(down, cards, ann, want_high, want_low)
    x, y, z = down
    lowest = x if x < y else y
    if z < lowest:
        lowest = z
    a, b, c, d, e, f, g = cards
    cs = _CARD_SUM
    total = cs[a] + cs[b] + cs[c] + cs[d] + cs[e] + cs[f] + cs[g]
    rank = lowest >> 2
    out, wilds, wild_cards = _OF_RANK[rank][total >> (_HELD + (rank << 2)) & 15]
    nat = total - out  # the natural cards' sum
    word = nat & _RANKS  # their rank counts
    canon = _CANON
    in_parens = _IN_PARENS
    hk = high = lk = low = None
    if want_high:
        hk = _GROUPED7.get(word) or _grouped7_miss(word)
        # a suit with at least 5 - wilds cards could make a flush or a straight flush
        if hk < 0x800000 and ((nat >> 52 & _SUITS) + (3 + wilds) * 0x1111) & 0x8888:
            hk, high = _suited_high(nat, hk, wild_cards, ann["double_ace_flush"])
        if high is None:  # played by groups, as explain.grouped_high
            category, ranks, text, straight, steps = _PLANS.get(hk) or _plan(hk)
            held = nat >> _HELD  # the natural cards' bit mask
            played: list[str] = []
            stands: list[int] = []  # the cards the wild cards stand for, in the order played
            if straight:  # played as groups of one, unless the natural cards are all spades
                off = 0  # 1 once a rank is held without its spade
                for shift, by_suits in steps:
                    names, stood, not_spade = by_suits[held >> shift & 15]
                    played += names
                    stands += stood
                    off |= not_spade
                if not off:
                    naturals = _naturals(cards, rank)
                    high = played_high(naturals, wild_cards, ann["double_ace_flush"], hk)
            elif wilds == 1:  # one wild card (the most usual): it stands for one card
                for shift, by_suits in steps:
                    names, stood = by_suits[held >> shift & 15]
                    played += names
                    if stood:
                        stands = stood
            else:
                for shift, by_suits in steps:
                    names, stood = by_suits[held >> shift & 15]
                    played += names
                    stands += stood
            if high is None:
                if wilds == 1:
                    if stands:
                        (at,) = stands
                        w = wild_cards[0]
                        wild = [{"card": canon[w], "as": canon[at]}]
                        text += in_parens[w][at]
                    else:
                        wild = []
                else:
                    spare = list(wild_cards)  # the best one is popped first
                    wild = []
                    parts: list[str] = []
                    for at in stands:
                        w = spare.pop()
                        wild.append({"card": canon[w], "as": canon[at]})
                        parts.append(_AS[w][at])
                    if parts:
                        text += f" ({', '.join(parts)})"
                high = {
                    "category": category,
                    "ranks": [*ranks],
                    "cards": played,
                    "wild": wild,
                    "text": text,
                }
    if want_low:
        if ann["low_ranking"] != "ace_to_five":
            return hk, high, *_long_way(down, cards, ann, False, True)[2:]
        if rank != 12 and (x >= 48 or y >= 48 or z >= 48):
            # a hole ace: the aces are the low half's wild cards
            rank = 12
            out, wilds, wild_cards = _OF_RANK[12][total >> (_HELD + 48) & 15]
            nat = total - out
            word = nat & _RANKS
        found = _ACE_TO_FIVE.get(word)
        if found is None:
            found = _ACE_TO_FIVE[word] = _ace_to_five_entry(word, wilds)
        qualifier = ann["low_qualifier"]
        if not found:  # a pair must be played
            naturals = _naturals(cards, rank)
            paired = _pair_low(naturals, wild_cards, qualifier)
            if paired is None:  # pragma: no cover - the search (a Low Hole seat never gets here)
                lk, ok, low = low_hand(naturals, wild_cards, "ace_to_five", qualifier)
                return hk, high, (lk if ok else None), low
            return hk, high, *paired
        value, ranks, text, layout, slots, eight = found
        # the first card of each rank in the hand's order (a later one is written over); -1: a
        # wild card's place, written below
        first = {-1: 0, g >> 2: g, f >> 2: f, e >> 2: e, d >> 2: d, c >> 2: c, b >> 2: b, a >> 2: a}
        i, j, k, m, n = layout
        played = [
            canon[first[i]],
            canon[first[j]],
            canon[first[k]],
            canon[first[m]],
            canon[first[n]],
        ]
        if len(slots) == 1:  # the best wild card on the lowest rank missing, in spades
            ((at, as_card, as_name),) = slots
            w = wild_cards[-1]
            played[at] = as_name
            wild = [{"card": canon[w], "as": as_name}]
            text += in_parens[w][as_card]
        elif not slots:
            wild = []
        else:  # the slots take the highest wild cards, high first
            wild = []
            parts = []
            for (at, as_card, as_name), w in zip(slots, wild_cards[-len(slots) :], strict=True):
                played[at] = as_name
                wild.append({"card": canon[w], "as": as_name})
                parts.append(_AS[w][as_card])
            text += f" ({', '.join(parts)})"
        if eight or qualifier is None:
            lk = -value
            low = {
                "category": "high_card",
                "ranks": [*ranks],
                "cards": played,
                "wild": wild,
                "text": text,
                "qualifies": True,
            }
        else:
            note = _NOT_QUALIFIED.get(qualifier)
            if note is None:
                note = _NOT_QUALIFIED[qualifier] = (
                    f"; does not qualify ({qualifier} or better needed)"
                )
            low = {
                "category": "high_card",
                "ranks": [*ranks],
                "cards": played,
                "wild": wild,
                "text": text + note,
                "qualifies": False,
            }
    return hk, high, lk, low


def _naturals(cards: list[int], rank: int) -> list[int]:
    """The cards not of ``rank``, in their order (a function: a comprehension in
    :func:`low_hole_hands` would make its ``rank`` a closure's cell, dearer to read).

    >>> _naturals([4, 9, 5, 40], 1)  # the treys out
    [9, 40]
    """
    return [c for c in cards if c >> 2 != rank]


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


# a seven-card seat's natural rank counts (4 bits a rank; the wild cards are the other
# 7 - count) -> an ace-to-five low of five different ranks: (value, ranks, words, the rank
# index of each card high first, -1 for a wild card's place, the wild cards' places with the
# card each stands for and its name, whether it is 8 or better); False when a pair must be
# played
_ACE_TO_FIVE: dict[int, tuple | bool] = {}
# a low qualifier -> the words said of a low that does not qualify
_NOT_QUALIFIED: dict[int, str] = {}


def _ace_to_five_entry(word: int, wilds: int) -> tuple | bool:
    """What :data:`_ACE_TO_FIVE` keeps for the natural rank counts ``word`` beside ``wilds``
    wild cards: :func:`.low._five_lowest` by rank index.

    >>> _ace_to_five_entry(0x1000000002011, 2)[2:]  # an ace, a deuce, a trey, two fives
    ('5-4-3-2-A low', (3, -1, 1, 0, 12), ((1, 11, '4s'),), True)
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
    places = tuple((at, base | 3, _CANON[base | 3]) for at, base in slots)
    return value, ranks, text, by_index, places, value >> 16 <= 8


# a high key played by groups -> (category, ranks, words, whether a straight, its groups
# best first: (the group's rank's first bit in the natural cards' mask, how the group is
# played by the suits held of it: :data:`_BY_SUITS` or, in a straight, :data:`_STRAIGHT_BY`))
_PLANS: dict[int, tuple] = {}
# rank index -> cards of it played -> suits held (4 bits) -> (the names of the cards played,
# the cards the wild cards stand for): explain's _GROUP_CARDS by the suits held last
_BY_SUITS: tuple = tuple(
    tuple(tuple(_GROUP_CARDS[r][h][n] for h in range(16)) for n in range(6)) for r in range(13)
)
# rank index -> suits held -> one card of the rank in a straight: _BY_SUITS's, and 1 when the
# rank is held without its spade (0 otherwise)
_STRAIGHT_BY: tuple = tuple(
    tuple((*_GROUP_CARDS[r][h][1], int(0 < h < 8)) for h in range(16)) for r in range(13)
)


def _plan(key: int) -> tuple:
    """:data:`_PLANS`' entry for the high ``key`` (not a flush or a straight flush).

    >>> category, ranks, text, straight, steps = _plan(0x3CCCA5)  # three queens
    >>> text, straight, [shift for shift, _by in steps]
    ('three queens, ten-five kickers', False, [40, 32, 12])
    """
    category, ranks, text = _WORDS.get(key) or _high_words(key)
    runs = _RUNS.get(key) or _runs(key)
    straight = key >> 20 == STRAIGHT
    steps = tuple((r << 2, _STRAIGHT_BY[r] if straight else _BY_SUITS[r][n]) for r, n in runs)
    plan = _PLANS[key] = category, ranks, text, straight, steps
    return plan


def _suited_high(
    nat: int, key: int, wild_cards: tuple[int, ...], da: bool
) -> tuple[int, dict | None]:
    """The high key of the natural cards' sum ``nat`` and ``wild_cards`` (their grouped
    ``key`` beaten by a flush or a straight flush of a suit, when one does) and, for a flush
    or a straight flush, its hand as :func:`.explain.played_high` plays it (``None``
    otherwise: the hand is played by groups).

    >>> from tracker.engine.cards import parse_card
    >>> cards = [parse_card(c) for c in "2c Kh 9h 5h 4h Qs Js".split()]
    >>> nat = sum(_CARD_SUM[c] for c in cards[1:])  # the deuce wild
    >>> grouped = _grouped7_miss(nat & _RANKS)
    >>> key, hand = _suited_high(nat, grouped, (0,), False)
    >>> hand["text"], hand["cards"]
    ('ace-high flush (A-K-9-5-4) (2♣ as A♥)', ['Ah', 'Kh', '9h', '5h', '4h'])
    """
    wilds = len(wild_cards)
    suits = nat >> 52 & _SUITS
    need = 5 - wilds
    held = nat >> _HELD  # the natural cards' bit mask
    tag = wilds << 13 | da << 16
    suit = -1
    for s, at in _SUIT_AT:  # the first suit of the best flush, spades first
        if suits >> at & 15 >= need:
            mask = _SUIT_RANKS[held >> s & _EVERY_FOURTH]  # the suit's rank mask
            flush = _SUITED.get(mask | tag) or _suited_miss(mask, wilds, da)
            if flush > key:
                key = flush
                suit = s
    if suit < 0:
        return key, None
    # as explain._wild_played: each rank of the flush by its card of the suit, or a wild card,
    # the highest first; with double_ace_flush a second ace is a wild card
    category, ranks, text = _WORDS.get(key) or _high_words(key)
    bases = _BASES.get(key)
    if bases is None:  # each rank's first card (an ace playing low, or the double ace, too)
        bases = _BASES[key] = tuple((12 if r == 1 or r == 14 else r - 2) << 2 for r in ranks)
    ace = 48 | suit
    spare = list(wild_cards)
    canon = _CANON
    played: list[str] = []
    wild: list[dict] = []
    parts: list[str] = []
    for base in bases:
        c = base | suit
        played.append(canon[c])
        if held >> c & 1:
            if c == ace:
                held ^= 1 << c
        else:
            w = spare.pop()
            wild.append({"card": canon[w], "as": canon[c]})
            parts.append(_AS[w][c])
    if len(parts) == 1:
        text += f" ({parts[0]})"
    elif parts:
        text += f" ({', '.join(parts)})"
    return key, {
        "category": category,
        "ranks": [*ranks],
        "cards": played,
        "wild": wild,
        "text": text,
    }


# each suit, spades first, and the place of its count among a sum's suit counts
_SUIT_AT = ((3, 12), (2, 8), (1, 4), (0, 0))
_BASES: dict[int, tuple[int, ...]] = {}  # a flush key -> the first card of each of its ranks
_EVERY_FOURTH = sum(1 << (r << 2) for r in range(13))  # one suit's bits of a mask, shifted down
# a suit's cards in a bit mask, shifted down to bits 0, 4, ..., 48 -> its rank mask (bit r)
_SUIT_RANKS: dict[int, int] = {
    sum(1 << (r << 2) for r in range(13) if m >> r & 1): m for m in range(1 << 13)
}


def _pair_low(
    naturals: list[int], wild_cards: tuple[int, ...], qualifier: int | None
) -> tuple[int | None, dict] | None:
    """The ace-to-five low hand that must play a pair, as :func:`.low.low_hand`'s search finds
    it, with its key (``None`` when it does not qualify), worked out directly for seven cards,
    one wild card or more (``None`` otherwise).

    Fewer than five different ranks can be played, so the best five play them all: every
    natural rank, and each wild card on a rank the natural cards lack, the lowest first (more
    different ranks make a lower category: one pair before two pair before three of a kind).
    The ranks left to fill are the lowest ranks held twice: one pair when four ranks are
    played, two pair when three are. The search tries the fewest wild cards first and the
    natural cards in their order, keeping the first best: so it plays every wild card, and a
    rank's first natural cards. Such a low never qualifies; with no qualifier it counts.

    >>> from tracker.engine.cards import parse_card
    >>> nat = [parse_card(c) for c in "9c 4h 4s 9d Kh Kd".split()]
    >>> _pair_low(nat, (0,), 8)[1]["text"]  # the deuce of clubs wild
    'pair of fours, king-nine-ace kickers (as a low) (2♣ as A♠); does not qualify (8 or better needed)'
    """
    wilds = len(wild_cards)
    count = [0] * 14  # by low rank (an ace is 1)
    for c in naturals:
        count[_LOW_RANK[c]] += 1
    held = [r for r in range(1, 14) if count[r]]
    twice = [r for r in held if count[r] >= 2]
    kinds = len(held) + wilds  # the different ranks played
    if not wilds or len(naturals) + wilds != 7 or not 3 <= kinds <= 4 or len(twice) < 5 - kinds:
        return None
    paired = twice[: 5 - kinds]
    lacked = [r for r in range(1, 14) if not count[r]][:wilds]  # the wild cards' ranks
    # the value: the pairs high first, then the single ranks high first
    singles = sorted([r for r in held if r not in paired] + lacked, reverse=True)
    grouped = [r for r in reversed(paired) for _ in (0, 1)] + singles
    value = pack(ONE_PAIR if kinds == 4 else TWO_PAIR, grouped)
    # the five as explain_low plays them: the natural cards chosen in their order, then the
    # wild cards, the highest on the lowest rank lacked, each in spades; each rank of the value
    # by the first of them left of that rank
    need = [0] * 14
    for r in held:
        need[r] = 1
    for r in paired:
        need[r] = 2
    entries: list[tuple[int, int, int | None]] = []
    for c in naturals:
        r = _LOW_RANK[c]
        if need[r]:
            need[r] -= 1
            entries.append((r, c, None))
    for r, w in zip(lacked, sorted(wild_cards, reverse=True), strict=True):
        entries.append((r, (12 if r == 1 else r - 2) << 2 | 3, w))
    canon = _CANON
    played: list[str] = []
    wild: list[dict] = []
    parts: list[str] = []
    for r in grouped:
        for i, (er, c, w) in enumerate(entries):
            if er == r:
                del entries[i]
                played.append(canon[c])
                if w is not None:
                    wild.append({"card": canon[w], "as": canon[c]})
                    parts.append(_AS[w][c])
                break
    text = low_text(value, "ace_to_five")
    if parts:
        text += f" ({', '.join(parts)})"
    ok = qualifier is None
    if not ok:
        text += f"; does not qualify ({qualifier} or better needed)"
    return (-value if ok else None), {
        "category": CATEGORIES[ONE_PAIR if kinds == 4 else TWO_PAIR],
        "ranks": grouped,
        "cards": played,
        "wild": wild,
        "text": text,
        "qualifies": ok,
    }


_LOW_RANK: tuple[int, ...] = tuple(1 if c >= 48 else (c >> 2) + 2 for c in range(52))
