"""A deal in a real browser at phone size (375x740): the options side by side on the
tournament page, an admin ticks who agreed, picks ICM and records it; the night is over and
the deal's amounts are the payouts. axe-clean, no small targets, nothing scrolling sideways.
Screenshots: test-artifacts/web/deal-*.png."""

from __future__ import annotations

import re

from tests.factories import fold_entry
from tests.web.conftest import BROWSER_TESTS, log_in, make_game
from tests.web.test_money_browser import clean, record
from tracker.leagues.services import player_create
from tracker.money.deal_selectors import deal_offer
from tracker.money.selectors import night_money_summary
from tracker.money.services import entry_record, night_create
from tracker.tournaments.models import TournamentStatus

pytestmark = BROWSER_TESTS


def test_an_admin_records_a_deal_from_the_options_side_by_side(site, phone, shots):
    game = make_game()
    dee = player_create(league=game.league, name="Dee", by=game.admin)
    t = night_create(
        league=game.league,
        by=game.admin,
        name="Deal night",
        player_ids=[*(p.pk for p in game.players), dee.pk],
        hand_limit=10,
        money={"buy_in": 2000, "fee": 500, "payout_template": "50_30_20"},
    )
    for seat in t.seats.order_by("number"):
        entry_record(tournament=t, player_id=seat.player_id, kind="buy_in", by=game.admin)
    record(t, game.admin, fold_entry(t, winner=1))
    offer = deal_offer(t)
    assert offer.refusal is None
    summary = offer.summary
    problems: list[str] = []
    log_in(phone, site, game.admin.username, f"{t.get_absolute_url()}#deal")
    options = phone.inner_text("[data-testid=deal-options]")
    for option in ("icm", "chip_chop", "even"):
        for amount in offer.options[option]:
            assert summary.fmt(amount) in options
    shots(phone, "deal-options-phone")
    problems += clean(phone, "tournament page with the deal options")
    for p in offer.players:
        phone.check(f"#agreed-{p.player_id}")
    phone.check("input[name=option][value=icm]")
    phone.click("[data-testid=deal-record]")
    phone.wait_for_url(re.compile(r".*#deal$"))
    assert "Deal recorded" in phone.inner_text("[role=status]")
    assert "ICM, agreed by" in phone.inner_text("[data-testid=deal-done]")
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    paid = night_money_summary(t).payouts
    assert [paid[p.player_id] for p in offer.players] == offer.options["icm"]
    payouts = phone.inner_text("[data-testid=money-payouts]")
    assert all(summary.fmt(a) in payouts for a in offer.options["icm"])
    shots(phone, "deal-done-phone")
    problems += clean(phone, "tournament page after the deal")
    assert not problems, "\n".join(problems)
