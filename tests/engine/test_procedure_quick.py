"""Quick entry: settle a hand from the chips each seat put in, the folds and
the cards shown, with the same pots and payouts code as the replay."""

from __future__ import annotations

import pytest

from tests.support.hands import STAKES, payout, phh_hand
from tests.support.house_hands import CHOICE_FOURTH_GAME
from tracker.engine.errors import DomainError
from tracker.engine.games import load_game
from tracker.engine.procedure import replay_hand, settle_quick
from tracker.engine.stakes import Stakes

STRAIGHT = {"down": ["9s", "8s", "2d"], "up": ["7c", "6d", "5c", "Jd"]}
KINGS = {"down": ["Kh", "Kd", "Ac"], "up": ["2c", "3h", "4h", "Th"]}


def quick(**kw):
    args = {
        "variant": "seven_card_stud",
        "stakes": STAKES,
        "starting_stacks": [1000, 1000],
        "put_in": [14, 14],
        "folded": [None, None],
        "shown": [STRAIGHT, KINGS],
    }
    args.update(kw)
    return settle_quick(**args)


def refused(code=None, field=None, **kw):
    with pytest.raises(DomainError) as info:
        quick(**kw)
    if code is not None:
        assert info.value.code == code, info.value.message
    if field is not None:
        assert field in info.value.fields, info.value.fields
    return info.value


def test_a_showdown():
    result = quick()
    assert result.showdown["high_winners"] == [0]
    assert result.finishing_stacks == [1014, 986]
    assert result.to_dict()["pots"] == [{"amount": 28, "eligible": [0, 1]}]


def test_side_pots_and_uncalled_chips():
    result = quick(
        starting_stacks=[1000, 1000, 30],
        put_in=[110, 70, 30],
        folded=[None, "sixth", None],
        shown=[STRAIGHT, None, KINGS],
    )
    # p1's 40 beyond p2's 70 was not called: it goes back.
    assert payout(result) == (
        [40, 0, 0],
        [{"amount": 90, "eligible": [0, 2]}, {"amount": 80, "eligible": [0]}],
        [1100, 930, 0],
    )


def test_won_without_a_showdown():
    # p2 bet 20 on fourth street and p1 folded: the bet goes back.
    result = quick(put_in=[14, 34], folded=["fourth", None], shown=None)
    assert result.showdown is None
    assert result.returned == [0, 20]
    assert result.finishing_stacks == [986, 1014]
    refused("unmatched", "put_in[0]", put_in=[34, 14], folded=["fourth", None], shown=None)


def test_stakes_as_a_dataclass_or_any_level_like_object():
    assert quick(stakes=Stakes(4, 10, 20, 40)).finishing_stacks == [1014, 986]


def test_checks():
    refused("over_stack", "put_in[0]", put_in=[1014, 14])
    refused("missing_ante", "put_in[1]", put_in=[14, 3])
    refused(
        "unmatched",
        "put_in[1]",
        starting_stacks=[1000, 1000, 1000],
        put_in=[54, 34, 54],
        folded=[None, None, None],
        shown=[STRAIGHT, KINGS, None],
    )
    refused(
        "unmatched",
        "put_in[2]",
        starting_stacks=[1000, 1000, 1000],
        put_in=[34, 34, 54],
        folded=[None, None, "fifth"],
        shown=[STRAIGHT, KINGS, None],
    )
    refused(None, "folded[0]", folded=["ninth", None])
    refused("missing_cards", "shown[1]", shown=[STRAIGHT, None])
    refused(
        "missing_cards", "shown[1]", shown=[STRAIGHT, {"down": ["Kh", "Kd"], "up": KINGS["up"]}]
    )
    refused(
        "duplicate_card",
        "shown[1].down[0]",
        shown=[STRAIGHT, {"down": ["9s", "Kd", "Ac"], "up": KINGS["up"]}],
    )
    refused(
        "invalid_card",
        "shown[1].up[0]",
        shown=[STRAIGHT, {"down": KINGS["down"], "up": ["Zz", "3h", "4h", "Th"]}],
    )
    refused("invalid_buy", "buys[0]", buys=[True, False])
    refused("invalid_choice", "seventh_card[0]", seventh_card=["up", None])
    refused("declaration", "declarations[0]", declarations=["high", "low"])
    refused("community_card", "community", community="Ah")
    refused(
        "player_count",
        "starting_stacks",
        starting_stacks=[1000],
        put_in=[4],
        folded=[None],
        shown=[STRAIGHT],
    )


def test_all_in_players_need_not_match():
    result = quick(starting_stacks=[1000, 10], put_in=[14, 10], shown=[STRAIGHT, KINGS])
    assert result.returned == [4, 0]
    assert result.finishing_stacks == [1010, 0]


def test_community_card_when_seven_reach_seventh_street():
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    hands = [deck[7 * i : 7 * i + 7] for i in range(7)]
    shown = [{"down": h[:2], "up": h[2:6]} for h in hands]
    args = dict(starting_stacks=[500] * 7, put_in=[14] * 7, folded=[None] * 7, shown=shown)
    refused("community_card", "community", **args)
    result = quick(community="As", **args)
    assert result.community == "As"
    assert sum(result.finishing_stacks) == 3500
    # One folded on sixth street: 52 - 5 - 42 = 5 for 6 players, still short.
    args["folded"] = [None] * 6 + ["sixth"]
    args["shown"] = shown[:6] + [None]
    assert quick(community="As", **args).community == "As"
    # One folded on third street: 52 - 5 - 39 = 8 for 6 players: everyone gets a card.
    args["folded"] = [None] * 6 + ["third"]
    refused("community_card", "community", community="As", **args)


def test_low_hold_buy_in_quick_entry():
    shown = [
        {"down": ["4s", "9d"], "up": ["4h", "4c", "Ah", "Ad", "2c"]},
        {"down": ["Kc", "Kd", "Jc"], "up": ["Ks", "Kh", "Qs", "Qd"]},
    ]

    def low_hold(buys):
        return settle_quick(
            variant="low_hold",
            options={"same_rank_wild": "all"},
            stakes=STAKES,
            starting_stacks=[1000, 1000],
            put_in=[94, 54],
            buys=buys,
            folded=[None, None],
            shown=shown,
        )

    result = low_hold([True, False])
    assert result.buys == [40, 0]
    assert result.contributions == [94, 54]
    assert result.finishing_stacks == [1054, 946]
    # The seventh card of a buyer in the contributed version is face up.
    with pytest.raises(DomainError) as info:
        low_hold([False, False])
    assert info.value.code in ("missing_cards", "unmatched")


def entered_again(result, starting_stacks):
    """The replayed seven-card stud hand ``result`` settled again as a quick entry: the
    chips each seat put in (returns included), the folds, the cards shown."""
    shown = [None] * len(starting_stacks)
    if result.showdown is not None:
        for i, entry in enumerate(result.showdown["players"]):
            if entry is not None:
                shown[i] = {"down": entry["down"], "up": entry["up"]}
    return settle_quick(
        variant="seven_card_stud",
        stakes=STAKES,
        starting_stacks=starting_stacks,
        put_in=[c + r for c, r in zip(result.contributions, result.returned, strict=True)],
        folded=result.folded,
        shown=shown,
        community=result.community,
    )


def test_quick_entry_settles_like_the_replay():
    """The pokerkit hands, entered as quick entry, settle exactly as replayed."""
    from tests.support.pokerkit import play_random_hand

    checked = 0
    for seed in range(120):
        rh = play_random_hand(seed)
        if rh.players == 8 or (rh.ours_community and not rh.board):
            continue
        result = replay_hand(rh.hand)
        again = entered_again(result, rh.hand["starting_stacks"])
        assert again.finishing_stacks == result.finishing_stacks, seed
        assert again.pots == result.pots, seed
        checked += 1
    assert checked > 80


@pytest.mark.parametrize("seed", range(6))
def test_full_history_and_results_give_the_same_pots_with_stacks_below_the_ante(seed):
    """Random legal hands where some stacks are smaller than the ante (or than the
    bring-in): a full history and the same hand entered as results give the same pots,
    returns and stacks -- no pot holds chips only one player put in."""
    import random

    from tests.stats.handgen import random_history

    rng = random.Random(seed)
    for _ in range(40):
        n = rng.randint(2, 7)
        stacks = [rng.choice([rng.randint(1, 12), rng.randint(13, 80), 1000]) for _ in range(n)]
        actions = random_history(rng, stacks=stacks, fold_p=0.2, raise_p=0.4).actions
        hand = phh_hand(actions, stacks)
        result = replay_hand(hand)
        live = sorted(c - b for c, b in zip(result.contributions, result.buys, strict=True))
        assert live[-1] == live[-2], (seed, stacks, actions)  # nothing left unmatched
        again = entered_again(result, stacks)
        assert again.pots == result.pots, (seed, stacks, actions)
        assert again.returned == result.returned, (seed, stacks, actions)
        assert again.finishing_stacks == result.finishing_stacks


def test_an_ante_bigger_than_every_other_stack_goes_back():
    # Cat antes 4; Ann and Bob have 2 and 3 chips, all in on the ante: nobody can match
    # Cat's last chip, so it goes back, as in results entry.
    hand = phh_hand(
        [
            "d dh p1 AsAh2c", "d dh p2 KsKh3c", "d dh p3 QsQh4c",
            "d dh p1 Ad", "d dh p2 Kd", "d dh p3 Qd", "d dh p1 5c", "d dh p2 6c", "d dh p3 7c",
            "d dh p1 5d", "d dh p2 6d", "d dh p3 7d", "d dh p1 8s", "d dh p2 9s", "d dh p3 Ts",
        ],
        [2, 3, 1000],
    )  # fmt: skip
    result = replay_hand(hand)
    assert result.returned == [0, 0, 1]
    assert [p.to_dict() for p in result.pots] == [
        {"amount": 6, "eligible": [0, 1, 2]},
        {"amount": 2, "eligible": [1, 2]},
    ]
    assert result.finishing_stacks == [6, 2, 997]


CHOICE_FOURTH = load_game(CHOICE_FOURTH_GAME)


@pytest.mark.parametrize("side", ["up", "down"])
def test_a_house_games_choice_before_the_last_street_by_quick_entry(side):
    """The choice is made on its street (not again on the last) and stands for a hand over
    after it; a hand over before it is refused the choice, naming the seat."""
    fourth = {"up": ["2s"]} if side == "up" else {"down": ["2s"]}
    p2 = {
        "down": ["2d", "3d", *fourth.get("down", []), "Qs"],
        "up": ["7h", *fourth.get("up", []), "4h", "9c"],
    }
    p1 = {"down": ["As", "Ks", "Ah", "8s"], "up": ["Qc", "Kd", "5c"]}
    game = {"game": CHOICE_FOURTH, "variant": CHOICE_FOURTH.name, "put_in": [14, 14]}
    result = quick(**game, seventh_card=[None, side], shown=[p1, p2])
    assert result.showdown["players"][1]["up"][1:2] == (["2s"] if side == "up" else ["4h"])
    assert result.showdown["high_winners"] == [0]
    over = {**game, "folded": ["fifth", None], "shown": None}
    assert quick(**over, seventh_card=[None, side]).finishing_stacks == [986, 1014]
    early = {**game, "put_in": [4, 14], "folded": ["third", None], "shown": None}
    err = refused(**early, seventh_card=[None, side])
    assert err.fields == {
        "seventh_card[1]": ["seat 1 was not dealt the card of the player's choice"]
    }
