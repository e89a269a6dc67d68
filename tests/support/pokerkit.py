"""pokerkit's random seven-card stud hands for the tests and the replay bench: pokerkit (a
test dependency) plays a hand with random legal actions and writes it to PHH
(tests/engine/test_pokerkit_reference.py says where its rules and ours differ)."""

from __future__ import annotations

import random
import warnings
from dataclasses import dataclass, field

import pytest

pokerkit = pytest.importorskip("pokerkit")

from pokerkit import Automation, FixedLimitSevenCardStud, HandHistory, Mode  # noqa: E402

from tests.support.hands import STAKES  # noqa: E402
from tracker.engine import phh  # noqa: E402

AUTOMATIONS = (
    Automation.ANTE_POSTING,
    Automation.BET_COLLECTION,
    Automation.CARD_BURNING,
    Automation.HOLE_DEALING,
    Automation.BOARD_DEALING,
    Automation.HAND_KILLING,
    Automation.CHIPS_PUSHING,
    Automation.CHIPS_PULLING,
)
# Replaying a PHH: pokerkit deals what the history says, so no dealing automations.
REPLAY_AUTOMATIONS = tuple(
    a for a in AUTOMATIONS if a not in (Automation.HOLE_DEALING, Automation.BOARD_DEALING)
)


@dataclass
class RandomHand:
    seed: int
    text: str  # pokerkit's PHH
    hand: dict  # our reading of it
    finishing_stacks: list[int]
    players: int
    partial_ante: bool
    board: bool  # pokerkit dealt a community card
    ours_community: bool  # our count says the deck was short at seventh street
    reached_seventh: int
    tags: set[str] = field(default_factory=set)


def stud_game() -> FixedLimitSevenCardStud:
    return FixedLimitSevenCardStud(
        AUTOMATIONS, False, *STAKES.as_dict().values(), mode=Mode.CASH_GAME
    )


def play_random_hand(seed: int) -> RandomHand:
    """pokerkit plays one hand with random legal actions (seeded)."""
    rng = random.Random(seed)
    random.seed(seed)  # pokerkit shuffles its deck with the global generator
    style = rng.random()
    if style < 0.15:
        n = 8
    else:
        n = rng.randint(2, 7)
    stacks = []
    for _ in range(n):
        kind = rng.random()
        if kind < 0.02:
            stacks.append(rng.randint(1, STAKES.ante - 1))  # less than the ante
        elif kind < 0.35:
            stacks.append(rng.randint(STAKES.ante, 160))  # goes all in
        else:
            stacks.append(rng.randint(200, 1200))
    passive = style < 0.15 or rng.random() < 0.15
    fold_p = 0.0 if passive else rng.uniform(0.02, 0.3)
    raise_p = 0.0 if passive else rng.uniform(0.05, 0.7)
    game = stud_game()
    state = game(stacks, n)
    tags = set()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        while state.status:
            if state.can_post_bring_in():
                if rng.random() < raise_p:
                    state.complete_bet_or_raise_to()
                    tags.add("completion")
                else:
                    state.post_bring_in()
            elif state.actor_index is not None:
                r = rng.random()
                if state.checking_or_calling_amount and r < fold_p:
                    tags.add(f"fold{state.street_index}")
                    state.fold()
                elif r < fold_p + raise_p and state.can_complete_bet_or_raise_to():
                    state.complete_bet_or_raise_to()
                    if state.completion_betting_or_raising_count == 4:
                        tags.add("capped")
                else:
                    state.check_or_call()
            elif state.can_show_or_muck_hole_cards():
                state.show_or_muck_hole_cards(True)
            else:  # pragma: no cover - pokerkit always offers one of these
                raise RuntimeError("stuck")
    history = HandHistory.from_game_state(game, state)
    text = history.dumps()
    (hand,) = phh.loads(text)
    actions = hand["actions"]
    board = any(a.startswith("d db") for a in actions)
    dealt, reached = _before_seventh(actions, n)
    ours_community = reached >= 2 and 52 - 5 - dealt < reached
    return RandomHand(
        seed=seed,
        text=text,
        hand=hand,
        finishing_stacks=list(state.stacks),
        players=n,
        partial_ante=min(stacks) < STAKES.ante,
        board=board,
        ours_community=ours_community,
        reached_seventh=reached,
        tags=tags,
    )


def _before_seventh(actions: list[str], n: int) -> tuple[int, int]:
    """Cards dealt before the seventh card, and players still in when it comes
    (0 if the hand ended before)."""
    counts = [0] * n
    out = 0
    for a in actions:
        words = a.split()
        if words[:2] == ["d", "db"]:
            return sum(counts), n - out
        if words[:2] == ["d", "dh"]:
            p = int(words[2][1:]) - 1
            if counts[p] == 6:
                return sum(counts), n - out
            counts[p] += len(words[3]) // 2
        elif words[1:] == ["f"]:
            out += 1
    return sum(counts), 0
