"""A scheduled night changed and cancelled in a real browser at phone size (375x740): the
admin opens "Change or cancel the night" from the night's page, a seat count below the
players seated is refused with the reason at the field (what was typed kept), a new place
is saved and the invited player's "updated" mail (Django's test outbox) names it, then the
night is cancelled: the page says so, the answer buttons are gone and the player gets the
"cancelled" mail. axe, the target sizes and the overflow check find nothing. Screenshots:
test-artifacts/web/night-edit-*.png."""

from __future__ import annotations

import datetime as dt

from django.core import mail
from django.utils import timezone

from tests.schedule.helpers import make_club, schedule
from tests.web.conftest import BROWSER_TESTS, PHONE, log_in  # noqa: F401
from tests.web.targets import page_problems
from tracker.schedule.models import ScheduledNight
from tracker.schedule.services import rsvp_answer

pytestmark = BROWSER_TESTS


def test_a_night_is_changed_then_cancelled_and_the_players_are_told(site, phone, shots):
    league, admin, players = make_club(names=("ann", "bob", "cat"))
    night = schedule(
        league, admin, starts_at=timezone.now() + dt.timedelta(days=3), seats=3, note="Snacks"
    )
    for p in players:
        rsvp_answer(night=night, player_id=p.pk, answer="yes", by=p.user)
    mail.outbox.clear()
    page = phone
    log_in(page, site, admin.username, next_url=f"/nights/{night.pk}/")
    assert page.locator("[data-testid=add-to-calendar]").is_visible()
    page.click("[data-testid=night-edit]")
    page.wait_for_load_state()
    found = page_problems(page, "night-edit")
    shots(page, "night-edit-form")

    page.fill("#id_place", "Bea's garage")
    page.fill("#id_seats", "2")
    page.click("[data-testid=night-save]")
    page.wait_for_load_state()
    error = page.inner_text("form[data-testid=night-edit-form]")
    assert "3 players have a seat already: at least 3 seats" in error
    assert page.input_value("#id_place") == "Bea's garage"  # nothing typed is lost
    assert ScheduledNight.objects.get(pk=night.pk).place == "Alex's kitchen"
    found += page_problems(page, "night-edit-error")
    shots(page, "night-edit-error")

    page.fill("#id_seats", "4")
    page.click("[data-testid=night-save]")
    page.wait_for_load_state()
    assert "the invited players are told" in page.inner_text("main")
    assert "Bea's garage" in page.inner_text("header.page-head")
    assert "3 of 4 seats taken" in page.inner_text("[data-testid=seats]")
    found += page_problems(page, "night-changed")
    shots(page, "night-edit-saved")
    changed = sorted((m.to[0], m.subject) for m in mail.outbox)
    assert [to for to, _ in changed] == ["ann@example.org", "bob@example.org", "cat@example.org"]
    assert all(subject.startswith("Changed:") for _, subject in changed)
    assert "Bea's garage" in mail.outbox[0].body and "the place, the seats" in mail.outbox[0].body

    mail.outbox.clear()
    page.click("[data-testid=night-edit]")
    page.wait_for_load_state()
    page.fill("#id_reason", "The host is ill")
    page.click("[data-testid=night-cancel]")
    page.wait_for_load_state()
    assert "The host is ill" in page.inner_text("[data-testid=night-cancelled]")
    assert page.locator("[data-testid=answer-yes]").count() == 0
    assert page.locator("[data-testid=night-edit]").count() == 0
    found += page_problems(page, "night-cancelled")
    shots(page, "night-edit-cancelled")
    assert sorted(m.to[0] for m in mail.outbox) == [
        "ann@example.org",
        "bob@example.org",
        "cat@example.org",
    ]
    assert all(m.subject.startswith("Cancelled:") for m in mail.outbox)
    assert ScheduledNight.objects.get(pk=night.pk).cancelled_at is not None
    assert not found, "\n".join(found)
