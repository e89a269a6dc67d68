"""The league money ledger in a real browser at phone size (375x740): two finished nights'
balances carried over, an admin adds a correction and marks a transfer of the league's
settle-up paid. axe-clean, no small targets, nothing scrolling sideways.
Screenshots: test-artifacts/web/ledger-*.png."""

from __future__ import annotations

import re

from tests.factories import fold_entry
from tests.web.conftest import BROWSER_TESTS, log_in, make_game
from tests.web.targets import page_problems as clean
from tracker.hands.services.recording import hand_record
from tracker.leagues.services import player_create
from tracker.money.ledger_selectors import league_ledger
from tracker.money.models import MoneyLedgerEntry
from tracker.money.services import entry_record, night_create
from tracker.tournaments.models import TournamentStatus
from tracker.tournaments.selectors import tournament_state

pytestmark = BROWSER_TESTS


def record(t, by, entry):
    hand_record(tournament=t, entry_mode="quick", entry=entry, variant="seven_card_stud", by=by)


def play_night(game, players, name: str, winner: int):
    t = night_create(
        league=game.league,
        by=game.admin,
        name=name,
        player_ids=[p.pk for p in players],
        hand_limit=2,
        money={"buy_in": 2000, "fee": 500, "payout_template": "winner_takes_all"},
    )
    for p in players:
        entry_record(tournament=t, player_id=p.pk, kind="buy_in", by=game.admin)
    while not tournament_state(t).over:
        record(t, game.admin, fold_entry(t, winner=winner))
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    return t


def test_an_admin_reads_the_balances_corrects_one_and_marks_a_transfer_paid(site, phone, shots):
    game = make_game()
    dee = player_create(league=game.league, name="Dee", by=game.admin)
    everyone = [*game.players, dee]
    play_night(game, everyone, "First night", winner=0)
    play_night(game, everyone[:3], "Second night", winner=1)
    ledger = league_ledger(game.league)
    assert sum(ledger.balances.values()) == 0 and ledger.transfers
    problems: list[str] = []
    log_in(phone, site, game.admin.username, f"/leagues/{game.league.slug}/ledger/")
    balances = phone.inner_text("[data-testid=ledger-balances]")
    for amount in ledger.balances.values():
        assert ledger.fmt(amount).lstrip("-") in balances
    transfers = phone.inner_text("[data-testid=ledger-transfers]")
    assert all(ledger.fmt(t.amount) in transfers for t in ledger.transfers)
    shots(phone, "ledger-phone")
    problems += clean(phone, "the league's money ledger")
    # a correction with a bad amount: refused, what was typed stays
    phone.select_option("#id_correction-player", label="Dee")
    phone.fill("#id_correction-amount", "2.505")
    phone.fill("#id_correction-reason", "Dee paid a fee in cash")
    phone.click("[data-testid=ledger-correction-save]")
    assert "more than 2 decimal places" in phone.inner_text("[data-testid=form-error]")
    assert phone.input_value("#id_correction-reason") == "Dee paid a fee in cash"
    shots(phone, "ledger-correction-error-phone")
    problems += clean(phone, "the ledger's correction refused")
    phone.fill("#id_correction-amount", "5")
    phone.click("[data-testid=ledger-correction-save]")
    phone.wait_for_url(re.compile(r".*/ledger/$"))
    assert "Correction added" in phone.inner_text("[role=status]")
    assert "Dee paid a fee in cash" in phone.inner_text("[data-testid=ledger-entries]")
    assert MoneyLedgerEntry.objects.filter(kind="correction").count() == 2
    # the first transfer of the league's settle-up marked paid
    before = league_ledger(game.league)
    phone.click("[data-testid=ledger-paid-0]")
    phone.wait_for_url(re.compile(r".*/ledger/$"))
    assert "Payment recorded" in phone.inner_text("[role=status]")
    after = league_ledger(game.league)
    assert len(after.transfers) == len(before.transfers) - 1
    assert sum(after.balances.values()) == 0
    shots(phone, "ledger-paid-phone")
    problems += clean(phone, "the ledger after a payment")
    assert not problems, "\n".join(problems)
