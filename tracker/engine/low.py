"""Low hands (Low Hole played ``low`` or ``high_low``).

Rankings (RULES.md ``low_ranking``):

* ``ace_to_five`` -- ace is 1; only pairs count (straights and flushes do
  not), so the best low is 5-4-3-2-A.
* ``ace_to_six`` -- ace is 1; straights (A-2-3-4-5 included) and flushes
  count against the hand; the best low is 6-4-3-2-A.
* ``deuce_to_seven`` -- ace is 14 (always high, no wheel: A-2-3-4-5 is ace
  high, no straight); straights and flushes count; the best is 7-5-4-3-2.

A low *value* is packed like a high key (category, then five grouped ranks
with the ace as 1 where it plays low), and **lower is better**. The
engine's low *key* is the negated value, so that -- as for high keys --
a bigger key is a better hand and ``max()`` picks the winner.

Qualifier 8: a low qualifies when it is five unpaired cards 8 or lower
(for ``deuce_to_seven`` an ace is 14 and never qualifies; for the rankings
where straights and flushes count, a straight or flush of five cards 8 or
lower still qualifies -- it is just a poor low). A player's low is the best
qualifying five cards when any qualify, otherwise the best five at all
(reported, but it cannot win).

Wild cards (RULES.md): in a low hand a wild card stands for the best rank
the hand still lacks. They stand for different ranks the five cards do not
otherwise hold (never a card the player holds naturally), with a suit that
keeps the hand from being a flush when possible. For each choice of the
natural cards played the evaluator tries the wild cards on the lowest few
missing ranks (enough to step around a straight); this is a small search,
checked against the brute-force oracle in the tests.

Most hands never need the search: when the natural cards hold enough different ranks that,
with the wild cards on the lowest ranks missing, five different ranks can be played, the five
lowest such ranks (each from the first natural card of its rank, the wild cards on the lowest
missing ranks) are the best low there is -- unless they make a straight or a flush where those
count, and then the search decides. :func:`_lowest` takes that short way and gives the same
value and the same five cards as the search would:

>>> from tracker.engine.cards import parse_card
>>> hand = [parse_card(c) for c in "Kd 9c 4h 4s 2d Ah Qc".split()]
>>> _qualified(_lowest(hand, 1, "ace_to_five"), 8) == _full_search(hand, 1, "ace_to_five", 8, True)
True
>>> ranks_of(best_low(hand, 1) * -1)
[9, 4, 3, 2, 1]
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import combinations

from .cards import _CANON, make_card, rank_char
from .explain import _AS, Made, hand_dict, high_text
from .hands import (
    CATEGORIES,
    FLUSH,
    FOUR_OF_A_KIND,
    FULL_HOUSE,
    HIGH_CARD,
    ONE_PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    THREE_OF_A_KIND,
    TWO_PAIR,
    category_of,
    pack,
    ranks_of,
)

__all__ = [
    "LOW_RANKINGS",
    "best_low",
    "explain_low",
    "low_hand",
    "low_hand_dict",
    "low_rank",
    "low_value",
]

LOW_RANKINGS = ("ace_to_five", "ace_to_six", "deuce_to_seven")
_ACE_LOW = {"ace_to_five": True, "ace_to_six": True, "deuce_to_seven": False}
_SHAPES = {
    (1, 1, 1, 1, 1): HIGH_CARD,
    (2, 1, 1, 1): ONE_PAIR,
    (2, 2, 1): TWO_PAIR,
    (3, 1, 1): THREE_OF_A_KIND,
    (3, 2): FULL_HOUSE,
    (4, 1): FOUR_OF_A_KIND,
}


def low_rank(card: int, ranking: str) -> int:
    """The card's rank in ``ranking``: an ace is 1 except in deuce_to_seven."""
    r = (card >> 2) + 2
    return 1 if r == 14 and _ACE_LOW[ranking] else r


# sorted ranks (and, where suits count, whether all one suit) -> low value
_LOW_VALUES: dict[tuple, int] = {}


def low_value(ranks: Sequence[int], suits: Sequence[int], ranking: str) -> int:
    """Value of five cards given by low ranks and suits; lower is better (kept per sorted
    ranks, and whether the five are one suit where that counts)."""
    if ranking == "ace_to_five":
        key: tuple = tuple(sorted(ranks))
    else:
        key = (*sorted(ranks), len(set(suits)) == 1)
    value = _LOW_VALUES.get(key)
    if value is None:
        value = _LOW_VALUES[key] = _low_value(ranks, suits, ranking)
    return value


def _low_value(ranks: Sequence[int], suits: Sequence[int], ranking: str) -> int:
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    order = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    grouped = [r for r in order for _ in range(counts[r])]
    shape = tuple(counts[r] for r in order)
    cat = _SHAPES[shape]
    if cat == HIGH_CARD and ranking != "ace_to_five":
        straight = grouped[0] - grouped[4] == 4
        flush = len(set(suits)) == 1
        if straight and flush:
            cat = STRAIGHT_FLUSH
        elif flush:
            cat = FLUSH
        elif straight:
            cat = STRAIGHT
    return pack(cat, grouped)


def _qualifies(value: int) -> bool:
    r = ranks_of(value)
    return r[0] <= 8 and len(set(r)) == 5


_ORDER = {True: tuple(range(1, 14)), False: tuple(range(2, 15))}
# a card's low rank, by whether an ace plays low
_LOW_RANK = {
    ace_low: tuple(1 if c >= 48 and ace_low else (c >> 2) + 2 for c in range(52))
    for ace_low in (True, False)
}


def _lowest(naturals: Sequence[int], wilds: int, ranking: str):
    """The best low, worked out directly, when the five lowest different ranks the hand can
    play make no straight or flush that counts: ``(value, sub, wild_ranks, wild_suits)`` as
    :func:`_full_search` would find it, qualifier aside; ``None`` when the search must decide.

    The search tries the fewest wild cards first, the natural cards in their order, and keeps
    the first best: so the natural card of a rank is its first one, and each wild card takes
    the lowest rank missing, in spades (hearts for the first one, when the natural cards
    played are all spades and flushes count: a suit the search steps off to)."""
    ace_low = _ACE_LOW[ranking]
    first: dict[int, tuple[int, int, int]] = {}
    for c in naturals:
        r = (c >> 2) + 2
        if r == 14 and ace_low:
            r = 1
        if r not in first:
            first[r] = (r, c & 3, c)
    if len(first) + wilds < 5:
        return None  # a pair must be played: the search
    five: list[int] = []  # the ranks played, lowest first
    wr: list[int] = []
    left = wilds
    for r in _ORDER[ace_low]:
        if r in first:
            five.append(r)
        elif left:
            left -= 1
            five.append(r)
            wr.append(r)
        else:
            continue
        if len(five) == 5:
            break
    # in the naturals' order, as combinations() gives them (``first`` keeps that order)
    sub = tuple(e for e in first.values() if e[0] in five and e[0] not in wr)
    ws = [3] * len(wr)
    if ranking != "ace_to_five":
        if five[4] - five[0] == 4:
            return None  # a straight: the search decides
        suits = {e[1] for e in sub}
        if ws and (not suits or suits == {3}):
            ws[0] = 2  # the search steps the first wild card off the suit
        elif not ws and len(suits) == 1:
            return None  # a flush: the search decides
    a, b, c, d, e = five
    return e << 16 | d << 12 | c << 8 | b << 4 | a, sub, tuple(wr), ws if ws else ()


def _qualified(found, qualifier: int | None):
    """``(value, played)`` of :func:`_search` from :func:`_lowest`'s answer."""
    value = found[0]
    if qualifier is not None and (value >> 16) > 8:  # as _qualifies: 8 or lower
        return None, None  # the lowest five different ranks do not qualify, so none do
    return value, found[1:]


def _search(
    naturals: Sequence[int], wilds: int, ranking: str, qualifier: int | None, explain: bool
):
    """Best (value, played) -- played only when ``explain`` -- or (None, None)."""
    found = _lowest(naturals, wilds, ranking)
    if found is not None:
        return _qualified(found, qualifier)
    return _full_search(naturals, wilds, ranking, qualifier, explain)


_NO_WILDS: list[tuple[tuple, tuple]] = [((), ())]


def _wild_stands(
    ranks: list[int],
    suits: list[int],
    k: int,
    order: list[int],
    held_suits: dict[int, set[int]],
    suited: bool,
) -> list[tuple[tuple[int, ...], list[int]]]:
    """What ``k`` wild cards may stand for beside five-minus-``k`` natural cards (their
    ``ranks`` and ``suits``): each choice of ranks the hand lacks, among the lowest ``k + 3``
    with a suit left (the lowest ``k`` alone where suits do not count: nothing else can be
    better), with a free suit each, stepping one wild card off the suit when the five would
    make a flush where suits count.

    >>> held = {r: set() for r in range(1, 14)}
    >>> held[1] = {3, 2, 1}  # three aces held, one suit left
    >>> _wild_stands([2, 3, 4, 5], [3, 3, 3, 3], 1, list(range(1, 14)), held, True)
    [((1,), [0]), ((6,), [2]), ((7,), [2]), ((8,), [2])]
    """
    present = set(ranks)
    pool = [r for r in order if r not in present and len(held_suits[r]) < 4]
    # ace_to_five (no suit counts): the lowest ranks lacked make the best low; the others
    # only step around a straight or a flush
    pool = pool[: k + 3] if suited else pool[:k]
    cands = []
    for wr in combinations(pool, k):
        frees = [[s for s in (3, 2, 1, 0) if s not in held_suits[r]] for r in wr]
        ws = [f[0] for f in frees]
        if suited and len(set(suits + ws)) == 1:
            # step off the suit with one wild card if it can
            for i, f in enumerate(frees):
                other = [s for s in f if s != ws[i]]
                if other:
                    ws[i] = other[0]
                    break
        cands.append((wr, ws))
    return cands


def _full_search(
    naturals: Sequence[int], wilds: int, ranking: str, qualifier: int | None, explain: bool
):
    """:func:`_search` trying every choice of five cards."""
    ace_low = _ACE_LOW[ranking]
    suited = ranking != "ace_to_five"
    order = list(range(1, 14)) if ace_low else list(range(2, 15))
    held_suits: dict[int, set[int]] = {r: set() for r in order}
    for c in naturals:
        held_suits[low_rank(c, ranking)].add(c & 3)
    nat = [(low_rank(c, ranking), c & 3, c) for c in naturals]
    best = None
    best_played = None
    for k in range(min(wilds, 5) + 1):
        if 5 - k > len(nat):
            continue
        tried: set[tuple[int, ...]] = set()  # ace_to_five: the rank sets tried already
        for sub in combinations(nat, 5 - k):
            ranks = [x[0] for x in sub]
            if not suited:  # suits do not count: the same ranks as before, no better low
                seen = len(tried)
                tried.add(tuple(sorted(ranks)))
                if len(tried) == seen:
                    continue
            suits = [x[1] for x in sub]
            if k == 0:
                cands = _NO_WILDS
            else:
                cands = _wild_stands(ranks, suits, k, order, held_suits, suited)
            for wr, ws in cands:
                v = low_value(ranks + list(wr), suits + list(ws), ranking)
                if qualifier is not None and not _qualifies(v):
                    continue
                if best is None or v < best:
                    best = v
                    if explain:
                        best_played = (sub, wr, ws)
    return best, best_played


def best_low(
    naturals: Sequence[int],
    wilds: int = 0,
    ranking: str = "ace_to_five",
    qualifier: int | None = None,
) -> int | None:
    """Low key (bigger is better: the negated value) of the best low from natural
    cards plus ``wilds`` wild cards; with ``qualifier`` 8, of the best
    qualifying low, or ``None`` when no five cards qualify."""
    value, _ = _search(naturals, wilds, ranking, qualifier, False)
    return None if value is None else -value


def explain_low(
    naturals: Sequence[int],
    wild_cards: Sequence[int],
    ranking: str = "ace_to_five",
    qualifier: int | None = None,
) -> tuple[Made, bool]:
    """The player's low and whether it qualifies: the best qualifying low if
    any five cards qualify, else the best low at all."""
    found = _lowest(naturals, len(wild_cards), ranking)
    if found is not None:
        value, sub, wr, ws = found
        qualifies = qualifier is None or (value >> 16) <= 8
    else:
        value = None
        if qualifier is None or _ranks_held(naturals, ranking) + len(wild_cards) >= 5:
            value, chosen = _full_search(naturals, len(wild_cards), ranking, qualifier, True)
        qualifies = True
        if value is None:  # none qualifies (none can, without five different ranks)
            value, chosen = _full_search(naturals, len(wild_cards), ranking, None, True)
            qualifies = False
        sub, wr, ws = chosen
    wild_iter = iter(sorted(wild_cards, reverse=True))
    entries = [(r, c, None) for r, _s, c in sub]
    for r, s in zip(wr, ws, strict=True):
        entries.append((r, make_card(r, s), next(wild_iter)))
    grouped = ranks_of(value)
    played = []
    for r in grouped:
        for i, e in enumerate(entries):
            if e[0] == r:
                played.append((e[1], e[2]))
                entries.pop(i)
                break
    return Made(-value, tuple(played)), qualifies


def _ranks_held(naturals: Sequence[int], ranking: str) -> int:
    """How many different ranks the natural cards hold (an ace is one rank either way)."""
    return len({c >> 2 for c in naturals})


def low_hand(
    naturals: Sequence[int],
    wild_cards: Sequence[int],
    ranking: str = "ace_to_five",
    qualifier: int | None = None,
) -> tuple[int, bool, dict]:
    """The low key, whether it qualifies, and the JSON hand: the same as :func:`explain_low`
    then :func:`low_hand_dict`, worked out directly when :func:`_lowest` has the answer.

    >>> from tracker.engine.cards import parse_card
    >>> key, ok, hand = low_hand([parse_card(c) for c in "Kd 9c 4h 4s 2d Ah".split()], [40], "ace_to_five", 8)
    >>> ok, hand["cards"], hand["text"]
    (False, ['9c', '4h', '3s', '2d', 'Ah'], '9-4-3-2-A low (Q♣ as 3♠); does not qualify (8 or better needed)')
    """
    ace_low = _ACE_LOW[ranking]
    rank_of = _LOW_RANK[ace_low]
    first: dict[int, int] = {}  # low rank -> the first natural card of it
    bits = 0  # the low ranks held (bit r)
    for c in naturals:
        r = rank_of[c]
        if r not in first:
            first[r] = c
            bits |= 1 << r
    wilds = len(wild_cards)
    tag = bits | wilds << 15 | ace_low << 18
    found = _FIVES.get(tag)
    if found is None:
        found = _FIVES[tag] = _five_lowest(bits, wilds, ace_low)
    if not found:
        return _low_hand_searched(naturals, wild_cards, ranking, qualifier)  # a pair
    five, value, straight, some_wild, ranks, text, layout, slots = found
    suit = 3  # of the first wild card (the lowest rank); the others take spades
    if ranking != "ace_to_five":
        if straight:
            return _low_hand_searched(naturals, wild_cards, ranking, qualifier)
        suits = {first[r] & 3 for r in layout if r}
        if some_wild and (not suits or suits == {3}):
            suit = 2  # the search steps the first wild card off the suit
        elif not some_wild and len(suits) == 1:
            return _low_hand_searched(naturals, wild_cards, ranking, qualifier)  # a flush
    ok = qualifier is None or value >> 16 <= 8
    canon = _CANON
    cards = [canon[first[r]] if r else "" for r in layout]
    if some_wild:
        # the best wild card on the lowest rank: high first, the slots take them in order
        if len(slots) == 1:
            (at, base), w = slots[0], max(wild_cards)
            c = base | suit
            cards[at] = canon[c]
            wild = [{"card": canon[w], "as": canon[c]}]
            text += f" ({_AS[w][c]})"
        else:
            last = len(slots) - 1
            wilds_up = sorted(wild_cards)
            wild = []
            parts = []
            for j, ((at, base), w) in enumerate(zip(slots, wilds_up[-last - 1 :], strict=True)):
                c = base | suit if j == last else base | 3
                cards[at] = canon[c]
                wild.append({"card": canon[w], "as": canon[c]})
                parts.append(_AS[w][c])
            text += f" ({', '.join(parts)})"
    else:
        wild = []
    if not ok:
        text += f"; does not qualify ({qualifier} or better needed)"
    return (
        -value,
        ok,
        {
            "category": "high_card",
            "ranks": list(ranks),
            "cards": cards,
            "wild": wild,
            "text": text,
            "qualifies": ok,
        },
    )


# (low ranks held as bits | wild count << 15 | ace low << 18) -> what _five_lowest says
_FIVES: dict[int, tuple | bool] = {}


def _five_lowest(bits: int, wilds: int, ace_low: bool) -> tuple | bool:
    """As :func:`_lowest` walks them: the five lowest ranks the hand can play, each held
    (``bits``: bit r for low rank r) or a wild card on a rank missing, lowest first, as
    ``((rank, wild), ...)``, with the low value, whether they are a straight, whether a wild
    card is played, the value's ranks and words, the ranks high first as played (0 for a wild
    card's place: its *layout*) and the wild cards' places in it with the first card of their
    rank, high first (its *slots*); ``False`` when a pair must be played.

    >>> _five_lowest(0b1011010, 1, True)[:4]  # A, 3, 4, 6 held
    (((1, False), (2, True), (3, False), (4, False), (6, False)), 410401, False, True)
    >>> _five_lowest(0b1011010, 1, True)[6:]  # the deuce (rank index 0) by a wild card
    ((6, 4, 3, 0, 1), ((3, 0),))
    >>> _five_lowest(0b11010, 1, True)
    False
    """
    if bits.bit_count() + wilds < 5:
        return False
    five: list[tuple[int, bool]] = []
    left = wilds
    for r in _ORDER[ace_low]:
        if bits >> r & 1:
            five.append((r, False))
        elif left:
            left -= 1
            five.append((r, True))
        else:
            continue
        if len(five) == 5:
            break
    a, b, c, d, e = (r for r, _w in five)
    value = e << 16 | d << 12 | c << 8 | b << 4 | a
    ranks, text = _low_words(value)
    high_first = five[::-1]
    layout = tuple(0 if w else r for r, w in high_first)
    slots = tuple((i, (12 if r == 1 else r - 2) << 2) for i, (r, w) in enumerate(high_first) if w)
    return tuple(five), value, e - a == 4, left < wilds, ranks, text, layout, slots


def _low_hand_searched(
    naturals: Sequence[int], wild_cards: Sequence[int], ranking: str, qualifier: int | None
) -> tuple[int, bool, dict]:
    """:func:`low_hand` when the search decides."""
    made, ok = explain_low(naturals, wild_cards, ranking, qualifier)
    return made.key, ok, low_hand_dict(made, ok, ranking, qualifier)


@lru_cache(maxsize=4096)
def _low_words(value: int) -> tuple[tuple[int, ...], str]:
    """The ranks and words of a low of five different ranks (a high-card value)."""
    r = ranks_of(value)
    return tuple(r), f"{'-'.join(rank_char(x) for x in r)} low"


def low_text(value: int, ranking: str) -> str:
    r = ranks_of(value)
    if category_of(value) == HIGH_CARD:
        return f"{'-'.join(rank_char(x) for x in r)} low"
    return f"{high_text(value)} (as a low)"


def low_hand_dict(made: Made, qualifies: bool, ranking: str, qualifier: int | None) -> dict:
    value = -made.key
    note = ""
    if qualifier is not None and not qualifies:
        note = f"; does not qualify ({qualifier} or better needed)"
    return hand_dict(
        made,
        category=CATEGORIES[category_of(value)],
        ranks=ranks_of(value),
        text=low_text(value, ranking),
        note=note,
        extra={"qualifies": qualifies},
    )
