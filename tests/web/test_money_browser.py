"""The night's money in a real browser at phone size (375x740): a scorekeeper taps buy-ins,
a rebuy for a busted player and an undo on the tournament page; once the night is over the
payouts show there and on the table screen. axe-clean, no small targets, nothing scrolling
sideways. Screenshots: test-artifacts/web/money-*.png."""

from __future__ import annotations

import re

from tests.factories import ACES, KINGS, fold_entry, showdown_entry
from tests.web.axe import axe_violations, describe
from tests.web.conftest import BROWSER_TESTS, log_in, make_game
from tests.web.targets import overflow_problems, small_targets
from tracker.hands.services.recording import hand_record
from tracker.leagues.services import player_create
from tracker.money.models import MoneyEntry
from tracker.money.services import night_create
from tracker.tournaments.selectors import tournament_state

pytestmark = BROWSER_TESTS

MONEY = {
    "buy_in": 2000,
    "fee": 500,
    "rebuy_price": 2000,
    "rebuy_chips": 1000,
    "rebuy_until_hand": 3,
    "rebuy_max": 1,
    "rebuy_when": "busted",
    "payout_template": "65_35",
}


def record(t, by, entry):
    hand_record(tournament=t, entry_mode="quick", entry=entry, variant="seven_card_stud", by=by)


def clean(page, where: str) -> list[str]:
    found = describe(where, axe_violations(page))
    found += [f"{where}: target under 24x24 px: {t}" for t in small_targets(page)]
    found += [f"{where}: {p}" for p in overflow_problems(page)]
    return found


def test_a_scorekeeper_records_the_money_and_the_payouts_show(site, phone, shots):
    game = make_game()
    dee = player_create(league=game.league, name="Dee", by=game.admin)
    t = night_create(
        league=game.league,
        by=game.admin,
        name="Money night",
        player_ids=[*(p.pk for p in game.players), dee.pk],
        hand_limit=4,
        money=MONEY,
    )
    problems: list[str] = []
    log_in(phone, site, game.keeper.username, t.get_absolute_url())
    for seat in t.seats.order_by("number"):
        phone.click(f"[data-testid=entry-buy_in-{seat.player_id}]")
        phone.wait_for_url(re.compile(r".*#money$"))
    # 4 x ($20 + $5 fee) paid, 4 x $20 in the pool
    assert "Paid in\n$100.00" in phone.inner_text("[data-testid=money-pool]")
    assert "Prize pool\n$80.00" in phone.inner_text("[data-testid=money-pool]")
    # the second to act busts in hand 1 and rebuys; a rebuy is undone and tapped again
    rebuyer = tournament_state(t).next_positions()[1].player_id
    positions = tournament_state(t).next_positions()
    record(t, game.admin, showdown_entry(t, [ACES, KINGS], 1000))  # the second busts
    assert tournament_state(t).stacks[rebuyer] == 0 and positions[1].player_id == rebuyer
    phone.goto(f"{site}{t.get_absolute_url()}")
    phone.click(f"[data-testid=entry-rebuy-{rebuyer}]")
    phone.wait_for_url(re.compile(r".*#money$"))
    entry = MoneyEntry.objects.get(kind="rebuy")
    assert "rebuy recorded" in phone.inner_text("[role=status]")
    shots(phone, "money-entries-phone")
    problems += clean(phone, "tournament page with entries")
    phone.click(f"[data-testid=entry-undo-{entry.pk}]")
    phone.wait_for_url(re.compile(r".*#money$"))
    assert "rebuy undone" in phone.inner_text("[role=status]")
    phone.click(f"[data-testid=entry-rebuy-{rebuyer}]")
    phone.wait_for_url(re.compile(r".*#money$"))
    assert "Prize pool\n$100.00" in phone.inner_text("[data-testid=money-pool]")

    while not tournament_state(t).over:
        record(t, game.admin, fold_entry(t))
    phone.goto(f"{site}{t.get_absolute_url()}")
    payouts = phone.inner_text("[data-testid=money-payouts]")
    # $100 in 65/35 to the nearest dollar
    assert "$65.00" in payouts and "$35.00" in payouts
    shots(phone, "money-payouts-phone")
    problems += clean(phone, "tournament page with payouts")
    phone.goto(f"{site}/tournaments/{t.pk}/table/")
    money = phone.inner_text("[data-testid=ts-money]")
    assert "Prize pool $100.00" in money and "$65.00" in money
    shots(phone, "money-table-screen-phone")
    problems += clean(phone, "table screen with payouts")
    assert not problems, "\n".join(problems)
