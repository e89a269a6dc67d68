"""The live logger's screen marks the cards wild as things stand now
(tracker.engine.screen.wild_marks): a house game's follow rank moving street by street,
today's Kings and Little Ones read by tracker.engine.wild, and the marks worked out once a
redraw the same as each seat's worked out on its own."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from tracker.engine.announcements import has_low, normalize_announcements
from tracker.engine.cards import format_card, parse_card
from tracker.engine.events import DealBoard, DealHole, event_for
from tracker.engine.game_presets import PRESETS
from tracker.engine.games import load_game, wild_now
from tracker.engine.screen import change_steps, screen, screen_json, step, table_now, wild_marks
from tracker.engine.stakes import Stakes
from tracker.engine.stud import Phase, Verb
from tracker.engine.variants import Face
from tracker.engine.wild import wild_options

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


def _from_scratch(now):
    """Each seat's wild cards worked out on its own from the engine's rules (``wild_now``
    for a house game, tracker.engine.wild for today's games), as the screen did before it
    worked the table's marks out once a redraw."""
    hand, table = now.hand, now.table
    community = parse_card(table.community) if table.community else None
    found = []
    for seat in table.seats:
        down = [parse_card(c.code) for c in seat.cards if c.code and not c.up]
        up = [parse_card(c.code) for c in seat.cards if c.code and c.up]
        seen = all(c.code for c in seat.cards)
        cards: frozenset[int] = frozenset()
        if (down or up) and hand.house:
            game = hand.game
            if not seen:  # only the fixed and follow ranks: no unseen card changes them
                game = replace(game, wild=tuple(w for w in game.wild if w.kind in LOOKS_UP))
            order = [c for c in hand.up_order if c is not None]
            complete = hand.street == hand.last_street and hand.phase is not Phase.DEAL
            if game.wild:
                cards = wild_now(game, down, up, order, complete=complete, community=community)
        elif (down or up) and (seen or hand.variant == "kings_and_little_ones"):
            if hand.variant != "seven_card_stud":
                ann = normalize_announcements(hand.variant, hand.options)
                halves = ["high"] + (["low"] if has_low(hand.variant, ann) else [])
                cards = frozenset().union(
                    *(o for h in halves for o in wild_options(hand.variant, ann, down, up,
                                                              community, h))
                )  # fmt: skip
                if not seen:  # kings only: the lowest card may be an unseen one
                    cards = frozenset(c for c in cards if c >> 2 == 11)
        found.append({format_card(c) for c in cards})
    return found


LOOKS_UP = ("fixed", "follow")  # the rule kinds that read no hole card of the player's

#: A house game with a follow rank and a lowest hole card both: the rules kept while a
#: seat's hole cards are unseen are some, not all, of them.
FOLLOW_AND_HOLE = load_game(
    {
        "name": "follow_hole",
        "title": "Follow the Queen, low hole",
        "wild": [{"kind": "follow", "rank": "Q"}, {"kind": "lowest_hole", "same_rank": "all"}],
    }
)


@pytest.mark.parametrize(
    ("variant", "options", "game"),
    [
        ("seven_card_stud", {}, None),
        ("kings_and_little_ones", {}, None),
        ("kings_and_little_ones", {"door_card_kings": True, "all_lowest_wild": True}, None),
        ("low_hole", {"game": "high_low", "low_ranking": "ace_to_five"}, None),
        ("low_hold", {"same_rank_wild": "none"}, None),
        ("house", {}, PRESETS["follow_the_queen"]),
        ("house", {}, PRESETS["deuces_wild"]),
        ("house", {}, PRESETS["kings_and_little_ones"]),
        ("house", {}, PRESETS["low_hole"]),
        ("house", {}, FOLLOW_AND_HOLE),
    ],
)
def test_the_marks_worked_out_once_a_redraw_are_each_seats_from_scratch(variant, options, game):
    """Random hands of five, some hole cards unseen: after every change the screen marks
    the cards each seat's own reading of the rules marks."""
    for seed in range(3):
        rng = random.Random(seed)
        deck = [parse_card(r + s) for r in "23456789TJQKA" for s in "cdhs"]
        rng.shuffle(deck)
        setup = dict(stakes=Stakes(1, 2, 5, 10), stacks=[500] * 5,
                     names=["Ann", "Bob", "Cat", "Dan", "Eve"], variant=variant,
                     options=options, game=game)  # fmt: skip
        steps: list[dict] = []
        while True:
            now = table_now(**setup, steps=steps)
            assert wild_marks(now) == _from_scratch(now), (seed, len(steps))
            turn = now.next
            hand = now.hand
            if turn.deals:
                seat = turn.deals[0].seat
                if seat is None:
                    event = DealBoard(deck.pop())
                else:
                    event = DealHole(seat, tuple(
                        None if d.face is Face.DOWN and rng.random() < 0.3 else deck.pop()
                        for d in turn.deals if d.seat == seat
                    ))  # fmt: skip
            elif turn.seat is not None:
                passive = [o for o in turn.options if o.verb in (*PASSIVE, Verb.PAY)]
                event = event_for(rng.choice(passive or list(turn.options)))
            else:  # the showdown: the marks of the last street are checked
                break
            done = [hand.apply(event, automate=False)]
            steps = steps + change_steps(done, hand.automate())
