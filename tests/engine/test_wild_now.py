"""Wild cards as they stand street by street (tracker.engine.games.wild_now)."""

from tracker.engine.cards import format_card, parse_card
from tracker.engine.games import load_game, wild_now


def _game(**follow):
    return load_game(
        {
            "name": "ftq",
            "title": "Follow the Queen",
            "wild": [{"kind": "follow", "rank": "Q", **follow}],
        }
    )


def _cards(text):
    return [parse_card(c) for c in text.split()]


def _wild(game, down, up, order, complete=False):
    return sorted(
        map(format_card, wild_now(game, _cards(down), _cards(up), _cards(order), complete=complete))
    )


def test_the_follower_of_an_up_queen_is_wild_from_its_street_on():
    game = _game()
    assert _wild(game, "7d 9h", "5c", "Kd 5c") == []
    assert _wild(game, "7d 9h", "5c Qs", "Kd 5c Qd 7h") == ["7d", "Qs"]


def test_a_later_queen_replaces_the_wild_rank_by_default():
    game = _game()
    order = "Qd 7h Qs 9d"
    assert _wild(game, "7d 9h", "", "Qd 7h") == ["7d"]
    assert _wild(game, "7d 9h", "", order) == ["9h"]


def test_with_the_house_choice_ignored_the_first_follower_stays():
    game = _game(later_x="ignored")
    assert _wild(game, "7d 9h", "", "Qd 7h Qs 9d") == ["7d"]


def test_with_the_house_choice_adds_both_followers_are_wild():
    game = _game(later_x="adds")
    assert _wild(game, "7d 9h", "", "Qd 7h Qs 9d") == ["7d", "9h"]


def test_a_queen_on_the_last_up_card():
    order = "Qd 7h 3c Qh"
    # mid-deal the queen waits for its follower: sevens stay wild
    assert _wild(_game(), "7d 9h", "", order) == ["7d"]
    # the deal is over: nothing follows, only the queens (no_follow) ...
    assert _wild(_game(), "7d 9h", "Qc", order, complete=True) == ["Qc"]
    # ... or the rank already following stays (keeps)
    assert _wild(_game(last_x="keeps"), "7d 9h", "Qc", order, complete=True) == ["7d", "Qc"]


def test_kings_and_little_ones_kings_and_the_lowest_so_far():
    game = load_game(
        {"name": "kl", "title": "Kings and Little Ones", "wild": [{"kind": "kings_and_lowest"}]}
    )
    assert _wild(game, "Kd 9h", "5c", "5c") == ["5c", "Kd"]
    # a lower card later becomes the little one
    assert _wild(game, "Kd 9h", "5c 3s", "5c 3s") == ["3s", "Kd"]
    # equal lowest cards: each may be the wild one, both are marked
    assert _wild(game, "Kd 3h", "5c 3s", "5c 3s") == ["3h", "3s", "Kd"]
