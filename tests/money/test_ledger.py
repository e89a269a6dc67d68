"""The league money ledger across nights (docs/money.md, "The league ledger"): each finished
night's results posted, payments, a ruling's restated results and an admin's corrections,
all new entries adding up to zero, in the audit log; the league's settle-up squares the
open balances."""

from __future__ import annotations

import itertools

import pytest
from django.db import connection
from django.test import Client
from hypothesis import given
from hypothesis import strategies as st

from tests.factories import add_member, api_client, make_league
from tests.support.money import finish, night_of, nights, play_drawn, random_nights
from tracker.audit.models import AuditEntry
from tracker.core.errors import PermissionDenied
from tracker.core.models import AppendOnlyError
from tracker.engine.errors import DomainError
from tracker.hands.models import Pot
from tracker.leagues.services import player_create
from tracker.money.ledger_selectors import league_ledger, ledger_balances
from tracker.money.ledger_services import ledger_correction_add, ledger_payment_record
from tracker.money.models import MoneyLedgerEntry
from tracker.money.results import HOUSE, night_results
from tracker.money.services import league_money_set
from tracker.money.settle import transfer_mark_paid
from tracker.rulings.services import ruling_make

pytestmark = pytest.mark.django_db
_slugs = itertools.count()


def rows_of(league) -> list[tuple]:
    return list(
        MoneyLedgerEntry.objects.filter(league=league)
        .order_by("id")
        .values_list("id", "player_id", "kind", "amount", "tournament_id", "reason")
    )


def posted(t) -> dict:
    out: dict = {}
    for e in MoneyLedgerEntry.objects.filter(tournament=t, kind__in=("night", "restated")):
        key = HOUSE if e.player_id is None else e.player_id
        out[key] = out.get(key, 0) + e.amount
    return {k: v for k, v in out.items() if v}


def expected(t) -> dict:
    results = night_results(t)
    out = {p: r.result for p, r in results.players.items() if r.result}
    if results.fees:
        out[HOUSE] = results.fees
    return out


def small_night(league, admin, players, capture, *, name="Second night", limit=2):
    money = {"buy_in": 1000, "payout_template": "winner_takes_all"}
    t = night_of(league, admin, players, name=name, limit=limit, money=money)
    finish(t, admin, capture)
    return t


def test_the_worked_example_is_posted_when_the_night_ends_and_carries_over(
    example,
    django_capture_on_commit_callbacks,
):
    t, league, roster, _ = example
    admin = league.memberships.get(role="admin").user
    ids = {n: p.pk for n, p in roster.items()}
    # the night ended: its results are in the ledger once, the house owed the fees
    want = {ids["Ann"]: -500, ids["Bob"]: -2500, ids["Cat"]: 2500, ids["Dan"]: -3000}
    assert posted(t) == want | {HOUSE: 3500}
    assert set(MoneyLedgerEntry.objects.filter(tournament=t).values_list("kind", flat=True)) == {
        "night"
    }
    assert AuditEntry.objects.filter(action="money.ledger_night", target_id=str(t.pk)).count() == 1
    ledger = league_ledger(league)
    assert ledger.balances == {
        ids["Ann"]: -500,
        ids["Bob"]: -2500,
        ids["Cat"]: 2500,
        ids["Dan"]: -3000,
        HOUSE: 3500,
    }
    assert sum(ledger.balances.values()) == 0 and len(ledger.transfers) == 3
    # the night's transfer Bob -> Cat marked paid: two payment entries, Bob and Cat square
    results = night_results(t)
    bob_cat = next(k for k, x in enumerate(results.transfers) if x.payer == ids["Bob"])
    transfer_mark_paid(tournament=t, position=bob_cat, by=admin)
    transfer_mark_paid(tournament=t, position=bob_cat, by=admin)  # again: nothing more
    pay = MoneyLedgerEntry.objects.filter(kind="payment")
    assert sorted(pay.values_list("player_id", "amount")) == sorted(
        [(ids["Bob"], 2500), (ids["Cat"], -2500)]
    )
    assert ledger_balances(league, currency="USD") == {
        ids["Ann"]: -500,
        ids["Dan"]: -3000,
        HOUSE: 3500,
    }
    # a second night: Ann and Dan (unpaid) carry their debts over; the league's settle-up
    # squares everything at once
    second = small_night(
        league,
        admin,
        [roster["Ann"], roster["Bob"], roster["Dan"]],
        django_capture_on_commit_callbacks,
    )
    results2 = night_results(second)
    balances = league_ledger(league).balances
    for name in ("Ann", "Bob", "Dan"):
        pid = ids[name]
        first = want[pid] + (2500 if name == "Bob" else 0)
        assert balances.get(pid, 0) == first + results2.players[pid].result
    assert sum(balances.values()) == 0
    # the numbers of docs/money.md: Bob and Dan tie for first place and share its $30
    assert {pid: results2.players[pid].result for pid in results2.players} == {
        ids["Ann"]: -1000,
        ids["Bob"]: 500,
        ids["Dan"]: 500,
    }
    assert balances == {ids["Ann"]: -1500, ids["Bob"]: 500, ids["Dan"]: -2500, HOUSE: 3500}
    ledger = league_ledger(league)
    assert [(x.payer, x.payee, x.amount) for x in ledger.transfers] == [
        (ids["Ann"], ids["Bob"], 500),
        (ids["Ann"], HOUSE, 1000),
        (ids["Dan"], HOUSE, 2500),
    ]
    square = dict(ledger.balances)
    for x in ledger.transfers:
        square[x.payer] += x.amount
        square[x.payee] -= x.amount
    assert set(square.values()) == {0} and ledger.minimal
    # one of them paid through the API, by the admin: the balances move, the list shrinks
    first = ledger.transfers[0]
    body = {"payer": str(first.payer), "payee": str(first.payee), "amount": first.amount}
    r = api_client(admin).post("/api/v1/leagues/friday/ledger/payments/", body, format="json")
    assert r.status_code == 201, r.content
    assert len(r.json()["transfers"]) == len(ledger.transfers) - 1
    assert AuditEntry.objects.filter(action="money.ledger_payment").count() == 1
    # the same payment again is no longer in the settle-up: refused, nothing stored
    before = rows_of(league)
    r = api_client(admin).post("/api/v1/leagues/friday/ledger/payments/", body, format="json")
    assert r.status_code == 400 and r.json()["error"]["code"] == "not_in_settle_up"
    assert rows_of(league) == before


def test_a_ruling_that_moves_a_payout_adds_restated_entries(example):
    t, league, roster, _ = example
    ids = {n: p.pk for n, p in roster.items()}
    rob = add_member(league, "rob", "authority")
    before = rows_of(league)
    payouts = {p: r.payout for p, r in night_results(t).players.items()}
    was = expected(t)
    # hand 2: Dan lost his last chips to the aces (and rebought); the authority gives that
    # pot to Dan: the final standings and the payouts move
    pot = Pot.objects.get(hand__tournament=t, hand__number=2, index=0)
    assert ids["Dan"] in pot.eligible and len(pot.eligible) == 2
    ruling = ruling_make(
        pot=pot,
        by=rob,
        result="award",
        reason="Dan's hand was the best",
        award={ids["Dan"]: pot.amount},
    )
    now = {p: r.payout for p, r in night_results(t).players.items()}
    assert now != payouts and sum(now.values()) == sum(payouts.values())
    # the earlier entries are untouched; new ones restate the night by the difference
    assert rows_of(league)[: len(before)] == before
    new = MoneyLedgerEntry.objects.filter(kind="restated")
    change = {p: expected(t).get(p, 0) - was.get(p, 0) for p in {*was, *expected(t)}}
    assert sorted(new.values_list("player_id", "amount")) == sorted(
        (p, a) for p, a in change.items() if a
    )
    assert all(f"ruling {ruling.pk} on hand 2" in e.reason for e in new)
    # docs/money.md: Dan (2,998 chips) now comes first ($65), Cat third ($20)
    assert sorted(new.values_list("player_id", "amount")) == sorted(
        [(ids["Cat"], -4500), (ids["Dan"], 4500)]
    )
    assert posted(t) == expected(t)
    assert sum(ledger_balances(league, currency="USD").values()) == 0
    audit = AuditEntry.objects.get(action="money.ledger_restated")
    assert audit.data["cause"] == f"ruling {ruling.pk} on hand 2"
    assert audit.data["amounts"] == {str(p): a for p, a in change.items() if a}


def test_an_admin_corrects_a_balance_and_nobody_else_may(example):
    t, league, roster, _ = example
    admin = league.memberships.get(role="admin").user
    ann = roster["Ann"].pk
    before = rows_of(league)
    for who in (league.member, add_member(league, "sue", "scorekeeper")):
        with pytest.raises(PermissionDenied, match="Only a league admin may correct"):
            ledger_correction_add(league=league, player_id=ann, amount=500, reason="x", by=who)
        r = api_client(who).post(
            "/api/v1/leagues/friday/ledger/corrections/",
            {"player": ann, "amount": 500, "reason": "paid in cash"},
            format="json",
        )
        assert r.status_code == 403 and "Only a league admin" in r.json()["error"]["message"]
    for amount, reason, code in (
        (0, "x", "invalid_amount"),
        (10**13, "x", "invalid_amount"),
        (500, "  ", "reason_required"),
    ):
        with pytest.raises(DomainError) as exc:
            ledger_correction_add(
                league=league, player_id=ann, amount=amount, reason=reason, by=admin
            )
        assert exc.value.code == code
    assert rows_of(league) == before
    r = api_client(admin).post(
        "/api/v1/leagues/friday/ledger/corrections/",
        {"player": ann, "amount": 500, "reason": "Ann paid her $5 in cash"},
        format="json",
    )
    assert r.status_code == 201, r.content
    balances = {b["player"]: b["balance"] for b in r.json()["balances"]}
    assert str(ann) not in balances and balances[HOUSE] == 3000  # square: left out
    new = MoneyLedgerEntry.objects.filter(kind="correction")
    assert sorted(new.values_list("player_id", "amount"), key=str) == sorted(
        [(ann, 500), (None, -500)], key=str
    )
    assert rows_of(league)[: len(before)] == before
    audit = AuditEntry.objects.get(action="money.ledger_correction")
    assert audit.data["reason"] == "Ann paid her $5 in cash" and audit.data["amount"] == 500
    # a correction to another league's player: refused on the field
    other, other_admin = make_league(slug="other-league")
    stranger = player_create(league=other, name="Zed", by=other_admin)
    with pytest.raises(DomainError) as exc:
        ledger_correction_add(league=league, player_id=stranger.pk, amount=5, reason="x", by=admin)
    assert exc.value.code == "unknown_player" and "player" in exc.value.fields


def test_ledger_rows_are_never_changed_nor_deleted(example):
    t, league, roster, _ = example
    row = MoneyLedgerEntry.objects.first()
    row.amount += 1
    with pytest.raises(AppendOnlyError):
        row.save()
    with pytest.raises(AppendOnlyError):
        row.delete()
    with pytest.raises(AppendOnlyError):
        MoneyLedgerEntry.objects.filter(pk=row.pk).update(amount=0)
    if connection.vendor == "postgresql":  # the trigger refuses whoever writes
        from django.db import DatabaseError, transaction

        with pytest.raises(DatabaseError, match="append-only"), transaction.atomic():
            with connection.cursor() as cur:
                cur.execute(
                    "UPDATE tracker_moneyledgerentry SET amount = 0 WHERE id = %s", [row.pk]
                )


def test_the_api_reads_the_ledger_per_player_for_members_only(example):
    t, league, roster, _ = example
    bob = roster["Bob"].pk
    body = api_client(league.member).get("/api/v1/leagues/friday/ledger/").json()
    assert sum(b["balance"] for b in body["balances"]) == 0 and len(body["entries"]) == 5
    assert body["currency"] == "USD" and body["minimal"] is True
    mine = api_client(league.member).get(f"/api/v1/leagues/friday/ledger/?player={bob}").json()
    assert mine["balances"] == [{"player": str(bob), "balance": -2500, "balance_text": "-$25.00"}]
    assert [e["player"] for e in mine["entries"]] == [str(bob)]
    house = api_client(league.member).get("/api/v1/leagues/friday/ledger/?player=house").json()
    assert [e["amount"] for e in house["entries"]] == [3500]
    assert (
        api_client(league.member).get("/api/v1/leagues/friday/ledger/?player=999999").status_code
        == 404
    )
    # a public league's visitors see its nights, not its money; a private league: nothing
    assert api_client().get("/api/v1/leagues/friday/ledger/").status_code in (401, 403)
    outsider = make_league(slug="elsewhere")[1]
    assert api_client(outsider).get("/api/v1/leagues/friday/ledger/").status_code == 403
    league.is_public = False
    league.save(update_fields=["is_public"])
    assert api_client(outsider).get("/api/v1/leagues/friday/ledger/").status_code == 404


@random_nights(6)
@given(
    first=nights(),
    second=nights(),
    steps=st.lists(
        st.tuples(
            st.sampled_from(["rule", "pay_night", "pay_league", "correct"]), st.integers(0, 99)
        ),
        max_size=4,
    ),
)
def test_random_nights_rulings_and_payments_keep_the_ledger_square(
    first, second, steps, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    league, admin = make_league(slug=f"ledger-{next(_slugs)}")
    rob = add_member(league, f"rob{league.pk}", "authority")
    roster = [player_create(league=league, name=f"P{k}", by=admin) for k in range(5)]
    nights_played = []
    for k, (unit, money, limit, players, hands, tries) in enumerate((first, second)):
        league_money_set(league=league, by=admin, values={"unit": unit})
        seated = roster[:players]
        t = night_of(
            league, admin, seated, name=f"Night {k}", limit=limit, money=money, buy_in=False
        )
        play_drawn(t, admin, seated, capture, hands, tries)
        finish(t, admin, capture)
        nights_played.append(t)

    def check(seen: list[tuple]) -> list[tuple]:
        rows = rows_of(league)
        assert rows[: len(seen)] == seen  # nothing changed, nothing deleted
        balances = ledger_balances(league, currency="USD")
        assert sum(balances.values()) == 0
        # each night's posted entries are its results as they stand (rulings included)
        for night in nights_played:
            assert posted(night) == expected(night)
        # a balance is the nights' results plus the payments (payer up, payee down) and the
        # corrections
        want: dict = {}
        for night in nights_played:
            for p, a in expected(night).items():
                want[p] = want.get(p, 0) + a
        for e in MoneyLedgerEntry.objects.filter(league=league, kind__in=("payment", "correction")):
            key = HOUSE if e.player_id is None else e.player_id
            want[key] = want.get(key, 0) + e.amount
        assert {p: a for p, a in want.items() if a} == balances
        return rows

    seen = check([])
    for action, pick in steps:
        if action == "rule":
            night = nights_played[pick % 2]
            pots = list(Pot.objects.filter(hand__tournament=night, amount__gt=0).order_by("id"))
            pot = pots[pick % len(pots)]
            eligible = sorted(pot.eligible or [])
            winner = eligible[pick % len(eligible)]
            try:
                ruling_make(
                    pot=pot, by=rob, result="award", reason="seen again", award={winner: pot.amount}
                )
            except DomainError as exc:  # the chips a later hand bet would go below zero
                assert exc.code == "below_zero" and night.status == "finished", exc.message
        elif action == "pay_night":
            night = nights_played[pick % 2]
            transfers = night_results(night).transfers
            if transfers:
                transfer_mark_paid(tournament=night, position=pick % len(transfers), by=admin)
        elif action == "correct":
            ledger_correction_add(
                league=league,
                player_id=roster[pick % 5].pk,
                amount=(pick - 50) * 10 or 1,
                reason="counted again",
                by=admin,
            )
        else:
            ledger = league_ledger(league)
            if ledger.transfers:
                x = ledger.transfers[pick % len(ledger.transfers)]
                ledger_payment_record(
                    league=league, payer=x.payer, payee=x.payee, amount=x.amount, by=admin
                )
        seen = check(seen)


def test_the_ledger_page_shows_balances_settles_up_and_takes_corrections(example):
    t, league, roster, _ = example
    admin = league.memberships.get(role="admin").user
    member = Client()
    member.force_login(league.member)
    assert b'data-testid="league-ledger"' in member.get("/leagues/friday/").content
    html = member.get("/leagues/friday/ledger/").content.decode()
    assert "Bob" in html and "-$25.00" in html and "+$35.00" in html  # the house's fees
    assert 'data-testid="ledger-paid-' not in html  # neither payer nor payee
    assert 'data-testid="ledger-correction-form"' not in html
    r = member.post(
        "/leagues/friday/ledger/corrections/",
        {"correction-player": roster["Ann"].pk, "correction-amount": "5", "correction-reason": "x"},
    )
    assert r.status_code == 403
    # the admin: a bad amount is shown again with what was typed, nothing stored
    client = Client()
    client.force_login(admin)
    before = rows_of(league)
    r = client.post(
        "/leagues/friday/ledger/corrections/",
        {
            "correction-player": roster["Ann"].pk,
            "correction-amount": "5.001",
            "correction-reason": "cash",
        },
    )
    assert r.status_code == 400 and "more than 2 decimal places" in r.content.decode()
    assert 'value="cash"' in r.content.decode() and rows_of(league) == before
    r = client.post(
        "/leagues/friday/ledger/corrections/",
        {
            "correction-player": roster["Ann"].pk,
            "correction-amount": "5",
            "correction-reason": "cash",
        },
    )
    assert r.status_code == 302
    assert ledger_balances(league, currency="USD").get(roster["Ann"].pk, 0) == 0
    # the admin marks a transfer of the league's settle-up paid
    html = client.get("/leagues/friday/ledger/").content.decode()
    assert 'data-testid="ledger-paid-0"' in html
    x = league_ledger(league).transfers[0]
    r = client.post(
        "/leagues/friday/ledger/paid/",
        {"payer": str(x.payer), "payee": str(x.payee), "amount": str(x.amount)},
    )
    assert r.status_code == 302
    assert len(league_ledger(league).transfers) == 1
    # outsiders: a public league's visitors are sent to log in or refused; private: 404
    assert Client().get("/leagues/friday/ledger/").status_code == 302
    outsider = Client()
    outsider.force_login(make_league(slug="elsewhere")[1])
    assert outsider.get("/leagues/friday/ledger/").status_code == 403
    league.is_public = False
    league.save(update_fields=["is_public"])
    assert outsider.get("/leagues/friday/ledger/").status_code == 404


def test_a_payer_records_their_own_payment_and_nobody_else_may(example):
    t, league, roster, _ = example
    ledger = league_ledger(league)
    dan_house = next(x for x in ledger.transfers if x.payer == roster["Dan"].pk)
    body = {"payer": str(dan_house.payer), "payee": HOUSE, "amount": dan_house.amount}
    # a member who is not Dan: refused, nothing stored
    before = rows_of(league)
    r = api_client(league.member).post(
        "/api/v1/leagues/friday/ledger/payments/", body, format="json"
    )
    assert r.status_code == 403 and "payer, its payee or a league admin" in r.content.decode()
    assert rows_of(league) == before
    # Dan's linked account may
    dan = add_member(league, "dan", "member")
    roster["Dan"].user = dan
    roster["Dan"].save(update_fields=["user"])
    page = Client()
    page.force_login(dan)
    html = page.get("/leagues/friday/ledger/").content.decode()
    assert html.count('data-testid="ledger-paid-') == 1  # his own transfer only
    r = api_client(dan).post("/api/v1/leagues/friday/ledger/payments/", body, format="json")
    assert r.status_code == 201, r.content
    assert str(roster["Dan"].pk) not in {b["player"] for b in r.json()["balances"]}
    # a bad amount or party: refused on the field
    for bad, field in (({"amount": 0}, "amount"), ({"payer": "nobody"}, "payer")):
        r = api_client(dan).post(
            "/api/v1/leagues/friday/ledger/payments/", body | bad, format="json"
        )
        assert r.status_code == 400 and field in r.json()["error"]["fields"], r.content
