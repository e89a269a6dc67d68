"""High-hand values: the key encoding and the fast evaluator (natural and wild).

Keys
----
A hand value is one ``int`` *key*; a bigger key is a better hand and equal
keys tie, so ``max()`` and ``==`` are all a caller needs::

    key = category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5

``category`` is 0 (high_card) .. 9 (five_of_a_kind), see
:data:`CATEGORIES`; ``r1..r5`` are the five tie-break ranks (2..14, ace
14, or 1 for an ace playing low) grouped by count, then by rank, highest
first -- four fours with a jack is ``[4, 4, 4, 4, 11]``, a wheel
``[5, 4, 3, 2, 1]``.

Evaluation
----------
:func:`best_high` takes the player's *natural* cards and the *number* of
wild cards (what a wild card is does not matter, only how many there are)
and computes the best hand directly, category by category, instead of
trying what each wild card could be:

* The "grouped" part (five of a kind, four of a kind, full house,
  straight, three of a kind, two pair, one pair, high card) depends only on
  the multiset of natural ranks and the wild count. For 7-card hands it is
  looked up in a table keyed by the rank-count word (4 bits a rank, built
  by adding one precomputed word per card); table entries are computed on
  first use (or all at once by :func:`build_tables`).
* The "suited" part (straight flush, flush) depends only on one suit's
  rank mask and the wild count, also memoised. It is only looked at when
  some suit holds at least ``5 - wilds`` cards -- the same addition gives
  the suit counts in the word's top bits.

The wild-card rules (RULES.md): a wild card stands for any card, but,
except in five of a kind, not for a card the player holds naturally, and
two wild cards never stand for the same card -- so a hand made with wild
cards is always five different cards (a flush holds no pair, quads get
their missing suits, a straight's gaps are ranks the player lacks). With
``double_ace_flush`` one wild card in a flush may stand for the suit's ace
even if the ace is already held (naturally or by another wild card): a
flush may then hold two aces, never three.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "CATEGORIES",
    "FIVE_OF_A_KIND",
    "FLUSH",
    "FOUR_OF_A_KIND",
    "FULL_HOUSE",
    "HIGH_CARD",
    "ONE_PAIR",
    "STRAIGHT",
    "STRAIGHT_FLUSH",
    "THREE_OF_A_KIND",
    "TWO_PAIR",
    "best_high",
    "build_tables",
    "category_of",
    "category_name",
    "eval7",
    "grouped_key",
    "pack",
    "ranks_of",
    "suited_key",
    "suited_value",
]

HIGH_CARD = 0
ONE_PAIR = 1
TWO_PAIR = 2
THREE_OF_A_KIND = 3
STRAIGHT = 4
FLUSH = 5
FULL_HOUSE = 6
FOUR_OF_A_KIND = 7
STRAIGHT_FLUSH = 8
FIVE_OF_A_KIND = 9

CATEGORIES: tuple[str, ...] = (
    "high_card",
    "one_pair",
    "two_pair",
    "three_of_a_kind",
    "straight",
    "flush",
    "full_house",
    "four_of_a_kind",
    "straight_flush",
    "five_of_a_kind",
)


def pack(category: int, ranks: Sequence[int]) -> int:
    """The key of ``category`` with tie-break ``ranks`` (five ints)."""
    r1, r2, r3, r4, r5 = ranks
    return category << 20 | r1 << 16 | r2 << 12 | r3 << 8 | r4 << 4 | r5


def category_of(key: int) -> int:
    return key >> 20


def category_name(key: int) -> str:
    return CATEGORIES[key >> 20]


def ranks_of(key: int) -> list[int]:
    return [(key >> 16) & 15, (key >> 12) & 15, (key >> 8) & 15, (key >> 4) & 15, key & 15]


# --- per-card words ---------------------------------------------------------------

# Rank nibble (4 bits per rank, rank 2 lowest) plus suit nibble above bit 52.
_SUIT_SHIFT = 52
_RANK_WORD_MASK = (1 << _SUIT_SHIFT) - 1
CARD_WORD: tuple[int, ...] = tuple(
    (1 << (4 * (c >> 2))) | (1 << (_SUIT_SHIFT + 4 * (c & 3))) for c in range(52)
)
RANK_BIT: tuple[int, ...] = tuple(1 << (c >> 2) for c in range(52))  # bit (rank - 2)

# Straight windows as rank masks, best first: top 14 (broadway) .. 5 (wheel).
STRAIGHT_TOPS: tuple[int, ...] = tuple(range(14, 4, -1))
STRAIGHT_MASK: dict[int, int] = {}
for _top in STRAIGHT_TOPS:
    _ranks = [14, 2, 3, 4, 5] if _top == 5 else list(range(_top - 4, _top + 1))
    STRAIGHT_MASK[_top] = sum(1 << (r - 2) for r in _ranks)
del _top, _ranks
_STRAIGHT_WINDOWS = tuple((t, STRAIGHT_MASK[t]) for t in STRAIGHT_TOPS)


def straight_ranks(top: int) -> list[int]:
    """The five ranks of the straight with ``top``, top first (wheel ends with 1)."""
    if top == 5:
        return [5, 4, 3, 2, 1]
    return [top, top - 1, top - 2, top - 3, top - 4]


# --- grouped part (everything but straight flush and flush) -------------------------


def grouped_key(counts: Sequence[int], wilds: int) -> int:
    """Best five-card hand, ignoring suits (no flush, no straight flush).

    ``counts[r]`` is how many natural cards of rank ``r`` (2..14) the player
    holds (index 0 and 1 unused); ``wilds`` how many wild cards. Needs at
    least five cards in all. Each category is tried from the best down;
    the wild cards needed for a group are the suits of that rank the player
    lacks, so they never duplicate a natural card.
    """
    present = [r for r in range(14, 1, -1) if counts[r]]
    mask = 0
    for r in present:
        mask |= 1 << (r - 2)
    # five of a kind (wild cards may duplicate here)
    if wilds >= 5:
        return pack(FIVE_OF_A_KIND, (14, 14, 14, 14, 14))
    for r in present:
        if counts[r] + wilds >= 5:
            return pack(FIVE_OF_A_KIND, (r, r, r, r, r))
    # four of a kind
    for r in range(14, 1, -1):
        need = 4 - counts[r]
        if need <= wilds:
            left = wilds - need
            kick = _kickers(present, (r,), 1, left)
            if kick is not None:
                return pack(FOUR_OF_A_KIND, (r, r, r, r, *kick))
    # full house
    for t in range(14, 1, -1):
        need_t = max(0, 3 - counts[t])
        if need_t > wilds:
            continue
        for p in range(14, 1, -1):
            if p != t and need_t + max(0, 2 - counts[p]) <= wilds:
                return pack(FULL_HOUSE, (t, t, t, p, p))
    # straight
    for top, smask in _STRAIGHT_WINDOWS:
        if 5 - (mask & smask).bit_count() <= wilds:
            return pack(STRAIGHT, straight_ranks(top))
    # three of a kind
    for r in range(14, 1, -1):
        need = max(0, 3 - counts[r])
        if need <= wilds:
            kick = _kickers(present, (r,), 2, wilds - need)
            if kick is not None:
                return pack(THREE_OF_A_KIND, (r, r, r, *kick))
    # two pair (only without wild cards: one wild card and a pair make trips)
    pairs = [r for r in present if counts[r] >= 2]
    if len(pairs) >= 2 and wilds == 0:
        a, b = pairs[0], pairs[1]
        kick = _kickers(present, (a, b), 1, 0)
        if kick is not None:
            return pack(TWO_PAIR, (a, a, b, b, *kick))
    # one pair
    for r in range(14, 1, -1):
        need = max(0, 2 - counts[r])
        if need <= wilds:
            kick = _kickers(present, (r,), 3, wilds - need)
            if kick is not None:
                return pack(ONE_PAIR, (r, r, *kick))
    kick = _kickers(present, (), 5, wilds)
    if kick is None:
        raise ValueError("a hand needs at least five cards")
    return pack(HIGH_CARD, kick)


def _kickers(present: list[int], exclude: tuple, n: int, wilds: int) -> list[int] | None:
    """The ``n`` best single kickers from natural ranks not in ``exclude``, a
    spare wild card taking the best rank the player lacks entirely (no pair)."""
    out: list[int] = []
    for r in range(14, 1, -1):
        if len(out) == n:
            break
        if r in exclude:
            continue
        if r in present:
            out.append(r)
        elif wilds:
            wilds -= 1
            out.append(r)
    return out if len(out) == n else None


# --- suited part (straight flush and flush) ------------------------------------------


def suited_key(mask: int, wilds: int, double_ace_flush: bool = False) -> int:
    """Best straight flush or flush from one suit's rank ``mask`` (bit r-2) and
    ``wilds`` wild cards; 0 if the suit cannot make one. Wild cards fill the
    missing cards of the straight, or the highest missing ranks of the flush
    (with ``double_ace_flush``, one of them may be a second ace)."""
    if mask.bit_count() + wilds < 5:
        return 0
    for top, smask in _STRAIGHT_WINDOWS:
        if 5 - (mask & smask).bit_count() <= wilds:
            return pack(STRAIGHT_FLUSH, straight_ranks(top))
    ranks: list[int] = []
    left = wilds
    for r in range(14, 1, -1):
        if mask >> (r - 2) & 1:
            ranks.append(r)
        elif left:
            left -= 1
            ranks.append(r)
        if r == 14 and double_ace_flush and left:
            left -= 1
            ranks.append(14)
        if len(ranks) >= 5:
            break
    return pack(FLUSH, ranks[:5])


# --- tables ------------------------------------------------------------------------------

# rank-count word of the natural cards (7-card hands: wild count = 7 - cards) -> grouped key
_GROUPED7: dict[int, int] = {}
# (mask | wilds << 13 | double_ace << 16) -> suited key
_SUITED: dict[int, int] = {}
_SUIT_FIELDS = (0, 1, 2, 3)


def _grouped7_miss(word: int) -> int:
    counts = [0, 0] + [(word >> (4 * i)) & 15 for i in range(13)]
    key = grouped_key(counts, 7 - sum(counts))
    _GROUPED7[word] = key
    return key


def _suited_miss(mask: int, wilds: int, double_ace_flush: bool) -> int:
    key = suited_key(mask, wilds, double_ace_flush)
    _SUITED[mask | wilds << 13 | double_ace_flush << 16] = key
    return key


def suited_value(mask: int, wilds: int, double_ace_flush: bool = False) -> int:
    """:func:`suited_key` through its table (filled on first use).

    >>> suited_value(0b1_0000_0001_1110, 1) == suited_key(0b1_0000_0001_1110, 1) == 0x876543
    True
    """
    key = _SUITED.get(mask | wilds << 13 | double_ace_flush << 16)
    if key is None:
        key = _suited_miss(mask, wilds, double_ace_flush)
    return key


def build_tables() -> None:
    """Fill the lookup tables now (otherwise they fill on first use).

    Every multiset of at most seven natural ranks (no rank more than four
    times) and every suit mask; about a second of work.
    """
    words: list[int] = [0]
    for size in range(7):
        nxt = set()
        for w in words:
            for i in range(13):
                if (w >> (4 * i)) & 15 < 4:
                    nxt.add(w + (1 << (4 * i)))
        for w in nxt:
            if w not in _GROUPED7:
                _grouped7_miss(w)
        words = list(nxt)
        if size == 0:
            _grouped7_miss(0)
    for mask in range(1 << 13):
        bits = mask.bit_count()
        for w in range(max(0, 5 - bits), 5):
            for da in (False, True):
                _suited_miss(mask, w, da)


# --- the evaluators --------------------------------------------------------------------


def eval7(cards: Sequence[int]) -> int:
    """Key of the best natural hand from exactly seven cards (the fast path)."""
    a, b, c, d, e, f, g = cards
    cw = CARD_WORD
    word = cw[a] + cw[b] + cw[c] + cw[d] + cw[e] + cw[f] + cw[g]
    suits = word >> _SUIT_SHIFT
    if (suits + 0x3333) & 0x8888:
        # five or more of one suit: with seven cards that is the best hand
        for s in _SUIT_FIELDS:
            if (suits >> (4 * s)) & 15 >= 5:
                mask = 0
                rb = RANK_BIT
                for x in cards:
                    if x & 3 == s:
                        mask |= rb[x]
                return _SUITED.get(mask) or _suited_miss(mask, 0, False)
    word &= _RANK_WORD_MASK
    return _GROUPED7.get(word) or _grouped7_miss(word)


def best_high(cards: Sequence[int], wilds: int = 0, double_ace_flush: bool = False) -> int:
    """Key of the best high hand from natural ``cards`` plus ``wilds`` wild cards.

    ``cards`` are card ints (see :mod:`.cards`); there must be at least five
    cards in all. Seven in all takes the table path; other totals the
    direct computation (same results).
    """
    n = len(cards)
    if wilds == 0 and n == 7:  # eval7, written out here: a call less on the hottest path
        a, b, c, d, e, f, g = cards
        cw = CARD_WORD
        word = cw[a] + cw[b] + cw[c] + cw[d] + cw[e] + cw[f] + cw[g]
        if ((word >> _SUIT_SHIFT) + 0x3333) & 0x8888:
            return eval7(cards)  # five or more of one suit
        word &= _RANK_WORD_MASK
        return _GROUPED7.get(word) or _grouped7_miss(word)
    if n + wilds != 7:
        return _best_high_any(cards, wilds, double_ace_flush)
    if wilds >= 4:
        # with three or fewer natural cards left, five of a kind is always there
        if wilds >= 5:
            return 0x9EEEEE  # five aces
        top = max(cards) >> 2
        return FIVE_OF_A_KIND << 20 | (top + 2) * 0x11111
    cw = CARD_WORD
    word = 0
    for x in cards:
        word += cw[x]
    suits = word >> _SUIT_SHIFT
    rword = word & _RANK_WORD_MASK
    key = _GROUPED7.get(rword) or _grouped7_miss(rword)
    # a suit with at least 5 - wilds cards could make a flush or straight flush
    if (suits + (3 + wilds) * 0x1111) & 0x8888 and key < 0x800000:
        need = 5 - wilds
        rb = RANK_BIT
        suited = _SUITED
        tag = wilds << 13 | double_ace_flush << 16
        for s in _SUIT_FIELDS:
            if (suits >> (4 * s)) & 15 >= need:
                mask = 0
                for x in cards:
                    if x & 3 == s:
                        mask |= rb[x]
                k2 = suited.get(mask | tag) or _suited_miss(mask, wilds, double_ace_flush)
                if k2 > key:
                    key = k2
    return key


def _best_high_any(cards: Sequence[int], wilds: int, double_ace_flush: bool) -> int:
    if len(cards) + wilds < 5:
        raise ValueError("a hand needs at least five cards")
    counts = [0] * 15
    masks = [0, 0, 0, 0]
    for x in cards:
        counts[(x >> 2) + 2] += 1
        masks[x & 3] |= RANK_BIT[x]
    key = grouped_key(counts, wilds)
    for m in masks:
        k2 = suited_key(m, wilds, double_ace_flush)
        if k2 > key:
            key = k2
    return key
