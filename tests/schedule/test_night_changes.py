"""Changing and cancelling a scheduled night (the organiser): the waitlist rules hold, the
invited players get one "updated" or "cancelled" mail per change, and the league's
iCalendar feed and the night's .ics file carry it (parsed back with ``icalendar``)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import icalendar
import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from tests.factories import add_member, api_client
from tests.schedule.helpers import schedule, soon
from tracker.core.errors import Conflict, PermissionDenied
from tracker.engine.errors import DomainError
from tracker.leagues.services import calendar_feed_create, league_time_zone_set
from tracker.mail.models import MailKind, OutboxMessage
from tracker.schedule.models import CheckIn, ScheduledNight
from tracker.schedule.selectors import night_answers, upcoming_nights
from tracker.schedule.services import (
    night_cancel,
    night_check_in,
    night_edit,
    night_reminders_send,
    night_start,
    rsvp_answer,
    rsvp_answer_by_link,
    rsvp_token,
)

pytestmark = pytest.mark.django_db


def _mails(kind):
    return sorted(OutboxMessage.objects.filter(kind=kind).values_list("user__username", flat=True))


def test_a_change_mails_each_invited_player_once_and_bumps_the_sequence(
    club, django_capture_on_commit_callbacks
):
    league, admin, players = club
    night = schedule(league, admin, seats=3, note="Bring snacks")
    mail.outbox.clear()
    later = night.starts_at + dt.timedelta(hours=2)
    with django_capture_on_commit_callbacks(execute=True):
        night = night_edit(night=night, by=admin, starts_at=later, place="Bea's garage")
    assert night.sequence == 1 and night.place == "Bea's garage" and night.starts_at == later
    assert sorted(m.to[0] for m in mail.outbox) == [
        f"{p.name.lower()}@example.org" for p in players
    ]
    message = next(m for m in mail.outbox if m.to == ["ann@example.org"])
    assert message.subject.startswith("Changed:")
    assert "the time, the place" in message.body and "Bea's garage" in message.body
    assert "Bring snacks" in message.body  # the note, unchanged, still there
    assert message.extra_headers["List-Unsubscribe"].startswith("<http://testserver/mail/")
    # The same values again: no change, no mail, the sequence stays.
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        same = night_edit(night=night, by=admin, starts_at=later, place="Bea's garage")
    assert same.sequence == 1 and mail.outbox == []
    # A second change is a second mail to each (its own outbox key).
    with django_capture_on_commit_callbacks(execute=True):
        night_edit(night=night, by=admin, note="")
    assert len(mail.outbox) == len(players)
    assert OutboxMessage.objects.filter(kind=MailKind.NIGHT_UPDATED).count() == 2 * len(players)


def test_every_problem_with_a_change_is_named_and_nothing_is_kept(club):
    league, admin, _ = club
    night = schedule(league, admin)
    with pytest.raises(DomainError) as refused:
        night_edit(
            night=night,
            by=admin,
            starts_at=timezone.now() - dt.timedelta(hours=1),
            place="  ",
            seats=12,
            note="x" * 1001,
        )
    assert set(refused.value.fields) == {"starts_at", "place", "seats", "note"}
    fresh = ScheduledNight.objects.get(pk=night.pk)
    assert (fresh.place, fresh.seats, fresh.sequence) == (night.place, night.seats, 0)
    assert not OutboxMessage.objects.filter(kind=MailKind.NIGHT_UPDATED).exists()


def test_seats_never_go_below_the_seated_and_more_seats_promote_in_order(
    club, django_capture_on_commit_callbacks
):
    league, admin, (ann, bob, cat, dan, eve) = club
    night = schedule(league, admin, seats=3)
    for p in (ann, bob, cat, dan, eve):
        rsvp_answer(night=night, player_id=p.pk, answer="yes", by=p.user)
    with pytest.raises(DomainError, match="3 players have a seat already") as refused:
        night_edit(night=night, by=admin, seats=2)
    assert set(refused.value.fields) == {"seats"}
    assert ScheduledNight.objects.get(pk=night.pk).seats == 3
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        night_edit(night=night, by=admin, seats=4)
    a = night_answers(night)
    assert [r.player for r in a.going] == [ann, bob, cat, dan]
    assert [r.player for r in a.waitlist] == [eve]
    promoted = [m for m in mail.outbox if "A seat freed up" in m.subject]
    assert [m.to for m in promoted] == [["dan@example.org"]]
    assert len([m for m in mail.outbox if m.subject.startswith("Changed:")]) == 5
    # Down to the seated four is allowed (nobody loses a seat).
    night_edit(night=night, by=admin, seats=4, note="Four at the table")
    assert ScheduledNight.objects.get(pk=night.pk).seats == 4


def test_only_an_organiser_changes_or_cancels(club):
    league, admin, (ann, *_) = club
    night = schedule(league, admin)
    keeper = add_member(league, "kim", "scorekeeper")
    assert night_edit(night=night, by=keeper, place="Kim's").place == "Kim's"
    with pytest.raises(PermissionDenied):
        night_edit(night=night, by=ann.user, place="Ann's")
    with pytest.raises(PermissionDenied):
        night_cancel(night=night, by=ann.user)
    assert ScheduledNight.objects.get(pk=night.pk).cancelled_at is None


def test_cancelling_mails_once_closes_answers_and_leaves_the_upcoming_list(
    club, django_capture_on_commit_callbacks
):
    league, admin, (ann, *_) = club
    night = schedule(league, admin, starts_at=soon(0.5))
    rsvp_answer(night=night, player_id=ann.pk, answer="yes", by=ann.user)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        night = night_cancel(night=night, by=admin, reason="The host is ill")
    assert night.cancelled and night.sequence == 1
    assert len(mail.outbox) == 5 and all(m.subject.startswith("Cancelled:") for m in mail.outbox)
    assert "The host is ill" in mail.outbox[0].body
    with pytest.raises(Conflict, match="cancelled"):
        night_cancel(night=night, by=admin)
    with pytest.raises(Conflict, match="cancelled"):
        night_edit(night=night, by=admin, place="Elsewhere")
    with pytest.raises(Conflict, match="cancelled"):
        rsvp_answer(night=night, player_id=ann.pk, answer="no", by=ann.user)
    link = rsvp_token(night_id=night.pk, player_id=ann.pk, answer="no")
    assert Client().get(f"/rsvp/{link}/").status_code == 400  # the mail's links too
    with pytest.raises(Conflict, match="cancelled"):
        rsvp_answer_by_link(token=link)
    assert upcoming_nights(league) == []
    assert night_reminders_send() == []  # a cancelled night is not reminded
    assert OutboxMessage.objects.filter(kind=MailKind.NIGHT_CANCELLED).count() == 5


def test_a_night_moved_after_its_reminder_is_reminded_again(
    club, django_capture_on_commit_callbacks
):
    league, admin, (ann, *_) = club
    night = schedule(league, admin, starts_at=soon(0.5))
    rsvp_answer(night=night, player_id=ann.pk, answer="yes", by=ann.user)
    assert night_reminders_send() == [night.pk]
    night_edit(night=night, by=admin, starts_at=soon(0.6))
    assert night_reminders_send() == [night.pk]
    assert night_reminders_send() == []
    assert _mails(MailKind.NIGHT_REMINDER) == ["ann", "ann"]


def test_the_api_changes_and_cancels(club, django_capture_on_commit_callbacks):
    league, admin, (ann, *_) = club
    night = schedule(league, admin)
    admin_api = api_client(admin)
    bad = admin_api.patch(f"/api/v1/nights/{night.pk}/", {"seats": 40, "place": ""}, format="json")
    assert bad.status_code == 400 and set(bad.json()["error"]["fields"]) == {"seats", "place"}
    refused = api_client(ann.user).patch(
        f"/api/v1/nights/{night.pk}/", {"seats": 40}, format="json"
    )
    assert refused.status_code == 403  # refused before the body is judged
    with django_capture_on_commit_callbacks(execute=True):
        ok = admin_api.patch(f"/api/v1/nights/{night.pk}/", {"seats": 4}, format="json")
    assert ok.status_code == 200 and ok.json()["seats"] == 4 and ok.json()["sequence"] == 1
    with django_capture_on_commit_callbacks(execute=True):
        gone = admin_api.post(
            f"/api/v1/nights/{night.pk}/cancel/", {"reason": "Rain"}, format="json"
        )
    assert gone.status_code == 200 and gone.json()["cancelled_at"]
    again = admin_api.post(f"/api/v1/nights/{night.pk}/cancel/", {}, format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "night_cancelled"
    assert _mails(MailKind.NIGHT_CANCELLED) == ["ann", "bob", "cat", "dan", "eve"]


def test_the_pages_change_and_cancel_with_clear_errors(club, django_capture_on_commit_callbacks):
    league, admin, (ann, *_) = club
    night = schedule(league, admin)
    client = Client()
    client.force_login(admin)
    form = client.get(f"/nights/{night.pk}/edit/")
    assert form.status_code == 200 and b"Change the night" in form.content
    bad = client.post(
        f"/nights/{night.pk}/edit/",
        {"starts_at": "2001-01-01T20:00", "place": "Moved", "seats": "2", "note": ""},
    )
    assert bad.status_code == 400 and b"this time has passed" in bad.content
    assert b'value="Moved"' in bad.content  # nothing typed is lost
    when = timezone.localtime(night.starts_at).strftime("%Y-%m-%dT%H:%M")
    with django_capture_on_commit_callbacks(execute=True):
        ok = client.post(
            f"/nights/{night.pk}/edit/",
            {"starts_at": when, "place": "Moved", "seats": "3", "note": ""},
        )
    assert ok.status_code == 302 and ScheduledNight.objects.get(pk=night.pk).place == "Moved"
    member = Client()
    member.force_login(ann.user)
    assert member.get(f"/nights/{night.pk}/edit/").status_code == 403
    assert member.post(f"/nights/{night.pk}/cancel/").status_code == 403
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/nights/{night.pk}/cancel/", {"reason": "Snowed in"})
    page = member.get(f"/nights/{night.pk}/").content.decode()
    assert "This night is cancelled." in page and "Why: Snowed in" in page
    assert 'data-testid="answer-yes"' not in page


def _events(body: bytes) -> list:
    return icalendar.Calendar.from_ical(body).walk("VEVENT")


def test_the_feed_and_the_night_file_carry_the_night_in_the_leagues_zone(club):
    league, admin, _ = club
    league_time_zone_set(league=league, time_zone="America/New_York", by=admin)
    zone = ZoneInfo("America/New_York")
    starts = dt.datetime(2031, 7, 4, 19, 30, tzinfo=zone)
    night = schedule(league, admin, starts_at=starts, place="Dan's porch", note="Fireworks")
    _, token = calendar_feed_create(league=league, by=admin)
    client = Client()
    feed = client.get(f"/calendars/{token}.ics")
    assert feed.status_code == 200 and feed["Content-Type"].startswith("text/calendar")
    (event,) = [e for e in _events(feed.content) if "scheduled-night" in str(e["UID"])]
    assert str(event["UID"]) == f"scheduled-night-{night.pk}@homegame"
    start = event.decoded("DTSTART")
    assert start == starts and str(start.tzinfo) == "America/New_York"
    assert event["DTSTART"].params["TZID"] == "America/New_York"
    assert str(event["LOCATION"]) == "Dan's porch" and "Fireworks" in str(event["DESCRIPTION"])
    assert event.decoded("SEQUENCE") == 0 and str(event["STATUS"]) == "CONFIRMED"
    assert b"BEGIN:VTIMEZONE" in feed.content
    # the mails give the time in the league's zone
    invite = OutboxMessage.objects.filter(kind=MailKind.NIGHT_INVITATION).first()
    assert "Friday 4 July 2031, 19:30 EDT" in invite.body_text
    # moved: the same UID, SEQUENCE bumped; cancelled: STATUS:CANCELLED, still in the feed
    night_edit(night=night, by=admin, starts_at=starts + dt.timedelta(hours=1))
    night_cancel(night=night, by=admin, reason="Storm")
    (event,) = [
        e
        for e in _events(client.get(f"/calendars/{token}.ics").content)
        if "scheduled-night" in str(e["UID"])
    ]
    assert str(event["UID"]) == f"scheduled-night-{night.pk}@homegame"
    assert event.decoded("SEQUENCE") == 2 and str(event["STATUS"]) == "CANCELLED"
    assert event.decoded("DTSTART") == starts + dt.timedelta(hours=1)
    # the night's own file, for whoever may see the league
    one = client.get(f"/nights/{night.pk}/calendar.ics")
    assert one.status_code == 200 and "attachment" in one["Content-Disposition"]
    (event,) = _events(one.content)
    assert str(event["UID"]) == f"scheduled-night-{night.pk}@homegame"
    assert event["DTSTART"].params["TZID"] == "America/New_York"


def test_a_private_leagues_night_file_is_a_404_to_outsiders(club):
    league, admin, (ann, *_) = club
    league.is_public = False
    league.save(update_fields=["is_public"])
    night = schedule(league, admin)
    assert Client().get(f"/nights/{night.pk}/calendar.ics").status_code == 404
    member = Client()
    member.force_login(ann.user)
    assert member.get(f"/nights/{night.pk}/calendar.ics").status_code == 200


def test_a_cancelled_night_refuses_check_in_and_a_started_one_refuses_a_change(club):
    league, admin, (ann, bob, *_) = club
    cancelled = schedule(league, admin)
    night_cancel(night=cancelled, by=admin)
    with pytest.raises(Conflict, match="cancelled") as refused:
        night_check_in(night=cancelled, player_id=ann.pk, by=admin)
    assert refused.value.code == "night_cancelled"
    assert not CheckIn.objects.filter(night=cancelled).exists()
    started = schedule(league, admin)
    for p in (ann, bob):
        night_check_in(night=started, player_id=p.pk, by=admin)
    night_start(night=started, by=admin)
    with pytest.raises(Conflict, match="started") as refused:
        night_edit(night=started, by=admin, place="Elsewhere")
    assert refused.value.code == "night_started"
    with pytest.raises(Conflict, match="started"):
        night_cancel(night=started, by=admin)
    fresh = ScheduledNight.objects.get(pk=started.pk)
    assert fresh.place == started.place and fresh.cancelled_at is None
