"""Named example hands for the engine's docstrings.

Each function builds one :class:`~tracker.engine.stud.StudHand` at a
well-known point, so that an example starts there and shows only what it is
about. All of them play at ``Stakes(1, 2, 5, 10)`` and, unless told
otherwise, heads-up with 100 chips each. The cards are always the same:

=============  ============================  ==============================
street         p1 (seat 0)                   p2 (seat 1)
=============  ============================  ==============================
third          As Ks down, 2c up             Qh Qd down, 3c up
fourth-sixth   Ah, Kh, Jc up                 4d, 5d, 6d up
seventh        9s down                       8s down
=============  ============================  ==============================

p1's 2c brings it in; the ace leads on fourth street.

>>> hand = third_street()
>>> hand.next_event().seat, hand.pot_total()
(0, 2)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .announcements import normalize_announcements
from .cards import parse_card
from .stakes import Stakes
from .stud import StudHand

__all__ = [
    "STAKES",
    "THIRD_STREET",
    "UP_STREETS",
    "all_in_showdown",
    "antes_posted",
    "baseball_three_up",
    "community_card_due",
    "declare_showdown",
    "deal_round",
    "fourth_street",
    "new_hand",
    "recorded_to_seventh",
    "seventh_street",
    "third_street",
]

STAKES = Stakes(1, 2, 5, 10)
"""The stakes of every example: antes 1, bring-in 2, small bet 5, big bet 10."""

THIRD_STREET = "As Qh Ks Qd 2c 3c"
"""Third street in dealing order, p1 and p2 in turn: two down, one up each."""

UP_STREETS = "Ah 4d Kh 5d Jc 6d"
"""Fourth to sixth street in dealing order, p1 and p2 in turn."""


def new_hand(
    *,
    variant: str = "seven_card_stud",
    stacks: Sequence[int] = (100, 100),
    results: bool = False,
    options: Mapping[str, Any] | None = None,
) -> StudHand:
    """A hand nobody has acted in yet: the antes come first.

    >>> new_hand().next_event().phase
    <Phase.ANTES: 'antes'>
    """
    return StudHand(
        variant=variant, stakes=STAKES, stacks=list(stacks), results=results, options=options
    )


def antes_posted(
    *,
    variant: str = "seven_card_stud",
    stacks: Sequence[int] = (100, 100),
    results: bool = False,
    options: Mapping[str, Any] | None = None,
) -> StudHand:
    """A hand whose antes are in: third street's cards are due.

    >>> hand = antes_posted()
    >>> hand.antes, hand.cards_due(0)
    ([1, 1], 3)
    """
    hand = new_hand(variant=variant, stacks=stacks, results=results, options=options)
    hand.post_antes()
    return hand


def deal_round(hand: StudHand, cards: str) -> None:
    """Deal ``cards`` (tokens in dealing order, seats in turn; ``??`` is a card
    nobody saw) to a heads-up hand.

    >>> hand = antes_posted()
    >>> deal_round(hand, "As ?? Ks ?? 2c 3c")
    >>> hand.cards[1][:2], hand.next_event().seat
    ([None, None], 0)
    """
    for i, token in enumerate(cards.split()):
        hand.deal(i % 2, None if token == "??" else parse_card(token))


def third_street(
    *,
    variant: str = "seven_card_stud",
    stacks: Sequence[int] = (100, 100),
    results: bool = False,
    options: Mapping[str, Any] | None = None,
) -> StudHand:
    """Third street dealt (:data:`THIRD_STREET`); p1's 2c is to bring it in.

    >>> hand = third_street()
    >>> turn = hand.next_event()
    >>> turn.seat, [o.verb.value for o in turn.options]
    (0, ['bring_in', 'complete'])
    """
    hand = antes_posted(variant=variant, stacks=stacks, results=results, options=options)
    deal_round(hand, THIRD_STREET)
    return hand


def fourth_street(
    *,
    variant: str = "seven_card_stud",
    stacks: Sequence[int] = (100, 100),
    options: Mapping[str, Any] | None = None,
) -> StudHand:
    """p1 brought it in, p2 called, fourth street dealt (Ah, 4d): p1's ace leads.

    >>> hand = fourth_street()
    >>> hand.street, hand.next_event().seat
    (<Street.FOURTH: 1>, 0)
    """
    hand = third_street(variant=variant, stacks=stacks, options=options)
    hand.bring_in(0)
    hand.call(1)
    deal_round(hand, UP_STREETS[:5])
    return hand


def seventh_street(
    *,
    variant: str = "seven_card_stud",
    stacks: Sequence[int] = (100, 100),
    options: Mapping[str, Any] | None = None,
) -> StudHand:
    """Played to seventh street: brought in, called, both check fourth to sixth.

    The seventh cards are next (in Kings and Little Ones and Low Hold, the
    players' choices about them first).

    >>> hand = seventh_street()
    >>> hand.street, hand.cards_due(0), hand.next_face(0)
    (<Street.SEVENTH: 4>, 1, <Face.DOWN: 'down'>)
    """
    hand = third_street(variant=variant, stacks=stacks, options=options)
    hand.bring_in(0)
    hand.call(1)
    ups = UP_STREETS.split()
    for street in range(3):
        deal_round(hand, " ".join(ups[2 * street : 2 * street + 2]))
        hand.check(0)
        hand.check(1)
    return hand


def recorded_to_seventh(*, variant: str = "seven_card_stud", players: int = 2) -> StudHand:
    """A results record (``results=True``, 100 chips each) at seventh street.

    The cards are 0, 1, 2, ... dealt round the table (card ``n`` to seat
    ``n % players``), each street's betting ended without a bet.

    >>> hand = recorded_to_seventh()
    >>> hand.street, hand.cards[0]
    (<Street.SEVENTH: 4>, [0, 2, 4, 6, 8, 10])
    """
    hand = antes_posted(variant=variant, stacks=[100] * players, results=True)
    card = 0
    for count in (3, 1, 1, 1):
        for _ in range(count * players):
            hand.deal(card % players, card)
            card += 1
        hand.end_betting()
    return hand


def community_card_due(*, variant: str = "seven_card_stud") -> StudHand:
    """Seven players recorded to seventh street: 42 cards are out, 5 are left
    after the burns, too few for a seventh card each: one community card is due.

    >>> hand = community_card_due()
    >>> len(hand.next_event().deals), hand.community
    (1, None)
    """
    return recorded_to_seventh(variant=variant, players=7)


def all_in_showdown(
    *,
    variant: str = "seven_card_stud",
    options: Mapping[str, Any] | None = None,
    seen: bool = True,
) -> StudHand:
    """p2 (3 chips) calls the bring-in all in; every card is dealt: both seats show down.

    p2's face-down cards are Qh Qd and 8s; with ``seen=False`` nobody saw
    them (they are dealt as ``None``).

    >>> hand = all_in_showdown()
    >>> hand.stacks, hand.next_event().showdown
    ([97, 0], (0, 1))
    """
    hand = antes_posted(variant=variant, stacks=(100, 3), options=options)
    down = ("Qh", "Qd", "8s") if seen else ("??", "??", "??")
    deal_round(hand, f"As {down[0]} Ks {down[1]} 2c 3c")
    hand.bring_in(0)
    hand.call(1)
    deal_round(hand, f"{UP_STREETS} 9s {down[2]}")
    return hand


def declare_showdown(*, variant: str = "low_hole") -> StudHand:
    """:func:`all_in_showdown` in a high-low game played with declarations.

    >>> hand = declare_showdown()
    >>> hand.options["game"], hand.options["declaration"]
    ('high_low', 'declare')
    """
    options = normalize_announcements(variant, {"game": "high_low", "declaration": "declare"})
    return all_in_showdown(variant=variant, options=options)


def baseball_three_up() -> StudHand:
    """A heads-up hand of Baseball (the preset) with third street dealt as
    :data:`THIRD_STREET`: p2's door card is the 3c, so p2 pays the pot (2, the antes) or
    folds before the betting begins.

    >>> baseball_three_up().next_event().seat
    1
    """
    from .game_presets import PRESETS

    hand = StudHand(game=PRESETS["baseball"], stakes=STAKES, stacks=[100, 100])
    hand.post_antes()
    deal_round(hand, THIRD_STREET)
    return hand
