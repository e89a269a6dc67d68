"""Showdown evaluation end to end: ours against treys on the same 5-player showdowns.

    .venv/bin/python bench/showdown.py [--showdowns N] [--rounds R] [--seed S]

Each showdown is five seven-card stud hands dealt from one deck, as text ("Kd", ...). Both
sides go from the text to the answer a table needs:

* ours: ``tracker.engine.evaluate_showdown`` (check and parse the showdown, value every hand,
  name the winners, and explain each hand: category, ranks, the five cards, the words);
* treys: ``Card.new`` for every card, ``Evaluator.evaluate`` for every hand, the winners
  (lowest score), and each hand's class in words (``class_to_string(get_rank_class)``).

The two run interleaved in rounds and each keeps its best round, so a busy machine slows them
alike. Prints showdowns per second and the ratio ours / treys (target >= 1); exit status 1 if
the target is missed. Also checks, on every showdown, that both name the same winners.
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


def ours(showdowns: list[list[list[str]]]) -> list:
    out = []
    for table in showdowns:
        result = evaluate_showdown(
            {
                "variant": "seven_card_stud",
                "players": [{"down": h[:3], "up": h[3:]} for h in table],
            }
        )
        out.append(result["high_winners"])
    return out


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
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    showdowns = [deal(rng) for _ in range(args.showdowns)]
    hands.build_tables()
    treys = make_treys()
    if ours(showdowns) != treys(showdowns):
        print("ours and treys disagree on the winners")
        return 1
    results = {"ours": 0.0, "treys": 0.0}
    for _ in range(args.rounds):
        results["ours"] = max(results["ours"], rate(ours, showdowns, 0.5))
        results["treys"] = max(results["treys"], rate(treys, showdowns, 0.5))
    print(f"{args.showdowns} showdowns of {PLAYERS} seven-card hands, best of {args.rounds} rounds")
    for name, value in results.items():
        print(f"  {name:8} {value:10,.0f} showdowns/s")
    ratio = results["ours"] / results["treys"]
    ok = ratio >= 1.0
    print(f"  ratio ours / treys: {ratio:.2f}  target >= 1: {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
