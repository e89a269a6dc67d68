"""Starting a game night and the table screen in a real browser (Debian's Chromium).

Screenshots land in test-artifacts/web/: night-form-*, night-tournament-*, table-screen-*.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from playwright.sync_api import expect

from tests.web.axe import axe_violations, describe
from tests.web.conftest import BROWSER_TESTS, PHONE, log_in, make_game, record_walk
from tracker.leagues.services import player_create
from tracker.tournaments.models import Tournament

pytestmark = BROWSER_TESTS

WIDE = {"width": 1280, "height": 800}
SIZES = {"phone": PHONE, "desktop": WIDE}


def open_page(browser, size: str):
    context = browser.new_context(viewport=SIZES[size], is_mobile=size == "phone")
    context.set_default_timeout(10_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    page.errors = errors
    return page


def fits(page) -> bool:
    """Nothing on the page is wider than the window (no sideways scrolling)."""
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_a_scorekeeper_starts_a_night_with_a_random_draw(site, browser, shots, size):
    game = make_game()
    for name in ("Dee", "Eve", "Fay"):
        player_create(league=game.league, name=name, by=game.admin)
    page = open_page(browser, size)
    try:
        log_in(page, site, game.keeper.username, game.league.get_absolute_url())
        page.click("[data-testid=new-night]")
        page.wait_for_url(re.compile(r".*/nights/new/$"))
        assert page.locator("h1").inner_text() == "New game night"
        assert fits(page)
        shots(page, f"night-form-{size}")

        # A custom schedule with a bad row: the row is named and nothing is started.
        page.fill("#id_name", "Drawn night")
        for name in ("Ann", "Cat", "Dee", "Fay"):
            page.get_by_label(name, exact=True).check()
        page.get_by_label("Draw the seats at random").check()
        page.select_option("#id_first_dealer", label="Dee")
        page.get_by_label("My own (the rows below)").check()
        page.fill("#id_stakes_rows", "4 10 20 40\n6 15 30 61")
        page.get_by_label("Counts toward the league's standings").uncheck()
        page.click("[data-testid=start-night]")
        page.wait_for_load_state()
        error = page.locator("#id_stakes_rows_error").inner_text()
        assert "Row 2: the big bet must be twice the small bet" in error
        assert page.get_by_label("Dee", exact=True).is_checked()
        assert fits(page)
        shots(page, f"night-form-errors-{size}")
        assert not Tournament.objects.filter(name="Drawn night").exists()

        page.fill("#id_stakes_rows", "4 10 20 40\n6 15 30 60")
        page.click("[data-testid=start-night]")
        page.wait_for_url(re.compile(r".*/tournaments/\d+/$"))
        t = Tournament.objects.get(name="Drawn night")
        drawn = [s.player.name for s in t.seats.order_by("number")]
        assert sorted(drawn) == ["Ann", "Cat", "Dee", "Fay"]
        assert t.seats_drawn and not t.counts_toward_standings
        assert t.stakes_schedule == [[4, 10, 20, 40], [6, 15, 30, 60]]
        order = page.inner_text("[data-testid=seat-order]")
        assert "Seats drawn at random" in order
        assert " · ".join(f"{i}. {n}" for i, n in enumerate(drawn, start=1)) in order
        assert "Dee" in page.inner_text(".now")  # the chosen first dealer deals hand 1
        shots(page, f"night-tournament-{size}")
        assert not page.errors
    finally:
        page.context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_table_screen_shows_a_new_hand_without_a_reload(site, browser, shots, size):
    game = make_game()
    t = game.tournament
    page = open_page(browser, size)
    try:
        page.goto(f"{site}/tournaments/{t.pk}/table/")
        screen = page.locator("[data-testid=table-screen]")
        assert "1 of 50" in page.inner_text("[data-testid=ts-hand]")
        assert page.inner_text("[data-testid=ts-dealer]") == "Ann"
        assert "No hand yet." in page.inner_text("[data-testid=ts-last]")
        assert page.inner_text("[data-ts-status]") == "Updates itself every few seconds."
        assert fits(page)
        shots(page, f"table-screen-{size}")
        page.evaluate("window.notReloaded = true")

        record_walk(game)
        # The page fetches its fragment every few seconds: wait for the new hand to show.
        expect(page.locator("[data-testid=ts-hand]")).to_contain_text("2 of 50", timeout=15_000)
        assert "Hand 1 · Seven-Card Stud" in screen.inner_text()
        assert "Bob takes 12" in page.inner_text("[data-testid=ts-last]")
        assert page.inner_text("[data-testid=ts-dealer]") == "Bob"
        assert page.evaluate("window.notReloaded === true")
        assert fits(page)
        shots(page, f"table-screen-after-{size}")
        assert not page.errors
    finally:
        page.context.close()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_an_earlier_season_is_picked_without_javascript_help(site, browser, shots, size):
    from tests.support.nights import finished_night

    game = make_game(min_players=4)  # the three-player night of Q4 does not count
    league = game.league
    league.season_length = "quarter"
    league.save()
    league.admin = game.admin
    league.people = {p.name: p for p in game.players}
    league.people["Dee"] = player_create(league=league, name="Dee", by=game.admin)
    finished_night(league, "Summer", dt.date(2026, 8, 7), ["Bob", "Ann", "Cat", "Dee"])
    finished_night(league, "Autumn", dt.date(2026, 10, 2), ["Ann", "Bob", "Cat", "Dee"])
    finished_night(league, "Three", dt.date(2026, 11, 6), ["Cat", "Bob", "Ann"])
    url = f"{site}/leagues/{league.slug}/table/?season=2026-Q4"
    checked = open_page(browser, size)
    try:
        checked.goto(url)
        assert "Oct–Dec 2026" in checked.inner_text("[data-testid=season-label]")
        assert "3 players, fewer than the league's 4" in checked.inner_text(
            "[data-testid=season-nights]"
        )
        assert fits(checked)
        shots(checked, f"season-table-{size}")
        found = describe(f"season-table ({size})", axe_violations(checked))
    finally:
        checked.context.close()
    # The picker is a plain form: it works with JavaScript off.
    context = browser.new_context(
        viewport=SIZES[size], is_mobile=size == "phone", java_script_enabled=False
    )
    context.set_default_timeout(10_000)
    page = context.new_page()
    try:
        page.goto(url)
        page.select_option("#season-select", "2026-Q3")
        page.click("[data-testid=season-picker] button[type=submit]")
        page.wait_for_url(re.compile(r".*season=2026-Q3$"))
        first = page.locator("[data-testid=league-table] tbody tr").first.inner_text()
        assert "Bob" in first
        shots(page, f"season-table-earlier-{size}")
    finally:
        context.close()
    assert not found, "\n".join(found)
