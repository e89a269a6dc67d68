"""Hands replayed per second: our stud procedure against pokerkit's state machine.

Both replay the same random seven-card stud hands (played by pokerkit with
random legal actions and written to PHH), from the parsed hand fields,
through to the payouts (both evaluate the showdown hands). Hands ours
refuses by rule (eight players, a seventh card where the deck is short)
are left out of both.

    .venv/bin/python bench/replay.py [HANDS] [--repeat N]
"""

from __future__ import annotations

import argparse
import time
import warnings

from _common import first_seat_wins, project_on_path

project_on_path()

from pokerkit import FixedLimitSevenCardStud, Mode  # noqa: E402
from pokerkit.notation import parse_action  # noqa: E402

from tests.support.pokerkit import (  # noqa: E402
    REPLAY_AUTOMATIONS,
    play_random_hand,
)
from tracker.engine.procedure import replay_hand  # noqa: E402


def pokerkit_replay(hand: dict) -> list[int]:
    game = FixedLimitSevenCardStud(
        REPLAY_AUTOMATIONS,
        False,
        hand["antes"],
        hand["bring_in"],
        hand["small_bet"],
        hand["big_bet"],
        mode=Mode.CASH_GAME,
    )
    state = game(hand["starting_stacks"], len(hand["starting_stacks"]))
    for action in hand["actions"]:
        parse_action(state, action)
    return state.stacks


def rate(fn, hands, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for hand in hands:
            fn(hand)
        best = min(best, time.perf_counter() - start)
    return len(hands) / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("hands", nargs="?", type=int, default=500)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    hands = []
    seed = 0
    while len(hands) < args.hands:
        rh = play_random_hand(seed)
        seed += 1
        if rh.players == 8 or (rh.ours_community and not rh.board):
            continue
        hands.append(rh.hand)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for hand in hands:  # same results, and warm both up
            assert pokerkit_replay(hand) == replay_hand(hand).finishing_stacks or any(
                s < hand["antes"][0] for s in hand["starting_stacks"]
            )
        theirs = rate(pokerkit_replay, hands, args.repeat)
    ours = rate(replay_hand, hands, args.repeat)
    procedure_only = rate(lambda h: replay_hand(h, evaluate=first_seat_wins), hands, args.repeat)
    showdowns = sum(1 for h in hands if any(" sm " in a for a in h["actions"]))
    print(f"{len(hands)} hands ({showdowns} with a showdown), best of {args.repeat} runs")
    print(f"pokerkit state machine: {theirs:10.0f} hands/s")
    print(f"ours (replay_hand):     {ours:10.0f} hands/s")
    print(f"ratio ours/pokerkit:    {ours / theirs:10.1f}x")
    print(f"ours without hand values (stub showdown): {procedure_only:.0f} hands/s")


if __name__ == "__main__":
    main()
