"""The pages in a real browser: Debian's Chromium, headless, driven by Playwright.

Each test saves screenshots under test-artifacts/web/ (phone-sized unless named
otherwise) so the pages can be looked at after a run.
"""

from __future__ import annotations

import re

from tests.factories import add_member, fold_entry, make_league, make_tournament
from tests.web.conftest import (
    BROWSER_TESTS,
    DESKTOP,
    PASSWORD,
    PHONE,
    SEVEN_ACES,
    SEVEN_KINGS,
    fill_cards,
    fill_results,
    live_prompt,
    live_tap,
    log_in,
    make_game,
    record_sample_hands,
    seat_input,
)
from tracker.hands.services.recording import hand_record
from tracker.tournaments.selectors import tournament_state

pytestmark = BROWSER_TESTS


# --------------------------------------------------------------------------


def test_scorekeeper_logs_a_hand_on_a_phone(site, phone, shots):
    game = make_game()
    t = game.tournament
    names = [s.player.name for s in tournament_state(t).next_positions()]
    page = phone
    page.goto(f"{site}{t.get_absolute_url()}")
    assert "Not logged in" in page.inner_text("[data-testid=who]")
    page.click("text=Log in")
    shots(page, "phone-login")
    page.fill("#id_username", game.keeper.username)
    page.fill("#id_password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(rf".*/tournaments/{t.pk}/$"))
    shots(page, "phone-tournament-before")

    page.click("[data-testid=record-hand]")
    page.wait_for_url(re.compile(r".*/hands/new/$"))
    assert page.locator("h1").inner_text() == "Record hand 1"
    page.select_option("#id_variant", "seven_card_stud")
    # Variant-specific inputs hide once the game is known.
    assert not page.locator("[data-testid=seat-0] [name$='-bought']").is_visible()

    # Seat 0 (the dealer's left) picks every card from the picker.
    seat_input(page, 0, "put_in").fill("24")
    seat_input(page, 0, "d1").click()
    picker = page.locator(".picker")
    assert picker.is_visible()
    for code in ("As", "Ah", "Ad", "3c", "4c", "9d", "2c"):
        picker.locator(f"button[data-code='{code}']").click()
    assert seat_input(page, 0, "d1").input_value() == "A♠"
    assert seat_input(page, 0, "c7").input_value() == "2♣"
    shots(page, "phone-hand-form-picker", full_page=False)
    # In the next seat the cards already taken cannot be picked again.
    seat_input(page, 1, "d1").click()
    assert picker.locator("button[data-code='As']").is_disabled()
    assert picker.locator("button[data-code='Ks']").is_enabled()
    page.keyboard.press("Escape")
    # Seat 1 types its cards, any spelling.
    seat_input(page, 1, "put_in").fill("24")
    for slot, value in zip(
        ("d1", "d2", "u1", "u2", "u3", "u4", "c7"),
        ("Ks", "kh", "K♦", "3d", "4d", "5h", "2d"),
        strict=True,
    ):
        seat_input(page, 1, slot).fill(value)
    seat_input(page, 2, "put_in").fill("4")
    seat_input(page, 2, "folded").select_option("third")
    seat_input(page, 0, "result").select_option("won")
    page.keyboard.press("Escape")
    shots(page, "phone-hand-form-filled")

    page.click("[data-testid=submit-hand]")
    page.wait_for_url(re.compile(rf".*/tournaments/{t.pk}/$"))
    assert "Hand 1 recorded" in page.inner_text(".messages")
    hands = page.inner_text("[data-testid=hands]")
    assert "Seven-Card Stud" in hands and "verified" in hands
    assert f"{names[0]} takes 52" in hands
    standings = page.inner_text("[data-testid=standings]")
    assert "1028" in standings  # 1000 - 24 + 52
    assert page.locator("[data-testid=chart] svg").count() == 2
    shots(page, "phone-tournament-after")


def test_form_error_keeps_what_was_typed(site, phone, shots):
    game = make_game(variant="kings_and_little_ones")
    t = game.tournament
    page = phone
    log_in(page, site, game.keeper.username, f"/tournaments/{t.pk}/hands/new/")
    assert page.locator("#id_variant").input_value() == "kings_and_little_ones"
    seat_input(page, 0, "put_in").fill("24")
    for slot, value in zip(
        ("d1", "d2", "u1", "u2", "u3", "u4", "c7"),
        ("Kd", "4c", "4s", "7h", "9h", "Jd", "Zz"),
        strict=True,
    ):
        seat_input(page, 0, slot).fill(value)
    seat_input(page, 1, "put_in").fill("24")
    for slot, value in zip(
        ("d1", "d2", "u1", "u2", "u3", "u4", "c7"),
        ("As", "Ah", "3d", "5c", "6c", "8s", "Kd"),  # the K♦ again
        strict=True,
    ):
        seat_input(page, 1, slot).fill(value)
    seat_input(page, 2, "put_in").fill("4")
    seat_input(page, 2, "folded").select_option("third")
    page.keyboard.press("Escape")
    page.click("[data-testid=submit-hand]")
    page.wait_for_load_state()

    assert "not recorded" in page.inner_text("[data-testid=form-error]")
    seat0 = page.locator("[data-testid=seat-0]")
    assert "'Zz' is not a card" in seat0.inner_text()
    assert "Kd is entered twice" in seat0.inner_text()
    assert "Kd is entered twice" in page.locator("[data-testid=seat-1]").inner_text()
    assert seat_input(page, 0, "c7").input_value() == "Zz"
    assert seat_input(page, 0, "put_in").input_value() == "24"
    assert seat_input(page, 1, "u4").input_value() == "8♠"  # tidied as typed
    assert seat_input(page, 2, "folded").input_value() == "third"
    assert seat_input(page, 0, "c7").get_attribute("aria-invalid") == "true"
    shots(page, "phone-hand-form-errors")

    # Fix the two cards and send it again: recorded.
    seat_input(page, 0, "c7").fill("2c")
    seat_input(page, 1, "c7").fill("7c")
    page.keyboard.press("Escape")
    page.click("[data-testid=submit-hand]")
    page.wait_for_url(re.compile(rf".*/tournaments/{t.pk}/$"))
    assert "Hand 1 recorded" in page.inner_text(".messages")


def test_calculator_shows_the_kings_and_little_ones_example(site, phone, shots):
    page = phone
    page.goto(f"{site}/calculator/")
    page.select_option("#id_variant", "kings_and_little_ones")
    assert page.locator("#id_opt-kings_and_little_ones__king_required").input_value() == "yes"
    assert not page.locator("#id_opt-low_hole__game").is_visible()
    page.fill("#id_pl0-name", "Rob")
    for slot, value in zip(
        ("d1", "d2", "u1", "u2", "u3", "u4", "c7"),
        ("K♦", "4♣", "4♠", "7♥", "9♥", "J♦", "2♣"),
        strict=True,
    ):
        page.fill(f"#id_pl0-{slot}", value)
    for slot, value in zip(
        ("d1", "d2", "u1", "u2", "u3", "u4", "c7"),
        ("As", "Ah", "3d", "5c", "6c", "8s", "7c"),
        strict=True,
    ):
        page.fill(f"#id_pl1-{slot}", value)
    page.keyboard.press("Escape")
    shots(page, "phone-calculator-form")
    page.click("[data-testid=calc-submit]")
    page.wait_for_load_state()
    result = page.locator("[data-testid=calc-result]")
    assert "Rob wins" in result.locator("h2").inner_text()
    rob = result.locator("[data-testid=calc-seat]").first
    assert "four fours, jack kicker" in rob.inner_text()
    assert "as 4♥" in rob.inner_text() and "as 4♦" in rob.inner_text()
    result.scroll_into_view_if_needed()
    shots(page, "phone-calculator-result")


def test_replayer_steps_through_a_full_history_hand(site, browser, phone, shots):
    game = make_game()
    hands = record_sample_hands(game)
    hand = hands["full"]
    page = phone
    page.goto(f"{site}{hand.get_absolute_url()}?street=3#replay")
    current = page.locator("section.street:not([hidden])")
    assert current.locator("h2").inner_text() == "Third street"
    assert current.locator("[data-testid=pot]").inner_text() == "Pot 72"
    shots(page, "phone-replayer-third")
    steps = [
        ("Fourth street", "132"),
        ("Fifth street", "212"),
        ("Sixth street", "372"),
        ("Seventh street", "372"),
        ("Showdown", "372"),
    ]
    for title, pot in steps:
        current.locator("a[rel=next]").click()
        current = page.locator("section.street:not([hidden])")
        assert current.locator("h2").inner_text() == title
        assert current.locator("[data-testid=pot]").inner_text() == f"Pot {pot}"
        if title == "Fifth street":
            assert "street=5" in page.url  # the address follows, to share or reload
            assert "folded on 5th street" in current.inner_text()
    assert "as 4♥" in current.inner_text()
    assert "four fours, jack kicker" in page.inner_text("#showdown")
    shots(page, "phone-replayer-showdown")
    current.locator("a[rel=prev]").click()
    assert page.locator("section.street:not([hidden]) h2").inner_text() == "Seventh street"

    # Without JavaScript the same links step by loading the page.
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    plain = context.new_page()
    plain.goto(f"{site}{hand.get_absolute_url()}?street=3")
    plain.locator("section.street:not([hidden]) a[rel=next]").click()
    plain.wait_for_url(re.compile(r".*street=4.*"))
    assert plain.locator("section.street:not([hidden]) h2").inner_text() == "Fourth street"
    context.close()

    desktop = browser.new_context(viewport=DESKTOP)
    wide = desktop.new_page()
    wide.goto(f"{site}{hand.get_absolute_url()}?street=4")
    shots(wide, "desktop-replayer-fourth")
    desktop.close()


def test_replayer_steps_action_by_action(site, browser, phone, shots):
    game = make_game()
    hand = record_sample_hands(game)["full"]
    page = phone
    page.goto(f"{site}{hand.get_absolute_url()}")  # opens at third street
    current = page.locator("section.street:not([hidden])")
    assert current.locator("h2").inner_text() == "Third street"
    current.get_by_role("link", name="3rd action by action").click()
    current = page.locator("section.street:not([hidden])")
    total = page.locator("section.street.step").count()
    assert total > 10
    assert current.locator("h2").inner_text() == f"Third street 1 of {total}"
    text = current.locator("[data-testid=step-text]").inner_text()
    assert text.startswith("Third street is dealt: ")
    assert "step=0" in page.url
    shots(page, "phone-replayer-step-first")
    seen = [text]
    for _ in range(total - 1):
        page.keyboard.press("ArrowRight")
        current = page.locator("section.street:not([hidden])")
        seen.append(current.locator("[data-testid=step-text]").inner_text())
    assert "brings in" in seen[1]
    assert any(s.startswith("Fourth street is dealt") for s in seen)
    assert f"step={total - 1}" in page.url
    assert current.locator("a[rel=next]").count() == 0  # the last action
    shots(page, "phone-replayer-step-last")
    page.keyboard.press("ArrowLeft")
    assert (
        page.locator("section.street:not([hidden]) [data-testid=step-text]").inner_text()
        == (seen[-2])
    )

    # Without JavaScript each step is a page of its own.
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    plain = context.new_page()
    plain.goto(f"{site}{hand.get_absolute_url()}?step=1")
    assert (
        plain.locator("section.street:not([hidden]) [data-testid=step-text]").inner_text()
        == (seen[1])
    )
    plain.locator("section.street:not([hidden]) a[rel=next]").click()
    plain.wait_for_url(re.compile(r".*step=2.*"))
    assert (
        plain.locator("section.street:not([hidden]) [data-testid=step-text]").inner_text()
        == (seen[2])
    )
    width = plain.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"]
    context.close()


def test_every_page_looks_finished(site, browser, phone, shots):
    game = make_game()
    hands = record_sample_hands(game)
    t = game.tournament
    page = phone
    log_in(page, site, game.member.username)
    pages = {
        "home": "/",
        "league": game.league.get_absolute_url(),
        "player": f"/players/{game.players[0].pk}/",
        "tournament": t.get_absolute_url(),
        "hand-quick-disputed": hands["disputed"].get_absolute_url(),
        "calculator": "/calculator/",
        "player-stats": f"/players/{game.players[0].pk}/stats/",
        "league-table": f"/leagues/{game.league.slug}/table/",
    }
    for name, url in pages.items():
        response = page.goto(f"{site}{url}")
        assert response.status == 200, url
        assert "Logged in as friday-member" in page.inner_text("[data-testid=who]")
        shots(page, f"phone-{name}")
    response = page.goto(f"{site}/tournaments/{t.pk}/hands/new/")
    assert response.status == 403
    assert "Not your deal" in page.inner_text("main")
    shots(page, "phone-403")
    response = page.goto(f"{site}/leagues/no-such-league/")
    assert response.status == 404
    assert "Nothing here" in page.inner_text("main")
    shots(page, "phone-404")
    # Nothing is wider than the phone's screen.
    for url in pages.values():
        page.goto(f"{site}{url}")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{url} scrolls sideways ({width}px)"

    desktop = browser.new_context(viewport=DESKTOP)
    wide = desktop.new_page()
    for name in ("tournament", "league", "home"):
        wide.goto(f"{site}{pages[name]}")
        shots(wide, f"desktop-{name}")
    desktop.close()


def test_live_logger_on_a_phone(site, browser, phone, shots):
    """A five-player stud hand logged live at 375x740: three fold on third street, two
    check it down, one concedes at the showdown and the other wins. Every tap is counted
    (docs/recording.md gives the figure and its breakdown); a reload mid-hand loses
    nothing, undo takes back a step, a second phone's stale form is refused."""
    league, admin = make_league(slug="live")
    keeper = add_member(league, "live-keeper", "scorekeeper")
    tournament, _ = make_tournament(
        league=league, by=admin, names=("Ann", "Bob", "Cat", "Dan", "Eve"),
        default_variant="seven_card_stud",
    )  # fmt: skip
    page = phone
    log_in(page, site, keeper.username, tournament.get_absolute_url())
    taps = {"start": 0, "up cards": 0, "actions": 0, "shown": 0, "record": 0, "undo": 0}

    def tap(selector, kind):
        taps[kind] += 1
        live_tap(page, selector)

    def pick(code, kind="up cards"):
        taps[kind] += 1
        page.locator(f".picker:not([hidden]) button[data-code='{code}']").click()

    def act(label):
        tap(f"#next button:text-is('{label}')", "actions")

    def prompt():
        return live_prompt(page)

    def log():
        return page.inner_text("[data-testid=live-log]")

    # One tap on the tournament page starts the hand with the night's variant.
    shots(page, "phone-live-tournament", full_page=False)
    tap("[data-testid=live-hand]", "start")
    assert prompt().startswith("Deal third street")
    assert page.locator("#id_variant").count() == 0  # no picker: the night is stud
    shots(page, "phone-live-deal")
    for code in ("2c", "Kd", "Qh", "Jc", "9s"):  # door cards, seats from the dealer's left
        pick(code)
    page.wait_for_selector("[data-testid=live-prompt]:has-text('to act')")
    shots(page, "phone-live-bring-in")
    names = [n.inner_text() for n in page.locator(".live-seats .seat-name").all()]
    first, second = names[:2]
    assert prompt() == f"{first} to act"
    act("Bring in 10")
    act("Call 10")
    page.reload()  # a reload mid-hand loses nothing
    assert f"{second} calls 10." in log()
    act("Fold")
    tap("button:text-is('Undo the last step')", "undo")  # one tap takes it back
    assert "folds" not in log()
    act("Fold")
    taps["undo"] += 1  # the fold again: counted with the undo, not with the hand
    taps["actions"] -= 1
    act("Fold")
    act("Fold")
    # A second phone on the same hand, showing it as it was, cannot log over it.
    other = browser.new_context(viewport=PHONE)
    second_phone = other.new_page()
    log_in(second_phone, site, keeper.username, f"/tournaments/{tournament.pk}/live/")
    for street, cards in (
        ("fourth", ("3d", "4d")),
        ("fifth", ("5d", "6d")),
        ("sixth", ("7d", "8h")),
    ):
        assert prompt().startswith(f"Deal {street} street")
        for code in cards:
            pick(code)
        page.wait_for_selector("[data-testid=live-prompt]:has-text('to act')")
        if street == "fourth":
            second_phone.reload()  # the second phone shows the same turn
            shots(page, "phone-live-check-around")
        act("Check around")  # both check, in order, in one tap
        if street == "fourth":
            assert log().count("checks.") == 2, log()
            # Its tap goes through its outbox: a conflict, both versions shown, a choice.
            live_tap(second_phone, "#next button:text-is('Check')")
            conflict = second_phone.inner_text("[data-testid=live-conflict]")
            assert "changed on another screen" in conflict and "keep yours or theirs" in conflict
            shots(second_phone, "phone-live-stale")
            live_tap(second_phone, "[data-testid=live-conflict] button:text-is('Keep theirs')")
            assert second_phone.inner_text("[data-testid=outbox-banner]") == "all saved"
            assert second_phone.locator("[data-testid=live-conflict]").count() == 0
            second_phone.reload()  # reloaded, it shows the hand as the first phone left it
            assert second_phone.inner_text("[data-testid=live-log]") == log()
            assert second_phone.inner_text("[data-testid=live-prompt]") == prompt()
    other.close()
    assert prompt().endswith("to act")  # seventh street was dealt face down by itself
    act("Check around")
    assert prompt().startswith("Showdown")
    shots(page, "phone-live-showdown", full_page=False)
    # One concedes with one tap (the picker, open for the cards, leaves the button in
    # sight); the last hand in cannot muck, and wins uncontested without showing.
    assert page.locator(".picker").is_visible()
    tap(f"button:text-is('{first} mucks')", "actions")
    assert f"{first} mucks" in log()
    assert page.locator(f"button:text-is('{second} mucks')").count() == 0
    assert prompt() == "The hand is over: record it"
    assert not page.locator(".picker").is_visible()  # the winner's cards are optional
    assert "may show, if seen" in page.inner_text(f"[data-testid=show-{names.index(second)}]")
    shots(page, "phone-live-over", full_page=False)
    tap("button:text-is('Record hand 1')", "record")
    assert page.url.rstrip("/").split("/")[-2] == "hands"
    shots(page, "phone-live-recorded")
    hand = tournament.hands.get()
    assert hand.entry_mode == "full" and hand.status == "verified"
    assert hand.entry["actions"][-1] == "p1 sm"  # the muck, the last action
    assert hand.hand_seats.get(position=1).won == hand.pots.get().amount
    # It counts in the statistics: only the call of the bring-in is money put in by choice.
    vpip = {s.position: bool(s.facts.get("vpip")) for s in hand.hand_seats.all()}
    assert vpip == {0: False, 1: True, 2: False, 3: False, 4: False}, vpip
    # And it replays action by action.
    page.goto(f"{site}{hand.get_absolute_url()}?step=1")
    steps = 1
    while page.locator("section.street.step:not([hidden]) a[rel=next]").count():
        page.locator("section.street.step:not([hidden]) a[rel=next]").click()
        steps += 1
        assert steps < 100
    text = page.inner_text("section.street.step:not([hidden]) [data-testid=step-text]")
    pot = hand.pots.get().amount
    assert text == f"{second} takes the pot ({pot}).", text  # who took it, and how much
    page.locator("section.street.step:not([hidden]) a[rel=prev]").click()
    text = page.inner_text("section.street.step:not([hidden]) [data-testid=step-text]")
    assert f"{first} mucks" in text, text  # the step before: the muck, told once
    hand_taps = sum(v for k, v in taps.items() if k != "undo")
    # 1 to start, 11 face-up cards, 10 actions (bring-in, call, 3 folds, 4 check-arounds,
    # 1 muck), 1 to record; the undo and the fold again apart.
    assert taps == {
        "start": 1, "up cards": 11, "actions": 10, "shown": 0, "record": 1, "undo": 2
    }, taps  # fmt: skip
    assert hand_taps == 23
    print(f"live logger: {hand_taps} taps for the five-player hand ({taps})")


def test_scripts_run_under_the_content_security_policy(site, phone):
    """The stats page's tournament select submits itself (from homegame.js, no inline
    handler) and nothing is refused by the policy (the phone fixture checks the console)."""
    game = make_game()
    record_sample_hands(game)
    page = phone
    log_in(page, site, game.member.username)
    response = page.goto(f"{site}/players/{game.players[0].pk}/stats/")
    assert "script-src 'self'" in response.headers["content-security-policy"]
    select = page.locator("#scope-t")
    assert select.count() == 1
    value = select.locator("option").nth(1).get_attribute("value")
    with page.expect_navigation():
        select.select_option(value)
    assert f"tournament={value}" in page.url


# --------------------------------------------------------------------------
# The results form (catching up a hand afterwards)


def test_results_form_folded_on_third_street_in_one_tap(site, browser, phone, shots):
    game = make_game(variant="seven_card_stud")
    t = game.tournament
    page = phone
    log_in(page, site, game.keeper.username, f"/tournaments/{t.pk}/hands/new/")
    shots(page, "phone-results-form-empty")
    # One tap: the chips are the ante, the cards and the finish are gone.
    page.click("[data-testid=fold3-2]")
    assert seat_input(page, 2, "put_in").input_value() == "4"
    assert not seat_input(page, 2, "d1").is_visible()
    assert not seat_input(page, 2, "folded").is_visible()
    seat2 = page.locator("[data-testid=seat-2]").bounding_box()
    assert seat2["height"] < 200, seat2
    # Untick: back as it was.
    page.click("[data-testid=fold3-2]")
    assert seat_input(page, 2, "put_in").input_value() == ""
    assert seat_input(page, 2, "d1").is_visible()
    page.click("[data-testid=fold3-2]")

    # The chips of the showdown players follow the first typed...
    seat_input(page, 0, "put_in").fill("24")
    assert seat_input(page, 1, "put_in").input_value() == "24"
    # ... until typed over (someone all in for less).
    seat_input(page, 1, "put_in").fill("20")
    seat_input(page, 0, "put_in").fill("24")
    assert seat_input(page, 1, "put_in").input_value() == "20"
    seat_input(page, 1, "put_in").fill("24")
    fill_results(page, put_in={})
    shots(page, "phone-results-form-folded")
    page.click("[data-testid=submit-hand]")
    page.wait_for_url(re.compile(rf".*/tournaments/{t.pk}/$"))
    assert "Hand 1 recorded" in page.inner_text(".messages")
    hand = t.hands.get(number=1)
    assert hand.entry["seats"][2] == {"player": hand.positions[2], "put_in": 4, "folded": "third"}

    # Without JavaScript the box still hides the cards (CSS) and the server fills the ante.
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    plain = context.new_page()
    log_in(plain, site, game.keeper.username, f"/tournaments/{t.pk}/hands/new/")
    assert plain.locator("#id_variant").input_value() == "seven_card_stud"  # the last hand's
    plain.click("[data-testid=fold3-0]")
    assert not seat_input(plain, 0, "d1").is_visible()
    fill_results(plain, put_in={1: 24, 2: 24}, cards={1: SEVEN_ACES, 2: SEVEN_KINGS}, winner=None)
    plain.click("[data-testid=submit-hand]")
    plain.wait_for_url(re.compile(rf".*/tournaments/{t.pk}/$"))
    assert "Hand 2 recorded" in plain.inner_text(".messages")
    assert t.hands.get(number=2).entry["seats"][0]["put_in"] == 4
    context.close()


def test_results_form_opens_with_the_last_hands_variant(site, browser, phone, shots):
    """The night's default is stud, the last hand was Kings and Little Ones: the form opens
    with Kings and Little Ones (its seventh-card input shown), with and without JavaScript."""
    game = make_game(variant="seven_card_stud")
    t = game.tournament
    hand_record(
        tournament=t,
        by=game.admin,
        entry_mode="quick",
        entry=fold_entry(t),
        variant="kings_and_little_ones",
    )
    page = phone
    log_in(page, site, game.keeper.username, f"/tournaments/{t.pk}/hands/new/")
    assert page.locator("#id_variant").input_value() == "kings_and_little_ones"
    assert seat_input(page, 0, "seventh").is_visible()
    assert not seat_input(page, 0, "bought").is_visible()  # Low Hold's, hidden
    shots(page, "phone-results-form-last-variant", full_page=False)
    context = browser.new_context(viewport=PHONE, java_script_enabled=False)
    plain = context.new_page()
    log_in(plain, site, game.keeper.username, f"/tournaments/{t.pk}/hands/new/")
    assert plain.locator("#id_variant").input_value() == "kings_and_little_ones"
    context.close()


def test_results_form_lists_every_error_at_the_top(site, phone, shots):
    game = make_game(variant="seven_card_stud")
    t = game.tournament
    page = phone
    log_in(page, site, game.keeper.username, f"/tournaments/{t.pk}/hands/new/")
    seat_input(page, 0, "put_in").fill("24")
    fill_cards(page, 0, SEVEN_ACES.replace("2c", "Zz"))  # a mistyped card
    fill_cards(page, 1, SEVEN_KINGS)
    seat_input(page, 2, "folded").select_option("third")
    seat_input(page, 2, "put_in").fill("30")  # a folder over everyone: chips that do not add up
    page.keyboard.press("Escape")
    page.click("[data-testid=submit-hand]")
    page.wait_for_load_state()
    links = page.locator("[data-testid=error-summary] a")
    assert links.count() == 2
    assert "is not a card" in links.nth(0).inner_text()
    assert "folded but put in 30" in links.nth(1).inner_text()
    c7 = seat_input(page, 0, "c7").get_attribute("id")
    chips = seat_input(page, 2, "put_in").get_attribute("id")
    assert [links.nth(i).get_attribute("href") for i in range(2)] == [f"#{c7}", f"#{chips}"]
    # The first input at fault has the focus (its card picker is open to fix it).
    assert page.evaluate("document.activeElement.id") == c7
    page.keyboard.press("Escape")
    page.evaluate("window.scrollTo(0, 0)")
    shots(page, "phone-results-form-errors", full_page=False)
    # A link takes the focus to its input.
    links.nth(1).click()
    assert page.evaluate("document.activeElement.id") == chips
    assert seat_input(page, 2, "put_in").is_visible()


def test_results_form_record_takes_one_tap_with_the_picker_open(site, phone, shots):
    game = make_game(variant="seven_card_stud")
    t = game.tournament
    page = phone
    log_in(page, site, game.keeper.username, f"/tournaments/{t.pk}/hands/new/")
    fill_results(page, folded=[2])
    # The picker is open on the last card input, the page scrolled to its end.
    page.click("#id_community")
    assert page.locator(".picker").is_visible()
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    submit = page.locator("[data-testid=submit-hand]")
    box = submit.bounding_box()
    picker_top = page.locator(".picker").bounding_box()["y"]
    assert box["y"] + box["height"] <= picker_top  # in sight above the picker
    page.evaluate(
        """top => {
          const b = document.querySelector('[data-testid=submit-hand]');
          window.addEventListener('mousedown', () => {
            const moved = b.getBoundingClientRect().top - top;
            sessionStorage.setItem('jump', String(Math.round(moved)));
          });
        }""",
        box["y"],
    )
    shots(page, "phone-results-form-picker-open", full_page=False)
    # One tap where the button is: it sends the form.
    with page.expect_navigation():
        page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_url(re.compile(rf".*/tournaments/{t.pk}/$"))
    assert "Hand 1 recorded" in page.inner_text(".messages")
    # Nothing moved under the finger as the picker closed (it was 208 px).
    assert page.evaluate("sessionStorage.getItem('jump')") == "0"


def test_results_form_sizes_on_a_phone(site, phone, shots):
    game = make_game(variant="seven_card_stud")
    t = game.tournament
    page = phone
    log_in(page, site, game.keeper.username, f"/tournaments/{t.pk}/hands/new/")
    page.click("summary")  # the announcements, open
    controls = page.evaluate(
        """() => Array.from(document.querySelectorAll(
              'form.entry-form :is(input:not([type=checkbox]):not([type=hidden]), select, '
              + 'button, .button, summary, label.fold3, .field.check label)'))
            .filter(el => el.offsetParent !== null)
            .map(el => [el.name || el.className || el.tagName, el.getBoundingClientRect().height])"""
    )
    assert len(controls) > 30
    low = [c for c in controls if c[1] < 44]
    assert not low, low
    seat_input(page, 0, "d1").click()
    widths = page.evaluate(
        """() => Array.from(document.querySelectorAll('.picker button[data-code]'))
            .map(b => b.getBoundingClientRect().width)"""
    )
    assert len(widths) == 52 and min(widths) >= 32, min(widths)
    heights = page.evaluate(
        """() => Array.from(document.querySelectorAll('.picker button[data-code]'))
            .map(b => b.getBoundingClientRect().height)"""
    )
    assert min(heights) >= 32, min(heights)
    # The picker leaves most of the screen to the form.
    assert page.locator(".picker").bounding_box()["height"] <= 740 * 0.5
    shots(page, "phone-results-form-picker", full_page=False)
