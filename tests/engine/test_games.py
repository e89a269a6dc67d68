"""Game definitions: loading, dumping, the refusals naming the part at fault, the deck's player
limit, bring-in and first to act, follow-the-X, and the showdown checks of evaluate_game."""

import json

import pytest

from tracker.engine.cards import parse_card
from tracker.engine.errors import DomainError
from tracker.engine.game_presets import PRESET_DATA, PRESETS
from tracker.engine.game_showdown import evaluate_game
from tracker.engine.games import (
    FollowWild,
    GameDefinitionError,
    bring_in_seat,
    dump_game,
    first_to_act,
    follow_ranks,
    load_game,
)


def cards(text):
    return [parse_card(c) for c in text.split()]


def refusal(data) -> GameDefinitionError:
    with pytest.raises(GameDefinitionError) as caught:
        load_game(data)
    assert caught.value.code in ("invalid_game", "required")
    return caught.value


def base(**fields):
    return {"name": "house", "title": "House game", **fields}


# --- load and dump --------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_round_trips_through_json(name):
    game = PRESETS[name]
    again = load_game(json.loads(json.dumps(dump_game(game))))
    assert again == game
    assert dump_game(again) == dump_game(game)


def test_omitted_fields_take_their_defaults():
    game = load_game(base())
    assert game.faces == ("down", "down", "up", "up", "up", "up", "down")
    assert [s.unit for s in game.streets] == ["small", "small", "big", "big", "big"]
    assert game.wild == () and game.pot.kind == "high" and game.buy is None
    assert (game.bring_in, game.first_to_act, game.order_aces) == ("lowest", "best_board", "high")
    assert game.deck_limit == game.player_limit == 8
    high_low = load_game(base(pot={"kind": "high_low"}))
    assert (high_low.pot.low.ranking, high_low.pot.low.qualifier) == ("ace_to_five", 8)
    assert load_game(base(pot={"kind": "low"})).pot.low.qualifier is None


def test_a_definition_is_frozen():
    game = PRESETS["razz"]
    with pytest.raises(AttributeError):
        game.name = "other"  # type: ignore[misc]
    assert hash(game) == hash(load_game(PRESET_DATA["razz"]))


def test_wild_rules_compose_and_none_is_nothing():
    game = load_game(
        base(
            wild=[
                {"kind": "none"},
                {"kind": "fixed", "ranks": ["2"], "cards": ["Kh"]},
                {"kind": "lowest_hole", "same_rank": "none"},
            ]
        )
    )
    assert [w.kind for w in game.wild] == ["fixed", "lowest_hole"]
    # 2s and the suicide king always; and the lowest hole card, one of the two fours
    result = evaluate_game(
        game, {"players": [{"down": ["4c", "4d", "Kh"], "up": ["2s", "9h", "Tc", "Jd"]}]}
    )
    assert set(result["players"][0]["wild"]) in ({"2s", "Kh", "4c"}, {"2s", "Kh", "4d"})
    assert result["players"][0]["high"]["category"] == "four_of_a_kind"


# --- refusals (a bad definition names the part at fault; nothing is half-built) -------------


@pytest.mark.parametrize(
    ("data", "field", "words"),
    [
        ({"title": "No name"}, "name", "needs a name"),
        (base(colour="red"), "colour", "unknown field"),
        (base(streets=[{"faces": ["down", "up"]}] * 6), "streets", "5 to 7 cards"),
        (
            base(streets=[{"faces": ["down", "up"]}, {"faces": ["sideways"]}]),
            "streets[1].faces[0]",
            "not one of",
        ),
        (
            base(streets=[{"faces": ["down", "down"]}, {"faces": ["up"]}] * 2),
            "streets[0].faces",
            "face up",
        ),
        (
            base(streets=[{"faces": ["up", "up"], "unit": "huge"}] * 3),
            "streets[0].unit",
            "not one of",
        ),
        (
            base(
                streets=[
                    {"faces": ["down", "up"]},
                    {"faces": ["up", "community"]},
                    {"faces": ["up"]},
                ]
            ),
            "streets[1].faces",
            "street of its own",
        ),
        (
            base(
                wild=[{"kind": "follow", "rank": "Q"}],
                streets=[{"faces": ["up", "down", "down", "down", "down"]}],
            ),
            "wild[0]",
            "nothing to follow",
        ),
        (
            base(wild=[{"kind": "lowest_hole"}], streets=[{"faces": ["up"] * 5}]),
            "wild[0]",
            "nothing to follow",
        ),
        (base(wild=[{"kind": "follow", "rank": "X"}]), "wild[0].rank", "not a rank"),
        (base(wild=[{"kind": "fixed"}]), "wild[0]", "at least one rank or card"),
        (base(wild=[{"kind": "fixed", "cards": ["Zz"]}]), "wild[0].cards[0]", "not a card"),
        (
            base(wild=[{"kind": "fixed", "ranks": ["2"]}, {"kind": "fixed", "ranks": ["3"]}]),
            "wild[1].kind",
            "second fixed",
        ),
        (base(wild=[{"kind": "jokers"}]), "wild[0].kind", "not a wild rule"),
        (base(wild=[{"kind": "follow", "later_x": "sometimes"}]), "wild[0].later_x", "not one of"),
        (
            base(pot={"kind": "high", "low": {"ranking": "ace_to_five"}}),
            "pot.low",
            "low rule on a high-only pot",
        ),
        (base(pot={"kind": "high_chicago", "low": {}}), "pot.low", "low rule on a high-only pot"),
        (base(pot={"kind": "low", "low": {"qualifier": 4}}), "pot.low.qualifier", "6 to 10"),
        (
            base(pot={"kind": "low", "low": {"ranking": "deuce_to_seven", "qualifier": 6}}),
            "pot.low.qualifier",
            "deuce-to-seven",
        ),
        (
            base(pot={"kind": "high", "declaration": "declare"}),
            "pot.declaration",
            "only in a high_low pot",
        ),
        (base(pot={"kind": "high_chicago", "spade_ace": "low"}), "pot.spade_ace", "low_chicago"),
        (base(buy={"version": "buderick"}), "buy.version", "last card dealt up"),
        (base(buy={"price": -5}), "buy.price", "whole number"),
        (base(pays=[{"rank": "3", "price": "lots"}]), "pays[0].price", "whole number"),
        (
            base(pays=[{"rank": "3"}], extra_cards=[{"rank": "3"}]),
            "pays",
            "two extra-card or pay rules",
        ),
        (base(extra_cards=[{"face": "up"}]), "extra_cards[0].rank", "required"),
        (base(max_players=9), "max_players", "cannot serve 9 players"),
        (base(max_players=1), "max_players", "2 or more"),
        (base(bring_in="dealer"), "bring_in", "not one of"),
    ],
)
def test_bad_definitions_are_refused_naming_the_part(data, field, words):
    err = refusal(data)
    assert list(err.fields) == [field], err.fields
    assert words in err.message, err.message


def test_a_deal_the_deck_cannot_serve():
    # seven cards, the last two on one street: no community card can stand in for them, so
    # every card comes from the deck: 7 players take 49 cards and 3 burns, 8 would need 59
    streets = [
        {"faces": ["down", "down", "up"]},
        {"faces": ["up", "up"]},
        {"faces": ["up", "down"]},
    ]
    assert load_game(base(streets=streets)).deck_limit == 7
    err = refusal(base(streets=streets, max_players=8))
    assert err.message == "the deck cannot serve 8 players this deal (at most 7)"


def test_player_limits_come_from_the_deck():
    assert PRESETS["five_card_stud"].deck_limit == 12
    assert PRESETS["five_card_stud"].player_limit == 10
    six = load_game(
        base(
            streets=[
                {"faces": ["down", "down", "up"]},
                {"faces": ["up"]},
                {"faces": ["up"]},
                {"faces": ["down"]},
            ]
        )
    )
    assert six.cards_per_player == 6 and six.deck_limit == 9
    # eight players of seven-card stud: 48 cards and 4 burns before the last street; the
    # community card comes from the shuffled burns (RULES.md)
    assert load_game(base()).deck_limit == 8


# --- bring-in, first to act -----------------------------------------------------------------


def test_bring_in_lowest_and_razz_highest():
    doors = cards("7c 7d As 2h")
    assert bring_in_seat(PRESETS["seven_card_stud"], doors) == 3
    # Razz: the highest door card brings in, aces low: the seven of diamonds (diamonds over clubs)
    assert bring_in_seat(PRESETS["razz"], doors) == 1
    assert bring_in_seat(PRESETS["razz"], cards("Kc Ah Kd")) == 2


def test_first_to_act_best_board_and_razz_lowest_board():
    boards = [cards("9c 9d"), cards("As 3h"), None, cards("2c 5h")]
    assert first_to_act(PRESETS["seven_card_stud"], boards) == 0
    assert first_to_act(PRESETS["razz"], boards) == 1  # A-3 is the lowest board
    assert first_to_act(PRESETS["razz"], [cards("7c 6d"), cards("7h 6s")]) == 0  # tie: first


# --- follow-the-X ----------------------------------------------------------------------------


def test_follow_ranks_house_choices():
    order = cards("4c Qd 7h 3c Qs 9d 5c")
    assert follow_ranks(FollowWild(), order) == {9}
    assert follow_ranks(FollowWild(later_x="adds"), order) == {7, 9}
    assert follow_ranks(FollowWild(later_x="ignored"), order) == {7}
    late = order + cards("Qh")
    assert follow_ranks(FollowWild(), late) == frozenset()
    assert follow_ranks(FollowWild(last_x="keeps"), late) == {9}
    # a queen after a queen: the card after the second one follows
    assert follow_ranks(FollowWild(), cards("Qd Qh 8c 2d")) == {8}
    assert follow_ranks(FollowWild(), cards("2c 3d 4h")) == frozenset()


def test_follow_needs_the_up_order():
    game = PRESETS["follow_the_queen"]
    hand = {"down": ["2c", "3d", "4h"], "up": ["Qd", "7h", "8s", "9c"]}
    with pytest.raises(DomainError) as caught:
        evaluate_game(game, {"players": [hand]})
    assert list(caught.value.fields) == ["up_order"]
    with pytest.raises(DomainError) as caught:
        evaluate_game(game, {"up_order": ["Qd", "7h", "8s"], "players": [hand]})
    assert list(caught.value.fields) == ["players[0].up[3]"]
    with pytest.raises(DomainError) as caught:
        evaluate_game(game, {"up_order": ["Qd", "7h", "8s", "9c", "2c"], "players": [hand]})
    assert list(caught.value.fields) == ["players[0].down[0]"]
    result = evaluate_game(game, {"up_order": ["Qd", "7h", "8s", "9c"], "players": [hand]})
    assert result["follow"] == ["7"]
    assert result["players"][0]["wild"] == ["7h", "Qd"]


# --- the showdown checks -----------------------------------------------------------------------


def test_baseball_extra_cards_are_counted():
    game = PRESETS["baseball"]
    up = ["4h", "Kc", "Qd", "8s", "Jh"]  # a four up, and the extra card it brought (face up)
    with pytest.raises(DomainError) as caught:  # seven cards: the extra one is missing
        evaluate_game(game, {"players": [{"down": ["2c", "Ad"], "up": up}]})
    assert caught.value.code == "wrong_card_count"
    assert list(caught.value.fields) == ["players[0]"]
    result = evaluate_game(game, {"players": [{"down": ["2c", "Ad", "7c"], "up": up}]})
    assert result["players"][0]["high"]["category"] == "high_card"
    # no four up: seven cards, not eight
    with pytest.raises(DomainError) as caught:
        evaluate_game(game, {"players": [{"down": ["2c", "Ad", "7c"], "up": ["5h", *up[1:]]}]})
    assert list(caught.value.fields) == ["players[0]"]
    # a three up is wild (the player paid for it, or folded)
    result = evaluate_game(
        game, {"players": [{"down": ["2c", "Ad", "7c"], "up": ["3h", *up[1:4]]}]}
    )
    assert result["players"][0]["wild"] == ["3h"]


def test_too_many_players_and_duplicates():
    game = PRESETS["razz"]
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    players = [
        {"down": deck[i * 7 : i * 7 + 3], "up": deck[i * 7 + 3 : i * 7 + 7]} for i in range(7)
    ]
    with pytest.raises(DomainError) as caught:
        evaluate_game(game, {"players": players + [players[0]]})
    assert caught.value.code == "too_many_players"
    with pytest.raises(DomainError) as caught:
        evaluate_game(game, {"players": [players[0], players[0]]})
    assert caught.value.code == "duplicate_card"
    assert set(caught.value.fields) == {"players[0].down[0]", "players[1].down[0]"}


def test_declarations_only_where_declared():
    hand = {"down": ["2c", "3d", "4h"], "up": ["5s", "7c", "Td", "Kh"], "declare": "low"}
    with pytest.raises(DomainError) as caught:
        evaluate_game(PRESETS["seven_card_stud_high_low"], {"players": [hand]})
    assert list(caught.value.fields) == ["players[0].declare"]
    declaring = load_game(base(pot={"kind": "high_low", "declaration": "declare"}))
    with pytest.raises(DomainError) as caught:
        evaluate_game(declaring, {"players": [{k: v for k, v in hand.items() if k != "declare"}]})
    assert caught.value.code == "required"
    result = evaluate_game(declaring, {"players": [hand]})
    assert result["players"][0]["declare"] == "low" and result["low_winners"] == [0]
    assert result["high_winners"] == []
    assert [s["share"] for s in result["shares"]] == ["low"]
