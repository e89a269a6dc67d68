"""A house game logged live at phone size (375x740), as one flow: the admin creates
Follow the Queen from the preset (a late queen changes the wild rank); on a dealer's choice
night the live logger deals it; a hand with a queen up followed by a seven is logged (the
phone marks the seven wild as it falls) and recorded, and its page marks the sevens wild
and names the engine's winner; then a Baseball hand with a three up (its player pays) and a four up (its extra card) is logged.
Every page is axe-clean, with no small targets and nothing scrolling sideways.
Screenshots: the test's tmp dir (house-*.png)."""

from __future__ import annotations

from tests.web.conftest import BROWSER_TESTS, log_in, make_game
from tests.web.live_table import Table
from tests.web.targets import page_problems as clean
from tracker.games.services import league_game_create
from tracker.hands.models import Hand

pytestmark = BROWSER_TESTS


def passive(name, labels):
    """Pay a pay rule's price, bring in, check or call: never bet."""
    for start in ("Pay", "Bring in", "Check", "Call"):
        for label in labels:
            if label.startswith(start):
                return label
    raise AssertionError(labels)


def folding(name, labels):
    """Pay a pay rule's price or bring in when due, else fold."""
    for start in ("Pay", "Bring in", "Fold"):
        for label in labels:
            if label.startswith(start):
                return label
    raise AssertionError(labels)


def test_house_games_logged_live(site, phone, tmp_path):
    game = make_game(slug="house")
    page = phone
    found: list[str] = []

    def shots(page, name, full_page=True):
        page.screenshot(path=str(tmp_path / f"{name}.png"), full_page=full_page)

    def look(name):
        found.extend(clean(page, name))
        shots(page, name)

    log_in(page, site, game.admin.username, next_url=f"/leagues/{game.league.slug}/games/new/")
    page.click("[data-testid=preset-follow_the_queen]")
    page.wait_for_load_state()
    page.fill("#id_name", "Follow the Queen")
    page.select_option("#id_c-wild-0-later_x", "replaces")  # a late queen changes the wild rank
    look("house-game-form")
    page.click("[data-testid=game-save]")
    page.wait_for_load_state()
    assert page.url.endswith("/games/follow-the-queen/")
    look("house-game")
    league_game_create(league=game.league, by=game.admin, name="Baseball", preset="baseball")

    # Follow the Queen, dealt live: a queen up, then a seven up.
    table = Table(page, site, game.tournament, shots, "house")
    page.goto(f"{site}/tournaments/{game.tournament.pk}/live/")
    look("house-start")
    table.start("game:follow-the-queen")
    assert "Follow the Queen" in page.inner_text("h1")
    look("house-third")
    table.deal(["Qh", "7c", "2d"])  # the queen up, followed by a seven
    seven = page.locator(".live-seats .card.wild", has_text="7")
    assert seven.count() == 1 and "wild" in seven.first.text_content()  # its accessible name
    shots(page, "house-third-wild", full_page=False)
    table.bet(passive)
    while "Deal" in table.prompt():
        look(f"house-street-{len(table.used)}")
        count = page.locator("form[data-live] input[data-card][required]").count()
        table.deal(table.fresh(count, avoid="Q7"))
        table.bet(passive)
    look("house-showdown")
    table.show_all(avoid="Q7")
    hand = table.record()
    look("house-hand")
    reading = hand.engine_reading["showdown"]
    assert reading["follow"] == ["7"]
    winners = reading["high_winners"]
    winner = game.tournament.seats.get(player_id=hand.positions[winners[0]]).player.name
    shares = page.inner_text("[data-testid=shares]")
    assert f"{winner} wins" in shares, shares
    sevens = page.locator("[data-testid=showdown-seat] .card.wild[title^='7 of']")
    assert sevens.count() >= 1  # the 7c, wild for its player
    winner_seat = page.locator("[data-testid=showdown-seat].winner")
    assert winner in winner_seat.first.inner_text()

    # Baseball: a three up pays, a four up gets its extra card.
    table.used.clear()
    table.start("game:baseball")
    assert "to Ann" in table.prompt() or "street to" in table.prompt()  # one seat at a time
    table.deal(["3c"])
    look("house-baseball-pay")
    assert any(b.startswith("Pay") for b in table.buttons()), table.buttons()
    table.button(next(b for b in table.buttons() if b.startswith("Pay")))
    table.deal(["4h"])
    look("house-baseball-extra")
    assert page.locator("form[data-live] input[data-card][required]").count() == 1
    table.deal(["Ah"])  # the four's extra card, face up
    table.deal(["Kd"])
    table.bet(folding)
    baseball = table.record()
    look("house-baseball-hand")
    assert baseball.game_version.game.slug == "baseball"
    assert sum(1 for chips in baseball.engine_reading["paid"] if chips) == 1  # the three paid
    dealt = [a for a in baseball.entry["actions"] if a.startswith("d dh")]
    assert [a[-2:] for a in dealt[:4]] == ["3c", "4h", "Ah", "Kd"]  # the extra card
    assert Hand.objects.filter(tournament=game.tournament).count() == 2
    assert not found, "\n".join(found)
