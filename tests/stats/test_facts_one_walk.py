"""The facts read from the settling walk (a :class:`FactsObserver` attached to the engine's
walk of the hand, as settlement does) are the facts of a walk of their own
(``hand_facts`` without ``observed``): on random full histories, and on the same hands entered
as quick entries with every seat's cards given (a lone winner's and the folded seats' too,
which the reading does not hold)."""

from __future__ import annotations

import random

import pytest

from tests.stats.handgen import random_history
from tests.support.hands import STAKES, phh_hand
from tracker.engine import replay_hand, settle_quick
from tracker.engine.cards import format_card
from tracker.engine.facts import FactsObserver, hand_facts

VARIANTS = ("seven_card_stud", "kings_and_little_ones")


def _random_hand(rng: random.Random, variant: str):
    n = rng.randint(2, 7)
    stacks = [rng.choice([rng.randint(5, 60), 1000]) for _ in range(n)]
    actions = random_history(rng, stacks=stacks, variant=variant, fold_p=0.2).actions
    return stacks, actions


def _facts(variant, entry_mode, entry, reading, observed=None):
    return hand_facts(
        variant=variant,
        options={},
        entry_mode=entry_mode,
        entry=entry,
        reading=reading,
        samples=200,
        observed=observed,
    )


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_settling_walk_gives_the_facts_of_a_walk_of_their_own(seed, variant):
    rng = random.Random(seed)
    for _ in range(25):
        stacks, actions = _random_hand(rng, variant)
        observer = FactsObserver(len(stacks))
        history = phh_hand(actions, stacks, variant=variant, options={})
        reading = replay_hand(history, observers=[observer]).to_dict()
        entry = {"actions": actions}
        assert observer.hand is not None
        alone = _facts(variant, "full", entry, reading)
        assert _facts(variant, "full", entry, reading, observer) == alone, (seed, actions)

        # The same hand as a quick entry, every card dealt given.
        walked = observer.hand
        shown = [
            {
                "down": [format_card(c) for c, up in zip(cards, faces, strict=True) if not up],
                "up": [format_card(c) for c, up in zip(cards, faces, strict=True) if up],
            }
            for cards, faces in zip(walked.cards, walked.faces, strict=True)
        ]
        n = len(stacks)
        quick = FactsObserver(n)
        result = settle_quick(
            variant=variant,
            stakes=STAKES,
            starting_stacks=stacks,
            put_in=[reading["contributions"][i] + reading["returned"][i] for i in range(n)],
            folded=reading["folded"],
            shown=shown,
            community=reading.get("community"),
            observers=[quick],
        ).to_dict()
        alone = _facts(variant, "quick", {}, result)
        assert _facts(variant, "quick", {}, result, quick) == alone, (seed, actions)


def test_a_quick_entry_naming_the_cards_of_the_only_player_left_counts_no_category():
    # Alex mucks at the showdown, Sam takes the pot alone: the reading has no showdown, so
    # the facts of a quick entry count no category, whether the entry gave Sam's cards or not.
    n = 5
    observer = FactsObserver(n)
    result = settle_quick(
        variant="seven_card_stud",
        stakes=STAKES,
        starting_stacks=[1000] * n,
        put_in=[14, 54, 54, 4, 4],
        folded=["sixth", None, "showdown", "third", "third"],
        shown=[
            None,
            {"down": ["As", "Ks", "2d"], "up": ["9d", "4d", "8d", "Jc"]},
            None,
            None,
            None,
        ],
        observers=[observer],
    ).to_dict()
    assert result["showdown"] is None
    alone = _facts("seven_card_stud", "quick", {}, result)
    assert _facts("seven_card_stud", "quick", {}, result, observer) == alone
    assert all("cat" not in f for f in alone) and alone[1]["sd"] == 1
