"""A night scheduled ahead in a real browser at phone size (375x740): the admin schedules it
from the league page, the invitation mail (Django's test outbox) holds a yes link, which a
player opens in a fresh browser context (as from a mail app, not logged in) and confirms;
the admin's night page then shows the seat taken. axe, the target sizes and the overflow
check find nothing on the form, the night's page, the answer link's pages nor the
unsubscribe page. Screenshots:
test-artifacts/web/schedule-*.png."""

from __future__ import annotations

import datetime as dt
import re

from django.core import mail
from django.utils import timezone

from tests.factories import add_member, make_league
from tests.web.conftest import BROWSER_TESTS, PHONE, log_in, new_phone  # noqa: F401
from tests.web.targets import page_problems
from tracker.accounts.models import EmailAddress
from tracker.leagues.services import player_create, player_link
from tracker.schedule.models import Rsvp

pytestmark = BROWSER_TESTS


def test_a_night_is_scheduled_and_answered_yes_from_the_mail(site, browser, phone, shots):
    league, admin = make_league(slug="friday")
    ann = add_member(league, "ann", "member")  # a league account: linking needs one
    EmailAddress.objects.create(
        user=ann, address="ann@example.org", canonical="ann@example.org", verified_at=timezone.now()
    )
    player = player_create(league=league, name="Ann", by=admin)
    player_link(league=league, player=player, username="ann", by=admin)
    page = phone
    log_in(page, site, admin.username, next_url=f"/leagues/{league.slug}/")
    page.click("[data-testid=schedule-night]")
    page.wait_for_load_state()
    found = page_problems(page, "night-form")
    shots(page, "schedule-form")
    when = timezone.localtime() + dt.timedelta(days=3)
    page.fill("#id_starts_at", when.strftime("%Y-%m-%dT19:30"))
    page.fill("#id_place", "Alex's kitchen")
    page.fill("#id_seats", "6")
    page.fill("#id_note", "Bring snacks")
    page.click("[data-testid=night-schedule]")
    page.wait_for_load_state()
    assert "0 of 6 seats taken" in page.inner_text("[data-testid=seats]")
    found += page_problems(page, "night")
    shots(page, "schedule-night")

    (message,) = mail.outbox
    assert message.to == ["ann@example.org"]
    yes = re.search(r"Yes: +\S+?(/rsvp/\S+/)", message.body).group(1)
    unsubscribe = re.search(r"(/mail/unsubscribe/\S+/)", message.body).group(1)
    errors: list[str] = []
    other = new_phone(browser, errors)  # the mail app's browser: not logged in
    try:
        other.goto(f"{site}{yes}")
        assert "Answer yes for Ann?" in other.inner_text("main")
        assert not Rsvp.objects.exists()  # opening the link changes nothing
        found += page_problems(other, "rsvp-confirm")
        shots(other, "schedule-rsvp-confirm")
        other.click("[data-testid=rsvp-confirm]")
        other.wait_for_load_state()
        assert "Ann: yes, with a seat." in other.inner_text("[data-testid=rsvp-done]")
        found += page_problems(other, "rsvp-done")
        shots(other, "schedule-rsvp-done")
        other.goto(f"{site}{unsubscribe}")
        assert other.locator("[data-testid=unsubscribe]").is_visible()
        found += page_problems(other, "unsubscribe")
        shots(other, "schedule-unsubscribe")
    finally:
        other.context.close()
    assert not errors, errors
    assert Rsvp.objects.get().answer == "yes"

    page.reload()
    assert "1 of 6 seats taken" in page.inner_text("[data-testid=seats]")
    assert "Ann" in page.inner_text("[data-testid=who-comes]")
    shots(page, "schedule-night-answered")
    page.goto(f"{site}/leagues/{league.slug}/")
    assert "Alex's kitchen" in page.inner_text("[data-testid=upcoming]")
    found += page_problems(page, "league-upcoming")
    assert not found, "\n".join(found)
