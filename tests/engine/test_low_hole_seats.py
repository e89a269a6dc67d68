"""Low Hole's seats on decks crowded with what its short cuts handle on their own: lows that
must play a pair (few ranks), flushes (few suits), aces in the hole.

Each showdown is checked against the brute-force oracle (values and winners), and each seat's
``low_hole_hands`` (the sum-and-lookup way) against ``_long_way`` (the cards split into lists,
through the general functions): the same keys and the same explained hands, word for word.
"""

from __future__ import annotations

import random

import pytest

from tests.engine import oracle
from tests.engine.showdowns import DECK
from tracker.engine import evaluate_showdown
from tracker.engine.low_hole import _long_way, low_hole_hands
from tracker.engine.showdown import parse_showdown

# what a deck is crowded with: (ranks, suits); a card is favoured when it has one of them
CROWDS = (
    ("A23", ""),  # three low ranks: lows that must play a pair, the aces wild for the low
    ("A234", "s"),  # low ranks and spades: suited lows, wheel flushes
    ("", "hs"),  # two suits: flushes and straight flushes
    ("A8K", ""),  # three ranks: full houses, quads, lows that do not qualify
)
OPTIONS = {
    "game": ["high_low", "low", "high"],
    "low_ranking": ["ace_to_five", "ace_to_five", "ace_to_six", "deuce_to_seven"],
    "low_qualifier": [8, None],
    "double_ace_flush": [False, True],
}


def crowded_showdown(rng: random.Random, ranks: str, suits: str) -> dict:
    """A Low Hole showdown of 2 to 7 players dealt mostly from the favoured cards."""
    favoured = [c for c in DECK if c[0] in ranks or c[1] in suits or rng.random() < 0.1]
    rest = [c for c in DECK if c not in favoured]
    rng.shuffle(favoured)
    rng.shuffle(rest)
    deck = favoured + rest  # dealt from the front
    players = []
    for p in range(rng.randint(2, 7)):
        cards = deck[7 * p : 7 * p + 7]
        players.append({"down": cards[:3], "up": cards[3:]})
    options = {name: rng.choice(values) for name, values in OPTIONS.items()}
    return {"variant": "low_hole", "options": options, "players": players}


def _value(hand: dict | None) -> tuple | None:
    if hand is None:
        return None
    return oracle.CATS.index(hand["category"]), tuple(hand["ranks"])


@pytest.mark.parametrize(("ranks", "suits"), CROWDS)
def test_crowded_low_hole_seats_agree_with_the_oracle_and_the_long_way(ranks, suits):
    rng = random.Random(f"{ranks}/{suits}")
    pairs = 0
    for _ in range(100):
        sd = crowded_showdown(rng, ranks, suits)
        got = evaluate_showdown(sd)
        want = oracle.evaluate(sd)
        mine = [
            (_value(p["high"]), _value(p["low"]) if p["low"] and p["low"]["qualifies"] else None)
            for p in got["players"]
        ]
        assert mine == want["players"], sd
        assert (got["high_winners"], got["low_winners"]) == (
            want["high_winners"],
            want["low_winners"],
        ), sd
        _variant, ann, _community, seats = parse_showdown(sd)
        want_high, want_low = sd["options"]["game"] != "low", sd["options"]["game"] != "high"
        for seat in seats:
            cards = seat.down + seat.up
            fast = low_hole_hands(seat.down, cards, ann, want_high, want_low)
            assert fast == _long_way(seat.down, cards, ann, want_high, want_low), sd
            low = fast[3]
            pairs += low is not None and len(set(low["ranks"])) < len(low["ranks"])
    if ranks == "A23":
        assert pairs >= 15, pairs  # the crowd does its work: lows that play a pair
