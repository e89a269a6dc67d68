"""Which of a player's cards are wild, per variant (RULES.md).

:func:`wild_options` answers with a list of *options*: each option is the
set of the player's cards that are wild. Usually there is one option; there
are several when the rules let the player pick which card of a rank is wild
(the player then gets the best of them):

* ``seven_card_stud`` -- no wild cards.
* ``kings_and_little_ones`` -- every king is wild (``door_card_kings``:
  only a king that is the door card, ``up[0]``); and the *little one*, the
  lowest card among the player's seven (face up or down, the community card
  included), counting an ace as high unless ``ace_low_for_lowest``. The
  little one is looked for among the cards that are not already wild
  kings. With ``king_required`` it is wild only if the player holds a king
  -- any king, face up or down, the community card included, whether or
  not that king is itself wild under ``door_card_kings``. When the lowest
  rank appears more than once: ``all_lowest_wild`` makes every card of it
  wild, otherwise one of them is (the player's choice: one option each).
* ``low_hole`` -- the rank of the lowest face-down card (``down``; a
  community card never sets it) is wild, and every card of that rank the
  player holds, the community card included. Aces are high when finding it
  for the high hand; for a low hand ranked ``ace_to_five`` or
  ``ace_to_six`` aces are low (so a hole ace makes aces wild for the low
  hand only); for ``deuce_to_seven`` aces stay high.
* ``low_hold`` -- the lowest face-down card (aces high) is wild.
  ``same_rank_wild``: ``none`` -- that one card (if several face-down cards
  share the lowest rank, the player picks one: one option each);
  ``face_down`` -- every face-down card of that rank; ``all`` -- every card
  of that rank, face up or down, the community card included.

Wild cards are the same for the high and the low hand except in Low Hole
(see above); ``half`` says which one is asked for.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["hand_wild_options", "low_hole_split", "wild_options"]


def wild_options(
    variant: str,
    announcements: Mapping[str, Any],
    down: Sequence[int],
    up: Sequence[int],
    community: int | None = None,
    half: str = "high",
) -> list[frozenset[int]]:
    """The possible sets of wild cards for a player (card ints); never empty.

    Cards are ints, rank index ``card >> 2`` (deuce 0 ... ace 12), suit ``card & 3``:

    >>> wild_options("seven_card_stud", {}, [0, 4, 8], [12, 16, 20, 24])
    [frozenset()]
    >>> wild_options("low_hold", {"same_rank_wild": "none"}, [20, 21, 40], [0, 4, 8, 12])
    [frozenset({20}), frozenset({21})]
    """
    hand = list(down) + list(up) + ([] if community is None else [community])
    return hand_wild_options(variant, announcements, down, up, hand, half)


_NONE: frozenset[int] = frozenset()
_KINGS: frozenset[int] = frozenset(range(44, 48))  # rank index (card >> 2): king 11, ace 12


def hand_wild_options(
    variant: str,
    announcements: Mapping[str, Any],
    down: Sequence[int],
    up: Sequence[int],
    hand: list[int],
    half: str = "high",
) -> list[frozenset[int]]:
    """:func:`wild_options` with the player's whole ``hand`` (down, up, the community card)
    already listed.

    >>> hand_wild_options("kings_and_little_ones", {"door_card_kings": False,
    ...     "king_required": True, "ace_low_for_lowest": False, "all_lowest_wild": False},
    ...     [44, 4, 8], [12, 16, 20, 24], [44, 4, 8, 12, 16, 20, 24]) == [frozenset({4, 44})]
    True
    """
    if variant == "seven_card_stud":
        return [_NONE]
    if variant == "kings_and_little_ones":  # the hottest: kept in line, no call
        if announcements["door_card_kings"]:
            kings = frozenset(up[:1]) if up and up[0] >> 2 == 11 else _NONE
            holds_king = not _KINGS.isdisjoint(hand)
        else:
            kings = _KINGS.intersection(hand)
            holds_king = bool(kings)
        if announcements["king_required"] and not holds_king:
            return [kings]
        rest = [c for c in hand if c not in kings] if kings else hand
        if not rest:  # a hand of kings so far (the live logger's screen asks mid-hand)
            return [kings]
        if announcements["ace_low_for_lowest"] and max(rest) >= 48:
            lowest = [c for c in rest if c >= 48]
        else:
            low = min(rest) >> 2
            lowest = [c for c in rest if c >> 2 == low]
        if len(lowest) == 1:
            return [kings | {lowest[0]}]
        if announcements["all_lowest_wild"]:
            return [kings | frozenset(lowest)]
        return [kings | {c} for c in lowest]
    rule = _LOW_CARD_RULES.get(variant)
    if rule is None:
        raise ValueError(f"unknown variant {variant!r}")
    return rule(announcements, down, hand, half)


_Options = list[frozenset[int]]


def _low_hole(ann: Mapping[str, Any], down: Sequence[int], hand: list[int], half: str) -> _Options:
    """The rank of the lowest hole card (rank index: ace 12; an ace playing low is the
    lowest there is)."""
    low = min(down) >> 2
    if half == "low" and max(down) >= 48 and ann["low_ranking"] in ("ace_to_five", "ace_to_six"):
        low = 12  # a hole ace
    return [frozenset([c for c in hand if c >> 2 == low])]


def _low_hold(ann: Mapping[str, Any], down: Sequence[int], hand: list[int], half: str) -> _Options:
    """The lowest face-down card, and as ``same_rank_wild`` says the others of its rank."""
    low = min(down) >> 2
    lowest = [c for c in down if c >> 2 == low]
    mode = ann["same_rank_wild"]
    if mode == "none":
        return [frozenset((c,)) for c in lowest]
    if mode == "face_down":
        return [frozenset(lowest)]
    return [frozenset([c for c in hand if c >> 2 == low])]


def low_hole_split(
    ann: Mapping[str, Any], down: Sequence[int], hand: list[int]
) -> tuple[list[int], list[int], list[int], list[int]]:
    """Low Hole's natural and wild cards for both halves at once: ``(high naturals, high
    wild cards, low naturals, low wild cards)`` of ``hand``, in its order, as :func:`_low_hole`
    has them; the same two lists for both halves unless a hole ace makes aces wild for the
    low half alone.

    >>> ann = {"low_ranking": "ace_to_five"}
    >>> low_hole_split(ann, [20, 9, 40], [20, 9, 40, 8, 30, 51, 11])
    ([20, 40, 30, 51], [9, 8, 11], [20, 40, 30, 51], [9, 8, 11])
    >>> low_hole_split(ann, [20, 9, 48], [20, 9, 48, 8, 30, 51, 11])
    ([20, 48, 30, 51], [9, 8, 11], [20, 9, 8, 30, 11], [48, 51])
    """
    low = min(down) >> 2
    naturals: list[int] = []
    wild: list[int] = []
    for c in hand:  # one loop: cheaper than two comprehensions
        if c >> 2 == low:
            wild.append(c)
        else:
            naturals.append(c)
    if low != 12 and max(down) >= 48 and ann["low_ranking"] in _ACE_LOW_RANKINGS:
        return (naturals, wild, *_split(hand, 12))
    return naturals, wild, naturals, wild


_ACE_LOW_RANKINGS = ("ace_to_five", "ace_to_six")


def _split(hand: list[int], rank: int) -> tuple[list[int], list[int]]:
    """The cards of ``hand`` not of rank index ``rank``, and those of it."""
    others: list[int] = []
    of_rank: list[int] = []
    for c in hand:
        if c >> 2 == rank:
            of_rank.append(c)
        else:
            others.append(c)
    return others, of_rank


# The variants whose wild cards follow the lowest hole card.
_LOW_CARD_RULES = {"low_hole": _low_hole, "low_hold": _low_hold}
