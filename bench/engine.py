"""Hand-evaluation speed: ours against treys, eval7 and pokerkit, measured in one run.

    .venv/bin/python bench/engine.py [--hands N] [--rounds R] [--seed S]

Prints hands/second for seven-card evaluation (natural, then with 1, 2, 3
and 4+ wild cards), the brute-force wild evaluator of the tests (the
oracle), the floor of any pure-Python evaluator called once per hand (the
call alone; the call with the least a table evaluator does), and the ratios
the engine is held to:

* ours natural >= 3x treys
* ours with wild cards >= half our natural rate
* ours with 2 wild cards >= 1000x the brute force
* each preset with wild rules, on hands where two of the player's cards are wild, >= 1000x
  the brute force

Beside today's four games (``hand_keys`` of each variant) it lists every preset
(``game_hand_keys`` of its definition: its wild rules, then the values; a follow rule's
ranks from the player's own up cards) with its rate over seven-card stud's.

All evaluators see the same random hands. Measurements are interleaved in
rounds and each evaluator keeps its best round, so a busy machine slows
them alike. Our lookup tables are filled before timing (the build time is
printed separately; otherwise they fill on first use). Exit status 1 if a
target is missed.
"""

from __future__ import annotations

import argparse
import random
import time
from functools import partial

from _common import project_on_path, rate

project_on_path()
from tracker.engine import hand_keys, hands, normalize_announcements  # noqa: E402
from tracker.engine.cards import format_card  # noqa: E402
from tracker.engine.game_presets import PRESETS  # noqa: E402
from tracker.engine.game_showdown import game_hand_keys  # noqa: E402
from tracker.engine.games import FollowWild, follow_ranks, wild_options  # noqa: E402

WILD_ROWS = (("1 wild", (1,)), ("2 wild", (2,)), ("3 wild", (3,)), ("4+ wild", (4, 5)))
BRUTE = "brute force, 2 wild (oracle)"
FLOOR_CALL = "floor: a Python call per hand"
FLOOR_LOOKUPS = "floor: the call, 8 lookups, 6 adds"
VARIANTS = ("seven_card_stud", "kings_and_little_ones", "low_hole", "low_hold")
PRESET = "preset "
TWO_WILD = ", 2 wild"
MIN_TWO_WILD = 100  # deals with two wild cards needed to time a preset on them


def jobs(deals: list[list[int]], brute_hands: int) -> dict[str, tuple]:
    """name -> (function over items, items, seconds per round)."""
    texts = [[format_card(c) for c in d] for d in deals]
    out: dict[str, tuple] = {}
    best_high = hands.best_high

    def ours(items):
        for cards in items:
            best_high(cards)

    out["ours natural"] = (ours, deals, 0.4)

    # The floor of a pure-Python evaluator called once per hand: the call alone, then the
    # call and the least any table evaluator does (one lookup and one add per card, one
    # table lookup), all in the same loop as "ours natural".
    def nothing(cards):
        return cards

    cw, table = hands.CARD_WORD, {}

    def lookups(cards):
        a, b, c, d, e, f, g = cards
        return table.get(cw[a] + cw[b] + cw[c] + cw[d] + cw[e] + cw[f] + cw[g])

    for name, fn in ((FLOOR_CALL, nothing), (FLOOR_LOOKUPS, lookups)):

        def floor_run(items, fn=fn):
            for cards in items:
                fn(cards)

        out[name] = (floor_run, deals, 0.4)

    try:
        from treys import Card as TCard
        from treys import Evaluator

        tev = Evaluator()

        def treys_run(items):
            ev = tev.evaluate
            for cards in items:
                ev(cards[:2], cards[2:])

        out["treys"] = (treys_run, [[TCard.new(x) for x in d] for d in texts[:3000]], 0.4)
    except ImportError:  # pragma: no cover
        print("treys not installed")

    try:
        import eval7

        def eval7_run(items):
            ev = eval7.evaluate
            for cards in items:
                ev(cards)

        out["eval7 (compiled)"] = (eval7_run, [[eval7.Card(x) for x in d] for d in texts], 0.4)
    except ImportError:  # pragma: no cover
        print("eval7 not installed")

    try:
        from pokerkit import StandardHighHand

        def pokerkit_run(items):
            for cards in items:
                StandardHighHand.from_game(cards[:4], cards[4:])

        out["pokerkit"] = (pokerkit_run, ["".join(d) for d in texts[:200]], 0.4)
    except ImportError:  # pragma: no cover
        print("pokerkit not installed")

    def wild_run(items):
        for nat, w, da in items:
            best_high(nat, w, da)

    for label, counts in WILD_ROWS:
        items = []
        for i, d in enumerate(deals):
            w = counts[i % len(counts)]
            items.append((d[: 7 - w], w, bool(i & 1)))
        out[f"ours {label}"] = (wild_run, items, 0.4)

    # the whole per-player path: the variant's wild-card rules, then the value
    seats = [(d[:3], d[3:]) for d in deals]
    for variant in VARIANTS:
        ann = normalize_announcements(variant, {})

        def rules_run(items, variant=variant, ann=ann):
            for down, up in items:
                hand_keys(variant, ann, down, up)

        out[f"ours hand_keys {variant}"] = (rules_run, seats, 0.4)

    out.update(preset_jobs(deals))

    from tests.engine import oracle

    brute_items = [[((c >> 2) + 2, c & 3) for c in d[:5]] for d in deals[:brute_hands]]

    def brute_run(items):
        for nat in items:
            oracle.best_high(nat, 2)

    out[BRUTE] = (brute_run, brute_items, 0.8)
    return out


def _preset_seat(game, deal: list[int]) -> tuple[list[int], list[int], frozenset[int]]:
    """One player's cards of ``game`` from a deal (down, up as its streets' faces say, a
    ``choice`` card down) and the follow ranks of a follow rule, its up cards the table's."""
    down: list[int] = []
    up: list[int] = []
    for face, card in zip(game.faces, deal, strict=False):
        (up if face == "up" else down).append(card)
    follow: frozenset[int] = frozenset()
    for rule in game.wild:
        if isinstance(rule, FollowWild):
            follow = follow_ranks(rule, up)
    return down, up, follow


def _wild_count(game, seat) -> int:
    down, up, follow = seat
    return max(len(o) for o in wild_options(game, down, up, follow=follow))


def preset_jobs(deals: list[list[int]]) -> dict[str, tuple]:
    """Each preset's hand values by ``game_hand_keys`` (its wild rules, then the values) on
    the same random deals, and for a preset with wild rules on the deals where two of the
    player's cards are wild (the brute force's case), if there are enough of them."""
    out: dict[str, tuple] = {}

    def keys_run(items, game):
        for down, up, follow in items:
            game_hand_keys(game, down, up, None, follow)

    for name, game in PRESETS.items():
        seats = [_preset_seat(game, d) for d in deals]
        out[f"{PRESET}{name}"] = (partial(keys_run, game=game), seats, 0.4)
        if game.wild:
            two = [s for s in seats if _wild_count(game, s) == 2]
            if len(two) >= MIN_TWO_WILD:  # Low Hold: one hole card wild, two only on a tie
                out[f"{PRESET}{name}{TWO_WILD}"] = (partial(keys_run, game=game), two, 0.4)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--brute", type=int, default=20, help="hands for the brute force")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    deals = [rng.sample(range(52), 7) for _ in range(args.hands)]

    t = time.perf_counter()
    hands.build_tables()
    build = time.perf_counter() - t

    todo = jobs(deals, args.brute)
    results = dict.fromkeys(todo, 0.0)
    for _ in range(args.rounds):
        for name, (fn, items, seconds) in todo.items():
            results[name] = max(results[name], rate(fn, items, seconds))

    print(f"lookup tables built in {build:.3f} s (lazily otherwise)")
    print(f"{'evaluator':44} {'hands/s':>12}")
    for name, value in results.items():
        print(f"{name:44} {value:12,.0f}")
    nat = results["ours natural"]
    print()
    print("ratios")
    checks: list[tuple[str, float, float | None]] = []
    if "treys" in results:
        checks.append(("ours natural / treys", nat / results["treys"], 3.0))
    if "eval7 (compiled)" in results:
        e7 = results["eval7 (compiled)"]
        checks.append(("ours natural / eval7", nat / e7, None))
        checks.append((f"{FLOOR_CALL} / eval7", results[FLOOR_CALL] / e7, None))
        checks.append((f"{FLOOR_LOOKUPS} / eval7", results[FLOOR_LOOKUPS] / e7, None))
    if "pokerkit" in results:
        checks.append(("ours natural / pokerkit", nat / results["pokerkit"], None))
    for label, _ in WILD_ROWS:
        checks.append((f"ours {label} / ours natural", results[f"ours {label}"] / nat, 0.5))
    stud = results["ours hand_keys seven_card_stud"]
    for variant in VARIANTS[1:]:
        ratio = results[f"ours hand_keys {variant}"] / stud
        checks.append((f"hand_keys {variant} / seven_card_stud", ratio, None))
    brute = results[BRUTE]
    checks.append(("ours 2 wild / brute force", results["ours 2 wild"] / brute, 1000.0))
    for name in PRESETS:
        checks.append((f"{name} / seven_card_stud", results[f"{PRESET}{name}"] / stud, None))
    for name in PRESETS:
        two = results.get(f"{PRESET}{name}{TWO_WILD}")
        if two is not None:
            checks.append((f"{name}{TWO_WILD} / brute force", two / brute, 1000.0))
    failed = False
    for name, value, target in checks:
        verdict = ""
        if target is not None:
            ok = value >= target
            failed |= not ok
            verdict = f"target >= {target:g}: {'met' if ok else 'MISSED'}"
        print(f"{name:44} {value:12.2f}  {verdict}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
