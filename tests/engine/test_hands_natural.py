"""Natural (no wild card) high hands: known hands, and agreement with treys."""

import itertools
import random

import pytest
from treys import Card as TCard
from treys import Evaluator

from tracker.engine import hands
from tracker.engine.cards import format_card, parse_card
from tracker.engine.explain import explain_high, high_hand_dict
from tracker.engine.hands import best_high, category_name, ranks_of


def cards(text):
    return [parse_card(t) for t in text.split()]


def value(text):
    k = best_high(cards(text))
    return category_name(k), ranks_of(k)


@pytest.mark.parametrize(
    "text, category, ranks",
    [
        ("As Ks Qs Js Ts 2c 3d", "straight_flush", [14, 13, 12, 11, 10]),
        ("5h 4h 3h 2h Ah Kd Qc", "straight_flush", [5, 4, 3, 2, 1]),
        ("6h 5h 4h 3h 2h Ah Kh", "straight_flush", [6, 5, 4, 3, 2]),
        ("4c 4d 4h 4s Jd 2s 3c", "four_of_a_kind", [4, 4, 4, 4, 11]),
        ("4c 4d 4h 4s Jd Jc Js", "four_of_a_kind", [4, 4, 4, 4, 11]),
        ("Kc Kd Kh 9s 9d 9c 2h", "full_house", [13, 13, 13, 9, 9]),
        ("Kc Kd Kh 9s 9d 2c 2h", "full_house", [13, 13, 13, 9, 9]),
        ("Ah 9h 7h 5h 3h Kd Qc", "flush", [14, 9, 7, 5, 3]),
        ("Ah 9h 7h 5h 3h 2h Qc", "flush", [14, 9, 7, 5, 3]),
        ("Ac 2d 3h 4s 5c 9d Kh", "straight", [5, 4, 3, 2, 1]),
        ("Ac 2d 3h 4s 5c 6d Kh", "straight", [6, 5, 4, 3, 2]),
        ("Ac Kd Qh Js Tc 2d 3h", "straight", [14, 13, 12, 11, 10]),
        ("7c 7d 7h Ks 2c 4d 9h", "three_of_a_kind", [7, 7, 7, 13, 9]),
        ("Kc Kd 9h 9s 5c 5d 2h", "two_pair", [13, 13, 9, 9, 5]),
        ("Kc Kd 9h 9s 5c 5d Ah", "two_pair", [13, 13, 9, 9, 14]),
        ("Ac Ad 9h 8s 5c 3d 2h", "one_pair", [14, 14, 9, 8, 5]),
        ("Ac Jd 9h 8s 5c 3d 2h", "high_card", [14, 11, 9, 8, 5]),
        ("Qc Kd Ah 2s 3c 4d 9h", "high_card", [14, 13, 12, 9, 4]),
    ],
)
def test_known_hands(text, category, ranks):
    assert value(text) == (category, ranks)


def test_order_of_categories():
    order = [
        "Ac Jd 9h 8s 5c 3d 2h",
        "Ac Ad 9h 8s 5c 3d 2h",
        "Kc Kd 9h 9s 5c 4d 2h",
        "7c 7d 7h Ks 2c 4d 9h",
        "Ac 2d 3h 4s 5c 9d Kh",
        "Ah 9h 7h 5h 3h Kd Qc",
        "Kc Kd Kh 9s 9d 2c 2h",
        "4c 4d 4h 4s Jd 2s 3c",
        "5h 4h 3h 2h Ah Kd Qd",
    ]
    keys = [best_high(cards(t)) for t in order]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)


def test_suits_never_break_ties():
    assert best_high(cards("Ah Kh Qh Jh 9h 2c 3c")) == best_high(cards("As Ks Qs Js 9s 2d 3d"))


def test_texts():
    def text(t):
        return high_hand_dict(explain_high(cards(t), [])).get("text")

    assert text("As Ks Qs Js Ts 2c 3d") == "royal flush"
    assert text("5h 4h 3h 2h Ah Kd Qd") == "five-high straight flush"
    assert text("4c 4d 4h 4s Jd 2s 3c") == "four fours, jack kicker"
    assert text("Kc Kd Kh 9s 9d 2c 2h") == "full house, kings full of nines"
    assert text("Kc Kd 9h 9s 5c 5d Ah") == "two pair, kings and nines, ace kicker"
    assert text("Ac Ad 9h 8s 5c 3d 2h") == "pair of aces, nine-eight-five kickers"
    assert text("Ac Jd 9h 8s 5c 3d 2h") == "ace high, jack-nine-eight-five"


def test_wheel_cards_are_shown_five_first():
    d = high_hand_dict(explain_high(cards("Ac 2d 3h 4s 5c 9d Kh"), []))
    assert d["cards"] == ["5c", "4s", "3h", "2d", "Ac"]
    assert d["ranks"] == [5, 4, 3, 2, 1] and d["wild"] == []


def test_fewer_or_more_than_seven_cards_use_the_direct_path():
    assert best_high(cards("Ah Kh Qh Jh Th")) == best_high(cards("Ah Kh Qh Jh Th 2c 3d"))
    assert ranks_of(best_high(cards("2c 3d 4h 5s 7c 8d"))) == [8, 7, 5, 4, 3]
    with pytest.raises(ValueError):
        best_high(cards("Ah Kh Qh Jh"))


def test_table_path_matches_direct_path():
    rng = random.Random(7)
    for _ in range(2000):
        hand = rng.sample(range(52), 7)
        assert hands.eval7(hand) == hands._best_high_any(hand, 0, False)


def test_build_tables_is_idempotent():
    hand = cards("Kc Kd Kh 9s 9d 2c 2h")
    before = best_high(hand)
    hands.build_tables()
    assert best_high(hand) == before


# --- agreement with treys ----------------------------------------------------------------------

_TREYS = Evaluator()
_TREYS_CLASS = {
    0: "straight_flush",  # treys calls the royal flush class 0
    1: "straight_flush",
    2: "four_of_a_kind",
    3: "full_house",
    4: "flush",
    5: "straight",
    6: "three_of_a_kind",
    7: "two_pair",
    8: "one_pair",
    9: "high_card",
}


def _agree_with_treys(n, seed):
    rng = random.Random(seed)
    deals = [rng.sample(range(52), 7) for _ in range(n)]
    ours = [best_high(d) for d in deals]
    theirs = []
    for d in deals:
        t = [TCard.new(format_card(c)) for c in d]
        theirs.append(_TREYS.evaluate(t[:2], t[2:]))  # lower is better in treys
    for d, k, t in zip(deals, ours, theirs, strict=True):
        assert category_name(k) == _TREYS_CLASS[_TREYS.get_rank_class(t)], d
    # order: every neighbour pair and random pairs compare the same way
    pairs = list(zip(range(n - 1), range(1, n), strict=True))
    pairs += [(rng.randrange(n), rng.randrange(n)) for _ in range(n)]
    for i, j in pairs:
        a = (ours[i] > ours[j]) - (ours[i] < ours[j])
        b = (theirs[i] < theirs[j]) - (theirs[i] > theirs[j])
        assert a == b, (deals[i], deals[j])
    # and a total sort agrees: same ranking positions
    order_ours = sorted(range(n), key=lambda i: ours[i])
    assert [theirs[i] for i in order_ours] == sorted(theirs, reverse=True)


def test_agrees_with_treys():
    _agree_with_treys(5000, 11)


@pytest.mark.slow
def test_agrees_with_treys_100k():
    _agree_with_treys(100_000, 12)


def test_every_five_card_hand_class_against_treys_sample():
    # every category reached, including the rare ones, with crafted decks
    rng = random.Random(5)
    seen = set()
    for _ in range(3000):
        suit = rng.randrange(4)
        deck = [c for c in range(52) if c & 3 == suit] + [c for c in range(52) if c & 3 != suit]
        hand = rng.sample(deck[:13], 5) + rng.sample(deck[13:], 2)
        seen.add(category_name(best_high(hand)))
    for combo in itertools.islice(itertools.combinations(range(0, 52, 4), 4), 20):
        quads = [c + s for c in combo[:1] for s in range(4)] + [combo[1], combo[2], combo[3]]
        seen.add(category_name(best_high(quads)))
    assert {"straight_flush", "flush", "four_of_a_kind"} <= seen
