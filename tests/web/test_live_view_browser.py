"""The table screen's QR code and the read-only live view it opens, in a real browser
(Debian's Chromium) at phone size (375x740).

Screenshots land in test-artifacts/web/: live-qr-phone, live-view-phone, live-view-after-phone,
live-view-revoked-phone, and league-calendar-phone (the admins' calendar page, checked too).
"""

from __future__ import annotations

import re

import segno
from playwright.sync_api import expect

from tests.web.axe import axe_violations, describe
from tests.web.conftest import BROWSER_TESTS, log_in, make_game, new_phone, record_walk
from tests.web.targets import overflow_problems, small_targets
from tracker.tournaments.models import TableLink

pytestmark = BROWSER_TESTS


def checked(page, where: str) -> list[str]:
    """axe-core's WCAG 2 A/AA violations, small tap targets and sideways scrolling."""
    return [
        *describe(where, axe_violations(page)),
        *(f"{where}: {p}" for p in small_targets(page)),
        *(f"{where}: {p}" for p in overflow_problems(page)),
    ]


def test_the_qr_link_opens_a_read_only_screen_on_a_phone_until_revoked(site, browser, shots):
    game = make_game(slug="hidden", public=False)
    t = game.tournament
    found: list[str] = []
    errors: list[str] = []
    admin = new_phone(browser, errors)
    guest = new_phone(browser, errors)  # a fresh context: no account, no cookie
    try:
        # The admin puts a QR code on the table screen.
        log_in(admin, site, game.admin.username, f"/tournaments/{t.pk}/table/")
        admin.click("[data-testid=ts-share-new]")
        admin.wait_for_load_state()
        expect(admin.locator("[data-testid=ts-qr] svg")).to_be_visible()
        url = admin.get_attribute("[data-testid=ts-share-url]", "href")
        assert re.fullmatch(rf"{re.escape(site)}/live/[^/]+/", url), url
        # The code is that link: segno draws the same modules for it.
        drawn = re.findall(r' d="([^"]+)"', admin.inner_html("[data-testid=ts-qr]"))
        code = segno.make(url, error="m").svg_inline(scale=4, border=4, light="#fff")
        assert drawn == re.findall(r' d="([^"]+)"', code) and len(drawn[-1]) > 100
        shots(admin, "live-qr-phone")
        found += checked(admin, "table screen with its QR code (phone)")

        # A phone with no account opens it: the screen, read-only.
        guest.goto(url)
        screen = guest.locator("[data-testid=table-screen]")
        expect(screen).to_contain_text("1 of 50")
        assert guest.inner_text("[data-testid=who]") == "Live view, read-only"
        assert guest.locator("form").count() == 0
        assert "Hidden" not in guest.inner_text("body")  # the league's name stays out of it
        shots(guest, "live-view-phone")
        found += checked(guest, "live view (phone)")
        # Polls that find nothing new answer 304, and a new hand shows without a reload.
        with guest.expect_response(lambda r: "/state/" in r.url and r.status == 304):
            pass
        guest.evaluate("window.notReloaded = true")
        record_walk(game)
        expect(guest.locator("[data-testid=ts-hand]")).to_contain_text("2 of 50", timeout=15_000)
        assert "Bob takes 12" in guest.inner_text("[data-testid=ts-last]")
        assert guest.evaluate("window.notReloaded === true")
        shots(guest, "live-view-after-phone")

        # Every write from that phone is refused, and nothing changes.
        for target in (url, url + "state/"):
            assert guest.request.post(target, form={"x": "1"}).status == 403
        assert guest.request.post(f"{site}/tournaments/{t.pk}/hands/new/").status in (403, 404)
        assert t.hands.count() == 1

        # The admin revokes it: the open screen says so, a reload answers 404.
        admin.reload()
        admin.click("[data-testid=ts-revoke]")
        admin.wait_for_load_state()
        assert "Live view link revoked" in admin.inner_text("main")
        assert TableLink.objects.get().revoked_at is not None
        expect(guest.locator("[data-ts-status]")).to_have_text(
            "This screen is gone (its link was revoked or has expired).", timeout=15_000
        )
        assert guest.goto(url).status == 404
        shots(guest, "live-view-revoked-phone")

        # The admin's calendar page (docs/nights.md, "Calendars") with a new feed address.
        admin.goto(f"{site}/leagues/{game.league.slug}/calendar/")
        admin.click("[data-testid=calendar-new]")
        admin.wait_for_load_state()
        expect(admin.locator("[data-testid=calendar-address]")).to_be_visible()
        shots(admin, "league-calendar-phone")
        found += checked(admin, "league calendar (phone)")
    finally:
        admin.context.close()
        guest.context.close()
    assert not errors, f"JavaScript errors: {errors}"
    assert not found, "\n".join(found)
