"""evaluate_showdown: output shape, winners, high-low, declarations, community card."""

import json

import pytest

from tracker.engine import evaluate_showdown
from tracker.engine.showdown import decide_winners

HAND_KEYS = {"category", "ranks", "cards", "wild", "text"}


def sd(variant, players, community=None, **options):
    return evaluate_showdown(
        {"variant": variant, "options": options, "community": community, "players": players}
    )


def p(down, up, declare=None):
    out = {"down": down.split(), "up": up.split()}
    if declare:
        out["declare"] = declare
    return out


def test_shape_and_json():
    r = sd("seven_card_stud", [p("As Ks 2c", "Qs Js Ts 3d"), p("2d 2h 7c", "7d 9s 9c Jh")])
    assert set(r) == {"players", "high_winners", "low_winners"}
    assert r["high_winners"] == [0] and r["low_winners"] == []
    for player in r["players"]:
        assert set(player) == {"high", "low"} and player["low"] is None
        assert set(player["high"]) == HAND_KEYS
        assert len(player["high"]["cards"]) == 5 and len(player["high"]["ranks"]) == 5
    assert r["players"][0]["high"]["text"] == "royal flush"
    json.dumps(r)


def test_ties_split():
    r = sd("seven_card_stud", [p("As Kd 2c", "Qs Js Ts 3d"), p("Ac Kh 2d", "Qh Jc Td 3h")])
    assert r["high_winners"] == [0, 1]


def test_options_may_be_omitted():
    r = evaluate_showdown({"variant": "low_hold", "players": [p("Kd 3s 9d", "8h 8c Kh Ks")]})
    assert r["players"][0]["high"]["ranks"] == [13, 13, 13, 13, 9]


def test_last_card_up_in_kings():
    # seventh card taken face up: 2 down, 5 up
    r = sd("kings_and_little_ones", [p("Kd 4c", "4s 7h 9h Jd 2c")])
    assert r["players"][0]["high"]["ranks"] == [4, 4, 4, 4, 11]


def test_low_hold_bought_seventh_card_up_is_not_wild():
    # the 2 came face up (bought), so the 3 stays the wild card
    r = sd("low_hold", [p("Kd 3s", "8h 8c Kh Ks 2d")])
    assert r["players"][0]["high"]["ranks"] == [13, 13, 13, 13, 8]
    assert r["players"][0]["high"]["wild"][0]["card"] == "3s"


def test_community_card():
    players = [p("Kd 8s", "7h 9c Tc Qd"), p("2s 2d", "Ah Ac Jc 5d")]
    r = sd("kings_and_little_ones", players, community="Kh")
    # the community king is wild for everyone and lets each little one be wild:
    # player 0 has Kd, Kh and the 7h wild: 9c Tc and three wild cards, a king-high straight flush
    assert r["players"][0]["high"]["category"] == "straight_flush"
    assert r["players"][0]["high"]["ranks"] == [13, 12, 11, 10, 9]
    # player 1 has Kh and one 2 wild: four aces
    assert r["players"][1]["high"]["ranks"] == [14, 14, 14, 14, 11]
    assert r["high_winners"] == [0]


def test_low_only_game():
    r = sd("low_hole", [p("As 6d 2c", "3h 4s Kd 9c"), p("8c 7d 7s", "5c 4h 3d 2h")], game="low")
    assert r["players"][0]["high"] is None
    low0, low1 = r["players"][0]["low"], r["players"][1]["low"]
    # player 0: aces wild for the low (ace in the hole): the wild ace plays as an ace
    assert low0["ranks"] == [6, 4, 3, 2, 1] and low0["qualifies"] is True
    assert low0["category"] == "high_card" and low0["text"].startswith("6-4-3-2-A low")
    assert low0["wild"] == [{"card": "As", "as": "As"}]
    # player 1: sevens wild, 8-5-4-3-2 and two wild sevens make the wheel
    assert low1["ranks"] == [5, 4, 3, 2, 1]
    assert r["low_winners"] == [1] and r["high_winners"] == []


def test_ace_to_six_and_deuce_to_seven_count_straights():
    players = [p("Ac 6d 9c", "2h 3s 4d 5c")]
    # wild rank 6 under ace_to_six? no: lowest hole card with aces low is the ace
    r = sd("low_hole", players, game="low", low_ranking="ace_to_six")
    assert r["players"][0]["low"]["ranks"] == [
        6,
        4,
        3,
        2,
        1,
    ]  # the wild ace plays as a 6; A2345 is a straight
    r = sd("low_hole", players, game="low", low_ranking="deuce_to_seven")
    low = r["players"][0]["low"]
    # 2-7: aces high, the 6 is the lowest hole card and wild; A-5-4-3-2 is ace high, no straight
    assert low["ranks"] == [7, 5, 4, 3, 2] and low["wild"][0]["card"] == "6d"


def test_high_low_split_and_no_qualifying_low():
    players = [p("Ks Kd Qc", "Kh Qs 9d 9h"), p("2c 4d 5h", "6s 7c Jd Jh")]
    r = sd("low_hole", players, game="high_low")
    assert r["high_winners"] == [0]
    assert r["players"][1]["low"]["qualifies"] is True and r["low_winners"] == [1]
    players = [p("Ks Kd Qc", "Kh Qs 9d 9h"), p("Tc Td Th", "Jc Jd Js Qd")]
    r = sd("low_hole", players, game="high_low")
    assert r["low_winners"] == []
    low = r["players"][0]["low"]
    assert low["qualifies"] is False and "does not qualify" in low["text"]


def test_no_qualifier_every_low_counts():
    players = [p("Ks Kd Qc", "Kh Qs 9d 9h"), p("Tc Td Th", "Jc Jd Js Qd")]
    r = sd("low_hole", players, game="high_low", low_qualifier=None)
    # player 0 (queens wild): a pair of nines; player 1 (three wild tens): Q-J-3-2-A
    assert r["players"][0]["low"]["category"] == "one_pair"
    assert r["players"][1]["low"]["ranks"] == [12, 11, 3, 2, 1]
    assert r["low_winners"] == [1]


# --- declarations -----------------------------------------------------------------------------


def test_declare_required_in_high_low():
    with pytest.raises(Exception) as exc:
        sd("low_hole", [p("2c 4d 5h", "6s 7c Jd Jh")], game="high_low", declaration="declare")
    assert "players[0].declare" in exc.value.fields


def test_declare_winners():
    hi_hand = p("Ks Kd Qc", "Kh Qs 9d 9h", "high")
    lo_hand = p("2c 4d 5h", "6s 7c Jd Jh", "low")
    r = sd("low_hole", [hi_hand, lo_hand], game="high_low", declaration="declare")
    assert r["high_winners"] == [0] and r["low_winners"] == [1]
    assert r["players"][0]["declare"] == "high"


def test_declare_both_must_win_both_ways():
    both = p("2c 4d 5h", "6s 7c Jd Jh", "both")  # best low, not best high
    hi_hand = p("Ks Kd Qc", "Kh Qs 9d 9h", "high")
    r = sd("low_hole", [both, hi_hand], game="high_low", declaration="declare")
    assert r["high_winners"] == [1] and r["low_winners"] == []


def test_declare_both_scoops():
    both = p("Ac 2d 3h", "4s 5c 5d 5h", "both")  # fives wild... ace-to-five wheel and a big high
    other = p("Kc Kd 9c", "Qh Qs 8d 7h", "low")
    r = sd("low_hole", [both, other], game="high_low", declaration="declare")
    assert r["high_winners"] == [0] and r["low_winners"] == [0]


def test_decide_winners_rules():
    # 0 declares both, wins high, loses low -> out; low goes to 1, high to 2 (next best high)
    hi = [30, 10, 20]
    lo = [-50, -40, None]
    assert decide_winners(hi, lo, ["both", "low", "high"]) == ([2], [1])
    # tie both ways is enough
    assert decide_winners([30, 30], [-40, -40], ["both", "both"]) == ([0, 1], [0, 1])
    # each both-declarer is judged against the whole field: 0 loses low to 1, 1 loses high
    # to 0, so both are out, and the halves go to the rest
    hi, lo = [30, 20, 10, 5], [-50, -40, None, -45]
    assert decide_winners(hi, lo, ["both", "both", "high", "low"]) == ([2], [3])
    # nobody left for a half: that half has no winner
    assert decide_winners([30, 20], [-60, -40], ["both", "both"]) == ([], [])
    # cards speak
    assert decide_winners([1, 3, 3], [None, -5, -4], None) == ([1, 2], [2])
    assert decide_winners([1], [None], None) == ([0], [])


# --- independence ---------------------------------------------------------------------------


def test_player_order_does_not_change_winners():
    players = [
        p("As Kd 2c", "Qs Js Ts 3d"),
        p("2d 2h 7c", "7d 9s 9c Jh"),
        p("Ac Kh 2s", "Qh Jc Td 3h"),
    ]
    r = sd("seven_card_stud", players)
    r2 = sd("seven_card_stud", players[::-1])
    assert r["high_winners"] == [0, 2] and r2["high_winners"] == [0, 2]
