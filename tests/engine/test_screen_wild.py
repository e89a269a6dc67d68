"""The live logger's screen marks the cards wild as things stand now
(tracker.engine.screen.wild_cards): a house game's follow rank moving street by street,
and today's Kings and Little Ones read by tracker.engine.wild."""

from __future__ import annotations

from tracker.engine.game_presets import PRESETS
from tracker.engine.screen import screen, screen_json, step, table_now
from tracker.engine.stakes import Stakes
from tracker.engine.stud import Verb

PASSIVE = (Verb.BRING_IN, Verb.CHECK, Verb.CALL)


def _setup(**kw):
    return dict(stakes=Stakes(1, 2, 5, 10), stacks=[100, 100], names=["Ann", "Bob"], **kw)


def _deal(setup, steps, cards):
    """Deal the street (``cards``: form field to card), then check or call it through."""
    steps, _ = step(table_now(**setup, steps=steps), {"op": "deal", **cards})
    now = table_now(**setup, steps=steps)
    while now.next.seat is not None:
        option = next(o for v in PASSIVE for o in now.next.options if o.verb is v)
        steps, _ = step(now, {"op": "act", "seat": option.seat, "verb": option.verb.value})
        now = table_now(**setup, steps=steps)
    return steps


def _marked(setup, steps):
    """Each seat's cards marked wild on the phone's screen data."""
    data = screen_json(screen(table_now(**setup, steps=steps)))
    return [[c["code"] for c in s["cards"] if c["wild"]] for s in data["seats"]]


def test_follow_the_queen_marks_the_follower_and_moves_the_mark():
    setup = _setup(variant="house", options={}, game=PRESETS["follow_the_queen"])
    steps = _deal(setup, [], {"card-0-0": "7d", "card-0-1": "9h", "card-0-2": "Qd",
                              "card-1-2": "7c"})  # fmt: skip
    assert _marked(setup, steps) == [["7d", "Qd"], ["7c"]]  # a queen up, then a seven: sevens
    steps = _deal(setup, steps, {"card-0-0": "Qs", "card-1-0": "9d"})
    assert _marked(setup, steps) == [["9h", "Qd", "Qs"], ["9d"]]  # then a queen, a nine: nines
    steps = _deal(setup, steps, {"card-0-0": "2c", "card-1-0": "3c"})
    assert _marked(setup, steps) == [["9h", "Qd", "Qs"], ["9d"]]


def test_a_queen_waiting_for_its_follower_leaves_the_rank_wild_until_it_falls():
    setup = _setup(variant="house", options={}, game=PRESETS["follow_the_queen"])
    steps = _deal(setup, [], {"card-0-0": "7d", "card-0-1": "9h", "card-0-2": "Qd",
                              "card-1-2": "7c"})  # fmt: skip
    steps = _deal(setup, steps, {"card-0-0": "5s", "card-1-0": "Qh"})  # no follower yet
    assert _marked(setup, steps) == [["7d", "Qd"], ["7c", "Qh"]]


def test_kings_and_little_ones_marks_kings_and_each_players_lowest_card_so_far():
    setup = _setup(variant="kings_and_little_ones", options={})
    steps = _deal(setup, [], {"card-0-0": "Kc", "card-0-1": "9d", "card-0-2": "6h",
                              "card-1-2": "Kd"})  # fmt: skip
    # Bob's hole cards are unseen: his lowest card may be among them, his king is wild.
    assert _marked(setup, steps) == [["Kc", "6h"], ["Kd"]]
    steps = _deal(setup, steps, {"card-0-0": "4s", "card-1-0": "8c"})
    assert _marked(setup, steps) == [["Kc", "4s"], ["Kd"]]  # the little one moves to the four
