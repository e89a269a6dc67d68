"""Showdowns with mucks, in the statistics facts: a muck at the showdown is not a fold.

A player still in when the seventh-street betting ends went to the showdown, whether they
then show or muck (docs/analytics.md); the streets a player saw are the streets they were
dealt a card on. Full histories and quick entries give the same facts."""

from __future__ import annotations

from tests.support.hands import FIVE, STAKES, full_facts, heads_up, phh_hand
from tracker.engine.facts import hand_facts
from tracker.engine.procedure import replay_hand, settle_quick
from tracker.engine.showdown import evaluate_showdown

SAW = (4, 5, 6, 7)
CALLS = "p2 cc, p1 cc"  # a street checked through, p2 first
# Three players check every street to the showdown (who shows is each test's).
CHECKED_THREE = [
    "d dh p1 AhKh2c", "d dh p2 AsKs9d", "d dh p3 QhQd8c", "p1 pb", "p2 cc", "p3 cc",
    "d dh p1 3d", "d dh p2 4d", "d dh p3 5d", "p2 cc", "p3 cc", "p1 cc",
    "d dh p1 7d", "d dh p2 8d", "d dh p3 9c", "p3 cc", "p1 cc", "p2 cc",
    "d dh p1 Tc", "d dh p2 Jc", "d dh p3 Qc", "p3 cc", "p1 cc", "p2 cc",
    "d dh p1 2d", "d dh p2 3c", "d dh p3 4c", "p3 cc", "p1 cc", "p2 cc",
]  # fmt: skip


def saw(f):
    return [f[f"saw{s}"] for s in SAW]


def test_five_players_two_reach_the_showdown_and_one_mucks():
    (jo, sam, alex, p4, p5), reading = full_facts(FIVE, [1000] * 5)
    assert reading["showdown"] is None  # only Sam showed: the pot is his uncontested
    assert reading["folded"] == ["sixth", None, "showdown", "third", "third"]
    assert (sam["sd"], alex["sd"], jo["sd"], p4["sd"], p5["sd"]) == (1, 1, 0, 0, 0)
    assert saw(sam) == saw(alex) == [1, 1, 1, 1]
    assert saw(jo) == [1, 1, 1, 0]
    assert saw(p4) == saw(p5) == [0, 0, 0, 0]


def test_the_same_hand_as_a_quick_entry_gives_the_same_showdowns_and_streets():
    result = settle_quick(
        variant="seven_card_stud",
        stakes=STAKES,
        starting_stacks=[1000] * 5,
        put_in=[14, 54, 54, 4, 4],
        folded=["sixth", None, "showdown", "third", "third"],
        shown=[
            None,
            {"down": ["As", "Ks", "2d"], "up": ["9d", "4d", "8d", "Jc"]},
            None,
            None,
            None,
        ],
    ).to_dict()
    quick = hand_facts(
        variant="seven_card_stud", options={}, entry_mode="quick", entry={}, reading=result
    )
    full, _ = full_facts(FIVE, [1000] * 5)
    assert [f["sd"] for f in quick] == [f["sd"] for f in full] == [0, 1, 1, 0, 0]
    assert [saw(f) for f in quick] == [saw(f) for f in full]


def test_heads_up_showdown_where_one_player_mucks():
    checked = heads_up("AhKh2c 3d 7d Tc 2d", "AsKs9d 4d 8d Jc 3c", "p1 pb, p2 cc", *[CALLS] * 4)
    actions = checked + ["p1 sm", "p2 sm AsKs3c"]
    (ann, bob), reading = full_facts(actions, [1000, 1000])
    assert reading["winnings"] == [0, 28]
    assert (ann["sd"], bob["sd"]) == (1, 1)
    assert saw(ann) == saw(bob) == [1, 1, 1, 1]


def test_three_way_showdown_where_one_mucks_and_two_show():
    actions = CHECKED_THREE + ["p1 sm", "p2 sm AsKs3c", "p3 sm QhQd4c"]
    (ann, bob, cat), reading = full_facts(actions, [1000] * 3)
    assert reading["showdown"] is not None
    assert reading["folded"] == ["showdown", None, None]
    assert (ann["sd"], bob["sd"], cat["sd"]) == (1, 1, 1)
    assert "cat" not in ann and cat["cat"] == "three_of_a_kind"  # queens
    assert [saw(f) for f in (ann, bob, cat)] == [[1, 1, 1, 1]] * 3


def test_everyone_folds_to_one_player_on_third_street():
    actions = [
        "d dh p1 AhKh2c", "d dh p2 AsKs9d", "d dh p3 QhQd8c",
        "p1 pb", "p2 cbr 20", "p3 f", "p1 f",
    ]  # fmt: skip
    (ann, bob, cat), reading = full_facts(actions, [1000] * 3)
    assert reading["showdown"] is None
    assert [f["sd"] for f in (ann, bob, cat)] == [0, 0, 0]
    assert [saw(f) for f in (ann, bob, cat)] == [[0, 0, 0, 0]] * 3
    assert (bob["st_try"], bob["steal"]) == (1, 1)


def test_the_only_player_left_after_the_others_mucked_counts_a_shown_category():
    # Sam shows alone (Alex mucked): no contested showdown in the reading, but Sam's hand was
    # shown at the showdown, so it counts a category (ace high) and its wild cards (none).
    (jo, sam, alex, p4, p5), reading = full_facts(FIVE, [1000] * 5)
    assert reading["showdown"] is None
    assert (sam["cat"], sam["wild"]) == ("high_card", 0)
    assert "cat" not in alex and "wild" not in alex  # a muck shows nothing
    assert "cat" not in jo


def test_a_lone_shown_hand_with_wild_cards_counts_them():
    # Kings and Little Ones: Bob's king and his lowest card (the three) are wild.
    actions = CHECKED_THREE + ["p1 sm", "p3 sm", "p2 sm AsKs3c"]
    variant = "kings_and_little_ones"
    reading = replay_hand(phh_hand(actions, [1000] * 3, variant=variant)).to_dict()
    assert reading["showdown"] is None
    ann, bob, cat = hand_facts(
        variant=variant, options={}, entry_mode="full", entry={"actions": actions}, reading=reading
    )
    alone = evaluate_showdown(
        {
            "variant": variant,
            "players": [{"down": ["As", "Ks", "3c"], "up": ["9d", "4d", "8d", "Jc"]}],
        }
    )["players"][0]["high"]
    assert (ann["sd"], bob["sd"], cat["sd"]) == (1, 1, 1)
    assert "cat" not in ann and "cat" not in cat
    assert bob["cat"] == alone["category"] == "flush"  # the wild cards as two diamonds
    assert bob["wild"] == len(alone["wild"]) == 2
