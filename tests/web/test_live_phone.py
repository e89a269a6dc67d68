"""The live logger on a phone (375x740), measured in the browser: the card picker greys out
every card already seen in the hand (with its reason), its keys are at least 44 px tall, the
prompt is on the screen after every step, and the top bar is one compact row whose menu still
reaches the site's links. axe-core checks the page with the picker open. Screenshots go to
test-artifacts/web/phone-live-*.png; the replayer's last step of the hand, too."""

from __future__ import annotations

from tests.web.axe import axe_violations, describe
from tests.web.conftest import (
    BROWSER_TESTS,
    PHONE,
    live_act,
    live_prompt,
    live_settle,
    live_tap,
    log_in,
    make_game,
)
from tests.web.targets import small_targets
from tracker.hands.models import Hand

pytestmark = BROWSER_TESTS

KEY_MIN = 44  # px: the picker's keys
TOPBAR_MAX = 56  # px: the logger's top bar


def box(page, selector: str) -> dict:
    found = page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def assert_prompt_in_view(page) -> None:
    """The prompt's whole line is inside the screen, not under the picker."""
    prompt = box(page, "[data-testid=live-prompt]")
    assert prompt["y"] >= 0 and prompt["y"] + prompt["height"] <= PHONE["height"], prompt
    picker = page.locator(".picker:not([hidden])")
    if picker.count():
        assert prompt["y"] + prompt["height"] <= picker.bounding_box()["y"], prompt


def pick(page, code: str) -> None:
    page.locator(f".picker:not([hidden]) button[data-code='{code}']").click()


def test_the_live_logger_on_a_phone_greys_out_seen_cards_and_keeps_the_prompt_in_view(
    site, phone, shots
):
    game = make_game(slug="phone", variant="seven_card_stud")
    page = phone
    log_in(page, site, game.keeper.username)
    page.goto(f"{site}/tournaments/{game.tournament.pk}/live/")
    live_tap(page, "button:text-is('Start the hand')")
    assert page.url.endswith("#prompt")
    assert "Deal third street" in live_prompt(page)

    # Third street: the picker opens on the first door card.
    assert page.locator(".picker:not([hidden])").count() == 1
    keys = page.locator(".picker button[data-code]").all()
    assert len(keys) == 52
    heights = [k.bounding_box()["height"] for k in keys]
    assert min(heights) >= KEY_MIN, min(heights)
    assert_prompt_in_view(page)
    bar, panel = box(page, "header.topbar")["height"], box(page, ".picker")["height"]
    print(
        f"live logger at 375x740: top bar {bar:.0f} px, picker {panel:.0f} px, keys {min(heights):.0f} px"
    )
    # One compact row on top; its menu opens over the page and reaches every link
    # (a tap on it closes the picker).
    assert box(page, "header.topbar")["height"] <= TOPBAR_MAX
    page.locator(".topbar-menu summary").click()
    assert page.get_by_role("link", name="Leagues").is_visible()
    assert page.get_by_role("button", name="Log out").is_visible()
    assert box(page, "header.topbar")["height"] <= TOPBAR_MAX  # the menu lies over the page
    shots(page, "phone-live-menu", full_page=False)
    page.locator(".topbar-menu summary").click()
    assert not page.get_by_role("link", name="Leagues").is_visible()

    # The first seat's first face-down card is seen too, and goes in first.
    page.locator("form[data-live] input[data-card]").first.click()  # the face-down card
    pick(page, "As")
    pick(page, "2c")
    pick(page, "Kd")
    pick(page, "Qh")
    live_settle(page)
    assert page.url.endswith("#prompt")
    assert live_prompt(page).endswith(" to act")
    assert_prompt_in_view(page)
    assert box(page, "header.topbar")["height"] <= TOPBAR_MAX

    shots(page, "phone-live-step", full_page=False)
    for label in ("Bring in 10", "Call 10", "Call 10"):
        live_act(page, label)
        assert_prompt_in_view(page)

    # Fourth street: the door cards and the face-down ace cannot be picked, and say why.
    assert "Deal fourth street" in live_prompt(page)
    assert page.locator(".picker:not([hidden])").count() == 1
    assert_prompt_in_view(page)
    for code in ("2c", "Kd", "Qh"):
        key = page.locator(f".picker button[data-code='{code}']")
        assert key.is_disabled(), code
        assert key.get_attribute("aria-label").endswith(": face up on the table"), code
    ace = page.locator(".picker button[data-code='As']")
    assert (
        ace.is_disabled() and ace.get_attribute("aria-label") == "A♠: already entered in this hand"
    )
    assert page.locator(".picker button[data-code='3d']").is_enabled()
    shots(page, "phone-live-picker", full_page=False)
    problems = describe("live logger, picker open", axe_violations(page))
    problems += [f"target under 24x24 px: {t}" for t in small_targets(page)]
    assert not problems, "\n".join(problems)

    pick(page, "3d")
    pick(page, "4d")
    pick(page, "5h")
    live_settle(page)
    assert_prompt_in_view(page)
    # Everyone folds to the bring-in's raise: the hand is over and recorded.
    prompt = live_prompt(page)
    first = prompt.removesuffix(" to act")
    live_tap(page, "#next button:has-text('Bet')")
    while live_prompt(page).endswith(" to act"):
        live_act(page, "Fold")
        assert_prompt_in_view(page)
    assert live_prompt(page) == "The hand is over: record it"
    live_tap(page, ".live-finish button")
    hand = Hand.objects.get(tournament=game.tournament)

    # The replayer's last step says who took the pot, and how much.
    page.goto(f"{site}{hand.get_absolute_url()}?step=0#replay")
    while page.locator("section.street.step:not([hidden]) a[rel=next]").count():
        page.locator("section.street.step:not([hidden]) a[rel=next]").click()
    last = page.inner_text("section.street.step:not([hidden]) [data-testid=step-text]")
    assert last.startswith(f"Everyone else folded: {first} takes the pot ("), last
    page.locator("section.street.step:not([hidden])").scroll_into_view_if_needed()
    shots(page, "phone-replayer-last-step", full_page=False)
