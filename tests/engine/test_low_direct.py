"""The direct low (`low._lowest`) against the search over every choice of five cards: the same
value and the same five cards, for every ranking and qualifier, with 0 to 5 wild cards."""

import random

import pytest

from tracker.engine import low

RANKINGS = ("ace_to_five", "ace_to_six", "deuce_to_seven")


def _hands(n: int, seed: int):
    rng = random.Random(seed)
    for _ in range(n):
        wilds = rng.randrange(0, 6)
        naturals = rng.sample(range(52), max(0, 7 - wilds) if wilds < 5 else rng.randrange(0, 3))
        yield naturals, wilds


@pytest.mark.parametrize("ranking", RANKINGS)
@pytest.mark.parametrize("qualifier", [None, 8])
def test_the_direct_low_is_the_search_s_answer(ranking, qualifier):
    direct = 0
    for naturals, wilds in _hands(400, seed=hash((ranking, qualifier)) & 0xFFFF):
        expected = low._full_search(naturals, wilds, ranking, qualifier, True)
        assert low._search(naturals, wilds, ranking, qualifier, True) == expected, (
            naturals,
            wilds,
        )
        direct += low._lowest(naturals, wilds, ranking) is not None
    # many hands take the direct way (fewer where a wheel counts as a straight), so the
    # comparison above is of it
    assert direct > 150


def test_a_hand_that_must_play_a_pair_goes_to_the_search():
    # four different ranks and no wild card: no five different ranks to play
    quads_and_trips = [0, 1, 2, 3, 4, 5, 8]  # four deuces, two treys, a four
    assert low._lowest(quads_and_trips, 0, "ace_to_five") is None
    value, _ = low._search(quads_and_trips, 0, "ace_to_five", None, False)
    assert value == low._full_search(quads_and_trips, 0, "ace_to_five", None, False)[0]
