"""Prize pool and payouts: random nights played through the services (entries, rebuys,
add-ons, busts, a hand limit) keep money and chips conserved and pay whole units, tied
players sharing; the worked example of docs/money.md; payouts on the tournament page, the
table screen and in the API once the night is over."""

from __future__ import annotations

import itertools

import pytest
from django.db.models import Sum
from django.test import Client
from hypothesis import given

from tests.factories import (
    api_client,
    make_league,
)
from tests.support.money import finish, night_of, nights, random_night, random_nights, roster_of
from tracker.money.models import MoneyEntry
from tracker.money.selectors import night_money_summary
from tracker.tournaments.models import FinalStanding, LedgerEntry, TournamentStatus

pytestmark = pytest.mark.django_db

_slugs = itertools.count()


@random_nights(12)
@given(night=nights())
def test_random_nights_conserve_money_and_chips_and_pay_whole_units(
    night, django_capture_on_commit_callbacks
):
    unit, money, limit, players, hands, tries = night
    capture = django_capture_on_commit_callbacks
    t, league, admin, roster = random_night(night, capture, slug=f"night-{next(_slugs)}")
    finish(t, admin, capture)

    entries = MoneyEntry.objects.filter(tournament=t, undone_at__isnull=True)
    chips_bought = entries.aggregate(s=Sum("chips"))["s"] or 0
    ledger = LedgerEntry.objects.filter(tournament=t).aggregate(s=Sum("amount"))["s"]
    assert ledger == t.starting_chips * players + chips_bought  # chips conserved
    assert sum(s.chips for s in FinalStanding.objects.filter(tournament=t)) == ledger

    summary = night_money_summary(t)
    paid_in = entries.aggregate(s=Sum("paid"))["s"] or 0
    assert summary.pool.paid_in == paid_in
    assert summary.paid_out + summary.pool.fees + summary.pool.bounties == paid_in  # money
    assert all(a % unit == 0 for a in summary.payouts.values())
    assert set(summary.payouts) == {p.pk for p in roster}
    # ties: players sharing a place share those places' payouts, to the unit
    places = summary.places
    for place in set(places.values()):
        tied = [pid for pid in summary.payouts if places[pid] == place]
        amounts = [summary.payouts[pid] for pid in tied]
        assert sum(amounts) == sum(summary.place_payouts[place - 1 : place - 1 + len(tied)])
        assert max(amounts) - min(amounts) <= unit
    # the rules held for every entry
    rules = summary.rules
    for pid in {e.player_id for e in entries}:
        mine = [e for e in entries if e.player_id == pid]
        rebuys = [e for e in mine if e.kind == "rebuy"]
        assert len(rebuys) <= rules.rebuy_max
        assert all(e.at_hand <= rules.rebuy_until_hand for e in rebuys)
        assert all(e.at_hand == rules.addon_at_hand for e in mine if e.kind == "addon")
        assert sum(e.kind == "addon" for e in mine) <= 1


def test_the_worked_example_of_the_docs(example):
    t, league, roster, busted = example
    assert t.status == TournamentStatus.FINISHED and busted == "Dan"
    summary = night_money_summary(t)
    pool = summary.pool
    assert (pool.paid_in, pool.fees, pool.bounties, pool.prize_pool) == (17500, 3500, 2000, 12000)
    assert summary.place_payouts == [6500, 3500, 2000]
    names = {p.pk: n for n, p in roster.items()}
    standings = {
        names[s.player_id]: (s.place, s.chips) for s in FinalStanding.objects.filter(tournament=t)
    }
    paid = {names[pid]: a for pid, a in summary.payouts.items()}
    assert standings == {"Cat": (1, 3522), "Ann": (2, 2490), "Dan": (3, 998), "Bob": (4, 990)}
    assert paid == {"Cat": 6500, "Ann": 3500, "Dan": 2000, "Bob": 0}
    first, second, third = sorted(standings, key=lambda n: standings[n][0])[:3]
    assert (paid[first], paid[second], paid[third]) == (6500, 3500, 2000)
    assert sum(paid.values()) + pool.fees + pool.bounties == pool.paid_in
    assert sum(s[1] for s in standings.values()) == 4 * 1000 + 1000 + 2 * 1500


def test_payouts_show_on_the_page_the_table_screen_and_the_api(example):
    t, league, roster, _ = example
    client = Client()
    client.force_login(league.member)
    html = client.get(t.get_absolute_url()).content.decode()
    assert 'data-testid="money-payouts"' in html and "$65.00" in html and "$120.00" in html
    screen = client.get(f"/tournaments/{t.pk}/table/live/").content.decode()
    assert "Prize pool $120.00" in screen and "$65.00" in screen
    body = api_client(league.member).get(f"/api/v1/tournaments/{t.pk}/money/").json()
    assert body["place_payouts"] == [6500, 3500, 2000]
    assert [p["amount"] for p in body["payouts"]] == [6500, 3500, 2000, 0]
    assert [p["place"] for p in body["payouts"]] == [1, 2, 3, 4]
    # a visitor of the public league sees the night, not its money
    anonymous = Client()
    assert "Prize pool" not in anonymous.get(f"/tournaments/{t.pk}/table/live/").content.decode()
    assert 'data-testid="money"' not in anonymous.get(t.get_absolute_url()).content.decode()


def test_before_the_end_each_place_shows_what_it_pays(django_capture_on_commit_callbacks):
    league, admin = make_league(slug="early")
    roster = roster_of(league, admin, ("Ann", "Bob", "Cat")).values()
    t = night_of(
        league, admin, roster, name="N", money={"buy_in": 1000, "payout_template": "65_35"}
    )
    summary = night_money_summary(t)
    assert summary.place_payouts == [2000, 1000] and summary.payouts == {}
    client = Client()
    client.force_login(admin)
    html = client.get(t.get_absolute_url()).content.decode()
    assert 'data-testid="money-places"' in html and "$20.00" in html and "$10.00" in html
