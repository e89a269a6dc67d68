"""The live logger with the network cut (375x740, ``context.set_offline``): a tap is kept in
the outbox (IndexedDB) with a banner, a reload offline opens the logger from the service
worker's cache with the outbox intact, and back online each step is applied once, drawn in
place with no reload, and the hand recorded once. axe checks the page with the banner."""

from __future__ import annotations

from tests.web.axe import axe_violations, describe
from tests.web.conftest import (
    BROWSER_TESTS,
    OUTBOX_IDLE,
    live_act,
    live_prompt,
    live_start,
)
from tracker.hands.models import DraftChange, Hand

pytestmark = BROWSER_TESTS

OUTBOX_SIZE = """() => new Promise((resolve, reject) => {
  const open = indexedDB.open('homegame', 1);
  open.onsuccess = () => {
    const req = open.result.transaction('outbox').objectStore('outbox').count();
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  };
  open.onerror = () => reject(open.error);
})"""


def banner(page) -> str:
    return page.inner_text("[data-testid=outbox-banner]")


def test_a_step_and_the_record_made_offline_are_kept_and_applied_once(site, phone, shots):
    page = phone
    game, live = live_start(page, site, "offline")
    # The service worker takes the page over; the next load of the logger is kept by it.
    assert page.evaluate("navigator.serviceWorker.ready.then(r => r.active.state)") in (
        "activating",
        "activated",
    )
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.reload()
    page.wait_for_function(OUTBOX_IDLE)

    page.evaluate("window.sameDocument = true")  # gone if anything reloads the page
    for code in ("2c", "Kd", "Qh"):  # the door cards, online: drawn in place, no reload
        page.locator(f".picker:not([hidden]) button[data-code='{code}']").click()
    page.wait_for_selector("[data-testid=live-prompt]:has-text('to act')")
    page.wait_for_function(OUTBOX_IDLE)
    assert page.evaluate("window.sameDocument === true")
    assert banner(page) == "all saved"

    page.context.set_offline(True)
    live_act(page, "Bring in 10")
    page.wait_for_selector("[data-testid=outbox-banner]:has-text('offline: 1 step waiting')")
    assert page.evaluate(OUTBOX_SIZE) == 1
    shots(page, "phone-live-offline")
    problems = describe("live logger offline, a step waiting", axe_violations(page))
    assert not problems, "\n".join(problems)

    page.reload()  # offline: the logger comes from the service worker's cache
    page.wait_for_selector("[data-testid=live-prompt]")
    page.wait_for_selector("[data-testid=outbox-banner]:has-text('offline: 1 step waiting')")
    assert page.evaluate(OUTBOX_SIZE) == 1
    assert DraftChange.objects.filter(client_id__isnull=False).count() == 1  # the deal only
    page.evaluate("window.sameDocument = true")

    page.context.set_offline(False)  # back online: the outbox goes at once
    page.wait_for_selector("[data-testid=outbox-banner]:text-is('all saved')", timeout=20_000)
    page.wait_for_function(OUTBOX_IDLE)
    assert page.evaluate(OUTBOX_SIZE) == 0
    assert "brings in 10" in page.inner_text("[data-testid=live-log]")
    assert live_prompt(page).endswith("to act")
    live_act(page, "Fold")
    live_act(page, "Fold")
    assert page.evaluate("window.sameDocument === true")  # each step drawn in place

    page.context.set_offline(True)
    page.locator("button:has-text('Record hand 1')").click()
    page.wait_for_selector("[data-testid=outbox-banner]:has-text('offline: 1 step waiting')")
    assert not Hand.objects.exists()
    page.context.set_offline(False)
    page.wait_for_url(f"{site}/hands/*/", timeout=20_000)
    hand = Hand.objects.get()
    assert page.url.endswith(f"/hands/{hand.pk}/")
    kept = DraftChange.objects.filter(client_id__isnull=False)
    assert sorted(kept.values_list("op", flat=True)) == ["events"] * 4 + ["finish"]
    assert kept.values("client_id").distinct().count() == 5
