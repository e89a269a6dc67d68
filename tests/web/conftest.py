"""Fixtures for the page tests: a league with roles, a tournament with recorded hands.

The browser tests drive Debian's Chromium through Playwright's sync API. Playwright
runs an event loop in the test thread, so Django's async-safety check is relaxed
for these tests only.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.factories import ACES, KINGS, add_member, fold_entry, make_league, make_tournament  # noqa: F401 (the browser tests take them from here)
from tests.support.recording import record, record_disputed, record_showdown

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
# The marks of every browser test module (``pytestmark = BROWSER_TESTS``): a real Chromium on
# a live server, each test in a transaction of its own, skipped where the browser is missing.
BROWSER_TESTS = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)",
    ),
]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
]
PASSWORD = "pw-for-tests-only"

# The worked example of Kings and Little Ones: K♦ 4♣ down, 4♠ 7♥ 9♥ J♦ up, 2♣ down.
# The king is wild and so is the little one (the 2♣): four fours, jack kicker.
KLO_ACTIONS = [
    "d dh p1 Kd4c4s",
    "d dh p2 AsAh3d",
    "d dh p3 9c9dQh",
    "p2 pb",  # the 3♦ is the lowest door card: p2 brings in
    "p3 cbr 20",
    "p1 cc",
    "p2 cc",
    "d dh p1 7h",
    "d dh p2 5c",
    "d dh p3 2s",
    "p3 cc",  # Q-2 up is the best face-up hand
    "p1 cbr 20",
    "p2 cc",
    "p3 cc",
    "d dh p1 9h",
    "d dh p2 6c",
    "d dh p3 Td",
    "p3 cc",
    "p1 cbr 40",
    "p2 cc",
    "p3 f",
    "d dh p1 Jd",
    "d dh p2 8s",
    "p1 cbr 40",
    "p2 cbr 80",
    "p1 cc",
    "d dh p1 2c",
    "d dh p2 7c",
    "p1 cc",
    "p2 cc",
]


@dataclass
class Game:
    league: object
    admin: object
    keeper: object
    member: object
    tournament: object
    players: list


def make_game(
    slug: str = "friday", public: bool = True, variant: str = "", min_players: int = 3
) -> Game:
    """A league, its admin, scorekeeper and member, and a night of three players, which
    counts in the standings (the league's ``min_players`` is 3 unless given)."""
    league, admin = make_league(slug=slug, public=public, min_players=min_players)
    keeper = add_member(league, f"{slug}-keeper", "scorekeeper")
    member = add_member(league, f"{slug}-member", "member")
    tournament, players = make_tournament(
        league=league, by=admin, names=("Ann", "Bob", "Cat"), default_variant=variant
    )
    return Game(league, admin, keeper, member, tournament, players)


walk_entry = fold_entry  # everyone antes; all but one fold (the winner posts the bring-in)


def record_walk(game: Game, variant: str = "seven_card_stud"):
    """One quick-entry walk in the game's night (the bring-in takes the antes), recorded by
    its admin; settled at once where tasks run eagerly and on commit."""
    t = game.tournament
    return record(t, game.admin, walk_entry(t), variant=variant)


def record_sample_hands(game: Game) -> dict:
    """Four hands: a walk, a verified showdown, a disputed one, and a full-history
    Kings and Little Ones hand. Returns them by name."""
    t, admin = game.tournament, game.admin
    hands = {}
    hands["walk"] = record(t, admin, walk_entry(t), variant="seven_card_stud")
    hands["showdown"] = record_showdown(t, admin, variant="seven_card_stud")
    hands["disputed"] = record_disputed(t, admin, variant="seven_card_stud")
    hands["full"] = record(
        t, admin, {"actions": KLO_ACTIONS}, mode="full", variant="kings_and_little_ones"
    )
    return hands


# --------------------------------------------------------------------------
# The browser: viewports, the shared Chromium, the live site, screenshots

PHONE = {"width": 375, "height": 740}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


@pytest.fixture
def shots(artifacts_dir):
    folder = artifacts_dir / "web"
    folder.mkdir(exist_ok=True)

    def shot(page, name: str, full_page: bool = True):
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page)
        return path

    return shot


@pytest.fixture
def site(live_server, settings):
    # The live server speaks plain HTTP: let the session and CSRF cookies travel on it.
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    return live_server.url


def new_phone(browser, errors: list[str]):
    """A page in a new phone-sized context (375x740) whose JavaScript errors, and anything
    the Content-Security-Policy blocked (inline script, styles), go to ``errors``."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    context.set_default_timeout(10_000)
    page = context.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on(
        "console",
        lambda msg: errors.append(msg.text) if "Content Security Policy" in msg.text else None,
    )
    return page


@pytest.fixture
def phone(browser):
    errors: list[str] = []
    page = new_phone(browser, errors)
    yield page
    page.context.close()
    assert not errors, f"JavaScript errors: {errors}"


def log_in(page, site, username, next_url="/"):
    page.goto(f"{site}/accounts/login/?next={next_url}")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_load_state()
    # The text, shown or not: the live logger's compact top bar folds it behind "Menu".
    assert f"Logged in as {username}" in page.text_content("[data-testid=who]")


# --------------------------------------------------------------------------
# The results form (a hand caught up afterwards), filled as a scorekeeper would

SEVEN_ACES = "As Ah Ad 3c 4c 9d 2c"  # down, down, four up, down: three aces
SEVEN_KINGS = "Ks Kh Kd 3d 4d 5h 2d"  # three kings


def seat_input(page, k: int, name: str):
    """The input ``name`` (put_in, d1..c7, result, folded, ...) of the form's seat ``k``."""
    return page.locator(f"[data-testid=seat-{k}] [name$='-{name}']")


def fill_cards(page, k: int, cards: str) -> None:
    """Type seat ``k``'s seven cards (``"As Ah ..."``, in the order dealt)."""
    for slot, value in zip(("d1", "d2", "u1", "u2", "u3", "u4", "c7"), cards.split(), strict=True):
        seat_input(page, k, slot).fill(value)


def fill_results(
    page,
    *,
    folded=(),
    put_in: dict[int, int] | None = None,
    cards: dict[int, str] | None = None,
    winner: int | None = 0,
) -> None:
    """The results form of a showdown: the ``folded`` seats fold on third street (one tap
    each), the others put in ``put_in`` chips and show ``cards`` (by default seat 0 three
    aces, seat 1 three kings, 24 chips each), ``winner``'s result is "won"; the card picker
    is closed after."""
    for k in folded:
        page.click(f"[data-testid=fold3-{k}]")
    for k, chips in ({0: 24, 1: 24} if put_in is None else put_in).items():
        seat_input(page, k, "put_in").fill(str(chips))
    for k, seven in ({0: SEVEN_ACES, 1: SEVEN_KINGS} if cards is None else cards).items():
        fill_cards(page, k, seven)
    if winner is not None:
        seat_input(page, winner, "result").select_option("won")
    page.keyboard.press("Escape")


# --------------------------------------------------------------------------
# The live logger, driven through the page


def live_prompt(page) -> str:
    return page.inner_text("[data-testid=live-prompt]")


#: True once the live logger's outbox (static/js/logger.js) has its answer drawn, or on a
#: page that has no outbox.
OUTBOX_IDLE = """() => {
  const d = document.querySelector('[data-live-draft]');
  return !d || d.dataset.sync === 'idle';
}"""


def live_tap(page, selector: str) -> None:
    """Tap the first match of ``selector`` and wait for what it brings: a page, or the
    outbox's answer drawn in place (a step of a hand being logged, with JavaScript)."""

    page.locator(selector).first.click()
    live_settle(page)


def live_settle(page) -> None:
    """Wait for the step just sent (a tap, or a street's last card picked) to be drawn:
    the outbox's answer in place, or the page it brings."""
    from playwright.sync_api import Error

    for _ in range(5):
        page.wait_for_load_state()
        try:
            page.wait_for_function(OUTBOX_IDLE)
            return
        except Error:  # the step brought a page (a hand recorded): wait for that one
            continue
    page.wait_for_function(OUTBOX_IDLE)


def live_start(page, site, slug: str, variant: str = "seven_card_stud") -> tuple[Game, str]:
    """A night of three (stud, or the ``variant`` given: "" for dealer's choice, whose
    start form offers Seven-Card Stud first) whose scorekeeper, logged in on ``page``,
    starts hand 1 in the live logger: the game and the logger's address."""
    game = make_game(slug=slug, variant=variant)
    log_in(page, site, game.keeper.username)
    live = f"{site}/tournaments/{game.tournament.pk}/live/"
    page.goto(live)
    live_tap(page, "button:text-is('Start the hand')")
    return game, live


def live_act(page, label: str) -> None:
    """Tap the action button labelled exactly ``label`` ("Call 10", "Check around", ...)."""
    live_tap(page, f"#next button:text-is('{label}')")


def live_type_street(page, codes: list[str]) -> None:
    """Type the cards the street asks for (``codes``, in the page's order), close the
    picker, and deal the street."""
    inputs = page.locator("form[data-live] input[required]").all()
    for input_, code in zip(inputs, codes, strict=True):
        input_.fill(code)
    page.keyboard.press("Escape")
    live_tap(page, "form[data-live] button[type=submit]")


@pytest.fixture
def played(settle):
    """A night of three players with the sample hands recorded (hands 1 to 4)."""
    game = make_game()
    with settle():
        record_sample_hands(game)
    return game
