"""Per-seat facts (tracker/engine/facts.py): one example hand per statistic (the examples of
docs/analytics.md), and the all-in moment checked against the engine's own replay on
random hands."""

from __future__ import annotations

import random

import pytest

from tests.stats.handgen import random_history
from tests.support.hands import STAKES, full_facts, phh_hand
from tracker.engine import replay_hand, settle_quick
from tracker.engine.facts import hand_facts

DEAL = ["d dh p1 9c8d2c", "d dh p2 AsKsQs", "d dh p3 7h7d9s"]


def test_vpip_completion_raise_aggression_and_streets():
    # Ann (p1, door 2c) brings in; Bob completes; Cat raises; Ann folds; Bob calls.
    # Fourth street: Bob checks, Cat bets, Bob calls. Fifth: Bob bets, Cat folds.
    actions = DEAL + [
        "p1 pb", "p2 cbr 20", "p3 cbr 40", "p1 f", "p2 cc",
        "d dh p2 Js", "d dh p3 3c", "p2 cc", "p3 cbr 20", "p2 cc",
        "d dh p2 Ts", "d dh p3 4d", "p2 cbr 40", "p3 f",
    ]  # fmt: skip
    (ann, bob, cat), _ = full_facts(actions)
    assert (ann["bi"], ann["vpip"], ann["saw4"]) == (1, 0, 0)  # the bring-in is not voluntary
    assert (bob["vpip"], bob["comp"], bob["r3"], bob["bets"], bob["calls"]) == (1, 1, 0, 2, 2)
    assert (cat["vpip"], cat["comp"], cat["r3"], cat["bets"], cat["calls"]) == (1, 0, 1, 2, 0)
    assert [bob[f"saw{s}"] for s in (4, 5, 6, 7)] == [1, 1, 0, 0]
    assert bob["st_try"] == 1 and bob["steal"] == 0  # Cat raised: contested
    assert bob["sd"] == cat["sd"] == 0
    assert all(f["full"] == 1 and "ai" not in f for f in (ann, bob, cat))


def test_a_steal_is_a_completion_everyone_folds_to():
    (ann, bob, cat), reading = full_facts(DEAL + ["p1 pb", "p2 cbr 20", "p3 f", "p1 f"])
    assert (bob["comp"], bob["st_try"], bob["steal"]) == (1, 1, 1)
    assert ann["bi"] == 1 and ann["vpip"] == 0
    # Bob takes the antes and the bring-in: 32 chips, 18 of them the others'.
    assert reading["winnings"] == [0, 32, 0] and reading["contributions"][1] == 14


def test_no_steal_try_after_a_call_of_the_bring_in():
    # Bob calls the bring-in, then Cat completes: Cat's completion is no steal attempt.
    (ann, bob, cat), _ = full_facts(DEAL + ["p1 pb", "p2 cc", "p3 cbr 20", "p1 f", "p2 f"])
    assert bob["vpip"] == 1 and bob["calls"] == 1
    assert (cat["comp"], cat["st_try"], cat["steal"]) == (1, 0, 0)


ALL_IN = DEAL[:2] + [
    "d dh p3 7h7d5c", "p1 pb", "p2 cbr 20", "p3 f", "p1 cc",
    "d dh p1 9h", "d dh p2 Js", "p2 cbr 20", "p1 cc",
    "d dh p1 8s", "d dh p2 3h", "p2 cbr 40", "p1 cc",
    "d dh p1 Td", "d dh p2 Tc", "d dh p1 4c", "d dh p2 2d",
]  # fmt: skip


def test_all_in_luck_on_fifth_street():
    # Ann (84 chips) calls her last chips on fifth street with two pair, nines and
    # eights, against Bob's ace-king-queen-jack of spades: a coin flip, exact over
    # every runout. Bob makes the straight; Ann wins nothing.
    (ann, bob, cat), reading = full_facts(ALL_IN, stacks=(84, 1000, 1000))
    assert reading["pots"] == [{"amount": 172, "eligible": [0, 1]}]
    assert (ann["ai"], ann["ai_st"], ann["ai_m"]) == (1, 5, "exact")
    assert ann["eq"] == pytest.approx(0.5019, abs=1e-4)
    assert ann["ev"] + bob["ev"] == pytest.approx(172, abs=0.02)
    assert ann["ai_se"] == 0
    luck = reading["winnings"][0] - ann["ev"]
    assert luck == pytest.approx(-86.33, abs=0.01)
    assert "ai" not in cat
    assert (ann["sd"], ann["cat"], bob["cat"]) == (1, "two_pair", "straight")


def test_all_in_luck_counts_wild_cards():
    # The same hand dealt as Kings and Little Ones: Bob's king of spades is wild and
    # makes his lowest card wild too, so Ann was almost drawing dead.
    (ann, bob, _), _ = full_facts(ALL_IN, stacks=(84, 1000, 1000), variant="kings_and_little_ones")
    assert ann["eq"] < 0.05 and bob["eq"] > 0.95
    assert bob["wild"] == 2 and bob["cat"] == "straight_flush"


def test_all_in_on_fourth_street_uses_monte_carlo_with_an_error():
    actions = DEAL[:2] + [
        "d dh p3 7h7d5c", "p1 pb", "p2 cbr 20", "p3 f", "p1 cc",
        "d dh p1 9h", "d dh p2 Js", "p2 cbr 20", "p1 cc",
        "d dh p1 8s", "d dh p2 3h", "d dh p1 Td", "d dh p2 Tc", "d dh p1 4c", "d dh p2 2d",
    ]  # fmt: skip
    (ann, bob, _), reading = full_facts(actions, stacks=(44, 1000, 1000))
    assert (ann["ai"], ann["ai_st"], ann["ai_m"]) == (1, 4, "mc")
    assert 0 < ann["ai_se"] < 2
    assert ann["ev"] + bob["ev"] == pytest.approx(reading["pots"][0]["amount"], abs=0.02)


def quick_facts(variant, **entry):
    """The per-seat facts of a three-handed quick entry (1000 chips each) of ``variant``."""
    reading = settle_quick(
        variant=variant, options={}, stakes=STAKES, starting_stacks=[1000] * 3, **entry
    ).to_dict()
    return hand_facts(variant=variant, options={}, entry_mode="quick", entry={}, reading=reading)


def test_quick_entry_gives_streets_showdowns_categories_and_wild_cards():
    ann, bob, cat = quick_facts(
        "kings_and_little_ones",
        put_in=[64, 64, 24],
        folded=[None, None, "fourth"],
        shown=[
            {"down": ["Kd", "Kc", "3c"], "up": ["Ks", "9h", "9d", "9c"]},
            {"down": ["Ah", "Ad", "5s"], "up": ["As", "Qh", "Jh", "2c"]},
            None,
        ],
    )
    assert ann["full"] == 0 and "vpip" not in ann and "ai" not in ann
    assert (ann["sd"], ann["saw7"], ann["cat"], ann["wild"]) == (1, 1, "five_of_a_kind", 4)
    assert (bob["sd"], bob["cat"], bob["wild"]) == (1, "three_of_a_kind", 0)  # no king
    assert (cat["sd"], cat["saw4"], cat["saw5"]) == (0, 1, 0)


def test_uncontested_winner_saw_as_far_as_the_last_fold():
    ann, bob, cat = quick_facts(
        "seven_card_stud", put_in=[44, 24, 4], folded=[None, "fifth", "third"]
    )
    assert [ann[f"saw{s}"] for s in (4, 5, 6, 7)] == [1, 1, 0, 0]
    assert [bob[f"saw{s}"] for s in (4, 5, 6, 7)] == [1, 1, 0, 0]
    assert cat["saw4"] == 0 and ann["sd"] == 0


@pytest.mark.parametrize("seed", range(4))
def test_all_in_moment_matches_the_engine_and_counts_add_up(seed):
    """Random legal hands (short stacks for all-ins): the all-in moment and its contenders
    are the engine's own; expected chips add up to the pots; every bet is counted."""
    rng = random.Random(seed)
    allins = 0
    for _ in range(60):
        n = rng.randint(2, 7)
        stacks = [rng.choice([rng.randint(5, 150), rng.randint(200, 1000)]) for _ in range(n)]
        g = random_history(
            rng, stacks=stacks, fold_p=rng.uniform(0, 0.3), raise_p=rng.uniform(0.05, 0.6)
        )
        hand = phh_hand(g.actions, stacks)
        reading = replay_hand(hand).to_dict()
        facts = hand_facts(
            variant="seven_card_stud",
            options={},
            entry_mode="full",
            entry={"actions": g.actions},
            reading=reading,
            samples=200,
        )
        in_luck = [i for i in range(n) if facts[i].get("ai")]
        if g.closed_at is not None and g.closed_at < 4:
            assert in_luck == list(g.contenders)
            assert {facts[i]["ai_st"] for i in in_luck} == {g.closed_at + 3}
            pots = sum(p["amount"] for p in reading["pots"])
            assert sum(facts[i]["ev"] for i in in_luck) == pytest.approx(pots, abs=0.01 * n)
            allins += 1
        else:
            assert in_luck == []
        verbs = [a.split()[1] for a in g.actions if not a.startswith("d ")]
        assert sum(f["bets"] for f in facts) == verbs.count("cbr")
        assert sum(f["bi"] for f in facts) == verbs.count("pb")
        assert sum(f["sd"] for f in facts) == (
            0 if reading["showdown"] is None else sum(1 for x in reading["folded"] if x is None)
        )
    assert allins >= 5
