"""Bad showdowns are refused with a DomainError naming the field (and card) at fault."""

import pytest

from tracker.engine import DomainError, evaluate_showdown

GOOD = [{"down": ["As", "Kd", "2c"], "up": ["Qs", "Js", "Ts", "3d"]}]


def refused(showdown):
    with pytest.raises(DomainError) as exc:
        evaluate_showdown(showdown)
    return exc.value


def stud(players=GOOD, **extra):
    return {"variant": "seven_card_stud", "players": players, **extra}


def test_not_an_object():
    assert refused(["seven_card_stud"]).code == "invalid_showdown"


def test_unknown_field():
    err = refused(stud(board=["As"]))
    assert list(err.fields) == ["board"]


def test_variant_missing_or_unknown():
    assert list(refused({"players": GOOD}).fields) == ["variant"]
    err = refused({"variant": "razz", "players": GOOD})
    assert list(err.fields) == ["variant"] and "razz" in err.message


def test_unknown_announcement_and_bad_value():
    err = refused(stud(options={"king_required": False}))
    assert list(err.fields) == ["options.king_required"]
    err = refused({"variant": "low_hole", "options": {"game": "both"}, "players": GOOD})
    assert list(err.fields) == ["options.game"]


def test_unparseable_card():
    players = [GOOD[0], {"down": ["Zz", "Kh", "2d"], "up": ["Qh", "Jh", "Th", "3h"]}]
    err = refused(stud(players))
    assert err.code == "invalid_card"
    assert err.fields == {"players[1].down[0]": ["'Zz' is not a card"]}


def test_unknown_card_token_is_refused():
    players = [{"down": ["??", "Kd", "2c"], "up": ["Qs", "Js", "Ts", "3d"]}]
    err = refused(stud(players))
    assert list(err.fields) == ["players[0].down[0]"]


def test_same_card_twice_names_both_places():
    players = [GOOD[0], {"down": ["Ah", "Kh", "2d"], "up": ["Q♠", "Jh", "Th", "3h"]}]
    err = refused(stud(players))
    assert err.code == "duplicate_card"
    assert set(err.fields) == {"players[0].up[0]", "players[1].up[0]"}
    assert "Qs" in err.message


def test_same_card_as_the_community_card():
    players = [{"down": ["As", "Kd"], "up": ["Qs", "Js", "Ts", "3d"]}]
    err = refused(stud(players, community="3D"))
    assert set(err.fields) == {"community", "players[0].up[3]"}


def test_bad_community_card():
    players = [{"down": ["As", "Kd"], "up": ["Qs", "Js", "Ts", "3d"]}]
    assert list(refused(stud(players, community="X1")).fields) == ["community"]


@pytest.mark.parametrize(
    "down, up, field",
    [
        (["As", "Kd", "2c"], ["Qs", "Js", "Ts"], "players[0]"),  # 6 cards, no community
        (["As", "Kd", "2c", "4c"], ["Qs", "Js", "Ts", "3d"], "players[0]"),  # 8 cards
        (["As", "Kd"], ["Qs", "Js", "Ts", "3d", "4c"], "players[0].down"),  # stud: 7th comes down
        (["As"], ["Qs", "Js", "Ts", "3d", "4c", "5c"], "players[0].down"),
    ],
)
def test_wrong_card_counts(down, up, field):
    err = refused(stud([{"down": down, "up": up}]))
    assert err.code == "wrong_card_count" and list(err.fields) == [field]


def test_wrong_counts_with_community_and_in_kings():
    err = refused(stud([{"down": ["As", "Kd", "2c"], "up": ["Qs", "Js", "Ts"]}], community="4c"))
    assert list(err.fields) == ["players[0]"]
    kings = {
        "variant": "kings_and_little_ones",
        "players": [{"down": ["As"], "up": ["Qs", "Js", "Ts", "3d", "4c", "5c"]}],
    }
    assert list(refused(kings).fields) == ["players[0].down"]
    kings["players"] = [{"down": ["As", "Kd", "2c", "4c"], "up": ["Qs", "Js", "Ts"]}]
    assert list(refused(kings).fields) == ["players[0].down"]


def test_too_many_players():
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    players = [
        {"down": deck[i * 6 : i * 6 + 2], "up": deck[i * 6 + 2 : i * 6 + 6]} for i in range(8)
    ]
    err = refused(stud(players, community="Ac"))
    assert err.code == "too_many_players" and list(err.fields) == ["players"]
    # Low Hole seats eight
    ok = evaluate_showdown({"variant": "low_hole", "community": "Ac", "players": players})
    assert len(ok["players"]) == 8


def test_no_players_and_bad_player_shapes():
    assert list(refused(stud([])).fields) == ["players"]
    assert list(refused(stud("As Kd")).fields) == ["players"]
    assert list(refused(stud(["As Kd"])).fields) == ["players[0]"]
    assert list(refused(stud([{"down": ["As", "Kd", "2c"]}])).fields) == ["players[0].up"]
    err = refused(stud([{"down": "AsKd2c", "up": ["Qs", "Js", "Ts", "3d"]}]))
    assert list(err.fields) == ["players[0].down"]
    err = refused(stud([{"down": ["As", "Kd", "2c"], "up": ["Qs", "Js", "Ts", "3d"], "seat": 1}]))
    assert list(err.fields) == ["players[0].seat"]


def test_bad_declaration():
    players = [{"down": ["As", "Kd", "2c"], "up": ["Qs", "Js", "Ts", "3d"], "declare": "middle"}]
    err = refused(
        {
            "variant": "low_hole",
            "options": {"game": "high_low", "declaration": "declare"},
            "players": players,
        }
    )
    assert list(err.fields) == ["players[0].declare"]
