"""Check-in at the door in a real browser at phone size (375x740): the admin opens the
scheduled night's check-in from its page, taps in two players who said yes (one pays later)
and a walk-in from the roster, undoes a mistaken tap, and starts the night: the tournament
page shows the three seated (drawn), the buy-ins paid at the door are recorded and the yes
who did not come is a no-show. A player then opens "My nights" from the top bar: the night
they play and the next one, with their answer. axe, the target sizes and the overflow check
find nothing on the check-in page, the night started, and my nights (phone and desktop).
Screenshots: test-artifacts/web/checkin-*.png."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from tests.factories import add_member, make_league
from tests.web.conftest import BROWSER_TESTS, DESKTOP, PHONE, log_in, new_phone  # noqa: F401
from tests.web.targets import page_problems
from tracker.leagues.services import player_create, player_link
from tracker.money.models import MoneyEntry
from tracker.money.services import league_money_set
from tracker.schedule.models import Rsvp, ScheduledNight
from tracker.schedule.services import night_schedule, rsvp_answer

pytestmark = BROWSER_TESTS


def test_check_in_seats_who_came_records_buy_ins_and_my_nights_shows_it(
    site, browser, phone, shots
):
    league, admin = make_league(slug="friday")
    league_money_set(league=league, by=admin, values={"buy_in": 2000, "fee": 500})
    roster = {}
    for name in ("ann", "bob", "cat"):
        add_member(league, name, "member")
        roster[name] = player_create(league=league, name=name.title(), by=admin)
        player_link(league=league, player=roster[name], username=name, by=admin)
    abe = player_create(league=league, name="Abe", by=admin)  # no account, never answered
    night = night_schedule(
        league=league,
        starts_at=timezone.now() + dt.timedelta(hours=2),
        place="Alex's kitchen",
        seats=6,
        variant="seven_card_stud",
        by=admin,
        base_url=site,
    )
    later = night_schedule(
        league=league,
        starts_at=timezone.now() + dt.timedelta(days=7),
        place="Bob's garage",
        seats=6,
        by=admin,
        base_url=site,
    )
    for p in roster.values():
        rsvp_answer(night=night, player_id=p.pk, answer="yes", by=p.user)
    rsvp_answer(night=later, player_id=roster["ann"].pk, answer="maybe", by=roster["ann"].user)
    ann, bob, cat = roster["ann"], roster["bob"], roster["cat"]

    page = phone
    log_in(page, site, admin.username, next_url=f"/nights/{night.pk}/")
    page.click("[data-testid=open-check-in]")
    page.wait_for_load_state()
    assert "0 here of 6 seats" in page.inner_text("[data-testid=here-count]")
    assert "$25.00" in page.inner_text("[data-testid=door-money]")
    going = page.inner_text("[data-testid=door-going]")
    assert all(n in going for n in ("Ann", "Bob", "Cat"))
    assert "Abe" in page.inner_text("[data-testid=door-walk-ins]")
    found = page_problems(page, "check-in")
    shots(page, "checkin-door")

    def tap(selector: str) -> None:
        page.click(selector)
        page.wait_for_load_state()

    tap(f"[data-testid=check-in-{ann.pk}]")
    page.uncheck(f"[data-testid=paid-{bob.pk}]")  # Bob pays later
    tap(f"[data-testid=check-in-{bob.pk}]")
    tap(f"[data-testid=check-in-{cat.pk}]")  # a mistake: Cat is not here
    tap(f"[data-testid=check-out-{cat.pk}]")
    tap(f"[data-testid=check-in-{abe.pk}]")  # a walk-in
    assert "3 here of 6 seats" in page.inner_text("[data-testid=here-count]")
    assert "pays later" in page.inner_text(f"[data-testid=door-{bob.pk}]")
    assert "here" in page.inner_text(f"[data-testid=door-{abe.pk}]")
    found += page_problems(page, "check-in-three-here")
    shots(page, "checkin-three-here")

    tap("[data-testid=night-start]")
    assert "/tournaments/" in page.url
    assert "The night has started: 3 players, seats drawn." in page.inner_text("main")
    found += page_problems(page, "night-started-tournament")
    shots(page, "checkin-tournament")
    night.refresh_from_db()
    t = night.tournament
    assert t is not None and t.seats_drawn and t.default_variant == "seven_card_stud"
    assert set(t.seats.values_list("player_id", flat=True)) == {ann.pk, bob.pk, abe.pk}
    paid = MoneyEntry.objects.filter(tournament=t, kind="buy_in")
    assert sorted(e.player_id for e in paid) == sorted([ann.pk, abe.pk])
    assert [r.player_id for r in Rsvp.objects.filter(night=night, no_show=True)] == [cat.pk]
    page.goto(f"{site}/nights/{night.pk}/")
    assert "Cat" in page.inner_text("[data-testid=no-shows]")
    assert page.locator("[data-testid=open-check-in]").count() == 0
    found += page_problems(page, "night-started")
    shots(page, "checkin-night-started")

    # Ann, on her own phone: "My nights" from the top bar.
    errors: list[str] = []
    hers = new_phone(browser, errors)
    try:
        log_in(hers, site, "ann", next_url="/")
        hers.click("[data-testid=nav-my-nights]")
        hers.wait_for_load_state()
        upcoming = hers.inner_text("[data-testid=my-upcoming]")
        assert "Bob's garage" in upcoming and "Alex's kitchen" not in upcoming
        assert hers.inner_text(f"[data-testid=my-answer-{later.pk}]") == "maybe"
        assert t.name in hers.inner_text("[data-testid=my-past]")
        found += page_problems(hers, "my-nights")
        shots(hers, "checkin-my-nights")
        hers.click("[data-testid=my-upcoming] button[value=yes]")
        hers.wait_for_load_state()
        assert hers.url.endswith("/me/nights/")
        assert hers.inner_text(f"[data-testid=my-answer-{later.pk}]") == "yes, with a seat"
        wide = hers.context.browser.new_context(viewport=DESKTOP)
        try:
            desk = wide.new_page()
            log_in(desk, site, "ann", next_url="/me/nights/")
            found += page_problems(desk, "my-nights-desktop")
            shots(desk, "checkin-my-nights-desktop")
        finally:
            wide.close()
    finally:
        hers.context.close()
    assert not errors, errors
    assert ScheduledNight.objects.get(pk=later.pk).started_at is None
    assert not found, "\n".join(found)
