"""The wild variants' procedure, from the rule documents: Low Hold's buys in
both versions, Kings and Little Ones' up-or-down seventh card, Low Hole
high-low with the odd chip to high, and declarations."""

from __future__ import annotations

import pytest

from tests.support.hands import phh_hand
from tracker.engine.procedure import ProcedureError, replay_hand


def refused(hand, code):
    with pytest.raises(ProcedureError) as info:
        replay_hand(hand)
    assert info.value.code == code, str(info.value)
    return info.value


# --- Low Hold -----------------------------------------------------------------------
#
# low-hold.txt 3.1: "A player who wants to keep their current wild card may
# instead pay to receive the seventh card face up, where it cannot become
# wild." p1 holds 4s 9d down and 4h 4c Ah Ad up; with every four wild
# (same_rank_wild "all") that is five aces. A seventh card 2c face down would
# become the wild card and the fours natural: four fours. p2 makes five kings.

LOW_HOLD_TO_SIXTH = [
    "d dh p1 4s9d4h",
    "d dh p2 KcKdKs",
    "p1 pb",
    "p2 cc",
    "d dh p1 4c",
    "d dh p2 Kh",
    "p2 cc",
    "p1 cc",
    "d dh p1 Ah",
    "d dh p2 Qs",
    "p2 cc",
    "p1 cc",
    "d dh p1 Ad",
    "d dh p2 Qd",
    "p1 cc",
    "p2 cc",  # A-A-4-4 beats K-K-Q-Q showing
]
LOW_HOLD_SEVENTH = ["d dh p1 2c", "d dh p2 Jc", "p1 cbr 40", "p2 cc"]


def low_hold(buys=None, version="contributed", **options):
    hand = phh_hand(
        LOW_HOLD_TO_SIXTH + LOW_HOLD_SEVENTH,
        _variant="low_hold",
        _options={"same_rank_wild": "all", "buy_version": version, **options},
    )
    if buys is not None:
        hand["_buys"] = buys
    return hand


def test_contributed_buy_turns_the_seventh_card_up_and_keeps_the_wild_card():
    bought = replay_hand(low_hold([True, False]))
    p1 = bought.showdown["players"][0]
    assert p1["down"] == ["4s", "9d"] and p1["up"] == ["4h", "4c", "Ah", "Ad", "2c"]
    assert p1["high"]["category"] == "five_of_a_kind"
    assert bought.buys == [40, 0]
    # The buy is dead money: p2 called 40 on seventh street, not 80.
    assert bought.contributions == [94, 54]
    assert [p.to_dict() for p in bought.pots] == [{"amount": 148, "eligible": [0, 1]}]
    assert bought.finishing_stacks == [1054, 946]

    not_bought = replay_hand(low_hold())
    p1 = not_bought.showdown["players"][0]
    assert p1["down"] == ["4s", "9d", "2c"]
    assert p1["high"]["category"] == "four_of_a_kind"
    assert not_bought.showdown["high_winners"] == [1]
    assert not_bought.finishing_stacks == [946, 1054]


def test_buy_price_announced_or_one_big_bet():
    result = replay_hand(low_hold([True, False], buy_price=25))
    assert result.buys == [25, 0]
    assert result.contributions == [79, 54]


def test_buderick_seventh_comes_up_unless_bought_down():
    up = replay_hand(low_hold(version="buderick"))
    assert up.showdown["players"][0]["up"][-1] == "2c"
    assert up.showdown["players"][1]["up"][-1] == "Jc"
    down = replay_hand(low_hold([False, True], version="buderick"))
    assert down.showdown["players"][1]["down"] == ["Kc", "Kd", "Jc"]
    assert down.buys == [0, 40]


def test_a_buy_is_not_a_bet():
    # After p1's buy p1 still opens seventh street with one big bet, and p2 may
    # fold to it: the buy did not change the betting.
    hand = low_hold([True, False])
    hand["actions"] = LOW_HOLD_TO_SIXTH + ["d dh p1 2c", "d dh p2 Jc", "p1 cbr 40", "p2 f"]
    result = replay_hand(hand)
    assert result.returned == [40, 0]
    assert result.contributions == [54, 14]
    assert result.finishing_stacks == [1014, 986]
    # Checked around after the buy: nobody owes anything for it.
    hand["actions"] = LOW_HOLD_TO_SIXTH + ["d dh p1 2c", "d dh p2 Jc", "p1 cc", "p2 cc"]
    assert replay_hand(hand).contributions == [54, 14]


def test_who_cannot_afford_a_buy_cannot_buy():
    hand = low_hold([True, False])
    hand["starting_stacks"] = [53, 1000]  # 14 in by sixth street: 39 left, the buy is 40
    hand["actions"] = LOW_HOLD_TO_SIXTH + ["d dh p1 2c", "d dh p2 Jc"]
    err = refused(hand, "invalid_buy")
    assert err.field == "_buys[0]"
    assert "cannot pay the buy of 40" in err.message
    hand["starting_stacks"] = [54, 1000]  # exactly the price: the buy puts p1 all in
    result = replay_hand(hand)
    assert (
        result.buys == [40, 0] and result.finishing_stacks[0] + result.finishing_stacks[1] == 1054
    )


def test_buys_go_into_the_main_pot():
    # p3 is all in on third street; p1's buy is in the main pot p3 can win.
    actions = [
        "d dh p1 4s9d4h", "d dh p2 KcKdKs", "d dh p3 QcQh3c", "p3 pb", "p1 cc", "p2 cc",
        "d dh p1 4c", "d dh p2 Kh", "d dh p3 7h", "p2 cbr 20", "p1 cc",
        "d dh p1 Ah", "d dh p2 Qs", "d dh p3 7s", "p2 cc", "p1 cc",
        "d dh p1 Ad", "d dh p2 Qd", "d dh p3 7d", "p1 cc", "p2 cc",
        "d dh p1 2c", "d dh p2 Jc", "d dh p3 7c", "p1 cc", "p2 cc",
    ]  # fmt: skip
    hand = phh_hand(
        actions,
        (1000, 1000, 14),
        _variant="low_hold",
        _options={"same_rank_wild": "all"},
        _buys=[True, False, False],
    )
    result = replay_hand(hand)
    assert [p.to_dict() for p in result.pots] == [
        {"amount": 42 + 40, "eligible": [0, 1, 2]},
        {"amount": 40, "eligible": [0, 1]},
    ]
    refused(dict(hand, _buys=[False, False, True]), "invalid_buy")  # all in: no chips to buy


def test_buys_only_for_players_still_in_and_not_with_a_community_card():
    hand = low_hold([True, False])
    hand["actions"] = LOW_HOLD_TO_SIXTH[:-2] + ["p1 cbr 40", "p2 f"]
    err = refused(hand, "invalid_choice")  # the hand ended before the seventh card
    assert err.field == "_buys[0]"
    # p2 folds on seventh street after buying: the buy stays in the pot.
    hand = low_hold([False, True])
    hand["actions"] = LOW_HOLD_TO_SIXTH + ["d dh p1 2c", "d dh p2 Jc", "p1 cbr 40", "p2 f"]
    result = replay_hand(hand)
    assert result.contributions == [14, 54] and result.finishing_stacks == [1054, 946]
    # Seven players to seventh street: the deck is short, a community card comes.
    seven = [
        f"d dh p{i + 1} {c}"
        for i, c in enumerate(
            ["AsAdKc", "AhAcKd", "KsKhQc", "QsQhQd", "JsJhJc", "TsThTc", "9s9h2c"]
        )
    ]
    seven += ["p7 pb"] + [f"p{i} cc" for i in range(1, 7)]
    ups = iter("8c 8d 8h 8s 7c 7d 7h 7s 6c 6d 6h 6s 5c 5d 5h 5s 4c 4d 4h 4s 3c".split())
    for _street in range(3):
        seven += [f"d dh p{i} {next(ups)}" for i in range(1, 8)]
        seven += ["CHECKS"]
    hand = phh_hand(seven, [500] * 7, _variant="low_hold", _buys=[True] + [False] * 6)
    # Find who opens each street by trying each player first.
    built = []
    for a in seven:
        if a != "CHECKS":
            built.append(a)
            continue
        for first in range(7):
            trial = built + [f"p{(first + k) % 7 + 1} cc" for k in range(7)]
            try:
                replay_hand(dict(hand, actions=trial, _buys=None))
            except ProcedureError as exc:
                if exc.code == "incomplete_hand":
                    built = trial
                    break
    err = refused(dict(hand, actions=built + ["d db 3d"]), "invalid_buy")
    assert "community card" in err.message


# --- Kings and Little Ones -------------------------------------------------------------

KINGS = [
    "d dh p1 Kd4c9c",
    "d dh p2 QsQhTc",
    "p1 pb",
    "p2 cc",
    "d dh p1 7d",
    "d dh p2 8d",
    "p2 cc",
    "p1 cc",
    "d dh p1 5h",
    "d dh p2 6h",
    "p2 cc",
    "p1 cc",
    "d dh p1 3s",
    "d dh p2 2s",
    "p2 cc",
    "p1 cc",  # T-8-6-2 beats 9-7-5-3 showing
    "d dh p1 9d",
    "d dh p2 Ac",
]


def test_seventh_card_up_or_down_at_each_players_choice():
    down = replay_hand(phh_hand(KINGS + ["p2 cc", "p1 cc"], _variant="kings_and_little_ones"))
    assert down.showdown["players"][0]["down"] == ["Kd", "4c", "9d"]
    # p1 takes it up: 9-9 showing now acts first on seventh street.
    hand = phh_hand(
        KINGS + ["p1 cc", "p2 cc"], _variant="kings_and_little_ones", _seventh_card=["up", None]
    )
    up = replay_hand(hand)
    assert up.showdown["players"][0]["up"] == ["9c", "7d", "5h", "3s", "9d"]
    assert up.showdown["players"][1]["down"] == ["Qs", "Qh", "Ac"]
    refused(
        phh_hand(
            KINGS + ["p2 cc", "p1 cc"],
            _variant="kings_and_little_ones",
            _seventh_card=["up", "down"],
        ),
        "out_of_turn",
    )


def test_kings_rule_document_example_at_the_showdown():
    # kings-and-little-ones.txt: K♦4♣4♠7♥9♥J♦2♣, king required: four fours, jack kicker.
    actions = [
        "d dh p1 Kd4c4s",
        "d dh p2 QsQhTc",
        "p1 pb",
        "p2 cc",
        "d dh p1 7h",
        "d dh p2 8d",
        "p2 cc",
        "p1 cc",
        "d dh p1 9h",
        "d dh p2 6c",
        "p2 cc",
        "p1 cc",
        "d dh p1 Jd",
        "d dh p2 3d",
        "p1 cc",
        "p2 cc",
        "d dh p1 2c",
        "d dh p2 5s",
        "p1 cc",
        "p2 cc",
    ]
    result = replay_hand(phh_hand(actions, _variant="kings_and_little_ones"))
    high = result.showdown["players"][0]["high"]
    assert high["category"] == "four_of_a_kind"
    assert high["ranks"] == [4, 4, 4, 4, 11]


def test_seventh_card_choices_are_checked():
    hand = phh_hand(
        KINGS[:12] + ["d dh p1 3s", "d dh p2 2s", "p2 cbr 40", "p1 f"],
        _variant="kings_and_little_ones",
        _seventh_card=["up", None],
    )
    assert refused(hand, "invalid_choice").field == "_seventh_card[0]"
    hand = phh_hand(
        KINGS + ["p2 cc", "p1 cc"],
        _variant="kings_and_little_ones",
        _seventh_card=["sideways", None],
    )
    assert refused(hand, "invalid_hand").field == "_seventh_card[0]"


# --- Low Hole high-low: odd chip to high, declarations -----------------------------------
#
# p1: Kc Kd down, Ks Kh Qs Qd up, Ac down: kings wild -> five aces high, no low.
# p2: 2c 3c down, 4d 5h 6s 9h up, 7d down: the deuce is wild -> an 8-high straight,
# and the low A-3-4-5-6. p3 folds on fourth street. The pot is 17.

LOW_HOLE = [
    "d dh p1 KcKdKs",
    "d dh p2 2c3c4d",
    "d dh p3 JcJd2d",
    "p3 pb",
    "p1 cc",
    "p2 cc",
    "d dh p1 Kh",
    "d dh p2 5h",
    "d dh p3 Th",
    "p1 cbr 4",
    "p2 cc",
    "p3 f",
    "d dh p1 Qs",
    "d dh p2 6s",
    "p1 cc",
    "p2 cc",
    "d dh p1 Qd",
    "d dh p2 9h",
    "p1 cc",
    "p2 cc",
    "d dh p1 Ac",
    "d dh p2 7d",
    "p1 cc",
    "p2 cc",
]


def low_hole(**extra):
    hand = phh_hand(LOW_HOLE, (500, 500, 500), _variant="low_hole", **extra)
    hand.update(antes=1, bring_in=2, small_bet=4, big_bet=8)
    return hand


def test_high_low_split_with_the_odd_chip_to_high():
    result = replay_hand(low_hole(_options={"game": "high_low"}))
    assert result.showdown["high_winners"] == [0]
    assert result.showdown["low_winners"] == [1]
    assert [p.amount for p in result.pots] == [17]
    assert result.payouts[0].awards == ((0, 9), (1, 8))
    assert result.finishing_stacks == [502, 501, 497]


def test_no_qualifying_low_high_scoops():
    # p2 holds nothing 8 or lower but the wild card: no qualifying low.
    hand = low_hole(_options={"game": "high_low"})
    hand["actions"] = [
        "d dh p1 KcKdKs",
        "d dh p2 9c9s9d",
        "d dh p3 JcJd2d",
        "p3 pb",
        "p1 cc",
        "p2 cc",
        "d dh p1 Kh",
        "d dh p2 Th",
        "d dh p3 Tc",
        "p1 cbr 4",
        "p2 cc",
        "p3 f",
        "d dh p1 Qs",
        "d dh p2 Jh",
        "p1 cc",
        "p2 cc",
        "d dh p1 Qd",
        "d dh p2 Js",
        "p1 cc",
        "p2 cc",
        "d dh p1 Ac",
        "d dh p2 Ts",
        "p1 cc",
        "p2 cc",
    ]
    result = replay_hand(hand)
    assert result.showdown["low_winners"] == []
    assert result.payouts[0].awards == ((0, 17),)


def test_declarations():
    options = {"game": "high_low", "declaration": "declare"}
    hand = low_hole(_options=options, _declarations=["high", "low", None])
    assert replay_hand(hand).payouts[0].awards == ((0, 9), (1, 8))
    # p2 declares both and does not win both ways: p2 wins nothing, p1 scoops.
    hand["_declarations"] = ["high", "both", None]
    assert replay_hand(hand).payouts[0].awards == ((0, 17),)
    # p1 declares both without a low: p1 is out, p2 takes it all on the low.
    hand["_declarations"] = ["both", "low", None]
    assert replay_hand(hand).payouts[0].awards == ((1, 17),)
    # Every player at the showdown declares; a folded player cannot.
    hand["_declarations"] = ["high", None, None]
    assert refused(hand, "declaration").field == "_declarations[1]"
    hand["_declarations"] = ["high", "low", "low"]
    assert refused(hand, "declaration").field == "_declarations[2]"
    # Without the announcement there is nothing to declare.
    assert (
        refused(
            low_hole(_options={"game": "high_low"}, _declarations=["high", "low", None]),
            "invalid_hand",
        ).field
        == "_declarations"
    )


def test_low_hole_deals_to_eight_and_other_games_to_seven():
    actions = [
        f"d dh p{i + 1} {c}"
        for i, c in enumerate(
            ["AsAdKc", "AhAcKd", "KsKhQc", "QsQhQd", "JsJhJc", "TsThTc", "9s9h9c", "8s8h2c"]
        )
    ]
    actions += ["p8 pb"] + [f"p{i} f" for i in range(1, 8)]
    assert replay_hand(phh_hand(actions, [100] * 8, _variant="low_hole")).finishing_stacks[7] == 128
    refused(phh_hand(actions, [100] * 8, _variant="low_hold"), "player_count")
