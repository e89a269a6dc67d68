"""The live logger running the engine on the phone (375x740): the browser's Python
(static/vendor/pyodide/) loads tracker/engine/ from /engine-<digest>.zip, so with the
network cut (``context.set_offline``) each tap draws the next buttons at once, with no
reload and no round trip: a whole hand is logged and recorded offline, a reload offline
opens the logger from the service worker's cache with the outbox intact and the hand where
the phone left it, and back online the hand is recorded exactly once.

The figures the docs give (docs/recording.md "The engine on the phone") are measured here
and written to test-artifacts/live-engine-figures.json: the first load's size and time, and
the time from a tap to the next button with a slow 3G profile (Chrome's DevTools one)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

from tests.web.axe import axe_violations, describe
from tests.web.conftest import BROWSER_TESTS, OUTBOX_IDLE, live_act, live_tap, log_in, make_game
from tracker.hands.models import DraftChange, Hand
from web.views import app

pytestmark = [
    *BROWSER_TESTS,
    pytest.mark.skipif(not app.pyodide_vendored(), reason="`make vendor` has not run"),
]

ENGINE_READY = "() => document.querySelector('[data-live-draft]').dataset.engine === 'ready'"
#: Chrome DevTools' "Slow 3G": 2 s of latency, 400 kbit/s each way (in bytes per second).
SLOW_3G = {
    "offline": False,
    "latency": 2000,
    "downloadThroughput": 50_000,
    "uploadThroughput": 50_000,
}
LOADED = """() => performance.getEntriesByType('navigation').concat(
  performance.getEntriesByType('resource')).reduce((n, e) => n + (e.transferSize || 0), 0)"""
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


def draw_ms(page) -> int:
    return int(page.get_attribute("[data-live-draft]", "data-draw-ms"))


def test_a_whole_hand_logged_offline_on_the_phones_engine_is_recorded_once(site, phone, shots):
    figures: dict[str, object] = {}
    game = make_game(slug="engine", variant="seven_card_stud")
    page = phone
    log_in(page, site, game.keeper.username)
    live = f"{site}/tournaments/{game.tournament.pk}/live/"
    page.goto(live)
    live_tap(page, "button:text-is('Start the hand')")
    page.wait_for_function(ENGINE_READY, timeout=120_000)
    # The page's own files as Resource Timing counts them, and what the engine's worker
    # fetches (its requests are not in the page's timeline): Pyodide's files and the zip.
    vendored = sum(
        Path(finders.find(app.PYODIDE_DIR + name)).stat().st_size for name in app.PYODIDE_FILES
    )
    figures["first_load_bytes"] = page.evaluate(LOADED) + vendored + len(app.engine_bundle()[1])
    figures["first_load_engine_ready_ms"] = int(
        page.get_attribute("[data-live-draft]", "data-engine-ms")
    )
    page.wait_for_function("() => navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.reload()  # from the worker's cache now: the browser's Python and the engine too
    page.wait_for_function(ENGINE_READY, timeout=120_000)
    page.wait_for_function(OUTBOX_IDLE)
    figures["cached_load_engine_ready_ms"] = int(
        page.get_attribute("[data-live-draft]", "data-engine-ms")
    )

    page.context.set_offline(True)
    page.evaluate("window.sameDocument = true")  # gone if anything reloads the page
    for code in ("2c", "Kd", "Qh"):  # the door cards, offline: drawn by the phone's engine
        page.locator(f".picker:not([hidden]) button[data-code='{code}']").click()
    page.wait_for_selector("[data-testid=live-prompt]:has-text('to act')")
    assert page.inner_text("#next button >> nth=0") == "Bring in 10"
    figures["offline_tap_to_next_button_ms"] = [draw_ms(page)]
    live_act(page, "Bring in 10")
    assert "brings in 10" in page.inner_text("[data-testid=live-log]")
    figures["offline_tap_to_next_button_ms"].append(draw_ms(page))
    live_act(page, "Fold")
    live_act(page, "Fold")
    page.wait_for_selector("button:has-text('Record hand 1')")
    page.wait_for_selector("[data-testid=outbox-banner]:has-text('offline: 4 steps waiting')")
    assert page.evaluate("window.sameDocument === true")
    shots(page, "phone-live-engine-offline")
    problems = describe("live logger drawn by the phone's engine", axe_violations(page))
    assert not problems, "\n".join(problems)
    live_tap(page, "button:has-text('Record hand 1')")
    page.wait_for_selector("[data-testid=live-prompt]:has-text('recorded on this phone')")
    page.wait_for_selector("[data-testid=outbox-banner]:has-text('offline: 5 steps waiting')")
    assert page.evaluate(OUTBOX_SIZE) == 5
    assert not Hand.objects.exists()
    assert not DraftChange.objects.filter(client_id__isnull=False).exists()

    page.reload()  # offline: the logger from the cache, the hand where the phone left it
    page.wait_for_function(ENGINE_READY, timeout=120_000)
    page.wait_for_selector("[data-testid=live-prompt]:has-text('recorded on this phone')")
    page.wait_for_selector("[data-testid=outbox-banner]:has-text('offline: 5 steps waiting')")
    assert page.evaluate(OUTBOX_SIZE) == 5

    page.context.set_offline(False)  # back online: the outbox goes, the hand is recorded
    page.wait_for_url(f"{site}/hands/*/", timeout=30_000)
    hand = Hand.objects.get()
    assert page.url.endswith(f"/hands/{hand.pk}/")
    kept = DraftChange.objects.filter(client_id__isnull=False)
    assert sorted(kept.values_list("op", flat=True)) == ["events"] * 4 + ["finish"]
    assert kept.values("client_id").distinct().count() == 5

    # The next hand, on a slow 3G network: the phone draws each step itself; the server's
    # answer follows when it comes.
    page.goto(live)
    live_tap(page, "button:text-is('Start the hand')")
    page.wait_for_function(ENGINE_READY, timeout=120_000)
    page.wait_for_function(OUTBOX_IDLE)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_3G)
    for code in ("3c", "Jd", "Th"):
        page.locator(f".picker:not([hidden]) button[data-code='{code}']").click()
    page.wait_for_selector("[data-testid=live-prompt]:has-text('to act')")
    slow = [draw_ms(page)]
    started = page.evaluate("performance.now()")
    page.locator("#next button:text-is('Bring in 10')").click()
    page.wait_for_selector("#next button:text-is('Fold')")
    slow.append(draw_ms(page))
    page.wait_for_selector("[data-testid=outbox-banner]:text-is('all saved')", timeout=60_000)
    page.wait_for_function(OUTBOX_IDLE, timeout=60_000)
    figures["slow_3g_tap_to_next_button_ms"] = slow
    figures["slow_3g_tap_to_server_saved_ms"] = int(page.evaluate("performance.now()") - started)
    cdp.send("Network.emulateNetworkConditions", {**SLOW_3G, "latency": 0,
                                                  "downloadThroughput": -1,
                                                  "uploadThroughput": -1})  # fmt: skip
    Path("test-artifacts").mkdir(exist_ok=True)
    Path("test-artifacts/live-engine-figures.json").write_text(json.dumps(figures, indent=2))
