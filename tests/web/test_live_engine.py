"""The live logger running the engine on the phone (375x740): the browser's Python
(static/vendor/pyodide/) loads tracker/engine/ from /engine-<digest>.zip, so with the
network cut (``context.set_offline``) each tap draws the next buttons at once, with no
reload and no round trip: a whole hand is logged and recorded offline and the next hand
started and logged there (dealt by the phone's engine, in the game the start form offers on
a dealer's choice night: the league's Follow the Queen, a house game), a reload offline opens the logger
from the service worker's cache with the outbox intact and the hand where the phone left
it, and back online each hand is recorded exactly once, settles, replays and counts in the
statistics. A second phone, online without JavaScript, moves a hand while the first is
offline: back online the first is shown both versions and keeps one.

The figures the docs give (docs/recording.md "The engine on the phone") are measured here
and written to test-artifacts/live-engine-figures.json: the first load's size and time, and
the time from a tap to the next button with a slow 3G profile (Chrome's DevTools one)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders

from tests.web.axe import axe_violations, describe
from tests.web.conftest import (
    BROWSER_TESTS,
    OUTBOX_IDLE,
    PHONE,
    live_act,
    live_start,
    live_tap,
    log_in,
)
from tracker.games.services import league_game_create
from tracker.hands.models import SETTLED, DraftChange, DraftHand, Hand, HandSeat
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
    page = phone
    game, live = live_start(page, site, "engine", variant="")  # dealer's choice: stud first
    queen = league_game_create(  # the league's house game, offered offline too
        league=game.league, by=game.admin, name="Follow the Queen", preset="follow_the_queen"
    )
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

    # The next hand, still offline: dealt by the phone's engine from hand 1's result (Bob
    # brought in and took the antes; Bob deals, so Cat is dealt first), in the game chosen
    # among the night's (the start form's choice; this hand's game is offered first), then
    # logged there.
    choice = page.locator("[data-testid=next-game]")
    assert choice.locator("option").all_inner_texts() == [
        "Seven-Card Stud", "Kings and Little Ones", "Low Hole", "Low Hold",
        "Follow the Queen",
    ]  # fmt: skip
    assert choice.input_value() == "seven_card_stud"
    problems = describe("the next hand's game, offline", axe_violations(page))
    assert not problems, "\n".join(problems)
    choice.select_option("low_hold")
    words = page.inner_text("[data-testid=next-game-announcements]")
    assert "buy version: contributed; buy price: one big bet" in words
    choice.select_option(f"game:{queen.slug}")  # the house game, dealt by the phone's engine
    words = page.inner_text("[data-testid=next-game-announcements]")
    assert words.startswith("House game, version 1: 7 cards a player") and "Queens" in words
    page.evaluate("window.scrollTo(0, 0)")  # the prompt sticks at the top once scrolled
    shots(page, "phone-live-next-game-offline")
    page.locator("#next button:text-is('Start hand 2')").click()
    page.wait_for_selector(".live-head h1:text-is('Hand 2 · Follow the Queen')")
    figures["offline_start_next_hand_ms"] = draw_ms(page)
    stacks = [
        s.split()[0] for s in page.locator(".live-seats .seat-chips .muted").all_inner_texts()
    ]
    names = page.locator(".live-seats .seat-name").all_inner_texts()
    assert names == ["Cat", "Ann", "Bob"] and stacks == ["992", "992", "1004"]  # antes posted
    for code in ("3c", "Jd", "Th"):
        page.locator(f".picker:not([hidden]) button[data-code='{code}']").click()
    page.wait_for_selector("#next button:text-is('Bring in 10')")
    live_act(page, "Bring in 10")
    page.wait_for_selector("[data-testid=outbox-banner]:has-text('offline: 8 steps waiting')")
    assert page.evaluate("window.sameDocument === true")
    shots(page, "phone-live-next-hand-offline")
    problems = describe("the next hand, started offline", axe_violations(page))
    assert not problems, "\n".join(problems)

    page.reload()  # offline: the logger from the cache, hand 2 where the phone left it
    page.wait_for_function(ENGINE_READY, timeout=120_000)
    page.wait_for_selector(".live-head h1:has-text('Hand 2')")
    assert "Cat brings in 10" in page.inner_text("[data-testid=live-log]")
    page.wait_for_selector("[data-testid=outbox-banner]:has-text('offline: 8 steps waiting')")
    assert page.evaluate(OUTBOX_SIZE) == 8
    assert not Hand.objects.exists() and DraftHand.objects.count() == 1

    page.context.set_offline(False)  # back online: hand 1 recorded, hand 2 started, once
    page.wait_for_selector("[data-testid=outbox-banner]:text-is('all saved')", timeout=30_000)
    page.wait_for_function(OUTBOX_IDLE)
    assert Hand.objects.get().number == 1  # once
    second = DraftHand.objects.get(number=2)
    # the house game chosen on the phone, checked there, at the version the phone dealt
    assert (second.variant, second.game_version) == ("house", queen.versions.get(number=1))
    assert second.positions == [p.pk for p in (game.players[2], game.players[0], game.players[1])]
    assert second.starting_stacks == [996, 996, 1008] and second.version == 2
    assert page.locator(".live-head h1").inner_text().startswith("Hand 2")
    live_act(page, "Fold")
    live_act(page, "Fold")
    live_tap(page, "button:has-text('Record hand 2')")
    page.wait_for_url(f"{site}/hands/*/", timeout=30_000)
    hands = list(Hand.objects.order_by("number"))
    assert [h.number for h in hands] == [1, 2] and page.url.endswith(f"/hands/{hands[1].pk}/")
    assert hands[1].game_version.game == queen  # recorded once, under the version dealt
    kept = DraftChange.objects.filter(client_id__isnull=False)
    assert sorted(kept.filter(draft__number=1).values_list("op", flat=True)) == (
        ["events"] * 4 + ["finish"]
    )
    assert sorted(kept.filter(draft__number=2).values_list("op", flat=True)) == (
        ["events"] * 4 + ["finish", "start"]
    )
    assert kept.values("client_id").distinct().count() == 11
    # Like any hand: settled, replayed step by step, counted in the statistics.
    assert all(h.status in SETTLED for h in Hand.objects.all())
    assert HandSeat.objects.filter(hand__in=hands).exclude(facts={}).count() == 6
    page.goto(f"{site}{hands[1].get_absolute_url()}?step=3")
    assert page.inner_text("section.street.step:not([hidden]) [data-testid=step-text]")
    page.goto(f"{site}/leagues/{game.league.slug}/stats/")
    assert page.inner_text("[data-testid=live-count]") == "6 logged live"

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


def test_a_hand_moved_on_another_phone_while_this_one_was_offline_asks_which_to_keep(
    site, phone, browser, shots
):
    page = phone
    game, live = live_start(page, site, "two-phones")
    page.wait_for_function(ENGINE_READY, timeout=120_000)
    page.context.set_offline(True)  # this phone, offline on its engine: Bob brings in
    for code in ("2c", "Kd", "Qh"):
        page.locator(f".picker:not([hidden]) button[data-code='{code}']").click()
    live_act(page, "Bring in 10")
    page.wait_for_selector("[data-testid=outbox-banner]:has-text('offline: 2 steps waiting')")

    # The other phone, online and without JavaScript (a POST per step): the same door
    # cards, then Bob completes instead.
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    other = context.new_page()
    log_in(other, site, game.keeper.username)
    other.goto(live)
    for input_, code in zip(other.locator("form[data-live] input[required]").all(),
                            ("2c", "Kd", "Qh"), strict=True):  # fmt: skip
        input_.fill(code)
    other.click("form[data-live] button[type=submit]")
    other.wait_for_load_state()
    other.click("#next button:text-is('Complete to 20')")
    other.wait_for_load_state()
    assert "Bob completes to 20" in other.inner_text("[data-testid=live-log]")

    page.context.set_offline(False)  # back: both versions, and the choice
    box = page.wait_for_selector("[data-testid=live-conflict]", timeout=30_000)
    page.wait_for_function(OUTBOX_IDLE)
    assert "Both have the first" in box.inner_text()
    assert "Bob completes to 20" in page.inner_text("[data-testid=conflict-theirs]")
    assert "Bob brings in 10" in page.inner_text("[data-testid=conflict-mine]")
    assert "Bob brings in 10" not in page.inner_text("[data-testid=conflict-theirs]")
    shots(page, "phone-live-two-phones-conflict")
    problems = describe("the conflict of two phones", axe_violations(page))
    assert not problems, "\n".join(problems)
    draft = DraftHand.objects.get()
    assert draft.version == 2 and not DraftChange.objects.filter(client_id__isnull=False)

    live_tap(page, "[data-testid=live-conflict] button:text-is('Keep mine')")
    page.wait_for_selector("[data-testid=outbox-banner]:text-is('all saved')", timeout=30_000)
    draft.refresh_from_db()
    assert draft.steps[-1] == {"event": "bring_in", "seat": 0}
    kept = DraftChange.objects.filter(draft=draft, client_id__isnull=False)
    assert kept.count() == 2 and set(kept.values_list("op", flat=True)) == {"events"}
    replaced = DraftChange.objects.get(draft=draft, op="replace")  # theirs, kept in history
    assert replaced.steps_before[-1] == {"event": "complete", "seat": 0, "to": 20}
    other.reload()
    assert "Bob brings in 10" in other.inner_text("[data-testid=live-log]")

    # Offline again, this phone ends hand 1 (Bob takes it) and starts hand 2; the other
    # records hand 1 otherwise (Cat takes it), so the stacks hand 2 was dealt from are not
    # the server's: back online, hand 1 can only be the other's, and hand 2 is refused.
    page.context.set_offline(True)
    live_act(page, "Fold")
    live_act(page, "Fold")
    live_tap(page, "button:has-text('Record hand 1')")
    page.locator("#next button:text-is('Start hand 2')").click()
    page.wait_for_selector(".live-head h1:has-text('Hand 2')")
    for label in ("Complete to 20", "Fold", "Fold"):
        other.click(f"#next button:text-is('{label}')")
        other.wait_for_load_state()
    other.click(".live-finish button")
    other.wait_for_load_state()
    context.close()
    page.context.set_offline(False)
    box = page.wait_for_selector("[data-testid=live-conflict]", timeout=30_000)
    assert "hand 1 was recorded there" in box.inner_text()
    assert page.locator("[data-testid=live-conflict] button").all_inner_texts() == ["Keep theirs"]
    live_tap(page, "[data-testid=live-conflict] button:text-is('Keep theirs')")
    refused = page.wait_for_selector("[data-testid=start-refused]", timeout=30_000)
    page.wait_for_function(OUTBOX_IDLE)
    assert "Hand 2 (started on this phone) was not recorded" in refused.inner_text()
    # Each stack that differs, the server's and the phone's, and what to do.
    assert re.search(r"\w+'s stack is [\d,]+ here, [\d,]+ on the phone", refused.inner_text())
    assert "reload to continue" in refused.inner_text()
    assert banner(page).startswith("not saved: hand 2")
    assert not page.locator("[data-testid=live-conflict]").count()
    shots(page, "phone-live-start-refused")
    problems = describe("a hand started on the phone, refused", axe_violations(page))
    assert not problems, "\n".join(problems)
    assert Hand.objects.get().draft.changes.filter(outcome="dropped").count() == 3
    assert not DraftHand.objects.filter(number=2).exists()
    assert page.evaluate(OUTBOX_SIZE) == 0
