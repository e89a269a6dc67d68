"""The deal section of the tournament page: the options side by side for the players still in,
the form for admins only, a refusal shown again with what was typed, and the deal that ended
the night."""

from __future__ import annotations

import pytest
from django.test import Client

from tests.support.money import still_in
from tracker.money.deal_selectors import deal_offer
from tracker.money.models import Deal
from tracker.money.selectors import night_money_summary
from tracker.tournaments.models import TournamentStatus

pytestmark = pytest.mark.django_db


def test_the_page_shows_the_options_side_by_side(night):
    t, league, admin, _ = night
    offer = deal_offer(t)
    summary = offer.summary
    client = Client()
    client.force_login(admin)
    html = client.get(t.get_absolute_url()).content.decode()
    assert 'data-testid="deal-options"' in html
    for p, row in zip(offer.players, offer.rows(), strict=True):
        cells = [summary.fmt(row[o]) for o in ("icm", "chip_chop", "even")]
        assert all(c in html for c in cells) and p.name in html
    assert 'data-testid="deal-form"' in html
    member = Client()
    member.force_login(league.member)
    seen = member.get(t.get_absolute_url()).content.decode()
    assert 'data-testid="deal-options"' in seen and 'data-testid="deal-form"' not in seen


def test_the_page_records_a_deal_and_shows_a_refusal_with_what_was_typed(night):
    t, league, admin, _ = night
    players = still_in(t)
    offer = deal_offer(t)
    client = Client()
    client.force_login(admin)
    url = f"/tournaments/{t.pk}/deal/"
    typed = {f"amount-{pid}": "1" for pid in players}
    bad = client.post(url, {"option": "custom", "agreed": players, **typed})
    assert bad.status_code == 400
    html = bad.content.decode()
    assert 'data-testid="deal-error"' in html and "remaining pool" in html
    assert f'name="amount-{players[0]}" value="1"' in html
    assert not Deal.objects.exists()
    t.refresh_from_db()
    assert t.status != TournamentStatus.FINISHED
    member = Client()
    member.force_login(league.member)
    assert member.post(url, {"option": "even", "agreed": players}).status_code == 403
    done = client.post(url, {"option": "icm", "agreed": players})
    assert done.status_code == 302
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED
    summary = night_money_summary(t)
    assert [summary.payouts[pid] for pid in players] == offer.options["icm"]
    page = client.get(t.get_absolute_url()).content.decode()
    assert 'data-testid="deal-done"' in page and "ICM, agreed by" in page
    assert 'data-testid="deal-form"' not in page
