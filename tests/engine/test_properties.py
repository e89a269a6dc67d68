"""Properties that must hold for every hand (hypothesis)."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.engine import evaluate_showdown
from tracker.engine.hands import best_high
from tracker.engine.low import best_low

seven_cards = st.lists(st.integers(0, 51), min_size=7, max_size=7, unique=True)
permutations = st.permutations([0, 1, 2, 3])


@given(seven_cards, st.integers(1, 5), st.booleans())
def test_a_wild_card_never_makes_a_hand_worse(cards, wilds, double_ace):
    natural = best_high(cards, 0)
    assert best_high(cards[wilds:], wilds, double_ace) >= natural
    # and one more wild card never hurts either
    assert best_high(cards[wilds:], wilds, double_ace) >= best_high(
        cards[wilds - 1 :], wilds - 1, double_ace
    )


@given(
    seven_cards, st.integers(1, 4), st.sampled_from(["ace_to_five", "ace_to_six", "deuce_to_seven"])
)
def test_a_wild_card_never_makes_a_low_worse(cards, wilds, ranking):
    assert best_low(cards[wilds:], wilds, ranking) >= best_low(cards, 0, ranking)


def _relabel(cards, perm):
    return [(c & ~3) | perm[c & 3] for c in cards]


@given(seven_cards, st.integers(0, 4), st.booleans(), permutations)
def test_suit_relabelling_changes_nothing(cards, wilds, double_ace, perm):
    nat = cards[wilds:]
    assert best_high(nat, wilds, double_ace) == best_high(_relabel(nat, perm), wilds, double_ace)
    for ranking in ("ace_to_five", "ace_to_six", "deuce_to_seven"):
        assert best_low(nat, wilds, ranking, 8) == best_low(_relabel(nat, perm), wilds, ranking, 8)


_VARIANT_OPTIONS = [
    ("seven_card_stud", {}),
    ("kings_and_little_ones", {"king_required": False}),
    ("kings_and_little_ones", {"all_lowest_wild": True, "door_card_kings": True}),
    ("low_hole", {"game": "high_low"}),
    ("low_hole", {"game": "low", "low_ranking": "deuce_to_seven"}),
    ("low_hold", {"same_rank_wild": "all"}),
]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32), st.integers(2, 7), st.sampled_from(_VARIANT_OPTIONS), st.randoms())
def test_winners_do_not_depend_on_player_order(seed, n, variant_options, rnd):
    variant, options = variant_options
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    random.Random(seed).shuffle(deck)
    players = [
        {"down": deck[i * 7 : i * 7 + 3], "up": deck[i * 7 + 3 : i * 7 + 7]} for i in range(n)
    ]
    order = list(range(n))
    rnd.shuffle(order)
    a = evaluate_showdown({"variant": variant, "options": options, "players": players})
    b = evaluate_showdown(
        {"variant": variant, "options": options, "players": [players[i] for i in order]}
    )
    assert sorted(order[i] for i in b["high_winners"]) == a["high_winners"]
    assert sorted(order[i] for i in b["low_winners"]) == a["low_winners"]
    for j, i in enumerate(order):
        assert b["players"][j]["high"] == a["players"][i]["high"]
