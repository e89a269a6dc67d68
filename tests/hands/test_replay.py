"""The replayer's end of the hand read from the settled pots (tracker/hands/selectors/replay.py):
who took each pot and how much in the result that stands, with the engine's hand in words for
a taker the engine also names in that pot."""

from __future__ import annotations

from tracker.engine.frames import PotTaken, pot_words
from tracker.hands.models import Hand, Pot
from tracker.hands.selectors.replay import pots_taken

READING = {
    "payouts": [
        {"pot": 0, "amount": 48, "high_winners": [0], "low_winners": [2]},
        {"pot": 1, "amount": 20, "high_winners": [0], "low_winners": []},
    ],
    "showdown": {
        "players": [
            {"high": {"text": "three sevens"}, "low": None},
            None,
            {"high": {"text": "ace high"}, "low": {"text": "8-6-4-3-2 low"}},
        ]
    },
}


def test_each_pot_is_told_by_seat_with_the_hands_that_won_it():
    hand = Hand(positions=[10, 20, 30], engine_reading=READING)
    pots = [
        Pot(index=0, amount=48, award={"30": 24, "10": 24, "20": 0}),
        Pot(index=1, amount=20, award={"20": 20}),  # a ruling gave it to the engine's loser
    ]
    taken = pots_taken(hand, pots)
    assert taken == [
        PotTaken(0, 48, ((0, 24), (2, 24)), ((0, "three sevens"), (2, "8-6-4-3-2 low"))),
        PotTaken(1, 20, ((1, 20),), ()),
    ]
    assert pot_words(taken, ["Ann", "Bob", "Cat"]) == [
        "The main pot (48) is split: Ann 24 with three sevens, Cat 24 with 8-6-4-3-2 low.",
        "Bob takes side pot 1 (20).",
    ]
