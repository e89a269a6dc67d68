"""A league's calendar: its time zone, its iCalendar feed at a secret address (revocable,
the token stored as a digest), and a night's "add to calendar" file; the .ics parsed back
with the same library (icalendar)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import icalendar
import pytest

from tests.factories import add_member, make_league
from tracker.accounts.selectors import token_digest
from tracker.audit.models import AuditEntry
from tracker.core.errors import NotFound, PermissionDenied
from tracker.engine.errors import DomainError
from tracker.leagues.models import CalendarFeed, League
from tracker.leagues.selectors import calendar_feed_open
from tracker.leagues.services import (
    calendar_feed_create,
    calendar_feed_revoke,
    league_time_zone_set,
    player_create,
)
from tracker.tournaments.models import Tournament
from tracker.tournaments.services import tournament_create

pytestmark = pytest.mark.django_db

PARIS = "Europe/Paris"


@pytest.fixture
def league():
    league, admin = make_league(slug="cal", public=False)
    league.admin = admin
    league.keeper = add_member(league, "cal-keeper", "scorekeeper")
    league.seated = [player_create(league=league, name=n, by=admin).pk for n in ("Ann", "Bob")]
    return league


def night_at(league, name: str, start: dt.datetime, *, date=None, end=None) -> Tournament:
    """A night of ``league`` started on the site at ``start`` (an aware instant)."""
    t = tournament_create(league=league, name=name, player_ids=league.seated, by=league.admin)
    Tournament.objects.filter(pk=t.pk).update(
        created_at=start,
        date=date or start.astimezone(ZoneInfo(league.time_zone)).date(),
        finished_at=end,
        status="finished" if end else "running",
    )
    t.refresh_from_db()
    return t


def events(body: bytes) -> dict[str, icalendar.Event]:
    cal = icalendar.Calendar.from_ical(body)
    return {str(e["summary"]): e for e in cal.walk("VEVENT")}


# --------------------------------------------------------------------------
# Services and selectors


def test_a_new_league_plays_in_the_sites_time_zone_and_an_admin_sets_another(league, settings):
    assert League.objects.get(pk=league.pk).time_zone == settings.TIME_ZONE
    league_time_zone_set(league=league, time_zone=PARIS, by=league.admin)
    assert League.objects.get(pk=league.pk).time_zone == PARIS
    assert AuditEntry.objects.get(action="league.time_zone").data == {
        "from": settings.TIME_ZONE,
        "to": PARIS,
    }
    for bad in ("Europe/Atlantis", "", "../../etc/passwd", "Paris", None, 3):
        with pytest.raises(DomainError) as exc:
            league_time_zone_set(league=league, time_zone=bad, by=league.admin)
        assert exc.value.code == "invalid_time_zone" and "time_zone" in exc.value.fields
    with pytest.raises(PermissionDenied):
        league_time_zone_set(league=league, time_zone="UTC", by=league.keeper)
    assert League.objects.get(pk=league.pk).time_zone == PARIS


def test_a_feed_link_stores_only_its_digest_and_stops_when_revoked(league):
    feed, token = calendar_feed_create(league=league, by=league.admin)
    assert feed.digest == token_digest(token) and token not in feed.digest
    assert calendar_feed_open(token) == feed
    for bad in (token[:-1], token + "x", "", feed.digest):
        with pytest.raises(NotFound):
            calendar_feed_open(bad)
    with pytest.raises(PermissionDenied):
        calendar_feed_create(league=league, by=league.keeper)
    with pytest.raises(PermissionDenied):
        calendar_feed_revoke(feed=feed, by=league.keeper)
    calendar_feed_revoke(feed=feed, by=league.admin)
    with pytest.raises(NotFound):
        calendar_feed_open(token)
    assert CalendarFeed.objects.count() == 1
    assert AuditEntry.objects.filter(action__startswith="calendar_feed.").count() == 2


# --------------------------------------------------------------------------
# The feed and the night's file, parsed back


def test_the_feed_holds_the_nights_in_the_leagues_time_zone(client, league):
    league_time_zone_set(league=league, time_zone=PARIS, by=league.admin)
    # 19:30 UTC on 4 December is 20:30 in Paris; finished at 23:45 UTC (00:45 the next day).
    start = dt.datetime(2026, 12, 4, 19, 30, tzinfo=dt.UTC)
    night_at(league, "Friday", start, end=start + dt.timedelta(hours=4, minutes=15))
    running = dt.datetime(2026, 12, 11, 19, 0, tzinfo=dt.UTC)
    night_at(league, "Running", running)
    # Entered a week after the night it records: an all-day event on its date.
    night_at(league, "Caught up", running, date=dt.date(2026, 12, 1))
    _, token = calendar_feed_create(league=league, by=league.admin)

    response = client.get(f"/calendars/{token}.ics")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    cal = icalendar.Calendar.from_ical(response.content)
    assert str(cal["X-WR-TIMEZONE"]) == PARIS
    assert [str(tz["TZID"]) for tz in cal.walk("VTIMEZONE")] == [PARIS]
    found = events(response.content)
    assert set(found) == {"Friday · Cal", "Running · Cal", "Caught up · Cal"}

    friday = found["Friday · Cal"]
    begins, ends = friday.decoded("DTSTART"), friday.decoded("DTEND")
    assert begins.tzinfo.key == PARIS and friday["DTSTART"].params["TZID"] == PARIS
    assert (begins.date(), begins.hour, begins.minute) == (dt.date(2026, 12, 4), 20, 30)
    assert begins == start
    assert (ends.date(), ends.hour, ends.minute) == (dt.date(2026, 12, 5), 0, 45)
    assert str(friday["URL"]).startswith("http://testserver/tournaments/")

    assert found["Running · Cal"].decoded("DTEND") - found["Running · Cal"].decoded(
        "DTSTART"
    ) == dt.timedelta(hours=4)
    caught = found["Caught up · Cal"]
    assert caught.decoded("DTSTART") == dt.date(2026, 12, 1)  # a date: no time, no zone
    assert caught.decoded("DTEND") == dt.date(2026, 12, 2)


def test_a_tampered_or_revoked_feed_address_is_refused(client, league):
    night_at(league, "Friday", dt.datetime(2026, 12, 4, 19, 30, tzinfo=dt.UTC))
    feed, token = calendar_feed_create(league=league, by=league.admin)
    assert client.get(f"/calendars/{token}.ics").status_code == 200
    tampered = token[:-1] + ("A" if token[-1] != "A" else "B")
    assert client.get(f"/calendars/{tampered}.ics").status_code == 404
    assert (
        client.get(f"/calendars/{feed.digest}.ics").status_code == 404
    )  # the digest opens nothing
    calendar_feed_revoke(feed=feed, by=league.admin)
    assert client.get(f"/calendars/{token}.ics").status_code == 404


def test_a_nights_file_is_for_those_who_may_see_it(client, league):
    league_time_zone_set(league=league, time_zone="America/New_York", by=league.admin)
    start = dt.datetime(2026, 7, 3, 23, 0, tzinfo=dt.UTC)  # 19:00 in New York (summer time)
    night = night_at(league, "Fourth eve", start)
    url = f"/tournaments/{night.pk}/calendar.ics"
    assert client.get(url).status_code == 404  # a private league, seen by nobody
    client.force_login(league.keeper)
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"] == f'attachment; filename="game-night-{night.pk}.ics"'
    (event,) = events(response.content).values()
    begins = event.decoded("DTSTART")
    assert begins.tzinfo.key == "America/New_York" and (begins.hour, begins.minute) == (19, 0)
    assert str(event["UID"]) == f"night-{night.pk}@homegame"
    page = client.get(night.get_absolute_url()).content.decode()
    assert f'href="{url}"' in page


# --------------------------------------------------------------------------
# The admins' page


def test_the_calendar_page_sets_the_zone_and_shows_a_new_address_once(client, league):
    path = f"/leagues/{league.slug}/calendar/"
    client.force_login(league.keeper)
    assert client.get(path).status_code == 403
    client.force_login(league.admin)
    assert f'href="{path}"' in client.get(league.get_absolute_url()).content.decode()
    bad = client.post(path, {"action": "time_zone", "time_zone": "Mars/Olympus"})
    assert bad.status_code == 400
    assert "&#x27;Mars/Olympus&#x27; is not a time zone" in bad.content.decode()
    assert 'value="Mars/Olympus"' in bad.content.decode()  # nothing typed is lost
    assert League.objects.get(pk=league.pk).time_zone != "Mars/Olympus"
    assert client.post(path, {"action": "time_zone", "time_zone": PARIS}).status_code == 302
    assert League.objects.get(pk=league.pk).time_zone == PARIS

    made = client.post(path, {"action": "feed"})
    assert made.status_code == 303
    shown = client.get(path)
    assert shown["Cache-Control"] == "no-store"
    html = shown.content.decode()
    address = html.split('data-testid="calendar-address">', 1)[1].split("<", 1)[0]
    assert address.startswith("http://testserver/calendars/") and address.endswith(".ics")
    client.logout()
    assert client.get(address.removeprefix("http://testserver")).status_code == 200
    client.force_login(league.admin)
    assert 'data-testid="calendar-address"' not in client.get(path).content.decode()  # once
    feed = CalendarFeed.objects.get()
    assert client.post(path, {"action": "revoke", "feed": feed.pk}).status_code == 302
    assert client.get(address.removeprefix("http://testserver")).status_code == 404
