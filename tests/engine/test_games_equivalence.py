"""Today's four games as definitions give exactly today's showdown results.

For random showdowns of every variant and announcement combination (tests/engine/showdowns.py),
the definition of :func:`definition_for_variant` evaluated by ``evaluate_game`` must give the
same hands -- category, ranks, cards, wild cards and text -- and the same winners as
``evaluate_showdown``; and the same refusals for card counts that variant cannot hold."""

import random

import pytest

from tests.engine.showdowns import OPTION_CHOICES, random_showdown
from tracker.engine import evaluate_showdown, hand_keys, normalize_announcements
from tracker.engine.cards import parse_card
from tracker.engine.errors import DomainError
from tracker.engine.game_presets import PRESETS, definition_for_variant
from tracker.engine.game_showdown import evaluate_game, game_hand_keys

VARIANTS = sorted(OPTION_CHOICES)


def _game_showdown(sd: dict) -> dict:
    return {"community": sd["community"], "players": sd["players"]}


@pytest.mark.parametrize("variant", VARIANTS)
def test_same_results_as_today(variant):
    rng = random.Random(f"equivalence-{variant}")
    for _ in range(400):
        sd = random_showdown(rng, variant)
        want = evaluate_showdown(sd)
        game = definition_for_variant(variant, sd["options"])
        got = evaluate_game(game, _game_showdown(sd))
        assert got["high_winners"] == want["high_winners"], sd
        assert got["low_winners"] == want["low_winners"], sd
        for mine, theirs in zip(got["players"], want["players"], strict=True):
            assert mine["high"] == theirs["high"], sd
            assert mine["low"] == theirs["low"], sd
            assert mine.get("declare") == theirs.get("declare"), sd


@pytest.mark.parametrize("variant", VARIANTS)
def test_same_keys_as_today(variant):
    rng = random.Random(f"keys-{variant}")
    for _ in range(300):
        sd = random_showdown(rng, variant)
        ann = normalize_announcements(variant, sd["options"])
        game = definition_for_variant(variant, sd["options"])
        com = None if sd["community"] is None else parse_card(sd["community"])
        for p in sd["players"]:
            down = [parse_card(c) for c in p["down"]]
            up = [parse_card(c) for c in p["up"]]
            assert game_hand_keys(game, down, up, com) == hand_keys(variant, ann, down, up, com)


def test_default_definitions_are_the_presets():
    for variant in VARIANTS:
        assert PRESETS[variant] == definition_for_variant(variant, {})
    assert PRESETS["low_hole"].player_limit == 8
    assert {PRESETS[v].player_limit for v in VARIANTS if v != "low_hole"} == {7}


@pytest.mark.parametrize(
    ("variant", "down", "up"),
    [
        ("seven_card_stud", ["2c", "3c"], ["4c", "5c", "6c", "7c", "8c"]),  # 7th up: no
        ("low_hole", ["2c", "3c"], ["4c", "5c", "6c", "7c", "8c"]),
        ("kings_and_little_ones", ["2c"], ["3c", "4c", "5c", "6c", "7c", "8c"]),
        ("low_hold", ["2c", "3c", "4c", "9d"], ["5c", "6c", "7c"]),
        ("seven_card_stud", ["2c", "3c", "9d"], ["4c", "5c", "6c"]),  # six cards
    ],
)
def test_same_refusals_as_today(variant, down, up):
    sd = {"variant": variant, "players": [{"down": down, "up": up}]}
    with pytest.raises(DomainError) as today:
        evaluate_showdown(sd)
    with pytest.raises(DomainError) as mine:
        evaluate_game(definition_for_variant(variant), _game_showdown({"community": None, **sd}))
    assert today.value.code == mine.value.code == "wrong_card_count"
    assert set(today.value.fields) == set(mine.value.fields)


def test_allowed_seventh_up_where_today_allows_it():
    hand = {"down": ["2c", "3c"], "up": ["4c", "5c", "6c", "7c", "8c"]}
    for variant, options in [
        ("kings_and_little_ones", {}),
        ("low_hold", {}),
        ("low_hold", {"buy_version": "buderick"}),
    ]:
        sd = {"variant": variant, "options": options, "players": [hand]}
        want = evaluate_showdown(sd)
        got = evaluate_game(definition_for_variant(variant, options), {"players": [hand]})
        assert got["players"][0]["high"] == want["players"][0]["high"]
