"""A house game's definition travels in a PHH hand's ``_game`` field: written and read back
exactly (its nulls as "none"), and an invalid or unknown definition refused naming the part
at fault under ``_game``; a choice street before the last is read from ``_seventh_card`` on
its own street, the buys on the last."""

from __future__ import annotations

import pytest

from tests.support.house_hands import CHOICE_ACTIONS, CHOICE_FOURTH_GAME
from tracker.engine import phh
from tracker.engine.game_presets import PRESETS, definition_for_variant
from tracker.engine.games import dump_game
from tracker.engine.procedure import replay_hand
from tracker.engine.stud import ProcedureError

HAND = {
    "variant": "F7S",
    "antes": 1,
    "bring_in": 2,
    "small_bet": 5,
    "big_bet": 10,
    "starting_stacks": [50, 50],
    "actions": [],
}

GAMES = [
    *PRESETS.values(),
    definition_for_variant("low_hole", {"game": "high_low", "low_qualifier": None}),
    definition_for_variant("low_hold", {"buy_price": 30, "buy_version": "buderick"}),
]


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.name)
def test_every_definition_goes_out_and_comes_back_the_same(game):
    text = phh.dumps({**HAND, "_game": dump_game(game)})
    assert "_game = {" in text and "null" not in text
    (hand,) = phh.loads(text)
    assert hand["_game"] == dump_game(game)  # the nulls are back
    assert phh.game_from_phh(hand["_game"]) == game


def test_a_null_qualifier_is_not_the_default_one():
    game = definition_for_variant("low_hole", {"game": "high_low", "low_qualifier": None})
    text = phh.dumps({**HAND, "_game": dump_game(game)})
    assert 'qualifier = "none"' in text
    assert phh.game_from_phh(phh.loads(text)[0]["_game"]).pot.low.qualifier is None


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"pot": {"kind": "high", "low": {"ranking": "ace_to_five"}}}, "_game.pot.low"),
        ({"wild": [{"kind": "follow", "rank": "Z"}]}, "_game.wild[0].rank"),
        ({"max_players": 40}, "_game.max_players"),
        ({"colour": "red"}, "_game.colour"),
        ({"title": ""}, "_game.title"),
    ],
)
def test_an_invalid_or_unknown_definition_names_the_part_at_fault(change, field):
    data = {**dump_game(PRESETS["follow_the_queen"]), **change}
    text = phh.dumps({**HAND, "_game": data})
    (hand,) = phh.loads(text)
    with pytest.raises(phh.PHHError) as caught:
        phh.game_from_phh(hand["_game"])
    assert list(caught.value.fields) == [field]


def test_a_game_field_that_is_not_a_table_is_refused():
    (hand,) = phh.loads(phh.dumps({**HAND, "_game": "follow_the_queen"}))
    with pytest.raises(phh.PHHError) as caught:
        phh.game_from_phh(hand["_game"])
    assert list(caught.value.fields) == ["_game"]


@pytest.mark.parametrize("side", ["up", "down"])
def test_a_choice_before_the_last_street_and_a_buy_on_the_last(side):
    hand = {**HAND, "starting_stacks": [100, 100], "actions": CHOICE_ACTIONS}
    hand |= {"_game": CHOICE_FOURTH_GAME, "_seventh_card": [None, side], "_buys": [True, False]}
    result = replay_hand(hand)
    players = result.showdown["players"]
    assert ("2s" in players[1]["up"], "2s" in players[1]["down"]) == (side == "up", side == "down")
    assert players[0]["up"][-1] == "8s" and result.buys == [5, 0]  # bought: turned up
    over = {**hand, "actions": CHOICE_ACTIONS[:3] + ["p1 f"]}
    with pytest.raises(ProcedureError) as err:
        replay_hand(over)
    assert err.value.fields == {
        "_buys[0]": ["the hand ended before the last card: there was nothing to choose"]
    }
