"""Instructions per showdown of each game, counted by valgrind (the same for any load).

    .venv/bin/python bench/showdown_callgrind.py [--showdowns N] [--passes P] [GAME ...]

For each game of ``bench/showdown.py`` (and treys' natural showdowns, ``treys``) it runs
``valgrind --tool=callgrind`` twice on the same deals: once with a warm pass only, once with
the warm pass and ``P`` counted passes; the difference over ``P x N`` is the instructions a
showdown, start-up and imports left out (the tables fill lazily in the warm pass: the same
deals then find every entry they need).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

from _common import ROOT, project_on_path

project_on_path()


def child(label: str, showdowns: int, passes: int) -> None:
    """Run ``label``'s showdowns: a warm pass, then ``passes`` more."""
    import random

    from showdown import GAMES, deal, make_ours, make_treys

    rng = random.Random(2024)
    deals = [deal(rng) for _ in range(showdowns)]
    if label == "treys":
        fn = make_treys()
    else:
        fn = next(make_ours(v, o) for name, v, o in GAMES if name == label)
    for _ in range(1 + passes):
        fn(deals)


def count(label: str, showdowns: int, passes: int) -> int:
    """Instructions callgrind counts for the whole child run."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "cg.out")
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"]
        cmd += [sys.executable, __file__, "--child", label, str(showdowns), str(passes)]
        run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, check=True)
        found = re.search(r"Collected : (\d+)", run.stderr)
        assert found, run.stderr[-2000:]
        return int(found.group(1))


def main(argv: list[str] | None = None) -> int:
    from showdown import GAMES

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--showdowns", type=int, default=300)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)
    parser.add_argument("games", nargs="*", help="labels of bench/showdown.py, or treys")
    args = parser.parse_args(argv)
    if args.child:
        child(args.child[0], int(args.child[1]), int(args.child[2]))
        return 0
    labels = args.games or [name for name, _v, _o in GAMES] + ["treys"]
    for label in labels:
        base = count(label, args.showdowns, 0)
        full = count(label, args.showdowns, args.passes)
        per = (full - base) / (args.passes * args.showdowns)
        print(f"  {label:28} {per:12,.0f} instructions a showdown", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
