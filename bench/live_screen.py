"""The live logger's screen (tracker/engine/screen.py ``screen``), the part of every redraw
that the engine computes, on the server and on the phone: its CPU time per redraw, for a
whole hand of each of a few games, wild cards and not.

    .venv/bin/python bench/live_screen.py [--players 7] [--repeat 5]

Each game's hand is dealt and played through on the machine (every card known, one seat's
cards of a street per change, the bring-in, checks and calls, then the shows), keeping the
table after every change; then ``screen(now)`` is called for each of those tables, ``--repeat``
times over, and the median CPU time per redraw of the rounds is printed (this process's CPU
time: steadier than wall time on a loaded machine), with the load average. No database.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

#: (label, variant, options, house game preset or None)
GAMES = (
    ("Seven-card stud", "seven_card_stud", {}, None),
    ("Kings and Little Ones", "kings_and_little_ones", {}, None),
    ("Low Hole, high-low", "low_hole", {"game": "high_low"}, None),
    ("Follow the Queen (house)", "house", {}, "follow_the_queen"),
)


def hand_tables(variant: str, options: dict, game, players: int, seed: int) -> list:
    """The table (``TableNow``) after each change of a hand played through."""
    from tracker.engine.cards import parse_card
    from tracker.engine.events import DealBoard, DealHole, Show, event_for
    from tracker.engine.screen import change_steps, table_now
    from tracker.engine.stakes import Stakes
    from tracker.engine.stud import Verb

    rng = random.Random(seed)
    deck = [parse_card(r + s) for r in "23456789TJQKA" for s in "cdhs"]
    rng.shuffle(deck)
    setup = dict(
        variant=variant,
        options=options,
        stakes=Stakes(5, 10, 20, 40),
        stacks=[1000] * players,
        names=[f"P{i}" for i in range(players)],
        game=game,
    )
    steps: list[dict] = []
    tables = []
    passive = (Verb.BRING_IN, Verb.PAY, Verb.CHECK, Verb.CALL)
    while True:
        now = table_now(**setup, steps=steps)
        tables.append(now)
        turn = now.next
        if turn.over:
            return tables
        if turn.deals:
            seat = turn.deals[0].seat
            if seat is None:
                event = DealBoard(deck.pop())
            else:
                event = DealHole(seat, tuple(deck.pop() for d in turn.deals if d.seat == seat))
        elif turn.seat is not None:
            option = next(o for v in passive for o in turn.options if o.verb is v)
            event = event_for(option)
        elif turn.showdown:
            event = Show(turn.showdown[0])
        else:
            raise SystemExit(f"cannot go on from {turn}")
        hand = now.hand
        done = [hand.apply(event, automate=False)]
        steps = steps + change_steps(done, hand.automate())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=7)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    from tracker.engine.game_presets import PRESETS
    from tracker.engine.screen import screen

    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for label, variant, options, preset in GAMES:
        game = PRESETS[preset] if preset else None
        tables = hand_tables(variant, options, game, args.players, seed=1)
        rounds = []
        for _ in range(args.repeat):
            start = time.process_time()
            for now in tables:
                screen(now)
            rounds.append((time.process_time() - start) / len(tables))
        print(
            f"{label:<26} {len(tables):3d} redraws: {1e6 * statistics.median(rounds):6.1f} us "
            f"CPU a screen (median of {args.repeat} rounds; best {1e6 * min(rounds):6.1f})"
        )
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
