"""One SHA-256 of many showdowns and hand explanations: run it before and after a change to
the evaluators, and the two digests must be the same.

    .venv/bin/python bench/showdown_digest.py [--showdowns N] [--calls N] [--seed S]

It evaluates random showdowns over every variant and announcement combination (the tests'
generator: community cards, 2 to 7 players, wild-heavy decks), a quarter as many with one
thing spoilt (a card spelt otherwise, repeated or unknown, a field missing, unknown or of
another type: the error's code, message and fields are answers too), ``hand_keys`` of every
seat of half as many, the house games' presets on random showdowns (``evaluate_game``), and
``explain_high`` / ``explain_low`` / ``best_low`` / ``best_high`` on random natural cards
with 0 to 5 wild cards under every ranking and qualifier; it prints the count of each part
and one SHA-256 of the JSON of every answer (``--dump`` writes them, one a line, to find
where two runs differ).
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import random

from _common import project_on_path

project_on_path()
from tests.engine.showdowns import random_showdown  # noqa: E402
from tracker.engine import evaluate_showdown, hand_keys, parse_showdown  # noqa: E402
from tracker.engine.cards import format_card  # noqa: E402
from tracker.engine.explain import explain_high, high_hand_dict  # noqa: E402
from tracker.engine.game_presets import PRESETS  # noqa: E402
from tracker.engine.game_showdown import evaluate_game  # noqa: E402
from tracker.engine.hands import best_high  # noqa: E402
from tracker.engine.low import LOW_RANKINGS, best_low, explain_low, low_hand_dict  # noqa: E402


def _answer(fn, *args) -> object:
    try:
        return fn(*args)
    except Exception as exc:  # an error is an answer too: its type and words must not change
        body = exc.as_dict() if hasattr(exc, "as_dict") else {}
        return {"error": type(exc).__name__, "text": str(exc), **body}


def showdowns(rng: random.Random, count: int) -> list:
    out = []
    for _ in range(count):
        sd = random_showdown(rng)
        out.append([sd, _answer(evaluate_showdown, sd)])
    return out


def _spoil(rng: random.Random, sd: dict) -> dict:
    """The showdown with one thing changed, as a client might send it: a card spelt another
    way or repeated or wrong, a field missing or unknown or of another type, a declaration."""
    sd = copy.deepcopy(sd)
    p = rng.choice(sd["players"])
    key = rng.choice(["down", "up"])
    how = rng.randrange(10)
    if how == 0 and p[key]:
        p[key][rng.randrange(len(p[key]))] = rng.choice(["10h", "kd", "AS", "1x", "", 7, None])
    elif how == 1:
        other = rng.choice(sd["players"])
        p[key].append(rng.choice(other["down"] + other["up"]))
    elif how == 2:
        del p[key]
    elif how == 3:
        p["pot"] = 1
    elif how == 4:
        p[key] = tuple(p[key]) if rng.random() < 0.5 else " ".join(p[key])
    elif how == 5:
        p["declare"] = rng.choice(["high", "low", "both", "up", None])
    elif how == 6:
        p[key] = p[key][:-1]
    elif how == 7:
        sd["community"] = rng.choice(p["up"] + ["Zz", "Th"])
    elif how == 8:
        sd["players"] = sd["players"] + [copy.deepcopy(p)]
    else:
        p["down"], p["up"] = p["up"], p["down"]
    return sd


def keys(rng: random.Random, count: int) -> list:
    """``hand_keys`` (the values without the explanation) of every seat of random showdowns."""
    out = []
    for _ in range(count):
        sd = random_showdown(rng)
        variant, ann, community, seats = parse_showdown(sd)
        out.append(
            [[hand_keys(variant, ann, s.down, s.up, community) for s in seats], variant, ann]
        )
    return out


def spoilt(rng: random.Random, count: int) -> list:
    out = []
    for _ in range(count):
        sd = _spoil(rng, random_showdown(rng))
        out.append([sd, _answer(evaluate_showdown, sd)])
    return out


def games(rng: random.Random, count: int) -> list:
    names = list(PRESETS)
    out = []
    for i in range(count):
        name = names[i % len(names)]
        game = PRESETS[name]
        faces = [f for f in game.faces if f != "community"]
        nd = sum(1 for f in faces if f != "up")
        extra = {e.rank for e in game.extra_cards}
        deck = [c for c in range(52) if (c >> 2) + 2 not in extra]  # no extra card dealt
        rng.shuffle(deck)
        n = rng.randint(2, min(7, len(deck) // len(faces)))
        size = len(faces)
        players = [
            {
                "down": [format_card(c) for c in deck[size * p : size * p + nd]],
                "up": [format_card(c) for c in deck[size * p + nd : size * p + size]],
            }
            for p in range(n)
        ]
        sd = {"players": players, "up_order": [c for p in players for c in p["up"]]}
        out.append([name, sd, _answer(evaluate_game, game, sd)])
    return out


def calls(rng: random.Random, count: int) -> list:
    out = []
    for _ in range(count):
        wilds = rng.randint(0, 5)
        size = rng.choice([max(0, 5 - wilds), 7 - wilds, 7 - wilds, rng.randint(0, 8 - wilds)])
        size = max(size, 5 - wilds)
        cards = rng.sample(range(52), size + wilds)
        naturals, wild = cards[:size], cards[size:]
        da = rng.random() < 0.3
        ranking = rng.choice(LOW_RANKINGS)
        qualifier = rng.choice([None, 8])
        high = _answer(explain_high, naturals, wild, da)
        if not isinstance(high, dict):
            high = [high.key, high.played, high_hand_dict(high)]
        low = _answer(explain_low, naturals, wild, ranking, qualifier)
        if not isinstance(low, dict):
            made, ok = low
            low = [made.key, made.played, ok, low_hand_dict(made, ok, ranking, qualifier)]
        out.append(
            [
                naturals,
                wild,
                da,
                ranking,
                qualifier,
                high,
                low,
                _answer(best_low, naturals, wilds, ranking, qualifier),
                _answer(best_high, naturals, wilds, da),
            ]
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--showdowns", type=int, default=4000)
    parser.add_argument("--games", type=int, default=1500)
    parser.add_argument("--calls", type=int, default=9000)
    parser.add_argument("--seed", type=int, default=27)
    parser.add_argument("--dump", help="also write each answer's JSON, one a line, to this file")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    parts = {
        "showdowns": showdowns(rng, args.showdowns),
        "spoilt": spoilt(rng, args.showdowns // 4),
        "keys": keys(rng, args.showdowns // 2),
        "games": games(rng, args.games),
        "calls": calls(rng, args.calls),
    }
    digest = hashlib.sha256()
    for name, items in parts.items():
        text = json.dumps(items, sort_keys=True, ensure_ascii=False, default=repr)
        digest.update(text.encode())
        print(f"{name}: {len(items)}")
    if args.dump:
        with open(args.dump, "w", encoding="utf-8") as out:
            for name, items in parts.items():
                for item in items:
                    out.write(f"{name} {json.dumps(item, sort_keys=True, ensure_ascii=False)}\n")
    print(digest.hexdigest())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
