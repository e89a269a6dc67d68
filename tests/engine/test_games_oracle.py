"""Game definitions against the brute force: every preset and random valid definitions.

The brute force (tests/engine/games_oracle.py) finds each player's wild cards from the
definition's plain dict and tries every value of every wild card; the engine must agree on
every hand's category and ranks and on the winners of every share."""

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.engine import games_oracle, oracle
from tests.engine.game_hands import random_definition, random_showdown
from tracker.engine.cards import parse_card
from tracker.engine.game_presets import PRESETS
from tracker.engine.game_showdown import evaluate_game, game_hand_keys
from tracker.engine.games import FollowWild, dump_game, follow_ranks, load_game
from tracker.engine.hands import CATEGORIES, category_of, ranks_of


def _value(hand):
    return None if hand is None else (oracle.CATS.index(hand["category"]), tuple(hand["ranks"]))


def disagreement(game, showdown) -> str | None:
    data = dump_game(game)
    got = evaluate_game(game, showdown)
    want = games_oracle.evaluate(data, showdown)
    mine = [
        (_value(p["high"]), _value(p["low"]) if p["low"] and p["low"]["qualifies"] else None)
        for p in got["players"]
    ]
    same = (
        mine == want["players"]
        and got["high_winners"] == want["high_winners"]
        and got["low_winners"] == want["low_winners"]
        and got["spade_winners"] == want["spade_winners"]
    )
    follow = frozenset()
    rule = next((w for w in game.wild if isinstance(w, FollowWild)), None)
    if rule is not None:
        follow = follow_ranks(rule, [parse_card(c) for c in showdown["up_order"]])
    com = showdown.get("community")
    com = None if com is None else parse_card(com)
    for p, entry in zip(showdown["players"], got["players"], strict=True):
        # the fast path gives the keys of the explained hands
        down, up = [parse_card(c) for c in p["down"]], [parse_card(c) for c in p["up"]]
        high, low = game_hand_keys(game, down, up, com, follow)
        assert (high is None) == (entry["high"] is None)
        if high is not None:
            assert (category_of(high), ranks_of(high)) == (
                CATEGORIES.index(entry["high"]["category"]),
                entry["high"]["ranks"],
            )
        qualifying = entry["low"] is not None and entry["low"]["qualifies"]
        assert (low is not None) == qualifying
        if low is not None:
            assert ranks_of(-low) == entry["low"]["ranks"]
    if same:
        return None
    return f"{data['name']} {showdown!r}\n engine {mine} {got['high_winners']} {got['low_winners']}\n oracle {want}"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_agree_with_brute_force(name):
    game = PRESETS[name]
    data = dump_game(game)
    rng = random.Random(name)
    problems = []
    for _ in range(40):
        sd = random_showdown(rng, data, game.player_limit)
        problem = disagreement(game, sd)
        if problem:
            problems.append(problem)
    assert not problems, problems[:2]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32))
def test_random_definitions_agree_with_brute_force(seed):
    rng = random.Random(seed)
    data = random_definition(rng)
    game = load_game(data)  # a random definition of the generator is valid
    assert load_game(dump_game(game)) == game
    for _ in range(3):
        sd = random_showdown(rng, dump_game(game), min(game.player_limit, 4))
        problem = disagreement(game, sd)
        assert problem is None, problem
