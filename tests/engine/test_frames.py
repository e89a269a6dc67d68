"""The replayer's frames (tracker/engine/frames.py): the last step of a hand says who took
each pot and how much, and no step repeats the one before."""

from __future__ import annotations

from tests.support.hands import SMALL_STAKES, phh_hand
from tracker.engine.frames import END, FramesObserver, PotTaken
from tracker.engine.procedure import walk_history

NAMES = ["Ann", "Bob", "Cat"]

# Three players to the showdown, checked down from fourth street (Cat's kings lead each
# street); Ann and Cat show, Bob mucks.
SHOWDOWN = [
    "d dh p1 AsKh2c", "d dh p2 QhQd3c", "d dh p3 JhJd4c",
    "p1 pb", "p2 cc", "p3 cc",
    "d dh p1 7h", "d dh p2 8h", "d dh p3 Ks", "p3 cc", "p1 cc", "p2 cc",
    "d dh p1 7c", "d dh p2 8c", "d dh p3 Kc", "p3 cc", "p1 cc", "p2 cc",
    "d dh p1 7d", "d dh p2 8d", "d dh p3 Kd", "p3 cc", "p1 cc", "p2 cc",
    "d dh p1 2h", "d dh p2 2d", "d dh p3 3s", "p3 cc", "p1 cc", "p2 cc",
    "p1 sm AsKh2c7h7c7d2h", "p3 sm JhJd4cKsKcKd3s", "p2 sm",
]  # fmt: skip
FOLDED = ["d dh p1 AsKs2c", "d dh p2 QhQd3c", "d dh p3 JhJd4c", "p1 pb", "p2 cbr 5", "p3 f", "p1 f"]


def walk(actions, stacks=(100, 100, 100)):
    frames = FramesObserver(NAMES)
    hand = walk_history(phh_hand(actions, stacks, stakes=SMALL_STAKES), observers=[frames])
    return frames, hand


def texts(frames) -> list[str]:
    return [" ".join(step.actions) for step in frames.steps]


def assert_no_step_repeated(frames) -> None:
    for before, after in zip(frames.steps, frames.steps[1:], strict=False):
        assert before.actions != after.actions, after.actions


def test_the_last_step_of_a_showdown_names_the_pot_winner_and_the_chips():
    frames, hand = walk(SHOWDOWN)
    pot = sum(hand.starting) - sum(hand.stacks)
    assert pot == 9  # three antes and three bring-ins
    frames.finish(hand, [PotTaken(0, pot, ((2, pot),), ((2, "three kings"),))])
    last = frames.steps[-1]
    assert last.number == END
    assert last.actions == ["Cat takes the pot (9) with three kings."]
    assert [s.last_action for s in last.seats] == ["", "", "takes 9"]
    # The shows and the muck had steps of their own, and the end does not repeat them.
    assert texts(frames)[-4:-1] == [
        "Ann shows A♠ K♥ 2♣ 7♥ 7♣ 7♦ 2♥.",
        "Cat shows J♥ J♦ 4♣ K♠ K♣ K♦ 3♠.",
        "Bob mucks.",
    ]
    assert_no_step_repeated(frames)
    # The street frame of the end keeps the whole showdown: shows, muck, then the pot.
    assert frames.frames[-1].actions[-1] == "Cat takes the pot (9) with three kings."
    assert frames.frames[-1].actions[0] == "Ann shows A♠ K♥ 2♣ 7♥ 7♣ 7♦ 2♥."


def test_each_pot_and_each_share_is_told():
    frames, hand = walk(SHOWDOWN)
    pots = [PotTaken(0, 6, ((0, 3), (1, 3))), PotTaken(1, 3, ((2, 3),))]
    frames.finish(hand, pots)
    assert frames.steps[-1].actions == [
        "The main pot (6) is split: Ann 3, Bob 3. Cat takes side pot 1 (3)."
    ]
    assert [s.last_action for s in frames.steps[-1].seats] == ["takes 3", "takes 3", "takes 3"]


def test_a_showdown_not_yet_settled_says_so_and_repeats_nothing():
    frames, hand = walk(SHOWDOWN)
    frames.finish(hand)
    assert "once the engine has settled" in frames.steps[-1].actions[0]
    assert_no_step_repeated(frames)


def test_an_uncontested_pot_is_told_with_its_chips_even_before_settlement():
    frames, hand = walk(FOLDED)
    frames.finish(hand)
    # Bob's completion to 5 is called by nobody: 3 go back; the antes, the bring-in, 2 of his.
    assert frames.steps[-1].actions == ["Everyone else folded: Bob takes the pot (7)."]
    assert [s.last_action for s in frames.steps[-1].seats] == ["", "takes 7", ""]
    assert_no_step_repeated(frames)


def test_a_pot_left_to_one_hand_at_the_showdown_is_not_a_fold():
    frames, hand = walk([*SHOWDOWN[:-3], "p1 sm AsKh2c7h7c7d2h", "p2 sm", "p3 sm"])
    frames.finish(hand)
    assert frames.steps[-2].actions == ["Cat mucks."]
    assert frames.steps[-1].actions == ["Ann takes the pot (9)."]
