"""The stud procedure of RULES.md, event by event: dealing, bring-in, order of
action, fixed-limit sizes, all-ins, pots and payouts of natural stud."""

from __future__ import annotations

import pytest

from tests.support.hands import ODD_CHIP_STREETS, payout, phh_hand
from tracker.engine.procedure import ProcedureError, replay_hand


def refused(actions, code=None, stacks=(1000, 1000), **extra):
    with pytest.raises(ProcedureError) as info:
        replay_hand(phh_hand(actions, stacks, **extra))
    if code is not None:
        assert info.value.code == code, str(info.value)
    return info.value


# Two players, checked down to the showdown. p1 makes a straight.
THIRD = ["d dh p1 9s8s7c", "d dh p2 KhKd2c"]  # p2's 2c brings in
FOURTH = ["d dh p1 6d", "d dh p2 3h"]
FIFTH = ["d dh p1 5c", "d dh p2 4h"]
SIXTH = ["d dh p1 Jd", "d dh p2 Th"]
SEVENTH = ["d dh p1 2d", "d dh p2 Ac"]


def checked(*streets):
    """Each street's cards, then p1 and p2 check."""
    return [a for street in streets for a in [*street, "p1 cc", "p2 cc"]]


def checked_down():
    return (
        THIRD
        + ["p2 pb", "p1 cc"]
        + FOURTH
        + ["p1 cc", "p2 cc"]  # p1 shows 7-6, p2 2-3: p1's up cards are better
        + checked(FIFTH, SIXTH, SEVENTH)
    )


def p2_all_in(*streets):
    """Three-handed streets with p2 all in: each street's cards for p1, p2 and p3 (one
    string), then p1 and p3 check.

    >>> p2_all_in("Qs Qh Qd")
    ['d dh p1 Qs', 'd dh p2 Qh', 'd dh p3 Qd', 'p1 cc', 'p3 cc']
    """
    actions = []
    for cards in streets:
        actions += [f"d dh p{i} {c}" for i, c in enumerate(cards.split(), 1)] + ["p1 cc", "p3 cc"]
    return actions


def test_a_checked_down_hand_settles():
    result = replay_hand(phh_hand(checked_down()))
    assert result.contributions == [14, 14]
    assert [p.to_dict() for p in result.pots] == [{"amount": 28, "eligible": [0, 1]}]
    assert result.showdown["high_winners"] == [0]
    assert result.showdown["players"][0]["high"]["category"] == "straight"
    assert result.showdown["players"][0]["down"] == ["9s", "8s", "2d"]
    assert result.showdown["players"][0]["up"] == ["7c", "6d", "5c", "Jd"]
    assert result.finishing_stacks == [1014, 986]
    data = result.to_dict()
    assert data["payouts"] == [
        {
            "pot": 0,
            "amount": 28,
            "eligible": [0, 1],
            "reason": "showdown",
            "high_winners": [0],
            "low_winners": [],
            "awards": [{"player": 0, "amount": 28}],
        }
    ]


# --- bring-in -----------------------------------------------------------------


def test_lowest_door_card_brings_in():
    err = refused(THIRD + ["p1 pb"], "out_of_turn")
    assert "p2's turn" in err.message
    assert err.action_index == 2 and err.action == "p1 pb"


def test_bring_in_ties_broken_by_suit_clubs_lowest():
    # Both doors are deuces: clubs < diamonds < hearts < spades.
    third = ["d dh p1 AsKs2d", "d dh p2 AhKh2h", "d dh p3 AdKd2c"]
    result = replay_hand(phh_hand(third + ["p3 pb", "p1 f", "p2 f"], (500, 500, 500)))
    assert result.finishing_stacks == [496, 496, 508]
    refused(third + ["p1 pb"], "out_of_turn", (500, 500, 500))
    refused(["d dh p1 AsKs2d", "d dh p2 AhKh2s", "p2 pb"], "out_of_turn", (500, 500))


def test_aces_are_high_for_the_bring_in():
    result = replay_hand(
        phh_hand(
            ["d dh p1 KsKd3c", "d dh p2 QhQd2s", "d dh p3 2h2dAc", "p2 pb", "p3 f", "p1 f"],
            (500, 500, 500),
        )
    )
    assert result.finishing_stacks == [496, 508, 496]


def test_the_bring_in_must_bring_in_or_complete():
    refused(THIRD + ["p2 f"], "bring_in")
    refused(THIRD + ["p2 cc"], "bring_in")
    # Completing instead of bringing in is a full small bet.
    replay_hand(phh_hand(THIRD + ["p2 cbr 20", "p1 f"]))
    refused(THIRD + ["p2 cbr 10"], "bet_size")
    refused(THIRD + ["p2 pb", "p1 pb"], "illegal_action")


def test_low_card_all_in_on_the_ante_passes_the_bring_in_left():
    # p2 has the low card but only 3 chips: all in on the ante. p3 brings in.
    third = ["d dh p1 AsKs9c", "d dh p2 AhKh2c", "d dh p3 AdKd5c"]
    result = replay_hand(
        phh_hand(
            third + ["p3 pb", "p1 cc"] + p2_all_in("Qs Qh Qd", "Js Jh Jd", "3s 3h 3d", "4s 4h 4c"),
            (1000, 3, 1000),
        )
    )
    # Everyone shows A-K-Q-J + pairs of threes: the main pot of 9 splits three ways,
    # the side pot (two calls of the bring-in, less p2's level) two ways.
    assert [p.to_dict() for p in result.pots] == [
        {"amount": 9, "eligible": [0, 1, 2]},
        {"amount": 22, "eligible": [0, 2]},
    ]
    assert sum(result.finishing_stacks) == 2003


# --- order of action ------------------------------------------------------------


def p1_acts_first_on_fourth(third, fourth):
    """Three-handed, p3 bringing in and the others calling on ``third`` street: after the
    ``fourth`` street cards p1 may bet and p2 may not act."""
    start = third + ["p3 pb", "p1 cc", "p2 cc"] + fourth
    replay_hand(phh_hand(start + ["p1 cbr 20", "p2 f", "p3 f"], (500, 500, 500)))
    refused(start + ["p2 cc"], "out_of_turn", (500, 500, 500))


def test_best_up_cards_act_first_from_fourth_street():
    # p1 pairs the door on fourth street: p1 acts first though p2 shows an ace.
    p1_acts_first_on_fourth(
        ["d dh p1 2s3s9c", "d dh p2 4h5hAc", "d dh p3 6d7d8c"],
        ["d dh p1 9d", "d dh p2 Kd", "d dh p3 Td"],
    )


def test_ties_in_up_cards_go_to_first_clockwise_from_the_dealer():
    third = ["d dh p1 2s3s9c", "d dh p2 4h5h9d", "d dh p3 6d7d8c"]
    # p1 and p2 both show K-9: p1 (left of the dealer) acts first.
    p1_acts_first_on_fourth(third, ["d dh p1 Kc", "d dh p2 Kd", "d dh p3 Td"])
    # ... but p2 acts first when p1 has folded.
    hand = third + ["p3 pb", "p1 cc", "p2 cbr 20", "p3 cc", "p1 f"]
    hand += ["d dh p2 Kd", "d dh p3 Td", "p2 cbr 20", "p3 f"]
    replay_hand(phh_hand(hand, (500, 500, 500)))


def test_no_straights_or_flushes_in_the_up_cards():
    # p1 shows 5-6-7-8 (no straight counts), p2 shows a pair of deuces: p2 first.
    third = ["d dh p1 AsAd5c", "d dh p2 KsKd2h"]
    start = third + [
        "p2 pb",
        "p1 cc",
        "d dh p1 6c",
        "d dh p2 2d",
        "p2 cc",
        "p1 cc",
        "d dh p1 7c",
        "d dh p2 9h",
        "p2 cc",
        "p1 cc",
        "d dh p1 8c",
        "d dh p2 Jh",
    ]
    replay_hand(phh_hand(start + ["p2 cbr 40", "p1 f"]))
    refused(start + ["p1 cbr 40"], "out_of_turn")


# --- fixed-limit sizes --------------------------------------------------------------


def test_completion_and_raises_on_third_street():
    replay_hand(phh_hand(THIRD + ["p2 pb", "p1 cbr 20", "p2 cbr 40", "p1 cbr 60", "p2 f"]))
    refused(THIRD + ["p2 pb", "p1 cbr 30"], "bet_size")
    err = refused(THIRD + ["p2 pb", "p1 cbr 20", "p2 cbr 60"], "bet_size")
    assert "20 + 20 = 40" in err.message


def test_small_bet_on_fourth_street_even_with_an_open_pair():
    start = THIRD + ["p2 pb", "p1 cc", "d dh p1 7d", "d dh p2 3h"]
    # p1 shows a pair of sevens: still one small bet (RULES.md has no open-pair option).
    replay_hand(phh_hand(start + ["p1 cbr 20", "p2 f"]))
    refused(start + ["p1 cbr 40"], "bet_size")


def test_big_bet_from_fifth_street():
    start = THIRD + ["p2 pb", "p1 cc"] + FOURTH + ["p1 cc", "p2 cc"] + FIFTH
    replay_hand(phh_hand(start + ["p1 cbr 40", "p2 cbr 80", "p1 f"]))
    refused(start + ["p1 cbr 20"], "bet_size")


def test_a_bet_and_three_raises_a_round():
    start = THIRD + ["p2 pb", "p1 cc"] + FOURTH
    capped = start + ["p1 cbr 20", "p2 cbr 40", "p1 cbr 60", "p2 cbr 80"]
    replay_hand(phh_hand(capped + ["p1 cc"] + checked(FIFTH, SIXTH, SEVENTH)))
    err = refused(capped + ["p1 cbr 100"], "raise_cap")
    assert err.action_index == len(capped)
    # On third street the completion is the bet: three raises after it.
    third = THIRD + ["p2 pb", "p1 cbr 20", "p2 cbr 40", "p1 cbr 60", "p2 cbr 80"]
    refused(third + ["p1 cbr 100"], "raise_cap")


def test_fold_needs_a_bet_to_fold_to():
    refused(THIRD + ["p2 pb", "p1 cc"] + FOURTH + ["p1 f"], "illegal_action")


# --- stacks and all-ins ---------------------------------------------------------------


def test_nobody_puts_in_more_than_their_stack():
    # p1 has 30: ante 4, then 26 left. A completion to 20 is fine; a raise to 40 is all in for 26.
    result = replay_hand(
        phh_hand(
            THIRD + ["p2 pb", "p1 cbr 20", "p2 cbr 40", "p1 cc"] + FOURTH + FIFTH + SIXTH + SEVENTH,
            (30, 1000),
        )
    )
    assert result.contributions == [30, 30]
    assert result.returned == [0, 14]
    assert result.finishing_stacks == [60, 970]
    refused(THIRD + ["p2 pb", "p1 cbr 30"], "bet_size", (30, 1000))
    # All in for less than the completion: the completion is to what p1 has.
    replay_hand(
        phh_hand(
            THIRD + ["p2 pb", "p1 cbr 16", "p2 cc"] + FOURTH + FIFTH + SIXTH + SEVENTH, (20, 1000)
        )
    )
    err = refused(THIRD + ["p2 pb", "p1 cbr 20"], "bet_size", (20, 1000))
    assert "only enough for 16" in err.message


def test_uncalled_bets_go_back():
    result = replay_hand(phh_hand(THIRD + ["p2 pb", "p1 cbr 20", "p2 cbr 40", "p1 f"]))
    assert result.returned == [0, 20]
    assert result.contributions == [24, 24]
    assert result.finishing_stacks == [976, 1024]
    assert result.showdown is None
    assert result.payouts[0].reason == "uncontested"


def test_short_all_in_raise_does_not_reopen_the_betting():
    third = ["d dh p1 AsKs9c", "d dh p2 AhKh2c", "d dh p3 AdKd5c"]
    start = third + ["p2 pb", "p3 cc", "p1 cc"] + ["d dh p1 Qs", "d dh p2 Qh", "d dh p3 Qd"]
    # Fourth street: p1 (Q-9 showing) bets 20; p2 has 25 left and raises all in
    # to 25, five more: less than a full raise.
    stacks = (1000, 39, 1000)
    bet = start + ["p1 cbr 20", "p2 cbr 25"]
    # p3 had not acted on the bet: p3 may raise a full unit over the 25.
    refused(bet + ["p3 cbr 45", "p1 cc"], "incomplete_hand", stacks)
    # p1 bet, and faces only p2's short raise and p3's call: no raise for p1.
    err = refused(bet + ["p3 cc", "p1 cbr 45"], "reopen", stacks)
    assert "does not reopen" in err.message
    rest = p2_all_in("Js Jh Jd", "3s 3h 3d", "4s 4h 4c")
    result = replay_hand(phh_hand(bet + ["p3 cc", "p1 cc"] + rest, stacks))
    assert result.contributions == [39, 39, 39]
    # Two short all-ins that add up to a full raise do reopen it (as in pokerkit).


def test_raising_when_everyone_else_is_all_in():
    third = ["d dh p1 AsKs9c", "d dh p2 AhKh2c", "p2 pb", "p1 cc", "d dh p1 Qs", "d dh p2 Qh"]
    err = refused(third + ["p1 cbr 20", "p2 cbr 30", "p1 cbr 50"], "illegal_action", (1000, 44))
    assert "nobody to bet against" in err.message
    replay_hand(
        phh_hand(
            third
            + [
                "p1 cbr 20",
                "p2 cbr 30",
                "p1 cc",
                "d dh p1 Js",
                "d dh p2 Jh",
                "d dh p1 3s",
                "d dh p2 3h",
                "d dh p1 4s",
                "d dh p2 4d",
            ],
            (1000, 44),
        )
    )


def test_all_in_runout_deals_without_betting_and_shows():
    third = ["d dh p1 AsKs9c", "d dh p2 AhKh2c"]
    runout = [
        "d dh p1 Qs",
        "d dh p2 Qh",
        "d dh p1 Js",
        "d dh p2 Jh",
        "d dh p1 3s",
        "d dh p2 3d",
        "d dh p1 4s",
        "d dh p2 4d",
    ]
    # p2 is all in on third street; pokerkit shows the hands then, before the runout.
    hand = third + ["p2 pb", "p1 cbr 20", "p2 cc", "p1 sm AsKs9c", "p2 sm AhKh2c"] + runout
    result = replay_hand(phh_hand(hand, (1000, 24)))
    assert result.showdown["players"][0]["high"]["category"] == "flush"
    assert result.finishing_stacks == [1024, 0]
    # No betting once nobody is left to bet against.
    refused(hand[:-2] + ["p1 cbr 40"], "out_of_turn", (1000, 24))
    refused(hand + ["p1 cc"], "hand_over", (1000, 24))


def test_side_pots_and_folded_chips():
    # p3 all in on third street for 44; p1 and p2 play on; p2 folds on fifth.
    third = ["d dh p1 AsAd9c", "d dh p2 KsKd8c", "d dh p3 QsQd2c"]
    actions = third + [
        "p3 pb",
        "p1 cbr 20",
        "p2 cbr 40",
        "p3 cc",
        "p1 cc",
        "d dh p1 5h",
        "d dh p2 6h",
        "d dh p3 7h",
        "p1 cbr 20",
        "p2 cc",
        "d dh p1 5d",
        "d dh p2 6d",
        "d dh p3 7d",
        "p1 cbr 40",
        "p2 f",
        "d dh p1 Tc",
        "d dh p3 Jc",
        "d dh p1 Th",
        "d dh p3 Jh",
    ]
    result = replay_hand(phh_hand(actions, (1000, 1000, 44)))
    assert result.contributions == [64, 64, 44]
    # p1: aces up (A-A-T-T-9... two pair aces and tens with 5s? AA 55 TT -> aces up); p3: queens
    # and jacks and sevens -> Q-Q-J-J. p1 wins both pots.
    assert payout(result) == (
        [40, 0, 0],
        [{"amount": 132, "eligible": [0, 2]}, {"amount": 40, "eligible": [0]}],
        [1108, 936, 0],
    )


def test_odd_chips_go_to_the_first_winner_clockwise_from_the_dealer():
    # p1 and p3 both make T-9-8-7-6; p2 folds on fourth street. Pot 17.
    third = ["d dh p1 Ts9s8c", "d dh p2 2h2d2c", "d dh p3 TdTc8d", "p2 pb", "p3 cc", "p1 cc"]
    actions = third + ODD_CHIP_STREETS
    hand = phh_hand(actions, (500, 500, 500))
    hand.update(antes=1, bring_in=2, small_bet=4, big_bet=8)
    result = replay_hand(hand)
    assert result.showdown["high_winners"] == [0, 2]
    assert [p.amount for p in result.pots] == [17]
    assert [a.awards for a in result.payouts] == [((0, 9), (2, 8))]
    assert result.finishing_stacks == [502, 497, 501]


def test_dealing_counts_and_faces():
    refused(["d dh p1 9s8s7c6c"], "deal_count")
    refused(["d dh p1 9s8s", "d dh p2 KhKd2c", "p2 pb"], "out_of_turn")
    refused(THIRD + ["p2 pb", "p1 cc", "d dh p1 6d5d"], "deal_count")
    refused(THIRD + ["p2 pb", "d dh p1 6d"], "out_of_turn")
    refused(checked_down() + ["d dh p1 3c"], "deal_count")


def test_a_card_cannot_be_dealt_twice():
    err = refused(["d dh p1 9s8s7c", "d dh p2 KhKd7c"], "duplicate_card")
    assert "7c" in err.message and err.field == "actions[1]" and "actions[1]" in err.fields
    refused(THIRD + ["p2 pb", "p1 cc", "d dh p1 Kh"], "duplicate_card")


def test_unknown_cards_only_face_down_and_shown_at_the_showdown():
    refused(["d dh p1 9s8s??", "d dh p2 KhKd2c"], "unknown_card")
    # A folded player's hidden cards may stay unknown.
    replay_hand(phh_hand(["d dh p1 ????7c", "d dh p2 KhKd2c", "p2 pb", "p1 f"]))
    # At the showdown they must be shown.
    actions = checked_down()
    actions[0] = "d dh p1 ????7c"
    refused(actions, "unknown_card")
    result = replay_hand(phh_hand(actions + ["p1 sm 9s8s7c6d5cJd2d", "p2 sm -"]))
    assert result.showdown["high_winners"] == [0]
    # Showing only the face-down cards works too, and must match what was dealt.
    replay_hand(phh_hand(actions + ["p1 sm 9s8s2d"]))
    refused(actions + ["p1 sm 9s8s2h"], "invalid_show")
    refused(actions + ["p1 sm KhKd2d"], "duplicate_card")


def test_showdown_muck_forfeits():
    result = replay_hand(phh_hand(checked_down() + ["p1 sm"]))
    assert result.finishing_stacks == [986, 1014]
    assert result.folded == ["showdown", None]
    refused(checked_down() + ["p1 sm", "p2 sm"], "illegal_action")


def test_incomplete_hand():
    err = refused(THIRD + ["p2 pb"], "incomplete_hand")
    assert err.action_index == 3 and err.action is None
    assert "p1 is to act" in err.message
    err = refused(THIRD + ["p2 pb", "p1 cc", "d dh p1 6d"], "incomplete_hand")
    assert "p2" in err.message


def test_community_card_only_when_the_deck_runs_short():
    # Six players to seventh street: 52 - 5 - 36 = 11 cards, enough.
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]

    def deal(n):
        it = iter(deck)
        hands = [[next(it) for _ in range(7)] for _ in range(n)]
        return hands, it

    for n, community in ((6, False), (7, True)):
        hands, rest = deal(n)
        # Door cards: the bring-in is the lowest door (player 1's 4c... compute by engine).
        actions = [f"d dh p{i + 1} {''.join(h[:3])}" for i, h in enumerate(hands)]
        doors = [h[2] for h in hands]
        low = min(
            range(n), key=lambda i: ("23456789TJQKA".index(doors[i][0]), "cdhs".index(doors[i][1]))
        )
        order = [(low + k) % n for k in range(n)]
        actions += [f"p{low + 1} pb"] + [f"p{i + 1} cc" for i in order[1:]]
        for street in (3, 4, 5):
            actions += [f"d dh p{i + 1} {h[street]}" for i, h in enumerate(hands)]
            actions += ["CHECKS"]
        seventh = [f"d dh p{i + 1} {h[6]}" for i, h in enumerate(hands)]
        # Let the engine tell us who acts first: checks around from each possible opener.
        built = []
        for a in actions:
            if a != "CHECKS":
                built.append(a)
                continue
            for first in range(n):
                trial = built + [f"p{(first + k) % n + 1} cc" for k in range(n)]
                try:
                    replay_hand(phh_hand(trial, [500] * n))
                except ProcedureError as exc:
                    if exc.code == "incomplete_hand":
                        built = trial
                        break
        if community:
            err = refused(built + seventh, "community_card", [500] * n)
            assert "5 left" in err.message
            final = built + [f"d db {next(rest)}"]
        else:
            refused(built + [f"d db {next(rest)}"], "community_card", [500] * n)
            final = built + seventh
        for first in range(n):
            trial = final + [f"p{(first + k) % n + 1} cc" for k in range(n)]
            try:
                result = replay_hand(phh_hand(trial, [500] * n))
                break
            except ProcedureError:
                continue
        assert (result.community is not None) == community
        assert sum(result.finishing_stacks) == 500 * n


# --- the hand spec ------------------------------------------------------------------------


def test_spec_fields_are_checked():
    assert refused([], stacks=(1000,)).code == "player_count"
    assert refused([], stacks=[100] * 8).code == "player_count"
    err = refused(THIRD, antes=[4, 5])
    assert err.field == "antes"
    assert refused(THIRD, variant="F7S/8").code == "invalid_variant"
    assert refused(THIRD, big_bet=30).field == "big_bet"
    assert refused(THIRD, min_bet=20).field == "min_bet"
    assert refused(THIRD, bogus=1).code == "unknown_field"
    assert refused(THIRD, _variant="razz").field == "_variant"
    assert refused(THIRD, _options={"game": "low"}).code == "unknown_announcement"
    assert refused(THIRD, _buys=[True, False]).field == "_buys"
    assert refused(THIRD, _seventh_card=["up", None]).field == "_seventh_card"
    assert refused(THIRD, starting_stacks=[100, 0]).field == "starting_stacks[1]"
    assert refused(["p3 cc"]).code == "invalid_action"
    assert refused(["p1 sd"]).code == "invalid_action"
    assert refused(["d dh p1 9s8sXx"]).code == "invalid_card"
    result = replay_hand(phh_hand(checked_down(), _note="x", author="me"))
    assert result.warnings == ["user-defined field '_note' is not ours and was ignored"]


def test_stated_finishing_stacks_are_checked():
    replay_hand(phh_hand(checked_down(), finishing_stacks=[1014, 986]))
    assert (
        refused(checked_down(), finishing_stacks=[1000, 1000]).code == "finishing_stacks_mismatch"
    )


def test_eight_players_only_with_an_override():
    hands = [
        f"d dh p{i + 1} {c}"
        for i, c in enumerate(
            ["AsAdKc", "AhAcKd", "KsKhQc", "QsQhQd", "JsJhJc", "TsThTc", "9s9h9c", "8s8h2c"]
        )
    ]
    actions = hands + ["p8 pb"] + [f"p{i} f" for i in range(1, 8)]
    assert refused(actions, stacks=[100] * 8).code == "player_count"
    result = replay_hand(phh_hand(actions, [100] * 8), max_players=8)
    assert result.finishing_stacks[7] == 128


def test_short_all_ins_adding_up_to_a_full_raise_reopen_the_betting():
    third = ["d dh p1 AsKs9c", "d dh p2 AhKh2c", "d dh p3 AdKd5c", "d dh p4 AcKc6c"]
    start = third + ["p2 pb", "p3 cc", "p4 cc", "p1 cc"]
    start += ["d dh p1 Qs", "d dh p2 Qh", "d dh p3 Qd", "d dh p4 Qc"]
    stacks = (1000, 44, 54, 1000)
    # p1 bets 20; p2 all in to 30 (+10), p3 all in to 40 (+10): together a full raise.
    bet = start + ["p1 cbr 20", "p2 cbr 30", "p3 cbr 40", "p4 cc"]
    refused(bet + ["p1 cbr 60", "p4 cc"], "incomplete_hand", stacks)
    # One short all-in alone does not.
    refused(start + ["p1 cbr 20", "p2 cbr 30", "p3 cc", "p4 cc", "p1 cbr 50"], "reopen", stacks)


def test_nothing_after_the_hand_is_won():
    won = THIRD + ["p2 pb", "p1 cbr 20", "p2 f"]
    refused(won + ["d dh p1 6d"], "hand_over")
    refused(won + ["p1 cc"], "hand_over")
    refused(won + ["p1 sm"], "illegal_action")  # nothing to muck
    replay_hand(phh_hand(won + ["p1 sm 9s8s7c", "# the winner shows"]))


def test_up_card_order_with_a_face_up_seventh_card():
    from tracker.engine.cards import parse_card
    from tracker.engine.stud import up_key as _up_key

    def key(text):
        return _up_key([parse_card(text[k : k + 2]) for k in range(0, len(text), 2)])

    assert key("2c2d2h3c3d") > key("AcAdAhKcQd")  # full house over trips
    assert key("2c2d2h2s3d") > key("AcAdAhKcKd")  # quads over a full house
    assert key("9c9d5h5s3d") > key("9h9s5c5d2c")  # two pair, kicker
    assert key("5c6c7c8c9c") < key("TcTd2h3s4h")  # no straights or flushes
    assert key("AcKd9h5s3d") > key("AhKs9c5d")  # more high cards
