"""Full hand histories for the PHH tests, by position (p1 sits left of the dealer).

:func:`night` turns a list of hands into PHH hand mappings for a table of
players seated clockwise, the dealer moving one seat each hand from seat 0 --
the starting stacks and finishing stacks computed by replaying every hand.
"""

from __future__ import annotations

import copy

from tests.support.hands import phh_hand
from tracker.engine.procedure import replay_hand

# Everyone folds to p1's bring-in.
FOLD = ["d dh p1 AsKs2c", "d dh p2 QhQd3c", "d dh p3 7d8d9h", "p1 pb", "p2 f", "p3 f"]

# Heads-up to a showdown after p3 folds: p1's aces beat p2's kings.
SHOWDOWN = [
    "d dh p1 AsAh2c", "d dh p2 KsKh3d", "d dh p3 QsQh9d", "p1 pb", "p2 cbr 20", "p3 f", "p1 cc",
    "d dh p1 5c", "d dh p2 6d", "p2 cc", "p1 cc",
    "d dh p1 9c", "d dh p2 Ts", "p2 cbr 40", "p1 cc",
    "d dh p1 Jc", "d dh p2 4h", "p1 cc", "p2 cc",
    "d dh p1 8h", "d dh p2 7s", "p1 cc", "p2 cc", "p1 sm AsAh2c5c9cJc8h", "p2 sm KsKh3d6dTs4h7s",
]  # fmt: skip

# Low Hold (docs/phh.md): p1 buys the seventh card face up and wins with five aces.
# fmt: off
LOW_HOLD = {
    "actions": [
        "d dh p1 4s9d4h", "d dh p2 KcKdKs", "d dh p3 QcQh3c", "p3 pb", "p1 cc", "p2 cc",
        "d dh p1 4c", "d dh p2 Kh", "d dh p3 7h", "p2 cbr 20", "p3 f", "p1 cc",
        "d dh p1 Ah", "d dh p2 Qs", "p2 cc", "p1 cc",
        "d dh p1 Ad", "d dh p2 Qd", "p1 cc", "p2 cc",
        "d dh p1 2c", "d dh p2 Jc", "p1 cbr 40", "p2 cc", "p1 sm 4s9d4h4cAhAd2c", "p2 sm -",
    ],
    "_variant": "low_hold",
    "_options": {"same_rank_wild": "all", "buy_version": "contributed"},
    "_buys": [True, False, False],
}
# fmt: on

# Kings and Little Ones: p2 turns the seventh card up; both reach the showdown.
# fmt: off
KINGS = {
    "actions": [
        "d dh p1 Kd4c2c", "d dh p2 3d5s5h", "d dh p3 8c8d6h", "p1 pb", "p2 cc", "p3 f",
        "d dh p1 7h", "d dh p2 7c", "p2 cc", "p1 cc",
        "d dh p1 9h", "d dh p2 9c", "p2 cbr 40", "p1 cc",
        "d dh p1 Jd", "d dh p2 Tc", "p1 cc", "p2 cc",
        "d dh p1 4s", "d dh p2 Qd", "p2 cc", "p1 cc",
    ],
    "_variant": "kings_and_little_ones",
    "_options": {"king_required": True},
    "_seventh_card": [None, "up", None],
}
# fmt: on


def as_hand(spec) -> dict:
    return {"actions": list(spec)} if isinstance(spec, list) else copy.deepcopy(spec)


def night(specs, names=("Ann", "Bob", "Cat"), stacks=None, first_number=1) -> list[dict]:
    """PHH hands for ``specs`` played in turn at a table of ``names`` (seats 0, 1, ...)."""
    n = len(names)
    seat_stacks = list(stacks or [1000] * n)
    hands = []
    for k, spec in enumerate(specs):
        dealer = k % n
        order = [(dealer + 1 + i) % n for i in range(n)]
        hand = {
            **phh_hand([], [seat_stacks[s] for s in order]),
            **as_hand(spec),
            "players": [names[s] for s in order],
            "hand": first_number + k,
        }
        result = replay_hand(hand)
        hand["finishing_stacks"] = result.finishing_stacks
        for s, chips in zip(order, result.finishing_stacks, strict=True):
            seat_stacks[s] = chips
        hands.append(hand)
    return hands
