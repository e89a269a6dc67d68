"""Showdown evaluation end to end: ours, for every game, against treys' natural showdowns.

    .venv/bin/python bench/showdown.py [--showdowns N] [--rounds R] [--seed S]

Each showdown is five seven-card hands (three down, four up) dealt from one deck, as text
("Kd", ...). Both sides go from the text to the answer a table needs:

* ours: ``tracker.engine.evaluate_showdown`` (check and parse the showdown, work out each
  player's wild cards, value every hand, name the winners, and explain each hand: category,
  ranks, the five cards, the wild cards and what they stand for, the words), once per game:
  seven-card stud (natural), Kings and Little Ones, Low Hole (high, and high-low with its
  8-or-better low), Low Hold, each with its default announcements but the game;
* treys: the natural showdowns only (it knows no wild cards): ``Card.new`` for every card,
  ``Evaluator.evaluate`` for every hand, the winners (lowest score), and each hand's class in
  words (``class_to_string(get_rank_class)``).

All run interleaved in rounds on the same deals and each keeps its best round, so a busy
machine slows them alike. Prints showdowns per second of each game and its ratio to treys'
natural rate (target >= 1 for every game); exit status 1 if a target is missed. Also checks,
on every natural showdown, that ours and treys name the same winners.
"""

from __future__ import annotations

import argparse
import random

from _common import project_on_path, rate

project_on_path()
from tracker.engine import evaluate_showdown, hands  # noqa: E402
from tracker.engine.cards import format_card  # noqa: E402

PLAYERS = 5


def deal(rng: random.Random) -> list[list[str]]:
    cards = [format_card(c) for c in rng.sample(range(52), 7 * PLAYERS)]
    return [cards[7 * p : 7 * p + 7] for p in range(PLAYERS)]


# (label, variant, options): every game the engine values, natural first
GAMES: tuple[tuple[str, str, dict | None], ...] = (
    ("seven_card_stud", "seven_card_stud", None),
    ("kings_and_little_ones", "kings_and_little_ones", None),
    ("low_hole", "low_hole", None),
    ("low_hole high_low", "low_hole", {"game": "high_low"}),
    ("low_hold", "low_hold", None),
)


def make_ours(variant: str, options: dict | None):
    def ours(showdowns: list[list[list[str]]]) -> list:
        out = []
        for table in showdowns:
            result = evaluate_showdown(
                {
                    "variant": variant,
                    "options": options,
                    "players": [{"down": h[:3], "up": h[3:]} for h in table],
                }
            )
            out.append(result["high_winners"])
        return out

    return ours


def make_treys():
    from treys import Card, Evaluator

    evaluator = Evaluator()
    new, evaluate = Card.new, evaluator.evaluate
    rank_class, class_text = evaluator.get_rank_class, evaluator.class_to_string

    def treys(showdowns: list[list[list[str]]]) -> list:
        out = []
        for table in showdowns:
            scores = []
            for h in table:
                cards = [new(c) for c in h]
                scores.append(evaluate(cards[:2], cards[2:]))
            best = min(scores)
            [class_text(rank_class(s)) for s in scores]
            out.append([i for i, s in enumerate(scores) if s == best])
        return out

    return treys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--showdowns", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--seconds", type=float, default=0.5, help="least time of one round")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    showdowns = [deal(rng) for _ in range(args.showdowns)]
    hands.build_tables()
    todo = {f"ours {label}": make_ours(variant, opts) for label, variant, opts in GAMES}
    todo["treys natural"] = make_treys()
    if todo["ours seven_card_stud"](showdowns) != todo["treys natural"](showdowns):
        print("ours and treys disagree on the winners")
        return 1
    results = dict.fromkeys(todo, 0.0)
    for _ in range(args.rounds):
        for name, fn in todo.items():
            results[name] = max(results[name], rate(fn, showdowns, args.seconds))
    print(f"{args.showdowns} showdowns of {PLAYERS} seven-card hands, best of {args.rounds} rounds")
    treys = results["treys natural"]
    natural = results["ours seven_card_stud"]
    failed = False
    print(f"  {'':32} {'showdowns/s':>12} {'/ treys':>8} {'/ ours natural':>15}")
    for name, value in results.items():
        line = f"  {name:32} {value:12,.0f} {value / treys:8.2f} {value / natural:15.2f}"
        if name != "treys natural":
            ok = value >= treys
            failed |= not ok
            line += f"  target >= treys: {'met' if ok else 'MISSED'}"
        print(line)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
