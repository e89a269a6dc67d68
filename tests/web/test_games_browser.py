"""A league's own game in a real browser at phone size (375x740), as one flow: the admin
creates Follow the Queen from the preset, with the house choice that a late queen changes
the wild rank; the game's page shows it; the preview deals a hand with a queen up followed
by a seven, after an earlier queen had set another rank, and marks the sevens wild (and not
the rank the earlier queen set). Every page is axe-clean, with no small targets and nothing
scrolling sideways. Screenshots: test-artifacts/web/games-*.png."""

from __future__ import annotations

from tests.web.conftest import BROWSER_TESTS, log_in, make_game
from tests.web.targets import page_problems as clean
from tracker.games.selectors import game_latest, game_preview, league_game

pytestmark = BROWSER_TESTS

LABELS = {"A": "ace", "K": "king", "J": "jack", "T": "10"}  # as the cards' titles say


def _late_queen_then_seven(hand) -> bool:
    """A hand whose up cards come ... Q, x ... Q, 7 (x not 7, the last queen's follower a
    seven) and whose follow rank is sevens: the late queen changed the wild rank."""
    order = hand["showdown"]["up_order"]
    followers = [order[i + 1][0] for i, c in enumerate(order[:-1]) if c[0] == "Q"]
    followers = [f for f in followers if f != "Q"]
    return (
        len(followers) >= 2
        and followers[-1] == "7"
        and followers[0] != "7"
        and hand["result"]["follow"] == ["7"]
    )


def _seed_with_a_late_queen(definition) -> tuple[int, int, str]:
    """The first deal number whose preview has such a hand: (seed, hand index, the rank the
    earlier queen had made wild)."""
    for seed in range(1, 5000):
        for k, hand in enumerate(game_preview(definition, seed=seed)):
            if _late_queen_then_seven(hand):
                order = hand["showdown"]["up_order"]
                first = next(order[i + 1][0] for i, c in enumerate(order) if c[0] == "Q")
                return seed, k, first
    raise AssertionError("no deal with a late queen followed by a seven")


def test_follow_the_queen_from_the_preset_and_its_preview(site, phone, shots):
    game = make_game()
    page = phone
    log_in(page, site, game.admin.username, next_url=f"/leagues/{game.league.slug}/")
    found: list[str] = []

    page.click("[data-testid=league-games]")
    page.wait_for_load_state()
    page.click("[data-testid=game-new]")
    page.wait_for_load_state()
    found += clean(page, "games-new")
    shots(page, "games-new")
    page.click("[data-testid=preset-follow_the_queen]")
    page.wait_for_load_state()
    page.fill("#id_name", "Follow the Queen")
    page.select_option("#id_c-wild-0-later_x", "replaces")  # a late queen changes the wild rank
    found += clean(page, "games-preset-form")
    shots(page, "games-preset-form")
    page.click("[data-testid=game-save]")
    page.wait_for_load_state()

    assert page.url.endswith("/games/follow-the-queen/")
    rules = page.inner_text("[data-testid=game-rules]")
    assert "Queens are wild" in rules
    found += clean(page, "games-game")
    shots(page, "games-game")

    stored = game_latest(league_game(game.league, "follow-the-queen"))
    assert stored.definition["wild"][0]["later_x"] == "replaces"
    seed, k, first = _seed_with_a_late_queen(stored.game_definition)

    page.goto(f"{site}/leagues/{game.league.slug}/games/follow-the-queen/preview/?seed={seed}")
    hand = page.locator("[data-testid=preview-hand]").nth(k)
    hand.scroll_into_view_if_needed()
    assert "sevens" in hand.locator("[data-testid=preview-wild]").inner_text()
    cards = hand.locator("[data-testid=preview-seat] .slot")
    earlier = f"{LABELS.get(first, first)} of "  # the rank the earlier queen made wild
    sevens = naturals = 0
    for i in range(cards.count()):
        slot = cards.nth(i)
        title = slot.locator(".card").get_attribute("title")
        note = slot.locator(".as").inner_text() if slot.locator(".as").count() else ""
        marked = "wild" in slot.locator(".card").get_attribute("class").split()
        if title.startswith("7 of"):
            sevens += 1
            assert note.startswith("wild") and marked, (title, note)
        elif title.startswith(earlier):
            naturals += 1
            assert not note and not marked, (title, note)  # natural again
    assert sevens >= 1
    assert hand.locator("[data-testid=preview-shares] li").count() >= 1
    found += clean(page, "games-preview")
    shots(page, "games-preview")
    hand.locator("[data-testid=preview-wild]").scroll_into_view_if_needed()
    shots(page, "games-preview-hand", full_page=False)  # the hand as the phone shows it
    assert not found, "\n".join(found)
