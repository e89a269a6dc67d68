"""The worked examples of the rule documents (shared/rules/*.txt), word for word."""

from tracker.engine import evaluate_showdown


def high(variant, down, up, **options):
    result = evaluate_showdown(
        {"variant": variant, "options": options, "players": [{"down": down, "up": up}]}
    )
    return result["players"][0]["high"]


# Kings and Little Ones, "A king makes the low card wild":
# King required. A player holds K♦4♣4♠7♥9♥J♦2♣. The king is wild. Because the player holds
# a king, the lowest card, the two, is also wild. With the natural pair of fours and two wild
# cards, the player has four fours, with the jack as the kicker.
def test_kings_a_king_makes_the_low_card_wild():
    h = high(
        "kings_and_little_ones", ["K♦", "4♣", "2♣"], ["4♠", "7♥", "9♥", "J♦"], king_required=True
    )
    assert h["category"] == "four_of_a_kind"
    assert h["ranks"] == [4, 4, 4, 4, 11]
    assert {w["card"] for w in h["wild"]} == {"Kd", "2c"}
    assert h["text"] == "four fours, jack kicker (K♦ as 4♥, 2♣ as 4♦)"


# The same seven cards whichever were face down, and the last card taken up.
def test_kings_example_does_not_depend_on_the_deal():
    for down, up in [
        (["4♣", "2♣"], ["K♦", "4♠", "7♥", "9♥", "J♦"]),
        (["J♦", "9♥", "4♣"], ["2♣", "4♠", "7♥", "K♦"]),
    ]:
        assert high("kings_and_little_ones", down, up)["ranks"] == [4, 4, 4, 4, 11]


# Kings and Little Ones, "No king, no low wild card":
# King required. A player holds 3♦5♠5♥7♥9♣10♣Q♦. There is no king, so the three is not wild.
# The player has only a pair of fives. If the dealer had announced that no king is required,
# the three would be wild, and the player would have three fives.
def test_kings_no_king_no_low_wild_card():
    down, up = ["3♦", "5♠", "5♥"], ["7♥", "9♣", "10♣", "Q♦"]
    h = high("kings_and_little_ones", down, up, king_required=True)
    assert h["category"] == "one_pair" and h["ranks"][:2] == [5, 5]
    assert h["wild"] == []
    assert h["text"].startswith("pair of fives")
    h = high("kings_and_little_ones", down, up, king_required=False)
    assert h["category"] == "three_of_a_kind" and h["ranks"][:3] == [5, 5, 5]
    assert h["wild"] == [{"card": "3d", "as": h["wild"][0]["as"]}]
    assert h["text"].startswith("three fives")


# Low Hole, "The last card changes the wild rank":
# A player's first two hole cards are 10♠5♦. Face up they receive 4♣5♥K♠9♦. Fives are wild,
# so the 5♦ and the 5♥ are both wild. If the seventh card is 7♣, fives stay wild. With the
# ten, nine, king and two wild fives, the player makes a king-high straight, 9-10-J-Q-K.
def test_low_hole_fives_stay_wild():
    h = high("low_hole", ["10♠", "5♦", "7♣"], ["4♣", "5♥", "K♠", "9♦"])
    assert h["category"] == "straight" and h["ranks"] == [13, 12, 11, 10, 9]
    assert sorted(w["card"] for w in h["wild"]) == ["5d", "5h"]
    assert sorted(w["as"][0] for w in h["wild"]) == ["J", "Q"]
    assert h["text"].startswith("king-high straight")


# If instead the seventh card is 3♥, threes become wild and the fives are natural again. The
# player now has one wild three and a pair of fives: three fives.
def test_low_hole_threes_become_wild():
    h = high("low_hole", ["10♠", "5♦", "3♥"], ["4♣", "5♥", "K♠", "9♦"])
    assert h["category"] == "three_of_a_kind" and h["ranks"][:3] == [5, 5, 5]
    assert [w["card"] for w in h["wild"]] == ["3h"]
    assert h["text"].startswith("three fives")


# Low Hold, "Finding the wild card":
# A player's face-down cards are K♦3♠9♦ and their face-up cards are 8♥8♣K♥K♠. The lowest
# face-down card is the 3♠, so it is wild. Used as a king, it gives the player four kings
# with the 9 as kicker, K-K-K-K-9.
def test_low_hold_three_is_wild():
    h = high("low_hold", ["K♦", "3♠", "9♦"], ["8♥", "8♣", "K♥", "K♠"])
    assert h["category"] == "four_of_a_kind" and h["ranks"] == [13, 13, 13, 13, 9]
    assert h["wild"] == [{"card": "3s", "as": "Kc"}]
    assert [c[0] for c in h["cards"]] == ["K", "K", "K", "K", "9"]


# Had the seventh card been a face-down 2 instead of the 9, the 2 would have become the wild
# card and the 3 would count only as a 3. The player would still have four kings, but with an
# 8 kicker.
def test_low_hold_seventh_two_becomes_wild():
    h = high("low_hold", ["K♦", "3♠", "2♦"], ["8♥", "8♣", "K♥", "K♠"])
    assert h["category"] == "four_of_a_kind" and h["ranks"] == [13, 13, 13, 13, 8]
    assert [w["card"] for w in h["wild"]] == ["2d"]
