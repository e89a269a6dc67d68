"""A whole hand of each variant logged with the live logger at 375x740, recorded, then
replayed action by action and counted in the statistics.

Each test plays the hand through the page as a scorekeeper would: the card picker for
the cards, the large buttons for the actions. A small driver picks the action for the
player the page names (a policy per player), so the tests follow whatever order the
engine sets. Screenshots go to test-artifacts/web/live-*.png.
"""

from __future__ import annotations

import re

from tests.factories import ACES, KINGS, add_member, make_league, make_tournament, showdown_entry
from tests.web.conftest import BROWSER_TESTS, log_in
from tests.web.live_table import Table
from tracker.hands.models import Hand, HandSeat
from tracker.hands.services.recording import hand_record
from tracker.tournaments.selectors import tournament_state

pytestmark = BROWSER_TESTS


def aggressive(name, labels):
    """Raise or bet when possible, else call, check or bring in."""
    for start in ("Raise to", "Complete to", "Bet", "Call", "Check", "Bring in"):
        for label in labels:
            if label.startswith(start):
                return label
    raise AssertionError(labels)


def passive(name, labels):
    """Call or check; bring in rather than complete."""
    for start in ("Check", "Call", "Bring in"):
        for label in labels:
            if label.startswith(start):
                return label
    raise AssertionError(labels)


def vpip(hand: Hand) -> dict[str, bool]:
    return {
        s.player.name: bool((s.facts or {}).get("vpip"))
        for s in HandSeat.objects.filter(hand=hand).select_related("player")
    }


def keeper_table(site, phone, shots, name, names, **kwargs):
    league, admin = make_league(slug=f"live-{name}")
    keeper = add_member(league, f"{name}-keeper", "scorekeeper")
    tournament, _ = make_tournament(league=league, by=admin, names=names, **kwargs)
    log_in(phone, site, keeper.username, f"/tournaments/{tournament.pk}/live/")
    return Table(phone, site, tournament, shots, name), admin


# --------------------------------------------------------------------------


def test_live_stud_all_in_with_a_side_pot(site, phone, shots):
    """Seven-card stud, three players, one short stack goes all in on fourth street; the
    other two bet on: a main pot and a side pot."""
    table, admin = keeper_table(
        site, phone, shots, "stud", ("Ann", "Bob", "Cat"), default_variant="seven_card_stud"
    )
    t = table.tournament
    short = tournament_state(t).next_positions()[1].player.name
    hand_record(  # hand 1: the short stack loses 900
        tournament=t,
        by=admin,
        entry_mode="quick",
        entry=showdown_entry(t, [ACES, KINGS], 900),
        variant="seven_card_stud",
    )
    table.start("seven_card_stud")
    assert table.prompt().startswith("Deal third street")
    table.shot("deal")
    table.used.update(
        {"As", "Ah", "Ad", "Ks", "Kh", "Kd", "2c", "2d", "3c", "3d", "4c", "4d", "5h", "9d"}
    )  # hand 1's cards are fine again, but stay clear of them for the reader
    table.deal(["6c", "7c", "8c"])
    saw_all_in = []

    def policy(name, labels):
        if name == short:
            all_in = [label for label in labels if "(all in)" in label]
            if all_in:
                saw_all_in.append(all_in[0])
                return all_in[0]
            return passive(name, labels)
        return aggressive(name, labels)

    table.bet(policy)
    while table.prompt().startswith("Deal"):
        table.shot(f"street-{table.page.inner_text('.street-head h2').split()[0].lower()}")
        count = table.page.locator(".live-deal input[data-card][required]").count()
        table.deal(table.fresh(count))
        table.bet(policy)
    assert saw_all_in, "the short stack was never offered an all-in call"
    assert table.prompt().startswith("Showdown"), table.prompt()
    table.shot("showdown")
    table.show_all()
    hand = table.record()
    pots = table.page.inner_text("body")
    assert "Main pot" in pots and "Side pot 1" in pots, pots
    assert hand.entry_mode == "full" and hand.status == "verified"
    table.replay(hand)
    assert all(vpip(hand).values()), vpip(hand)
    assert hand.draft is not None
    # The statistics say the figures come from a hand logged live.
    page = table.page
    page.goto(f"{site}/tournaments/{t.pk}/stats/")
    assert "3 logged live" in page.inner_text("[data-testid=live-count]")
    table.shot("stats")
    page.goto(f"{site}/players/{hand.hand_seats.first().player_id}/stats/")
    assert "1 logged live" in page.inner_text("[data-testid=counted]")
    table.shot("player-stats")


def _seventh_street(table, policy):
    """Bet third to sixth street with fresh up cards."""
    while True:
        table.bet(policy)
        if (
            not table.prompt().startswith("Deal")
            or table.page.locator(
                "#next .live-buttons form input[name=op][value=buy], "
                "#next .live-buttons form input[name=op][value=seventh]"
            ).count()
        ):
            return
        count = table.page.locator(".live-deal input[data-card][required]").count()
        table.deal(table.fresh(count))


def test_live_low_hold_buys(site, phone, shots):
    """Low Hold, contributed: a buy gets the seventh card face up (asked with the picker);
    buderick: the seventh comes face up and a buy gets it face down (dealt unseen)."""
    table, _ = keeper_table(
        site, phone, shots, "lowhold", ("Ann", "Bob", "Cat"), default_variant="low_hold"
    )
    t = table.tournament
    # Contributed: seventh street offers the buys and a Deal for the face-down cards.
    table.start("low_hold", {"buy_version": "contributed"})
    table.deal(table.fresh(3))
    _seventh_street(table, passive)
    table.shot("seventh-choices")
    labels = table.buttons()
    buys = [label for label in labels if " buys it up (" in label]
    assert len(buys) == 3, labels
    assert table.prompt().startswith("Seventh street: who pays 40 to get the card face up?")
    buyer = buys[0].split(" buys")[0]
    prompt, log = table.prompt(), table.page.inner_text("[data-testid=live-log]")
    table.button(buys[0])
    assert f"{buyer} pays 40 to take the seventh card up" in table.page.inner_text(
        "[data-testid=live-log]"
    )
    bought = (table.prompt(), table.buttons(), table.page.inner_text("[data-testid=live-log]"))
    assert table.buttons() == [label for label in labels if label != buys[0]]
    # Undo right after the buy: the page is as it was (every buy offered again).
    table.tap("button:text-is('Undo the last step')")
    assert (table.prompt(), table.buttons()) == (prompt, labels)
    assert table.page.inner_text("[data-testid=live-log]") == log
    table.button(buys[0])
    # The bought card comes face up: the picker asks for it.
    up = table.page.locator(".live-deal input[data-card][required]")
    assert up.count() == 1
    table.shot("seventh-bought")
    table.deal_held(table.fresh(1))
    # Undo after the card: the buy stands, the card is asked again, the others may buy.
    table.tap("button:text-is('Undo the last step')")
    assert (
        table.prompt(),
        table.buttons(),
        table.page.inner_text("[data-testid=live-log]"),
    ) == bought
    table.shot("seventh-undone")
    table.deal_held(table.fresh(1))
    table.bet(passive)
    table.show_all()
    hand = table.record()
    assert hand.entry.get("buys") and sum(hand.entry["buys"]) == 1
    table.replay(hand)
    assert sum(vpip(hand).values()) == 2, vpip(hand)  # the two who called the bring-in

    # Buderick: the seventh card comes face up unless bought down.
    table.used.clear()
    table.start("low_hold", {"buy_version": "buderick"})
    table.deal(table.fresh(3))
    _seventh_street(table, passive)
    table.shot("buderick-choices")
    labels = table.buttons()
    buys = [label for label in labels if " buys it down (" in label]
    assert len(buys) == 3, labels
    table.button(buys[1])
    # Two cards come face up (asked), the bought one face down (not asked).
    assert table.page.locator(".live-deal input[data-card][required]").count() == 2
    table.shot("buderick-bought")
    assert table.page.evaluate("document.documentElement.scrollWidth") <= 375  # no sideways scroll
    table.deal_held(table.fresh(2))
    table.bet(passive)
    table.show_all()
    hand = table.record()
    assert hand.options["buy_version"] == "buderick"
    assert sum(hand.entry["buys"]) == 1
    table.replay(hand)
    assert t.hands.count() == 2


def test_live_kings_and_little_ones_seventh_up(site, phone, shots):
    """Kings and Little Ones: one player takes the seventh card up (picked), the others
    get it face down (dealt unseen)."""
    table, _ = keeper_table(
        site, phone, shots, "klo", ("Ann", "Bob", "Cat"), default_variant="kings_and_little_ones"
    )
    table.start("kings_and_little_ones")
    table.deal(table.fresh(3))
    _seventh_street(table, passive)
    table.shot("seventh-choices")
    labels = table.buttons()
    ups = [label for label in labels if label.endswith("seventh up")]
    assert len(ups) == 3, labels
    chooser = ups[0].split(":")[0]
    prompt = table.prompt()
    table.button(ups[0])
    table.tap("button:text-is('Undo the last step')")  # undo the choice: as it was
    assert (table.prompt(), table.buttons()) == (prompt, labels)
    assert table.page.locator(".live-deal input[data-card][required]").count() == 0
    table.button(ups[0])
    assert [label for label in table.buttons() if label.endswith("seventh up")] == ups[1:]
    assert table.page.locator(".live-deal input[data-card][required]").count() == 1
    table.deal_held(table.fresh(1))
    # Undo after the card that follows: the choice stands, the card is asked again.
    table.tap("button:text-is('Undo the last step')")
    assert table.buttons() == ups[1:]
    assert table.page.locator(".live-deal input[data-card][required]").count() == 1
    table.deal_held(table.fresh(1))
    table.bet(passive)
    table.show_all()
    # The table paid the pot otherwise: every hand at the showdown took a share.
    result = table.page.locator("[data-testid=table-result]")
    result.locator("summary").click()
    selects = result.locator("select")
    assert selects.count() == 3
    for k in range(3):
        selects.nth(k).select_option("won")
    hand = table.record()
    hand.refresh_from_db()
    assert hand.table_result and len(hand.table_result["winners"]) == 3
    assert hand.status == "disputed"
    assert hand.entry["seventh_card"].count("up") == 1
    assert chooser in table.page.inner_text("body")
    table.replay(hand)
    assert sum(vpip(hand).values()) == 2, vpip(hand)  # the two who called the bring-in


def test_live_low_hole_declare(site, phone, shots):
    """Low Hole high-low, declare: the showdown asks each hand's unseen cards and each
    player's declaration; the table's result may differ (the hand is then disputed)."""
    table, _ = keeper_table(
        site, phone, shots, "lowhole", ("Ann", "Bob", "Cat"), default_variant="low_hole"
    )
    table.start("low_hole", {"game": "high_low", "declaration": "declare"})
    table.deal(table.fresh(3))
    _seventh_street(table, passive)
    table.bet(passive)
    while table.prompt().startswith("Deal"):
        count = table.page.locator(".live-deal input[data-card][required]").count()
        table.deal(table.fresh(count))
        table.bet(passive)
    assert table.prompt().startswith("Showdown"), table.prompt()
    table.show_all()
    table.shot("declare")
    assert table.prompt() == "Showdown: each player declares high, low or both"
    assert table.page.locator(".declare-row button").count() == 9
    for choice in ("High", "Low", "Both"):
        table.tap(f".declare-row button:text-is('{choice}')")
    assert table.page.locator(".declare-row button").count() == 0
    hand = table.record()
    assert hand.entry["declarations"] and None not in hand.entry["declarations"]
    table.replay(hand)
    assert sum(vpip(hand).values()) == 2, vpip(hand)  # the two who called the bring-in
    assert re.search(r"declare", table.page.inner_text("body"), re.I)


def test_live_stud_seven_players_share_a_community_card(site, phone, shots):
    """Seven players reach seventh street: the deck is short, one community card is every
    player's seventh (asked with the picker)."""
    names = ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")
    table, _ = keeper_table(site, phone, shots, "seven", names, default_variant="seven_card_stud")
    table.start("seven_card_stud")
    table.deal(table.fresh(7))
    table.bet(passive)
    for _street in ("fourth", "fifth", "sixth"):
        table.deal(table.fresh(7))
        table.bet(passive)
    assert table.prompt().startswith("The deck is short"), table.prompt()
    table.shot("community")
    assert table.page.locator("input[name=community]").count() == 1
    table.deal(table.fresh(1))
    assert "community" in table.page.inner_text("[data-testid=live-log]").lower()
    table.bet(passive)
    table.show_all()
    hand = table.record()
    assert any(a.startswith("d db ") for a in hand.entry["actions"])
    table.replay(hand)
    assert sum(vpip(hand).values()) == 6, vpip(hand)


def test_live_stud_all_in_runout_shows_while_dealing(site, phone, shots):
    """Heads-up, the short stack is all in on fourth street: the betting is over, the
    last streets are dealt, and the hands may show while they are."""
    table, admin = keeper_table(
        site, phone, shots, "runout", ("Ann", "Bob"), default_variant="seven_card_stud"
    )
    t = table.tournament
    short = tournament_state(t).next_positions()[1].player.name
    hand_record(
        tournament=t,
        by=admin,
        entry_mode="quick",
        entry=showdown_entry(t, [ACES, KINGS], 900),
        variant="seven_card_stud",
    )
    table.used.update({"As", "Ah", "Ad", "Ks", "Kh", "Kd", "2c", "2d", "3c", "3d", "4c", "4d"})
    table.start("seven_card_stud")
    table.deal(table.fresh(2))

    def policy(name, labels):
        all_in = [label for label in labels if "(all in)" in label]
        return all_in[0] if all_in else aggressive(name, labels)

    table.bet(policy)
    while not table.page.locator(".live-show form[data-live]").count():
        assert table.prompt().startswith("Deal"), table.prompt()
        table.deal(table.fresh(2))
        table.bet(policy)
    # The betting is over with cards still to come: both may show now.
    assert table.prompt().startswith("Deal"), table.prompt()
    assert "may show now" in table.prompt()
    table.shot("runout")
    show = table.page.locator(
        f"[data-testid^=show-]:has(h3:text-is('{short}')) input[data-card]"
    ).first
    table.page.keyboard.press("Escape")  # the picker, open for the street, covers the shows
    show.click()
    count = table.page.locator(
        f"[data-testid^=show-]:has(h3:text-is('{short}')) input[data-card]"
    ).count()
    table.deal(table.fresh(count))
    assert f"{short} shows" in table.page.inner_text("[data-testid=live-log]")
    while table.prompt().startswith("Deal"):
        required = table.page.locator(".live-deal input[data-card][required]").count()
        if required:
            table.deal(table.fresh(required))
        else:
            table.tap(".live-deal button[type=submit]")
    table.show_all()
    hand = table.record()
    assert hand.status == "verified"
    table.replay(hand)
