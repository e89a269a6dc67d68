"""A brute-force reference evaluator, written independently of tracker.engine.

It shares no code with the engine (it parses its own cards and reads the
rules from RULES.md afresh) and takes no shortcuts beyond these two, both
plain facts:

* Every five-card subset of the player's cards is tried, and every value
  each wild card in it may take. A card's suit only matters for a flush, so
  instead of 52 cards a wild card tries its 13 ranks, and the suits are
  settled by checking legality: either the five cards are one suit ``s``
  (each wild card is then the card of its rank in ``s``) or they are valued
  without a flush, which is legal when the wild cards can be given suits
  making distinct cards the player does not hold naturally. (A non-flush
  value is never higher than the flush value of the same cards, so valuing
  a would-be flush as a non-flush never inflates the maximum.)
  ``literal_best_high`` does the full 52-card version for cross-checking.
* A subset whose natural cards all share one rank (or that is all wild)
  makes five of a kind of that rank (aces) -- the top hand, so the rest of
  that subset is skipped.

Values are ``(category, ranks)`` tuples; bigger is better for high hands,
smaller is better for low hands.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache

RANKS = "23456789TJQKA"
SUITS = "cdhs"
CATS = [
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
]
HC, P1, P2, T3, ST, FL, FH, Q4, SF, F5 = range(10)


def card(text: str) -> tuple[int, int]:
    """(rank 2..14, suit 0..3) from canonical text like 'Kd' or 'Tc'."""
    return (RANKS.index(text[0].upper()) + 2, SUITS.index(text[1].lower()))


# --- plain five-card values ------------------------------------------------------------


@cache
def high5(ranks: tuple, flush: bool) -> tuple:
    """Value of five cards (ranks sorted any way), flush telling whether they are one suit."""
    c = Counter(ranks)
    grouped = tuple(sorted(ranks, key=lambda r: (c[r], r), reverse=True))
    distinct = sorted(set(ranks), reverse=True)
    straight_top = None
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_top = distinct[0]
        elif distinct == [14, 5, 4, 3, 2]:
            straight_top = 5
    if len(distinct) == 1:
        return (F5, grouped)
    if straight_top and flush:
        return (SF, _straight(straight_top))
    shape = sorted(c.values(), reverse=True)
    if shape == [4, 1]:
        return (Q4, grouped)
    if shape == [3, 2]:
        return (FH, grouped)
    if flush:
        return (FL, tuple(sorted(ranks, reverse=True)))
    if straight_top:
        return (ST, _straight(straight_top))
    if shape == [3, 1, 1]:
        return (T3, grouped)
    if shape == [2, 2, 1]:
        return (P2, grouped)
    if shape == [2, 1, 1, 1]:
        return (P1, grouped)
    return (HC, grouped)


def _straight(top: int) -> tuple:
    return (5, 4, 3, 2, 1) if top == 5 else tuple(range(top, top - 5, -1))


@cache
def low5(ranks: tuple, flush: bool, ranking: str) -> tuple:
    """Low value of five cards; ``ranks`` already as the ranking counts them
    (ace 1 in ace_to_five / ace_to_six). Smaller is better."""
    c = Counter(ranks)
    grouped = tuple(sorted(ranks, key=lambda r: (c[r], r), reverse=True))
    shape = sorted(c.values(), reverse=True)
    cat = {
        (5,): F5,
        (4, 1): Q4,
        (3, 2): FH,
        (3, 1, 1): T3,
        (2, 2, 1): P2,
        (2, 1, 1, 1): P1,
        (1, 1, 1, 1, 1): HC,
    }[tuple(shape)]
    if ranking != "ace_to_five" and cat == HC:
        straight = max(ranks) - min(ranks) == 4
        if straight and flush:
            cat = SF
        elif flush:
            cat = FL
        elif straight:
            cat = ST
    return (cat, grouped)


def low_qualifies(value: tuple) -> bool:
    return len(set(value[1])) == 5 and max(value[1]) <= 8


# --- brute force over subsets and wild values ---------------------------------------------


def _subsets(items):
    """Each five-card subset once: (its natural cards, how many wild cards)."""
    seen = set()
    for sub in itertools.combinations(range(len(items)), 5):
        nat = [items[i][1] for i in sub if items[i][0] == "n"]
        key = tuple(nat)
        if key not in seen:
            seen.add(key)
            yield nat, 5 - len(nat)


def _nonflush_legal(wild_ranks, held: set) -> bool:
    """Can wild cards of these ranks be distinct cards the player does not hold?"""
    need = Counter(wild_ranks)
    for r, n in need.items():
        free = sum(1 for s in range(4) if (r, s) not in held)
        if n > free:
            return False
    return True


def _nonflush_possible(wild_ranks, nat_suits: set, held: set) -> bool:
    """Can the wild cards be legal and the five cards not all one suit?"""
    if not _nonflush_legal(wild_ranks, held):
        return False
    if len(nat_suits) >= 2:
        return True
    need = Counter(wild_ranks)
    if any(n >= 2 for n in need.values()):
        return True  # two wild cards of one rank take two suits
    frees = [{s for s in range(4) if (r, s) not in held} for r in need]
    if nat_suits:
        (s,) = nat_suits
        return any(f - {s} for f in frees)
    return not (all(len(f) == 1 for f in frees) and len(set().union(*frees)) == 1)


def _flush_legal(nat_ranks, wild_ranks, suit, held: set, double_ace: bool) -> bool:
    allr = list(nat_ranks) + list(wild_ranks)
    c = Counter(allr)
    for r, n in c.items():
        if n > 1 and not (double_ace and r == 14 and n == 2):
            return False
    for r in wild_ranks:
        if (r, suit) in held and not (double_ace and r == 14):
            return False
    return True


def best_high(naturals: list, wilds: int, double_ace: bool = False) -> tuple:
    """naturals: list of (rank, suit); wilds: how many wild cards."""
    held = set(naturals)
    items = [("n", c) for c in naturals] + [("w", None)] * wilds
    best = None
    for nat, k in _subsets(items):
        nat_ranks = [r for r, _ in nat]
        if len(set(nat_ranks)) <= 1:
            r = nat_ranks[0] if nat_ranks else 14
            v = (F5, (r,) * 5)
            best = v if best is None or v > best else best
            continue
        nat_suits = {s for _, s in nat}
        for wr in itertools.combinations_with_replacement(range(2, 15), k):
            ranks = tuple(nat_ranks) + wr
            if _nonflush_legal(wr, held):
                v = high5(tuple(sorted(ranks)), False)
                if best is None or v > best:
                    best = v
            if len(nat_suits) == 1:
                (s,) = nat_suits
                if _flush_legal(nat_ranks, wr, s, held, double_ace):
                    v = high5(tuple(sorted(ranks)), True)
                    if best is None or v > best:
                        best = v
    return best


def literal_best_high(naturals: list, wilds: int, double_ace: bool = False) -> tuple:
    """The same, trying every one of the 52 cards for each wild card (slow; k <= 2)."""
    held = set(naturals)
    deck = [(r, s) for r in range(2, 15) for s in range(4)]
    items = [("n", c) for c in naturals] + [("w", None)] * wilds
    best = None
    for nat, k in _subsets(items):
        for subs in itertools.product(deck, repeat=k):
            five = nat + list(subs)
            ranks = tuple(sorted(r for r, _ in five))
            flush = len({s for _, s in five}) == 1
            if len(set(ranks)) == 1:
                ok = True
            elif double_ace and flush:
                ace = (14, five[0][1])
                c = Counter(five)
                ok = all(n == 1 or (x == ace and n == 2) for x, n in c.items()) and all(
                    x not in held or x == ace for x in subs
                )
            else:
                ok = len(set(five)) == 5 and not any(x in held for x in subs)
            if ok:
                v = high5(ranks, flush)
                if best is None or v > best:
                    best = v
    return best


def best_low(naturals: list, wilds: int, ranking: str, qualifier) -> tuple | None:
    """Best low value (smallest); with a qualifier, the best qualifying one or None."""
    ace_low = ranking != "deuce_to_seven"

    def lr(r):
        return 1 if (r == 14 and ace_low) else r

    held = set(naturals)
    rank_range = range(1, 14) if ace_low else range(2, 15)
    items = [("n", c) for c in naturals] + [("w", None)] * wilds
    best = None
    for nat, k in _subsets(items):
        nat_ranks = [lr(r) for r, _ in nat]
        nat_suits = {s for _, s in nat}
        for wr in itertools.combinations_with_replacement(rank_range, k):
            real = [14 if r == 1 else r for r in wr]
            ranks = tuple(sorted(nat_ranks + list(wr)))
            cands = []
            if len(set(ranks)) == 1 or _nonflush_possible(real, nat_suits, held):
                cands.append(low5(ranks, False, ranking))
            if len(nat_suits) <= 1:
                for s in nat_suits or range(4):
                    nat_real = [r for r, _ in nat]
                    if _flush_legal(nat_real, real, s, held, False):
                        cands.append(low5(ranks, True, ranking))
            for v in cands:
                if qualifier is not None and not low_qualifies(v):
                    continue
                if best is None or v < best:
                    best = v
    return best


# --- the variants' wild cards, read afresh from RULES.md -----------------------------------


def wild_choices(variant, ann, down, up, community, half):
    """List of possible wild-card sets (sets of (rank, suit)) for one player."""
    every = list(down) + list(up) + ([community] if community else [])
    if variant == "seven_card_stud":
        return [set()]
    if variant == "kings_and_little_ones":
        if ann.get("door_card_kings", False):
            kings = {up[0]} if up[0][0] == 13 else set()
        else:
            kings = {c for c in every if c[0] == 13}
        holds_king = any(c[0] == 13 for c in every)
        if ann.get("king_required", True) and not holds_king:
            return [kings]
        others = [c for c in every if c not in kings]

        def v(c):
            return 1 if c[0] == 14 and ann.get("ace_low_for_lowest", False) else c[0]

        m = min(v(c) for c in others)
        lows = [c for c in others if v(c) == m]
        if ann.get("all_lowest_wild", False):
            return [kings | set(lows)]
        return [kings | {c} for c in lows]
    if variant == "low_hole":
        ranking = ann.get("low_ranking", "ace_to_five")
        aces_low = half == "low" and ranking in ("ace_to_five", "ace_to_six")

        def v(c):
            return 1 if c[0] == 14 and aces_low else c[0]

        m = min(v(c) for c in down)
        return [{c for c in every if v(c) == m}]
    if variant == "low_hold":
        m = min(c[0] for c in down)
        mode = ann.get("same_rank_wild", "none")
        if mode == "none":
            return [{c} for c in down if c[0] == m]
        if mode == "face_down":
            return [{c for c in down if c[0] == m}]
        return [{c for c in every if c[0] == m}]
    raise ValueError(variant)


def evaluate(showdown: dict) -> dict:
    """Oracle result: per player (high, low) values, and the winners."""
    variant = showdown["variant"]
    ann = dict(showdown.get("options") or {})
    game = ann.get("game", "high")
    ranking = ann.get("low_ranking", "ace_to_five")
    qualifier = ann.get("low_qualifier", 8 if game == "high_low" else None)
    da = ann.get("double_ace_flush", False)
    com = showdown.get("community")
    com = card(com) if com else None
    results = []
    for p in showdown["players"]:
        down = [card(x) for x in p["down"]]
        up = [card(x) for x in p["up"]]
        every = down + up + ([com] if com else [])
        high = low = None
        if game != "low":
            for wild in wild_choices(variant, ann, down, up, com, "high"):
                nat = [c for c in every if c not in wild]
                v = best_high(nat, len(wild), da)
                high = v if high is None or v > high else high
        if game != "high":
            for wild in wild_choices(variant, ann, down, up, com, "low"):
                nat = [c for c in every if c not in wild]
                v = best_low(nat, len(wild), ranking, qualifier)
                if v is not None and (low is None or v < low):
                    low = v
        results.append((high, low))
    declares = None
    if ann.get("declaration") == "declare" and game == "high_low":
        declares = [p["declare"] for p in showdown["players"]]
    hw, lw = winners(results, declares)
    return {"players": results, "high_winners": hw, "low_winners": lw}


def winners(results, declares):
    n = len(results)
    excluded = set()
    while True:
        hi = [
            i
            for i in range(n)
            if i not in excluded
            and results[i][0] is not None
            and (declares is None or declares[i] in ("high", "both"))
        ]
        lo = [
            i
            for i in range(n)
            if i not in excluded
            and results[i][1] is not None
            and (declares is None or declares[i] in ("low", "both"))
        ]
        hw = [i for i in hi if results[i][0] == max(results[j][0] for j in hi)]
        lw = [i for i in lo if results[i][1] == min(results[j][1] for j in lo)]
        if declares is None:
            return hw, lw
        bad = {
            i
            for i in range(n)
            if i not in excluded and declares[i] == "both" and not (i in hw and i in lw)
        }
        if not bad:
            return hw, lw
        excluded |= bad
