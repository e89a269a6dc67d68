"""axe-core checks every page, at phone and at desktop size, in Debian's Chromium.

Each page is loaded as the role that sees it whole (anonymous for the public pages,
the scorekeeper for the entry forms and the live logger, the league's authority for the disputes queue and
the ruling form, its admin for the audit log, a member for a dispute and a refusal), checked against the WCAG 2.0/2.1 A and
AA rules (tests/web/axe.py), and photographed under test-artifacts/web/a11y-*.png.
The test fails listing every violation: rule, impact and target selectors.
"""

from __future__ import annotations

import re

import pytest

from tests.web.axe import axe_violations, describe
from tests.web.conftest import (
    CHROMIUM,
    DESKTOP,
    PHONE,
    add_member,
    log_in,
    make_game,
    record_sample_hands,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not CHROMIUM.exists(),
        reason="needs Debian's chromium at /usr/bin/chromium (apt-get install chromium)",
    ),
]

KLO_ROB = ("K♦", "4♣", "4♠", "7♥", "9♥", "J♦", "2♣")
KLO_OTHER = ("As", "Ah", "3d", "5c", "6c", "8s", "7c")
SLOTS = ("d1", "d2", "u1", "u2", "u3", "u4", "c7")


def fill_calculator(page):
    page.select_option("#id_variant", "kings_and_little_ones")
    page.fill("#id_pl0-name", "Rob")
    for slot, value in zip(SLOTS, KLO_ROB, strict=True):
        page.fill(f"#id_pl0-{slot}", value)
    for slot, value in zip(SLOTS, KLO_OTHER, strict=True):
        page.fill(f"#id_pl1-{slot}", value)
    page.keyboard.press("Escape")
    page.click("[data-testid=calc-submit]")
    page.wait_for_load_state()
    assert "Rob wins" in page.inner_text("[data-testid=calc-result] h2")


def calculate_with_a_bad_card(page):
    page.fill("#id_pl0-name", "Rob")
    page.fill("#id_pl0-d1", "Zz")
    page.keyboard.press("Escape")
    page.click("[data-testid=calc-submit]")
    page.wait_for_load_state()
    assert page.locator("[data-testid=form-error]").is_visible()


def log_in_wrongly(page):
    page.fill("#id_username", "nobody")
    page.fill("#id_password", "wrong")
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    assert page.locator("[role=alert]").is_visible()


def send_an_empty_hand(page):
    page.click("[data-testid=submit-hand]")
    page.wait_for_load_state()
    assert page.locator("[data-testid=form-error]").is_visible()


def open_the_card_picker(page):
    page.select_option("#id_variant", "seven_card_stud")
    page.locator("[data-testid=seat-0] [name$='-d1']").click()
    assert page.locator(".picker").is_visible()


def import_a_broken_file(page):
    page.set_input_files(
        "#import-files",
        files=[{"name": "broken.phh", "mimeType": "text/plain", "buffer": b"variant = 'X'\n"}],
    )
    page.click("[data-testid=imports] button[type=submit]")
    page.wait_for_load_state()
    assert page.locator("[data-testid=imports] .import").count() == 1


def start_a_live_hand(page):
    page.click("button:text-is('Start the hand')")
    page.wait_for_load_state()
    assert "Deal third street" in page.inner_text("[data-testid=live-prompt]")


def deal_the_door_cards(page):
    for input_, code in zip(
        page.locator("form[data-live] input[required]").all(), "2c Kd Qh".split(), strict=True
    ):
        input_.fill(code)
    page.keyboard.press("Escape")
    page.click("form[data-live] button[type=submit]")
    page.wait_for_load_state()
    assert "to act" in page.inner_text("[data-testid=live-prompt]")


def start_no_night(page):
    page.get_by_label("My own (the rows below)").check()
    page.fill("#id_stakes_rows", "4 10 20 40\n6 15 30 61")
    page.click("[data-testid=start-night]")
    page.wait_for_load_state()
    assert page.locator("[data-testid=form-error]").is_visible()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_page_passes_axe(site, browser, shots, size):
    game = make_game()
    hands = record_sample_hands(game)
    authority = add_member(game.league, "friday-authority", "authority")
    t, league, player = game.tournament, game.league, game.players[0]
    slug = league.slug
    full = hands["full"].get_absolute_url()

    # (role, name, address, expected status, what to do on the page before checking it)
    pages = [
        (None, "home", "/", 200, None),
        (None, "league", league.get_absolute_url(), 200, None),
        (None, "league-table", f"/leagues/{slug}/table/", 200, None),
        (None, "league-stats", f"/leagues/{slug}/stats/", 200, None),
        (None, "tournament", t.get_absolute_url(), 200, None),
        (None, "tournament-stats", f"/tournaments/{t.pk}/stats/", 200, None),
        (None, "player", f"/players/{player.pk}/", 200, None),
        (None, "player-stats", f"/players/{player.pk}/stats/", 200, None),
        (None, "hand-full-street", f"{full}?street=3", 200, None),
        (None, "hand-full-step", f"{full}?step=3", 200, None),
        (None, "hand-quick", hands["showdown"].get_absolute_url(), 200, None),
        (None, "hand-disputed", hands["disputed"].get_absolute_url(), 200, None),
        (None, "calculator-result", "/calculator/", 200, fill_calculator),
        (None, "calculator-error", "/calculator/", 200, calculate_with_a_bad_card),
        (None, "login", "/accounts/login/", 200, None),
        (None, "login-error", "/accounts/login/", 200, log_in_wrongly),
        (None, "404", "/leagues/no-such-league/", 404, None),
        (game.keeper, "hand-form", f"/tournaments/{t.pk}/hands/new/", 200, None),
        (
            game.keeper,
            "hand-form-picker",
            f"/tournaments/{t.pk}/hands/new/",
            200,
            open_the_card_picker,
        ),
        (
            game.keeper,
            "hand-form-errors",
            f"/tournaments/{t.pk}/hands/new/",
            200,
            send_an_empty_hand,
        ),
        (game.keeper, "phh-import", t.get_absolute_url(), 200, import_a_broken_file),
        (game.keeper, "live-start", f"/tournaments/{t.pk}/live/", 200, None),
        (game.keeper, "live-deal", f"/tournaments/{t.pk}/live/", 200, start_a_live_hand),
        (game.keeper, "live-bet", f"/tournaments/{t.pk}/live/", 200, deal_the_door_cards),
        (authority, "disputes", f"/leagues/{slug}/disputes/", 200, None),
        (game.admin, "audit", f"/leagues/{slug}/audit/", 200, None),
        (authority, "ruling-form", f"/hands/{hands['disputed'].pk}/pots/0/rule/", 200, None),
        (game.member, "dispute-form", f"/hands/{hands['showdown'].pk}/pots/0/dispute/", 200, None),
        (game.member, "403", f"/tournaments/{t.pk}/hands/new/", 403, None),
        (game.keeper, "night-form", f"/leagues/{slug}/nights/new/", 200, None),
        (game.keeper, "night-form-errors", f"/leagues/{slug}/nights/new/", 200, start_no_night),
        (None, "table-screen", f"/tournaments/{t.pk}/table/", 200, None),
    ]

    viewport = PHONE if size == "phone" else DESKTOP
    found: list[str] = []
    contexts = {}
    try:
        for role, name, url, status, act in pages:
            if role not in contexts:
                context = browser.new_context(viewport=viewport, is_mobile=size == "phone")
                context.set_default_timeout(10_000)
                contexts[role] = context.new_page()
                if role is not None:
                    log_in(contexts[role], site, role.username)
            page = contexts[role]
            response = page.goto(f"{site}{url}")
            assert response.status == status, (name, url, response.status)
            if act:
                act(page)
            found += describe(
                f"{name} ({size}, {re.sub(r'^https?://[^/]+', '', page.url)})", axe_violations(page)
            )
            shots(page, f"a11y-{size}-{name}")
    finally:
        for page in contexts.values():
            page.context.close()
    assert not found, f"{len(found)} accessibility violations:\n" + "\n".join(found)


def test_the_check_reports_what_it_finds(browser):
    """A page with known faults: the check is not silently passing everything."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_content(
        '<!doctype html><html lang="en"><head><title>faults</title></head><body><main>'
        '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'
        '<p style="color:#aaa;background:#fff">faint text</p>'
        '<input id="x" type="text"></main></body></html>'
    )
    lines = describe("faults", axe_violations(page))
    context.close()
    rules = {line.split()[1] for line in lines}
    assert {"image-alt", "color-contrast", "label"} <= rules, lines
    assert any("[critical]" in line and "-> img" in line for line in lines), lines
