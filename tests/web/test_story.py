"""Issue 13's story, end to end, in a real browser at phone size (375x740), through the
pages as people would use them: ann signs up and starts a league as its admin and authority,
invites sam as scorekeeper (sam signs up from the invite in a second browser), adds six
players, sam starts a game night with a random draw and records a hand the table and the
engine read differently, a table screen open in a third browser shows it without a reload,
sam disputes the pot, ann keeps the table's result ("Rob is right"), the override badge shows
on the hand and in the night's hand list, and the audit log has the ruling.

Every step has a page: no service is called. Settlement runs in the live server's process as
the hand commits (no broker is configured in tests, so Celery runs the task eagerly).
Screenshots: test-artifacts/web/story-*.png."""

from __future__ import annotations

import re

from playwright.sync_api import expect

from tests.web.conftest import BROWSER_TESTS, fill_results, new_phone
from tracker.core.permissions import capabilities
from tracker.hands.models import Hand
from tracker.leagues.models import League
from tracker.tournaments.models import Tournament

pytestmark = BROWSER_TESTS

PASSWORD = "a-long-pass-phrase"
PLAYERS = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay")


def sign_up(page, username: str):
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("[data-testid=signup-submit]")
    page.wait_for_load_state()
    assert f"Logged in as {username}" in page.inner_text("[data-testid=who]")


def fits(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_league_and_a_game_night_run_from_the_site(site, browser, shots):
    errors: list[str] = []
    ann = new_phone(browser, errors)
    sam = new_phone(browser, errors)
    tv = new_phone(browser, errors)
    try:
        # 1. ann signs up and starts a league, ticking that she is also its authority.
        ann.goto(f"{site}/")
        ann.click("header >> text=Sign up")
        sign_up(ann, "ann")
        shots(ann, "story-01-signed-up")
        ann.click("[data-testid=league-new]")
        ann.wait_for_url(re.compile(r".*/leagues/new/$"))
        ann.fill("#id_name", "Tuesday Stud")
        ann.check("input[name=visibility][value=public]")
        ann.fill("#id_min_players", "4")
        ann.check("#id_authority")
        shots(ann, "story-02-league-new")
        ann.click("[data-testid=league-create]")
        ann.wait_for_url(re.compile(r".*/leagues/tuesday-stud/players/$"))
        league = League.objects.get(slug="tuesday-stud")
        founder = league.memberships.filter(user__username="ann").first().user
        assert set(capabilities(founder, league).roles) == {"admin", "authority"}

        # 2. A scorekeeper invite, accepted in a second browser by sam, who signs up from it.
        ann.goto(f"{site}/leagues/tuesday-stud/")
        ann.click("text=Members and invites")
        ann.check("input[name=invite-role][value=scorekeeper]")
        ann.click("[data-testid=invite-create]")
        ann.wait_for_load_state()
        link = ann.locator("[data-testid=invite-link]").first.input_value()
        shots(ann, "story-03-invite")
        sam.goto(link)
        assert "as scorekeeper" in sam.inner_text("main")
        sam.click("[data-testid=invite-signup]")
        sign_up(sam, "sam")
        assert sam.url == link
        sam.click("[data-testid=invite-accept]")
        sam.wait_for_url(re.compile(r".*/leagues/tuesday-stud/$"))
        shots(sam, "story-04-invite-accepted")
        keeper = league.memberships.get(user__username="sam").user
        assert capabilities(keeper, league).roles == ("scorekeeper",)

        # 3. ann adds six players on the roster page (from the league page's link).
        ann.goto(f"{site}/leagues/tuesday-stud/")
        ann.click("text=Players (add, link accounts)")
        ann.wait_for_url(re.compile(r".*/leagues/tuesday-stud/players/$"))
        for name in PLAYERS:
            ann.fill("#id_add-name", name)
            ann.click("[data-testid=player-add]")
            ann.wait_for_load_state()
        assert ann.locator("[data-testid=roster] li").count() == 6
        assert fits(ann)
        shots(ann, "story-05-roster")

        # The league page lists them side by side, as pills.
        ann.goto(f"{site}/leagues/tuesday-stud/")
        pills = ann.locator("[data-testid=roster] li")
        assert pills.nth(0).bounding_box()["y"] == pills.nth(1).bounding_box()["y"]
        shots(ann, "story-05-league-players")

        # 4. sam starts a game night from the league page, the seats drawn at random.
        sam.click("[data-testid=new-night]")
        sam.wait_for_url(re.compile(r".*/nights/new/$"))
        sam.fill("#id_name", "First night")
        for name in PLAYERS:
            sam.get_by_label(name, exact=True).check()
        sam.get_by_label("Draw the seats at random").check()
        shots(sam, "story-06-night-form")
        sam.click("[data-testid=start-night]")
        sam.wait_for_url(re.compile(r".*/tournaments/\d+/$"))
        night = Tournament.objects.get(name="First night")
        assert night.seats_drawn and night.seats.count() == 6
        assert "Seats drawn at random" in sam.inner_text("[data-testid=seat-order]")
        shots(sam, "story-07-night")

        # 5. The table screen, open in a third browser before any hand is recorded.
        tv.goto(f"{site}/tournaments/{night.pk}/table/")
        assert "1 of 50" in tv.inner_text("[data-testid=ts-hand]")
        assert "No hand yet." in tv.inner_text("[data-testid=ts-last]")
        tv.evaluate("window.notReloaded = true")
        shots(tv, "story-08-table-screen-before")

        # 6. sam records hand 1 on the results form: aces against kings at the showdown,
        # the other four fold on 3rd street; the table said the kings won.
        sam.click("[data-testid=record-hand]")
        sam.wait_for_url(re.compile(r".*/hands/new/$"))
        sam.select_option("#id_variant", "seven_card_stud")
        fill_results(sam, folded=[2, 3, 4, 5], winner=1)  # aces in seat 0, kings in seat 1
        shots(sam, "story-09-results-form")
        sam.click("[data-testid=submit-hand]")
        sam.wait_for_url(re.compile(rf".*/tournaments/{night.pk}/$"))
        assert "Hand 1 recorded" in sam.inner_text(".messages")
        hand = Hand.objects.get(tournament=night, number=1)
        aces, kings = (p.name for p in (s.player for s in _seats(hand)))
        assert "disputed" in sam.inner_text("[data-testid=hands]")
        shots(sam, "story-10-night-after-hand")

        # 7. The table screen shows the hand without a reload.
        expect(tv.locator("[data-testid=ts-hand]")).to_contain_text("2 of 50", timeout=15_000)
        assert "Hand 1" in tv.inner_text("[data-testid=ts-last]")
        assert tv.evaluate("window.notReloaded === true")
        assert fits(tv)
        shots(tv, "story-11-table-screen-after")

        # 8. sam disputes the main pot from the hand page.
        sam.goto(f"{site}{hand.get_absolute_url()}")
        sam.click("text=Dispute the main pot")
        sam.wait_for_url(re.compile(r".*/pots/0/dispute/$"))
        sam.fill(
            "#id_reason", f"{aces}'s three aces beat {kings}'s three kings; the table paid {kings}."
        )
        shots(sam, "story-12-dispute-form")
        sam.click("button:text-is('Dispute this pot')")
        sam.wait_for_url(re.compile(rf".*/hands/{hand.pk}/$"))
        assert "your dispute is with the league's authority" in sam.inner_text(".messages")
        assert f"Disputed by sam: {aces}'s three aces" in sam.inner_text("main")
        shots(sam, "story-13-disputed-hand")

        # 9. ann, admin and authority, rules: the table's result stands (an override).
        ann.goto(f"{site}{hand.get_absolute_url()}")
        ann.click("text=Rule on this pot")
        ann.wait_for_url(re.compile(r".*/pots/0/rule/$"))
        ann.get_by_label("The table's result stands").check()
        ann.fill("#id_reason", "Rob is right: the table saw the hands; the kings take it.")
        shots(ann, "story-14-ruling-form")
        ann.click("button:text-is('Record the ruling')")
        ann.wait_for_url(re.compile(r".*/leagues/tuesday-stud/disputes/$"))
        assert "Ruling recorded on hand 1" in ann.inner_text(".messages")
        shots(ann, "story-15-disputes-after-ruling")
        ann.goto(f"{site}{hand.get_absolute_url()}")

        # 10. The override badge on the hand page's header and in the night's hand list.
        # The status badge reads "override" (never "verified"), the ruling badge "ruled".
        assert ann.inner_text("[data-testid=hand-status]") == "override"
        assert ann.inner_text("[data-testid=hand-ruling]") == "ruled"
        rulings = ann.inner_text("[data-testid=rulings]")
        assert "override · Rob is right" in rulings
        assert f"{kings} 64" in rulings  # the whole pot: 24 + 24 + 4 antes of 4
        # The ruling's reason ends the note once (no second full stop after the reason's own).
        note = ann.locator("p.note", has_text="Ruled by ann").inner_text()
        assert note.endswith("the kings take it.")
        assert fits(ann)
        shots(ann, "story-16-hand-overridden")
        ann.goto(f"{site}{night.get_absolute_url()}")
        row = ann.locator("[data-testid=hands] tr", has_text="Seven-Card Stud").first
        assert row.locator(".badge").first.inner_text() == "override"
        assert row.locator("[data-testid=hand-ruling]").inner_text() == "ruled"
        shots(ann, "story-17-night-overridden")

        # 11. The audit log has the dispute and the ruling.
        ann.goto(f"{site}/leagues/tuesday-stud/")
        ann.click("text=Audit log")
        ann.wait_for_url(re.compile(r".*/leagues/tuesday-stud/audit/$"))
        entries = ann.inner_text("main")
        assert "ruling.make" in entries and "dispute.raise" in entries
        first = ann.locator("[data-testid=audit-entry]").first.inner_text()
        assert "ruling.make" in first and "ann" in first
        shots(ann, "story-18-audit")
    finally:
        for page in (ann, sam, tv):
            page.context.close()
    assert not errors, f"JavaScript errors: {errors}"


def _seats(hand):
    """The two showdown seats of a quick-entry hand, in the form's order (aces, kings)."""
    by_player = {s.player_id: s for s in hand.tournament.seats.select_related("player")}
    return [by_player[p] for p in hand.positions[:2]]
