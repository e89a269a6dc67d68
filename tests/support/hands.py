"""Hands for the engine and statistics tests: the level-1 stakes of RULES.md, heads-up
histories street by street, a full hand history in PHH fields, what a settled hand pays,
and the per-seat facts of a replayed history.

>>> STAKES
Stakes(ante=4, bring_in=10, small_bet=20, big_bet=40, level=None)
>>> phh_hand(["d dh p1 AsKs2c", "d dh p2 QhQd3c", "p1 pb", "p2 f"])["antes"]
4
>>> phh_hand([], (100, 100), variant="low_hold")["_variant"]
'low_hold'
"""

from __future__ import annotations

from tracker.engine.facts import hand_facts
from tracker.engine.procedure import replay_hand
from tracker.engine.stakes import Stakes

STAKES = Stakes(4, 10, 20, 40)  # RULES.md level 1: ante, bring-in, small bet, big bet
SMALL_STAKES = Stakes(1, 2, 5, 10)  # small numbers for hands worked by hand


# Five players: Jo (p1) brings in, Sam (p2) and Alex (p3) call, the others fold; Jo folds
# on sixth street; Sam and Alex check seventh; Sam shows, Alex mucks.
FIVE = [
    "d dh p1 AhKh2c", "d dh p2 AsKs9d", "d dh p3 QhQd8c", "d dh p4 JhJd7c", "d dh p5 ThTd6s",
    "p1 pb", "p2 cc", "p3 cc", "p4 f", "p5 f",
    "d dh p1 3d", "d dh p2 4d", "d dh p3 5d", "p2 cc", "p3 cc", "p1 cc",
    "d dh p1 7d", "d dh p2 8d", "d dh p3 9c", "p3 cc", "p1 cc", "p2 cc",
    "d dh p1 Tc", "d dh p2 Jc", "d dh p3 Qc", "p3 cbr 40", "p1 f", "p2 cc",
    "d dh p2 2d", "d dh p3 3c", "p3 cc", "p2 cc",
    "p2 sm AsKs2d", "p3 sm",
]  # fmt: skip

# Fourth to seventh street at stakes of 1/2/4/8 after a three-handed third street where
# everyone calls the bring-in: p3 bets 4 on fourth street, p1 calls, p2 folds; then p1 and
# p3 check down to a pot of 17. p1's Ts 9s 8c with 7h 6h make T-9-8-7-6, as do p3's ten and
# eight down with 9h 7c 6d.
ODD_CHIP_STREETS = [
    "d dh p1 7h", "d dh p2 5s", "d dh p3 9h", "p3 cbr 4", "p1 cc", "p2 f",
    "d dh p1 6h", "d dh p3 7c", "p3 cc", "p1 cc",
    "d dh p1 Kh", "d dh p3 6d", "p1 cc", "p3 cc",
    "d dh p1 3c", "d dh p3 4s", "p1 cc", "p3 cc",
]  # fmt: skip


def heads_up(p1: str, p2: str, *streets: str) -> list[str]:
    """The PHH actions of a heads-up stud hand, street by street: on each, p1 and then p2
    are dealt their next cards (``p1`` and ``p2``: each player's cards, third street's three
    together, the streets apart by spaces), then the street's betting (``streets``: one a
    street, its actions apart by commas).

    >>> heads_up("AsKs2c 3d", "QhQd3c 4d", "p1 pb, p2 cc", "p2 cbr 20, p1 f")
    ['d dh p1 AsKs2c', 'd dh p2 QhQd3c', 'p1 pb', 'p2 cc', 'd dh p1 3d', 'd dh p2 4d', \
'p2 cbr 20', 'p1 f']
    """
    dealt = zip(p1.split(), p2.split(), streets, strict=True)
    return [
        step
        for one, two, betting in dealt
        for step in (f"d dh p1 {one}", f"d dh p2 {two}", *betting.split(", "))
    ]


def payout(result) -> tuple:
    """What a settled hand (a replay's or a quick entry's result) gives back and pays: the
    uncalled chips returned to each seat, the pots (amount, and the seats that may win
    it) and the finishing stacks."""
    return result.returned, [p.to_dict() for p in result.pots], result.finishing_stacks


def phh_stakes(stakes: Stakes = STAKES) -> dict:
    """The PHH fields of ``stakes`` (a fixed-limit seven-card stud hand)."""
    return {
        "variant": "F7S",
        "antes": stakes.ante,
        "bring_in": stakes.bring_in,
        "small_bet": stakes.small_bet,
        "big_bet": stakes.big_bet,
    }


def phh_hand(
    actions, stacks=(1000, 1000), *, stakes: Stakes = STAKES, variant=None, options=None, **extra
) -> dict:
    """A full hand history in PHH fields: ``actions`` from ``stacks``; ``variant`` and
    ``options`` as the ``_variant`` and ``_options`` fields when given, ``extra`` fields
    as they are."""
    hand = {**phh_stakes(stakes), "starting_stacks": list(stacks), "actions": list(actions)}
    if variant is not None:
        hand["_variant"] = variant
    if options is not None:
        hand["_options"] = options
    return {**hand, **extra}


def full_facts(actions, stacks=(1000, 1000, 1000), variant="seven_card_stud", options=None):
    """The per-seat facts of the full history ``actions`` (replayed), and the reading."""
    options = options or {}
    reading = replay_hand(phh_hand(actions, stacks, variant=variant, options=options)).to_dict()
    facts = hand_facts(
        variant=variant,
        options=options,
        entry_mode="full",
        entry={"actions": actions},
        reading=reading,
    )
    return facts, reading
