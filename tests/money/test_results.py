"""A finished night's bounties, money results and settle-up (docs/money.md, "Bounties" and
"Who owes whom"), read from the entries, the final standings and the settled pots."""

from __future__ import annotations

import itertools

import pytest
from django.test import Client
from hypothesis import given

from tests.factories import api_client, showdown_entry
from tests.support.money import (
    BOUNTY_NIGHT,
    finish,
    nights,
    play,
    random_night,
    random_nights,
    three_handed,
)
from tests.support.recording import record
from tracker.engine.errors import DomainError
from tracker.money.results import HOUSE, night_bounties, night_results
from tracker.tournaments.selectors import tournament_state

pytestmark = pytest.mark.django_db
_slugs = itertools.count()

# two players tie with queens and jacks, the third has ace high
QUEENS_JACKS_1 = (["Qs", "Qh", "Js"], ["Jh", "2s", "3h", "8d"])
QUEENS_JACKS_2 = (["Qc", "Qd", "Jc"], ["Jd", "2h", "3s", "8h"])
ACE_HIGH = (["9s", "7h", "6d"], ["4s", "2c", "Kc", "Ac"])


def test_the_bounty_goes_to_the_winner_of_the_pot_that_took_the_last_chips(
    django_capture_on_commit_callbacks,
):
    capture = django_capture_on_commit_callbacks
    t, league, admin, roster = three_handed(capture, slug="bounty-one")
    names = {p.pk: n for n, p in roster.items()}
    first_two = [names[s.player_id] for s in tournament_state(t).next_positions()[:2]]
    play(t, admin, capture, "bust")  # the second of the first two loses it all to the aces
    winner, busted = first_two
    assert night_bounties(t) == []  # not before the night is over: a rebuy could follow
    finish(t, admin, capture)
    (bounty,) = night_bounties(t)
    assert names[bounty.busted] == busted and bounty.hand_number == 1 and bounty.pot_index == 0
    assert {names[p]: a for p, a in bounty.shares.items()} == {winner: 500}
    results = night_results(t)
    assert results.final
    by_name = {names[p]: r for p, r in results.players.items()}
    assert by_name[busted].bounty_back == 0 and by_name[busted].bounties == 0
    assert by_name[winner].bounties == 500
    assert sum(r.result for r in results.players.values()) == -results.fees == -1500
    # the hand page says whose bounty went to whom, to the league's members only
    client = Client()
    client.force_login(admin)
    page = client.get(f"/hands/{bounty.hand_id}/").content.decode()
    assert 'data-testid="hand-bounties"' in page
    assert f"{busted}&#x27;s bounty ($5.00): {winner} $5.00" in page
    assert (
        'data-testid="hand-bounties"'
        not in Client().get(f"/hands/{bounty.hand_id}/").content.decode()
    )


def test_a_split_pot_splits_the_bounty_the_bigger_share_then_seat_order_first(
    django_capture_on_commit_callbacks,
):
    capture = django_capture_on_commit_callbacks
    t, league, admin, roster = three_handed(
        capture, slug="bounty-split", money=BOUNTY_NIGHT | {"bounty": 1500}
    )
    names = {p.pk: n for n, p in roster.items()}
    positions = tournament_state(t).next_positions()
    entry = showdown_entry(t, [QUEENS_JACKS_1, QUEENS_JACKS_2, ACE_HIGH], 1000)
    with capture(execute=True):
        record(t, admin, entry, variant="seven_card_stud")
    finish(t, admin, capture)
    (bounty,) = night_bounties(t)
    a, b, c = (names[s.player_id] for s in positions)
    assert names[bounty.busted] == c
    # $15 in $5 units: one each, the unit left over to the first of equal shares in seat order
    seats = [s.player.name for s in t.seats.order_by("number")]
    seat_first = min((a, b), key=seats.index)
    shares = {names[p]: v for p, v in bounty.shares.items()}
    assert sorted(shares.values()) == [500, 1000] and shares[seat_first] == 1000
    assert sum(shares.values()) == bounty.amount == 1500


def test_the_worked_example_results_and_settle_up(example):
    """docs/money.md: nobody is out at the end (Dan rebought), so each gets their own bounty
    back; the results add up to minus the fees, and three transfers square everyone."""
    t, league, roster, _ = example
    names = {p.pk: n for n, p in roster.items()} | {HOUSE: "house"}
    results = night_results(t)
    assert results.bounties == []
    got = {
        names[p]: (r.paid, r.payout, r.bounty_back, r.result) for p, r in results.players.items()
    }
    assert got == {
        "Ann": (4500, 3500, 500, -500),
        "Bob": (3000, 0, 500, -2500),
        "Cat": (4500, 6500, 500, 2500),
        "Dan": (5500, 2000, 500, -3000),
    }
    assert sum(r.result for r in results.players.values()) == -results.fees == -3500
    transfers = [(names[x.payer], names[x.payee], x.amount) for x in results.transfers]
    assert sorted(transfers) == [
        ("Ann", "house", 500),
        ("Bob", "Cat", 2500),
        ("Dan", "house", 3000),
    ]
    assert results.minimal


def test_results_on_the_api_and_the_page_for_members_only(example):
    t, league, roster, _ = example
    body = api_client(league.member).get(f"/api/v1/tournaments/{t.pk}/results/").json()
    assert body["final"] is True and body["fees"] == 3500 and body["minimal"] is True
    assert sorted(r["result"] for r in body["results"]) == [-3000, -2500, -500, 2500]
    assert {(x["payer"], x["payee"], x["amount"]) for x in body["transfers"]} == {
        (str(roster["Bob"].pk), str(roster["Cat"].pk), 2500),
        (str(roster["Ann"].pk), "house", 500),
        (str(roster["Dan"].pk), "house", 3000),
    }
    client = Client()
    client.force_login(league.member)
    html = client.get(t.get_absolute_url()).content.decode()
    assert 'data-testid="money-results"' in html and "-$30.00" in html and "+$25.00" in html
    assert 'data-testid="money-transfers"' in html
    assert "<strong>Bob</strong> pays <strong>Cat</strong> $25.00" in html
    assert "<strong>Dan</strong> pays <strong>the house</strong> $30.00" in html
    assert api_client().get(f"/api/v1/tournaments/{t.pk}/results/").status_code in (401, 403)
    assert 'data-testid="money-results"' not in Client().get(t.get_absolute_url()).content.decode()


def test_before_the_end_there_are_no_results(django_capture_on_commit_callbacks):
    t, league, admin, roster = three_handed(django_capture_on_commit_callbacks, slug="early-r")
    results = night_results(t)
    assert not results.final and results.players == {} and results.transfers == []
    body = api_client(admin).get(f"/api/v1/tournaments/{t.pk}/results/").json()
    assert body["final"] is False and body["transfers"] == []


@random_nights(10)
@given(night=nights())
def test_random_nights_conserve_money_and_bounties_and_square_everyone(
    night, django_capture_on_commit_callbacks
):
    capture = django_capture_on_commit_callbacks
    unit, money, limit, players, hands, tries = night
    t, league, admin, roster = random_night(night, capture, slug=f"results-{next(_slugs)}")
    finish(t, admin, capture)

    results = night_results(t)
    fees = results.summary.pool.fees
    # money conserved: the results add up to minus the fees (the house's)
    assert sum(r.result for r in results.players.values()) == -fees
    # bounties conserved: what is paid out for the players who went out is what they paid
    collected = {}
    for e in results.summary.entries:
        collected[e.player_id] = collected.get(e.player_id, 0) + e.bounty
    out = {b.busted for b in results.bounties}
    assert all(sum(b.shares.values()) == b.amount == collected[b.busted] for b in results.bounties)
    assert sum(r.bounties for r in results.players.values()) == sum(collected[p] for p in out)
    assert all(
        r.bounty_back == collected.get(p, 0) for p, r in results.players.items() if p not in out
    )
    assert all(r.result % unit == 0 for r in results.players.values())
    # the transfers square every balance, the house's included
    balance = {p: r.result for p, r in results.players.items()} | {HOUSE: fees}
    for x in results.transfers:
        assert x.amount > 0
        balance[x.payer] += x.amount
        balance[x.payee] -= x.amount
    assert set(balance.values()) <= {0}
    assert results.minimal


def test_a_transfer_is_marked_paid_by_its_payer_its_payee_or_an_admin_once(example):
    from tests.factories import add_member
    from tracker.audit.models import AuditEntry
    from tracker.core.errors import PermissionDenied
    from tracker.money.models import SettleTransfer
    from tracker.money.settle import night_transfers_create, transfer_mark_paid

    t, league, roster, _ = example
    results = night_results(t)
    position = next(
        k for k, x in enumerate(results.transfers) if x.payer == roster["Bob"].pk
    )  # Bob pays Cat $25
    # a member who is neither Bob nor Cat may not; nothing is stored by the refusal
    with pytest.raises(PermissionDenied, match="payer, its payee or a league admin"):
        transfer_mark_paid(tournament=t, position=position, by=league.member)
    assert not SettleTransfer.objects.filter(tournament=t, paid_at__isnull=False).exists()
    # Cat's linked account (a member of the league) may, through the API
    cat = add_member(league, "cat", "member")
    roster["Cat"].user = cat
    roster["Cat"].save(update_fields=["user"])
    body = api_client(cat).post(f"/api/v1/tournaments/{t.pk}/transfers/{position}/paid/")
    assert body.status_code == 200, body.content
    paid = {x["position"]: x["paid_at"] for x in body.json()["transfers"]}
    assert paid[position] is not None and sum(v is not None for v in paid.values()) == 1
    # again: idempotent, one row per transfer, one audit entry of the payment
    first = SettleTransfer.objects.get(tournament=t, position=position).paid_at
    transfer_mark_paid(tournament=t, position=position, by=cat)
    assert SettleTransfer.objects.get(tournament=t, position=position).paid_at == first
    assert len(night_transfers_create(tournament=t, by=cat)) == len(results.transfers) == 3
    assert AuditEntry.objects.filter(action="money.transfer_paid").count() == 1
    # an admin marks a transfer to the house; the member sees it paid
    house = next(k for k, x in enumerate(results.transfers) if x.payee == HOUSE)
    assert SettleTransfer.objects.get(tournament=t, position=house).paid_at is None
    admin_user = next(
        m.user for m in league.memberships.select_related("user") if m.role == "admin"
    )
    assert (
        api_client(admin_user)
        .post(f"/api/v1/tournaments/{t.pk}/transfers/{house}/paid/")
        .status_code
        == 200
    )
    body = api_client(league.member).get(f"/api/v1/tournaments/{t.pk}/results/").json()
    assert sum(x["paid_at"] is not None for x in body["transfers"]) == 2
    client = Client()
    client.force_login(league.member)
    html = client.get(t.get_absolute_url()).content.decode()
    assert html.count('<span class="badge">paid</span>') == 2
    # no such transfer: 404; the member (not payer nor payee) is refused: 403
    assert (
        api_client(admin_user).post(f"/api/v1/tournaments/{t.pk}/transfers/9/paid/").status_code
        == 404
    )
    other = next(k for k in range(3) if k not in (position, house))
    assert (
        api_client(league.member)
        .post(f"/api/v1/tournaments/{t.pk}/transfers/{other}/paid/")
        .status_code
        == 403
    )


def test_the_settle_up_is_stored_only_once_the_night_is_over(django_capture_on_commit_callbacks):
    from tracker.money.settle import night_transfers_create

    t, league, admin, roster = three_handed(django_capture_on_commit_callbacks, slug="not-over")
    with pytest.raises(DomainError) as exc:
        night_transfers_create(tournament=t, by=admin)
    assert exc.value.code == "night_not_over"
    assert (
        api_client(admin).post(f"/api/v1/tournaments/{t.pk}/transfers/0/paid/").status_code == 400
    )


def test_the_page_marks_a_transfer_paid_for_those_who_may(example):
    t, league, roster, _ = example
    results = night_results(t)
    bob_cat = next(k for k, x in enumerate(results.transfers) if x.payer == roster["Bob"].pk)
    member = Client()
    member.force_login(league.member)  # neither payer nor payee: no button, refused
    html = member.get(t.get_absolute_url()).content.decode()
    assert "Who owes whom" in html and 'data-testid="transfer-paid-' not in html
    assert member.post(f"/tournaments/{t.pk}/transfers/{bob_cat}/paid/").status_code == 403
    roster["Bob"].user = league.member  # now the member is Bob: the button for his transfer
    roster["Bob"].save(update_fields=["user"])
    html = member.get(t.get_absolute_url()).content.decode()
    assert f'data-testid="transfer-paid-{bob_cat}"' in html
    assert html.count('data-testid="transfer-paid-') == 1
    answer = member.post(f"/tournaments/{t.pk}/transfers/{bob_cat}/paid/")
    assert answer.status_code == 302
    assert night_results(t).paid_at.keys() == {bob_cat}
    html = member.get(t.get_absolute_url()).content.decode()
    assert 'data-testid="transfer-paid-' not in html and '<span class="badge">paid</span>' in html
