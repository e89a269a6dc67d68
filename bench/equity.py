"""All-in equity speed: ours against a plain Monte Carlo loop over the public evaluator.

    .venv/bin/python bench/equity.py [--samples N] [--rounds R] [--seed S]

The situation: a heads-up all-in on fourth street (two down and two up cards known
each, three cards of a folded player dead), three cards to come each -- two up
and the seventh down -- about a billion runouts, so both sides estimate by Monte
Carlo with the same number of random runouts (``--samples``, default 10,000: the
number settlement uses, a standard error of at most 0.5 % on an equity).

* ours: :func:`tracker.engine.equity.all_in_equity` (the fast internal API:
  ``hand_keys`` on card ints, winners tallied per outcome, pots paid once per
  outcome);
* peer: the loop anyone would write with the public API -- draw the runout, call
  ``tracker.engine.evaluate_showdown`` on the cards as text, pay the pot to its
  winners.

Printed per game (Seven-Card Stud for reference, Kings and Little Ones, Low Hole
high, Low Hole high-low): equities per second (one equity = one full calculation of
``--samples`` runouts), runouts per second, the ratio ours/peer, and both estimates
of the first player's equity with their standard errors (they must agree). Rounds
are interleaved and each side keeps its best, so a busy machine slows them alike.
Also printed: the exact enumeration of a heads-up all-in on fifth and sixth street.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tracker.engine import evaluate_showdown  # noqa: E402
from tracker.engine.cards import format_card  # noqa: E402
from tracker.engine.cards import parse_card as c  # noqa: E402
from tracker.engine.equity import Pot, Seat, all_in_equity  # noqa: E402
from tracker.engine.hands import build_tables  # noqa: E402
from tracker.engine.pots import award_pot  # noqa: E402

TO_COME = (True, True, False)
HIGH = (
    Seat(down=(c("Kh"), c("7c")), up=(c("9h"), c("9d")), to_come=TO_COME),
    Seat(down=(c("Qs"), c("3d")), up=(c("Js"), c("Ts")), to_come=TO_COME),
)
LOW = (  # two low draws, so the low half is really contested
    Seat(down=(c("Ah"), c("4c")), up=(c("5d"), c("Kc")), to_come=TO_COME),
    Seat(down=(c("6h"), c("3h")), up=(c("7d"), c("2s")), to_come=TO_COME),
)
DEAD = (c("2c"), c("8h"), c("5c"))
POT = Pot(172, (0, 1))
GAMES = (
    ("Seven-Card Stud (no wild cards)", "seven_card_stud", {}, HIGH),
    ("Kings and Little Ones", "kings_and_little_ones", {}, HIGH),
    ("Low Hole (high)", "low_hole", {}, HIGH),
    ("Low Hole (high-low, 8 qualifier)", "low_hole", {"game": "high_low"}, LOW),
)


def peer(variant: str, options: dict, seats, samples: int, seed: int) -> tuple[float, float]:
    """A plain Monte Carlo loop over the public evaluator: Ann's expected chips and error."""
    ann, bob = seats
    rng = random.Random(seed)
    seen = {*ann.down, *ann.up, *bob.down, *bob.up, *DEAD}
    unseen = [x for x in range(52) if x not in seen]
    game = options.get("game", "high")
    total = square = 0.0
    for _ in range(samples):
        d = rng.sample(unseen, 6)
        players = [
            {
                "down": [format_card(x) for x in (*ann.down, d[2])],
                "up": [format_card(x) for x in (*ann.up, d[0], d[1])],
            },
            {
                "down": [format_card(x) for x in (*bob.down, d[5])],
                "up": [format_card(x) for x in (*bob.up, d[3], d[4])],
            },
        ]
        res = evaluate_showdown({"variant": variant, "options": options, "players": players})
        paid = dict(award_pot(POT.amount, game, res["high_winners"], res["low_winners"], (0, 1)))
        chips = paid.get(0, 0)
        total += chips
        square += chips * chips
    mean = total / samples
    return mean, math.sqrt(max(square / samples - mean * mean, 0) / samples)


def ours(variant: str, options: dict, seats, samples: int, seed: int) -> tuple[float, float]:
    r = all_in_equity(variant, options, list(seats), [POT], dead=DEAD, samples=samples, seed=seed)
    assert r.method == "monte_carlo"
    return r.expected[0], r.stderr[0]


def timed(fn, *args, **kwargs):
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=10_000, help="runouts per equity")
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (best kept)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    build_tables()
    n = args.samples
    print(
        f"Heads-up all-in on fourth street, 3 cards to come each (2 up, 1 down), pot {POT.amount};"
        f" {n:,} Monte Carlo runouts per equity; best of {args.rounds} interleaved rounds\n"
    )
    header = (
        f"{'game':<34} {'ours eq/s':>10} {'peer eq/s':>10} {'ours runouts/s':>15} "
        f"{'peer runouts/s':>15} {'ratio':>7}   Ann's equity: ours / peer"
    )
    print(header)
    print("-" * len(header))
    for title, variant, options, seats in GAMES:
        best_ours = best_peer = math.inf
        est_ours = est_peer = (0.0, 0.0)
        for k in range(args.rounds):
            t, est_ours = timed(ours, variant, options, seats, n, args.seed + k)
            best_ours = min(best_ours, t)
            t, est_peer = timed(peer, variant, options, seats, n, args.seed + k)
            best_peer = min(best_peer, t)
        eq_o = est_ours[0] / POT.amount
        eq_p = est_peer[0] / POT.amount
        print(
            f"{title:<34} {1 / best_ours:>10.2f} {1 / best_peer:>10.2f} {n / best_ours:>15,.0f} "
            f"{n / best_peer:>15,.0f} {best_peer / best_ours:>6.1f}x   "
            f"{eq_o:.3f}±{est_ours[1] / POT.amount:.3f} / {eq_p:.3f}±{est_peer[1] / POT.amount:.3f}"
        )
    print("\nExact enumeration (every runout; no peer: the same loop over every runout would take")
    print("minutes to hours):")
    ann, bob = HIGH
    fifth = [
        Seat(ann.down, (*ann.up, c("Ah")), (True, False)),
        Seat(bob.down, (*bob.up, c("As")), (True, False)),
    ]
    sixth = [
        Seat(ann.down, (*ann.up, c("Ah"), c("4c")), (False,)),
        Seat(bob.down, (*bob.up, c("Ad"), c("6d")), (False,)),
    ]
    for label, seats in (("fifth street", fifth), ("sixth street", sixth)):
        for title, variant, options, _ in GAMES[:3]:
            t, r = timed(all_in_equity, variant, options, seats, [POT], dead=DEAD)
            print(
                f"  {label}, {title:<32} {r.runouts:>10,} runouts in {1000 * t:7.1f} ms "
                f"({r.method}; Ann {r.equity[0]:.4f})"
            )


if __name__ == "__main__":
    main()
