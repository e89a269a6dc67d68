"""A night's money from the first buy-in to the last transfer, in a real browser at phone
size (375x740), as one flow: a scorekeeper taps four buy-ins, two rebuys for busted players
(one undone and tapped again) and an add-on on the tournament page, while the hands are
recorded through the API; what each place pays shows on the tournament page and the table
screen; a player goes out for good, so their bounty is paid; an admin reads the deal's ICM
and chip-count amounts side by side and records the ICM deal, which ends the night; the
payouts, the bounty and the settle-up show, and the admin marks a transfer paid. Every page
is axe-clean, with no small targets and nothing scrolling sideways. Screenshots:
test-artifacts/web/money-*.png."""

from __future__ import annotations

import re

from tests.factories import ACES, KINGS, api_client
from tests.web.conftest import BROWSER_TESTS, log_in, make_game
from tests.web.targets import page_problems as clean
from tracker.leagues.selectors import league_season
from tracker.leagues.services import player_create
from tracker.money.deal_selectors import deal_offer
from tracker.money.models import MoneyEntry, SettleTransfer
from tracker.money.results import night_results
from tracker.money.selectors import night_money_summary
from tracker.money.services import night_create
from tracker.money.standings import league_money_table
from tracker.tournaments.models import TournamentStatus
from tracker.tournaments.selectors import tournament_state

pytestmark = BROWSER_TESTS

MONEY = {
    "buy_in": 2000,
    "fee": 500,
    "bounty": 500,
    "rebuy_price": 2000,
    "rebuy_chips": 1000,
    "rebuy_until_hand": 3,
    "rebuy_max": 1,
    "rebuy_when": "busted",
    "addon_price": 1000,
    "addon_chips": 1500,
    "addon_at_hand": 3,
    "payout_template": "50_30_20",
}


def api_hand(api, t, seats: list[dict]) -> None:
    """One quick-entry hand of ``t`` through the API (settled on commit)."""
    number = api.get(f"/api/v1/tournaments/{t.pk}/").json()["next_hand"]["number"]
    body = {
        "tournament": t.pk,
        "number": number,
        "variant": "seven_card_stud",
        "entry_mode": "quick",
        "entry": {"seats": seats},
    }
    response = api.post("/api/v1/hands/", body, format="json")
    assert response.status_code == 201, response.json()


def all_in(t, *, winner: int, loser: int) -> list[dict]:
    """``loser`` puts in every chip and shows kings; ``winner`` calls with aces; the others
    fold their ante (seats in the order they act)."""
    state = tournament_state(t)
    stake = state.stacks[loser]
    assert state.stacks[winner] >= stake
    seats = []
    for seat in state.next_positions():
        pid = seat.player_id
        if pid in (winner, loser):
            down, up = ACES if pid == winner else KINGS
            seats.append({"player": pid, "put_in": stake, "down": list(down), "up": list(up)})
        else:
            seats.append({"player": pid, "put_in": state.next_stakes.ante, "folded": "third"})
    return seats


def folds(t, winner: int) -> list[dict]:
    """Everyone antes and folds to ``winner``, who posts the bring-in."""
    state = tournament_state(t)
    stakes = state.next_stakes
    return [
        {"player": s.player_id, "put_in": stakes.ante + stakes.bring_in}
        if s.player_id == winner
        else {"player": s.player_id, "put_in": stakes.ante, "folded": "third"}
        for s in state.next_positions()
    ]


def section_shot(page, shots, testid: str, name: str) -> None:
    """The whole page, and the section ``testid`` alone (a readable picture of it)."""
    path = shots(page, name)
    page.locator(f"[data-testid={testid}]").screenshot(path=str(path.with_name(f"{name}-part.png")))


def tap(page, testid: str) -> None:
    page.click(f"[data-testid={testid}]")
    page.wait_for_url(re.compile(r".*#money$"))


def test_a_money_night_from_the_buy_ins_to_a_transfer_marked_paid(site, phone, shots):
    game = make_game()
    dee = player_create(league=game.league, name="Dee", by=game.admin)
    ann, bob, cat = game.players
    t = night_create(
        league=game.league,
        by=game.admin,
        name="Money night",
        player_ids=[ann.pk, bob.pk, cat.pk, dee.pk],
        hand_limit=10,
        money=MONEY,
    )
    api = api_client(game.keeper)
    problems: list[str] = []

    # the scorekeeper taps the buy-ins: 4 x ($20 + $5 fee + $5 bounty)
    log_in(phone, site, game.keeper.username, t.get_absolute_url())
    for seat in t.seats.order_by("number"):
        tap(phone, f"entry-buy_in-{seat.player_id}")
    pool = phone.inner_text("[data-testid=money-pool]")
    assert "Paid in\n$120.00" in pool and "Prize pool\n$80.00" in pool

    # hand 1: Bob loses every chip to Ann and rebuys (undone once, and tapped again)
    api_hand(api, t, all_in(t, winner=ann.pk, loser=bob.pk))
    phone.goto(f"{site}{t.get_absolute_url()}")
    tap(phone, f"entry-rebuy-{bob.pk}")
    assert "rebuy recorded" in phone.inner_text("[role=status]")
    entry = MoneyEntry.objects.get(kind="rebuy", player=bob)
    tap(phone, f"entry-undo-{entry.pk}")
    assert "rebuy undone" in phone.inner_text("[role=status]")
    tap(phone, f"entry-rebuy-{bob.pk}")
    # hand 2: Cat loses every chip to Ann and rebuys: the second rebuy
    api_hand(api, t, all_in(t, winner=ann.pk, loser=cat.pk))
    phone.goto(f"{site}{t.get_absolute_url()}")
    tap(phone, f"entry-rebuy-{cat.pk}")
    # before hand 3: Dee takes the add-on
    tap(phone, f"entry-addon-{dee.pk}")
    assert "add-on recorded" in phone.inner_text("[role=status]")
    assert MoneyEntry.objects.filter(tournament=t, undone_at__isnull=True).count() == 7
    # $80 + 2 x $20 rebuys + $10 add-on: $130, paying 50/30/20
    pool = phone.inner_text("[data-testid=money-pool]")
    assert "Prize pool\n$130.00" in pool
    places = phone.inner_text("[data-testid=money-places]")
    assert all(a in places for a in ("$65.00", "$39.00", "$26.00"))
    section_shot(phone, shots, "money", "money-entries-phone")
    problems += clean(phone, "tournament page with the entries")
    phone.goto(f"{site}/tournaments/{t.pk}/table/")
    screen = phone.inner_text("[data-testid=ts-money]")
    assert "Prize pool $130.00" in screen and "$65.00" in screen and "$26.00" in screen
    assert phone.inner_text("[data-testid=ts-entries]") == "4 buy-ins · 2 rebuys · 1 add-on"
    shots(phone, "money-table-screen-places-phone")
    problems += clean(phone, "table screen with what each place pays")

    # hand 3 is folded to Ann; in hand 4 (no more rebuys) Bob goes out for good to Ann
    api_hand(api, t, folds(t, ann.pk))
    api_hand(api, t, all_in(t, winner=ann.pk, loser=bob.pk))
    assert tournament_state(t).stacks[bob.pk] == 0

    # the admin reads the deal's options side by side and records the ICM deal
    phone.context.clear_cookies()
    log_in(phone, site, game.admin.username, f"{t.get_absolute_url()}#deal")
    offer = deal_offer(t)
    assert offer.refusal is None and offer.options["icm"] != offer.options["chip_chop"]
    summary = offer.summary
    options = phone.inner_text("[data-testid=deal-options]")
    assert "icm" in options.lower() and "chip count" in options.lower()
    for option in ("icm", "chip_chop"):
        for amount in offer.options[option]:
            assert summary.fmt(amount) in options
    section_shot(phone, shots, "deal", "money-deal-options-phone")
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

    # the payouts, Bob's bounty going to Ann, and the settle-up
    payouts = phone.inner_text("[data-testid=money-payouts]")
    assert all(summary.fmt(a) in payouts for a in offer.options["icm"])
    bounties = phone.inner_text("[data-testid=money-bounties]")
    assert "Bob" in bounties and "Ann" in bounties and "$5.00" in bounties
    results = night_results(t)
    assert results.transfers and sum(r.result for r in results.players.values()) == -results.fees
    transfers = phone.inner_text("[data-testid=money-transfers]")
    first = results.transfers[0]
    assert summary.fmt(first.amount) in transfers
    section_shot(phone, shots, "money-results", "money-deal-done-phone")
    problems += clean(phone, "tournament page after the deal")

    # the admin marks the first transfer paid
    phone.click("[data-testid=transfer-paid-0]")
    phone.wait_for_load_state()
    row = SettleTransfer.objects.get(tournament=t, position=0)
    assert row.paid_at is not None and row.paid_by == game.admin
    assert "paid" in phone.inner_text("[data-testid=money-transfers]")
    section_shot(phone, shots, "money-transfers", "money-transfer-paid-phone")
    problems += clean(phone, "tournament page with a transfer paid")

    # the table screen shows the payouts of the night the deal ended
    phone.goto(f"{site}/tournaments/{t.pk}/table/")
    screen = phone.inner_text("[data-testid=ts-money]")
    assert "Prize pool $130.00" in screen
    # the deal ended the night: game over after 4 hands, no next hand
    assert phone.inner_text("[data-testid=ts-hand]") == "4 hands"
    assert "game over" in phone.inner_text("body").lower()
    assert all(summary.fmt(a) in screen for a in offer.options["icm"])
    shots(phone, "money-table-screen-payouts-phone")
    problems += clean(phone, "table screen with the payouts")

    # the league table's money columns and Ann's money on her player page
    money = league_money_table(game.league, league_season(game.league, "all"))
    phone.goto(f"{site}/leagues/{game.league.slug}/table/?season=all")
    table = phone.inner_text("[data-testid=league-table]")
    assert "ROI" in table and money.rows[ann.pk].net_text in table
    section_shot(phone, shots, "league-table", "money-league-table-phone")
    problems += clean(phone, "league table with money")
    phone.goto(f"{site}/players/{ann.pk}/")
    mine = phone.inner_text("[data-testid=player-money]")
    assert money.rows[ann.pk].net_text in mine and "in the money" in mine.lower()
    section_shot(phone, shots, "player-money", "money-player-phone")
    problems += clean(phone, "player page with money")
    assert not problems, "\n".join(problems)
