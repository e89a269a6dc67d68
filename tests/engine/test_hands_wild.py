"""High hands with wild cards: the rules of RULES.md, the explanation, and the oracle."""

import random

import pytest

from tests.engine import oracle
from tracker.engine.cards import parse_card
from tracker.engine.explain import explain_high, high_hand_dict
from tracker.engine.hands import best_high, category_name, ranks_of


def cards(text):
    return [parse_card(t) for t in text.split()]


def made(nat, wild, double_ace_flush=False):
    return high_hand_dict(explain_high(cards(nat), cards(wild), double_ace_flush))


def test_five_of_a_kind_beats_a_royal_flush():
    five = best_high(cards("9c 9d 9h 2s 3d"), 2)
    royal = best_high(cards("As Ks Qs Js Ts 2c 3d"))
    assert category_name(five) == "five_of_a_kind" and five > royal
    d = made("9c 9d 9h 2d 3d", "Kd 2c")
    # the missing nine first, then a duplicate, as only five of a kind may duplicate
    assert d["ranks"] == [9] * 5
    assert d["wild"] == [{"card": "Kd", "as": "9s"}, {"card": "2c", "as": "9s"}]


def test_five_of_a_kind_with_four_naturals_duplicates():
    d = made("9c 9d 9h 9s 3d 4c", "Kd")
    assert d["category"] == "five_of_a_kind" and d["cards"].count("9s") == 2
    assert d["text"].startswith("five nines")


def test_all_wild_is_five_aces():
    assert ranks_of(best_high(cards("2c 3d"), 5)) == [14] * 5
    assert category_name(best_high([], 5)) == "five_of_a_kind"


def test_flush_wild_is_highest_missing_card_never_a_pair():
    # hearts A, 9, 7, 5 held: the wild card is the K of hearts, not a second ace
    d = made("Ah 9h 7h 5h 2c 3d", "Ks")
    assert d["category"] == "flush" and d["ranks"] == [14, 13, 9, 7, 5]
    assert d["wild"] == [{"card": "Ks", "as": "Kh"}]


def test_double_ace_flush():
    d = made("Ah 9h 7h 5h 2c 3d", "Ks", double_ace_flush=True)
    assert d["ranks"] == [14, 14, 9, 7, 5]
    assert d["cards"][:2] == ["Ah", "Ah"] and d["wild"] == [{"card": "Ks", "as": "Ah"}]
    # two wild cards: a second ace and the king; never three aces
    two = best_high(cards("Ah 9h 7h 2c 3d"), 2, True)
    assert ranks_of(two) == [14, 14, 13, 9, 7]
    none_held = best_high(cards("9h 7h 4h 2c 3d"), 2, True)
    assert ranks_of(none_held) == [14, 14, 9, 7, 4]
    assert ranks_of(best_high(cards("9h 7h 4h 2c 3d"), 2, False)) == [14, 13, 9, 7, 4]
    # it changes nothing when a straight flush is there
    assert category_name(best_high(cards("Kh Qh Jh Th 2c 3d"), 1, True)) == "straight_flush"


def test_quads_take_the_missing_suits():
    d = made("4c 4s 7h 9h Jd", "Kd 2c")
    assert d["ranks"] == [4, 4, 4, 4, 11]
    assert sorted(d["cards"][:4]) == ["4c", "4d", "4h", "4s"]


def test_straight_fills_gaps_and_wild_does_not_make_a_flush():
    d = made("9s Td Ks 4c 7c", "5d 5h")
    assert d["category"] == "straight" and d["ranks"] == [13, 12, 11, 10, 9]
    suits = {c[1] for c in d["cards"]}
    assert len(suits) > 1


def test_straight_flush_with_gaps():
    assert ranks_of(best_high(cards("9h Jh Kh 2c 3d"), 2)) == [13, 12, 11, 10, 9]
    assert category_name(best_high(cards("9h Jh Kh 2c 3d"), 2)) == "straight_flush"


def test_one_wild_pairs_the_best_card():
    assert ranks_of(best_high(cards("Ac Jd 9h 7s 4c 2d"), 1)) == [14, 14, 11, 9, 7]


def test_wild_hand_ties_natural_hand():
    assert best_high(cards("Ac Ad 9h 8s 5c 3d"), 1) == best_high(cards("Ac Ad Ah 9s 8c 3d 2h"))


# --- against the brute-force oracle ----------------------------------------------------------


def _o(c):
    return ((c >> 2) + 2, c & 3)


def _random_hands(n, seed):
    rng = random.Random(seed)
    for _ in range(n):
        w = rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 4, 5])
        deck = list(range(52))
        rng.shuffle(deck)
        if rng.random() < 0.5:
            s = rng.randrange(4)
            deck.sort(key=lambda c, s=s: (c & 3) != s or rng.random() < 0.3)
        yield deck[: 7 - w], [deck[-1 - j] for j in range(w)], rng.random() < 0.5


def _check(nat, wild, da):
    key = best_high(nat, len(wild), da)
    want = oracle.best_high([_o(c) for c in nat], len(wild), da)
    assert (category_name(key), tuple(ranks_of(key))) == (oracle.CATS[want[0]], want[1]), (
        nat,
        len(wild),
        da,
    )
    m = explain_high(nat, wild, da)
    assert m.key == key
    five = [_o(c) for c, _ in m.played]
    # the five cards shown are worth exactly the key
    got = oracle.high5(tuple(sorted(r for r, _ in five)), len({s for _, s in five}) == 1)
    assert got == want
    # wild cards are used once each and stand for no natural card (bar five of a kind / double ace)
    used = [w for _, w in m.played if w is not None]
    assert len(used) == len(set(used)) and set(used) <= set(wild)
    shown = [c for c, w in m.played if w is not None]
    if want[0] != oracle.F5:
        for c in shown:
            assert c not in nat or (da and (c >> 2) == 12)
        if not (da and want[0] == oracle.FL):
            assert len(set(c for c, _ in m.played)) == 5


def test_against_oracle_sample():
    for nat, wild, da in _random_hands(250, 21):
        _check(nat, wild, da)


@pytest.mark.slow
def test_against_oracle_large():
    for nat, wild, da in _random_hands(5000, 22):
        _check(nat, wild, da)


def test_oracle_rank_shortcut_matches_literal_52_card_search():
    rng = random.Random(3)
    for i in range(12):
        w = 1 + i % 2
        deck = [(r, s) for r in range(2, 15) for s in range(4)]
        rng.shuffle(deck)
        if i % 3:
            deck.sort(key=lambda c: c[1] != 2 or rng.random() < 0.2)
        nat = deck[: 7 - w]
        da = i % 4 == 0
        assert oracle.best_high(nat, w, da) == oracle.literal_best_high(nat, w, da)
