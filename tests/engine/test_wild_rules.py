"""Which cards are wild, variant by variant and announcement by announcement."""

from tracker.engine.announcements import normalize_announcements
from tracker.engine.cards import format_card, parse_card
from tracker.engine.wild import wild_options


def opts(variant, options, down, up, community=None, half="high"):
    ann = normalize_announcements(variant, options)
    got = wild_options(
        variant,
        ann,
        [parse_card(c) for c in down.split()],
        [parse_card(c) for c in up.split()],
        None if community is None else parse_card(community),
        half,
    )
    return sorted(sorted(format_card(c) for c in o) for o in got)


def test_stud_has_no_wild_cards():
    assert opts("seven_card_stud", {}, "2c 3c 4c", "Kd Kh Ks 5d") == [[]]


# --- Kings and Little Ones ---------------------------------------------------------------------


def test_kings_and_the_little_one():
    assert opts("kings_and_little_ones", {}, "Kd 4c 2c", "4s 7h 9h Jd") == [["2c", "Kd"]]


def test_king_required_without_a_king():
    assert opts("kings_and_little_ones", {}, "3d 5s 5h", "7h 9c Tc Qd") == [[]]
    got = opts("kings_and_little_ones", {"king_required": False}, "3d 5s 5h", "7h 9c Tc Qd")
    assert got == [["3d"]]


def test_a_face_down_king_counts_as_held():
    assert opts("kings_and_little_ones", {}, "Kd 8s 3h", "7h 9c Tc Qd") == [["3h", "Kd"]]


def test_lowest_rank_twice_is_the_players_choice_or_all():
    down, up = "Kd 3s 3h", "7h 9c Tc Qd"
    assert opts("kings_and_little_ones", {}, down, up) == [["3h", "Kd"], ["3s", "Kd"]]
    got = opts("kings_and_little_ones", {"all_lowest_wild": True}, down, up)
    assert got == [["3h", "3s", "Kd"]]


def test_ace_low_for_lowest():
    down, up = "Kd As 3h", "7h 9c Tc Qd"
    assert opts("kings_and_little_ones", {}, down, up) == [["3h", "Kd"]]
    assert opts("kings_and_little_ones", {"ace_low_for_lowest": True}, down, up) == [["As", "Kd"]]


def test_door_card_kings():
    # door card (first up card) is a king: only it is wild; the down king is natural
    assert opts("kings_and_little_ones", {"door_card_kings": True}, "Kd 8s 3h", "Kh 9c Tc Qd") == [
        ["3h", "Kh"]
    ]
    # no king at the door: no wild king, but a king is held, so the little one is wild
    got = opts("kings_and_little_ones", {"door_card_kings": True}, "Kd 8s 3h", "7h 9c Tc Qd")
    assert got == [["3h"]]


def test_little_one_is_found_among_the_cards_that_are_not_wild_kings():
    # every other card is an ace: with aces high the lowest non-king card is an ace
    got = opts("kings_and_little_ones", {}, "Kd Kc Ah", "Ks Kh As Ac")
    assert got == [
        ["Ac", "Kc", "Kd", "Kh", "Ks"],
        ["Ah", "Kc", "Kd", "Kh", "Ks"],
        ["As", "Kc", "Kd", "Kh", "Ks"],
    ]
    # door_card_kings: the natural kings are candidates for the little one
    got = opts("kings_and_little_ones", {"door_card_kings": True}, "Kd Ac Ah", "Ks Kh As Ad")
    assert got == [["Kd", "Ks"], ["Kh", "Ks"]]


def test_community_card_counts_for_the_little_one_and_as_a_king():
    assert opts("kings_and_little_ones", {}, "Kd 8s", "7h 9c Tc Qd", "2h") == [["2h", "Kd"]]
    assert opts("kings_and_little_ones", {}, "5d 8s", "7h 9c Tc Qd", "Kh") == [["5d", "Kh"]]


# --- Low Hole -----------------------------------------------------------------------------------


def test_low_hole_wild_rank_everywhere():
    assert opts("low_hole", {}, "Ts 5d 7c", "4c 5h Ks 9d") == [["5d", "5h"]]
    assert opts("low_hole", {}, "Ts 5d 3h", "4c 5h Ks 3c") == [["3c", "3h"]]


def test_low_hole_community_never_sets_the_rank_but_can_be_wild():
    assert opts("low_hole", {}, "Ts 5d", "4c 5h Ks 9d", "2c") == [["5d", "5h"]]
    assert opts("low_hole", {}, "Ts 5d", "4c 6h Ks 9d", "5s") == [["5d", "5s"]]


def test_low_hole_aces_high_for_high_low_for_ace_low_rankings():
    down, up = "As 9d Ad", "4c 5h Ks Ah"
    assert opts("low_hole", {"game": "high_low"}, down, up, half="high") == [["9d"]]
    assert opts("low_hole", {"game": "high_low"}, down, up, half="low") == [["Ad", "Ah", "As"]]
    got = opts("low_hole", {"game": "low", "low_ranking": "deuce_to_seven"}, down, up, half="low")
    assert got == [["9d"]]
    got = opts("low_hole", {"game": "low", "low_ranking": "ace_to_six"}, down, up, half="low")
    assert got == [["Ad", "Ah", "As"]]
    assert opts("low_hole", {}, "As Ad Ac", "4c 5h Ks 2h") == [["Ac", "Ad", "As"]]


# --- Low Hold -----------------------------------------------------------------------------------


def test_low_hold_lowest_face_down_only():
    assert opts("low_hold", {}, "Kd 3s 9d", "8h 8c Kh 3h") == [["3s"]]
    assert opts("low_hold", {}, "Kd 3s 2d", "8h 8c Kh Ks") == [["2d"]]
    # aces high: an ace is the lowest only when all face-down cards are aces
    assert opts("low_hold", {}, "Ad Ks", "8h 8c Kh 3c 2c") == [["Ks"]]


def test_low_hold_same_rank_wild():
    down, up = "3d 3s 9d", "8h 3c Kh Ks"
    assert opts("low_hold", {}, down, up) == [["3d"], ["3s"]]
    assert opts("low_hold", {"same_rank_wild": "face_down"}, down, up) == [["3d", "3s"]]
    assert opts("low_hold", {"same_rank_wild": "all"}, down, up) == [["3c", "3d", "3s"]]
    assert opts("low_hold", {"same_rank_wild": "all"}, "3d 9s", "8h 2c Kh Ks", "3h") == [
        ["3d", "3h"]
    ]
    assert opts("low_hold", {"same_rank_wild": "face_down"}, "3d 9s", "8h 2c Kh Ks", "3h") == [
        ["3d"]
    ]
