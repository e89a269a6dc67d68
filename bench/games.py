"""Game definitions: the presets' per-hand path against the brute force, next to today's games.

    .venv/bin/python bench/games.py [--hands N] [--rounds R] [--seed S] [--brute B]

For every preset it times ``game_hand_keys`` (the definition's wild rules, then the value) on
seven-card hands dealt so that the hand holds exactly two wild cards where the game has wild
cards (the hands of games without them are plain random), and the brute force of the tests
(tests/engine/games_oracle.py: the definition's wild cards found afresh, every value of every
wild card tried) on the same hands; it prints hands/second and the ratio. Today's four games
are also timed through ``hand_keys`` (the path they use now): their definitions are held to
that path (the ratio printed), the other presets with two wild cards to >= 1000x the brute
force. Exit status 1 if a target is missed.
"""

from __future__ import annotations

import argparse
import random

from _common import project_on_path, rate

project_on_path()
from tests.engine import games_oracle  # noqa: E402
from tracker.engine import hand_keys, hands, normalize_announcements  # noqa: E402
from tracker.engine.cards import format_card  # noqa: E402
from tracker.engine.game_presets import PRESETS  # noqa: E402
from tracker.engine.game_showdown import game_hand_keys  # noqa: E402
from tracker.engine.games import FollowWild, dump_game, follow_ranks, wild_options  # noqa: E402

TODAY = ("seven_card_stud", "kings_and_little_ones", "low_hole", "low_hold")


def two_wild_hands(game, rng: random.Random, count: int) -> list[tuple]:
    """Seven-card hands (3 down, 4 up) holding exactly two wild cards under ``game`` when it
    has wild cards, (down, up, follow, up_order); a game whose rule never gives two (Low Hold:
    one card) gets the hands it deals."""
    rule = next((w for w in game.wild if isinstance(w, FollowWild)), None)
    out: list[tuple] = []
    tries = 0
    while len(out) < count:
        tries += 1
        cards = rng.sample(range(52), 9)
        down, up = cards[:3], cards[3:7]
        order = [*up, *cards[7:]]
        follow = follow_ranks(rule, order) if rule else frozenset()
        if game.wild and tries < 100 * count:
            opts = wild_options(game, down, up, None, follow, "high")
            if max(len(o) for o in opts) != 2:
                continue
        out.append((down, up, follow, order))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--brute", type=int, default=12, help="hands for the brute force")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    hands.build_tables()

    todo: dict[str, tuple] = {}
    wild_presets = []
    two: dict[str, bool] = {}  # whether every sampled hand of the game holds two wild cards
    for name, game in PRESETS.items():
        items = two_wild_hands(game, rng, args.hands)
        two[name] = bool(game.wild) and all(
            max(len(o) for o in wild_options(game, d, u, None, f, "high")) == 2
            for d, u, f, _ in items
        )

        def ours(items, game=game):
            for down, up, follow, _ in items:
                game_hand_keys(game, down, up, None, follow)

        todo[f"{name}"] = (ours, items, 0.3)
        if game.wild:
            wild_presets.append(name)
            data = dump_game(game)
            brute = [
                {
                    "up_order": [format_card(c) for c in order],
                    "players": [
                        {"down": [format_card(c) for c in d], "up": [format_card(c) for c in u]}
                    ],
                }
                for d, u, _, order in items[: args.brute]
            ]

            def brute_run(items, data=data):
                for sd in items:
                    games_oracle.evaluate(data, sd)

            todo[f"{name} brute force"] = (brute_run, brute, 0.6)
    for variant in TODAY:
        ann = normalize_announcements(variant, {})
        seats = [(d, u) for d, u, _, _ in two_wild_hands(PRESETS[variant], rng, args.hands)]

        def today(items, variant=variant, ann=ann):
            for down, up in items:
                hand_keys(variant, ann, down, up)

        todo[f"{variant} (hand_keys, today)"] = (today, seats, 0.3)

    results = dict.fromkeys(todo, 0.0)
    for _ in range(args.rounds):
        for name, (fn, items, seconds) in todo.items():
            results[name] = max(results[name], rate(fn, items, seconds))

    print(f"{'game (2 wild cards where it has any)':44} {'hands/s':>12}")
    for name, value in results.items():
        print(f"{name:44} {value:12,.0f}")
    print()
    print("ratios")
    failed = False
    for name in wild_presets:
        ratio = results[name] / results[f"{name} brute force"]
        verdict = ""
        if name in TODAY:  # held to today's path instead (below)
            today = results[f"{name} (hand_keys, today)"] / results[f"{name} brute force"]
            verdict = f"today's hand_keys: {today:.0f}"
        elif two[name]:
            ok = ratio >= 1000
            failed |= not ok
            verdict = f"target >= 1000: {'met' if ok else 'MISSED'}"
        print(f"{name + ' / brute force':44} {ratio:12.0f}  {verdict}")
    for variant in TODAY:
        ratio = results[variant] / results[f"{variant} (hand_keys, today)"]
        print(f"{variant + ' definition / today':44} {ratio:12.2f}")
    print("(Low Hold's rule makes one card wild, never two: its hands hold one.)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
