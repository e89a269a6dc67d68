"""Random showdowns for the oracle and property tests."""

from __future__ import annotations

import random

RANKS = "23456789TJQKA"
SUITS = "cdhs"
DECK = [r + s for r in RANKS for s in SUITS]

OPTION_CHOICES = {
    "seven_card_stud": {"double_ace_flush": [False, True]},
    "kings_and_little_ones": {
        "double_ace_flush": [False, True],
        "king_required": [True, False],
        "all_lowest_wild": [False, True],
        "ace_low_for_lowest": [False, True],
        "door_card_kings": [False, True],
    },
    "low_hole": {
        "double_ace_flush": [False, True],
        "game": ["high", "low", "high_low"],
        "low_ranking": ["ace_to_five", "ace_to_six", "deuce_to_seven"],
        "low_qualifier": [8, None, "default"],
        "declaration": ["cards_speak", "declare"],
    },
    "low_hold": {
        "double_ace_flush": [False, True],
        "same_rank_wild": ["none", "face_down", "all"],
        "buy_version": ["contributed", "buderick"],
    },
}
MAX = {"seven_card_stud": 7, "kings_and_little_ones": 7, "low_hole": 8, "low_hold": 7}


def random_showdown(rng: random.Random, variant: str | None = None) -> dict:
    variant = variant or rng.choice(list(OPTION_CHOICES))
    options = {}
    for name, values in OPTION_CHOICES[variant].items():
        if rng.random() < 0.8:
            v = rng.choice(values)
            if v != "default":
                options[name] = v
    n = rng.randint(2, MAX[variant])
    deck = DECK[:]
    rng.shuffle(deck)
    if rng.random() < 0.35:
        # crowd the top of the deck (its end: cards are dealt by pop) with kings, low cards
        # and one suit, for wild-heavy hands
        suit = rng.choice(SUITS)
        favoured = [c for c in deck if c[0] in "K23" or c[1] == suit or rng.random() < 0.1]
        rest = [c for c in deck if c not in favoured]
        deck = rest + favoured
    community = None
    if n * 7 > 52 or rng.random() < 0.1:
        community = deck.pop()
    players = []
    for _ in range(n):
        if community:
            down, up = [deck.pop(), deck.pop()], [deck.pop() for _ in range(4)]
        else:
            seventh_up = variant in ("kings_and_little_ones", "low_hold") and rng.random() < 0.3
            nd = 2 if seventh_up else 3
            down = [deck.pop() for _ in range(nd)]
            up = [deck.pop() for _ in range(7 - nd)]
        players.append({"down": down, "up": up})
    if options.get("declaration") == "declare" and options.get("game") == "high_low":
        for p in players:
            p["declare"] = rng.choice(["high", "low", "both"])
    return {"variant": variant, "options": options, "community": community, "players": players}


def compare_with_oracle(seed: int, count: int) -> list[str]:
    """Evaluate ``count`` random showdowns with the engine and the oracle; the differences."""
    from tests.engine import oracle
    from tracker.engine import evaluate_showdown

    def value(hand):
        return None if hand is None else (oracle.CATS.index(hand["category"]), tuple(hand["ranks"]))

    rng = random.Random(seed)
    problems = []
    for _ in range(count):
        sd = random_showdown(rng)
        got = evaluate_showdown(sd)
        want = oracle.evaluate(sd)
        mine = [
            (value(p["high"]), value(p["low"]) if p["low"] and p["low"]["qualifies"] else None)
            for p in got["players"]
        ]
        if (
            mine != want["players"]
            or got["high_winners"] != want["high_winners"]
            or got["low_winners"] != want["low_winners"]
        ):
            problems.append(
                f"{sd!r}\n engine {mine} {got['high_winners']} {got['low_winners']}\n oracle {want}"
            )
    return problems
