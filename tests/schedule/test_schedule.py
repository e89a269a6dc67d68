"""Scheduled nights: the seats (the game's player limit), the invitation by e-mail, yes /
no / maybe on the site, by API and by a signed link (tampered or expired: refused, nothing
changed), the waitlist promoted in order with its e-mail, the reminder the day before."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.core import mail, signing
from django.test import Client
from django.utils import timezone

from tests.factories import add_member, api_client
from tests.schedule.helpers import SITE, schedule, soon
from tests.support.threads import at_once, concurrent
from tracker.core.errors import Conflict, PermissionDenied
from tracker.engine.errors import DomainError
from tracker.leagues.services import player_create
from tracker.mail.models import MailKind, OutboxMessage
from tracker.schedule.models import Rsvp, ScheduledNight, Seat
from tracker.schedule.selectors import night_answers
from tracker.schedule.services import (
    night_reminders_send,
    night_schedule,
    rsvp_answer,
    rsvp_answer_by_link,
    rsvp_token,
)

pytestmark = pytest.mark.django_db


def test_scheduling_invites_the_roster_by_mail(club, django_capture_on_commit_callbacks):
    league, admin, players = club
    ghost = player_create(league=league, name="Ghost", by=admin)  # no account: not mailed
    with django_capture_on_commit_callbacks(execute=True):
        night = schedule(league, admin, note="Bring snacks")
    assert sorted(m.to[0] for m in mail.outbox) == [
        f"{p.name.lower()}@example.org" for p in players
    ]
    message = next(m for m in mail.outbox if m.to == ["ann@example.org"])
    assert "Alex's kitchen" in message.body and "Bring snacks" in message.body
    assert re.search(r"Yes: +http://testserver/rsvp/\S+/", message.body)
    assert "List-Unsubscribe" in message.extra_headers
    assert ghost in night_answers(night).unanswered
    page = Client().get(f"/leagues/{league.slug}/")
    assert b"Upcoming" in page.content and b"Alex&#x27;s kitchen" in page.content


def test_every_problem_with_a_night_is_named_and_nothing_is_kept(club):
    league, admin, _ = club
    with pytest.raises(DomainError) as refused:
        night_schedule(
            league=league,
            by=admin,
            base_url=SITE,
            starts_at=timezone.now() - dt.timedelta(hours=1),
            place=" ",
            seats=8,
            variant="seven_card_stud",
            note="x" * 1001,
        )
    assert set(refused.value.fields) == {"starts_at", "place", "seats", "note"}
    assert "at most 7" in refused.value.fields["seats"][0]
    with pytest.raises(DomainError) as refused:
        schedule(league, admin, seats=9, variant="low_hole")
    assert "from 2 to 8 seats" in refused.value.message
    assert schedule(league, admin, seats=8, variant="low_hole").seats == 8
    with pytest.raises(DomainError) as refused:
        schedule(league, admin, variant="poker")
    assert list(refused.value.fields) == ["variant"]
    assert ScheduledNight.objects.count() == 1


def test_only_an_admin_or_scorekeeper_schedules(club):
    league, admin, _ = club
    keeper = add_member(league, "sam", "scorekeeper")
    member = add_member(league, "jo", "member")
    assert schedule(league, keeper).pk
    with pytest.raises(PermissionDenied, match="admin or scorekeeper"):
        schedule(league, member)


def test_a_full_night_waitlists_later_yeses_and_promotes_them_in_order(
    club, django_capture_on_commit_callbacks
):
    league, admin, (ann, bob, cat, dan, eve) = club
    night = schedule(league, admin, seats=2)
    mail.outbox.clear()
    for p in (ann, bob, cat, dan, eve):
        rsvp_answer(night=night, player_id=p.pk, answer="yes", by=p.user)
    a = night_answers(night)
    assert [r.player for r in a.going] == [ann, bob]
    assert [r.player for r in a.waitlist] == [cat, dan, eve]
    # Cat says maybe: she leaves the waitlist, no one is promoted (no seat freed).
    rsvp_answer(night=night, player_id=cat.pk, answer="maybe", by=cat.user)
    with django_capture_on_commit_callbacks(execute=True):
        rsvp_answer(night=night, player_id=ann.pk, answer="no", by=ann.user)
    a = night_answers(night)
    assert [r.player for r in a.going] == [bob, dan]
    assert [r.player for r in a.waitlist] == [eve]
    assert [r.player for r in a.maybe] == [cat] and [r.player for r in a.no] == [ann]
    (told,) = mail.outbox
    assert told.to == ["dan@example.org"] and "A seat freed up" in told.subject
    # Cat's yes again puts her behind Eve; Bob drops: Eve, first in line, gets the seat.
    rsvp_answer(night=night, player_id=cat.pk, answer="yes", by=cat.user)
    rsvp_answer(night=night, player_id=bob.pk, answer="maybe", by=bob.user)
    a = night_answers(night)
    assert [r.player for r in a.going] == [dan, eve] and [r.player for r in a.waitlist] == [cat]
    # A yes said again keeps its place; a seated player's yes again keeps the seat.
    rsvp_answer(night=night, player_id=dan.pk, answer="yes", by=dan.user)
    assert Rsvp.objects.get(night=night, player=dan).seat == Seat.GOING


def test_a_promotion_after_a_second_drop_is_mailed_again(club, django_capture_on_commit_callbacks):
    league, admin, (ann, bob, *_rest) = club
    night = schedule(league, admin, seats=2)
    cat = _rest[0]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        for p in (ann, bob, cat):
            rsvp_answer(night=night, player_id=p.pk, answer="yes", by=p.user)
        rsvp_answer(night=night, player_id=ann.pk, answer="no", by=ann.user)  # cat promoted
        rsvp_answer(night=night, player_id=cat.pk, answer="no", by=cat.user)
        rsvp_answer(night=night, player_id=cat.pk, answer="yes", by=cat.user)  # seat free
        rsvp_answer(night=night, player_id=ann.pk, answer="yes", by=ann.user)  # waitlisted
        rsvp_answer(night=night, player_id=bob.pk, answer="no", by=bob.user)  # ann promoted
    assert [m.to[0] for m in mail.outbox] == ["cat@example.org", "ann@example.org"]
    assert OutboxMessage.objects.filter(kind=MailKind.WAITLIST_PROMOTION).count() == 2


def test_a_player_answers_only_for_themselves_unless_organiser(club):
    league, admin, (ann, bob, *_) = club
    night = schedule(league, admin)
    with pytest.raises(PermissionDenied, match="only for yourself"):
        rsvp_answer(night=night, player_id=bob.pk, answer="yes", by=ann.user)
    assert rsvp_answer(night=night, player_id=bob.pk, answer="no", by=admin).answer == "no"
    with pytest.raises(DomainError) as refused:
        rsvp_answer(night=night, player_id=ann.pk, answer="perhaps", by=ann.user)
    assert refused.value.fields == {"answer": [refused.value.message]}
    assert not Rsvp.objects.filter(player=ann).exists()


def test_the_link_answers_without_a_login_and_changes_only_that_answer(club):
    league, admin, (ann, bob, *_) = club
    night = schedule(league, admin)
    rsvp_answer(night=night, player_id=bob.pk, answer="maybe", by=bob.user)
    token = rsvp_token(night_id=night.pk, player_id=ann.pk, answer="yes")
    client = Client(enforce_csrf_checks=True)
    page = client.get(f"/rsvp/{token}/")
    assert page.status_code == 200 and b"Answer yes" in page.content
    assert not Rsvp.objects.filter(player=ann).exists()  # opening it (a scanner) changes nothing
    done = client.post(f"/rsvp/{token}/")
    assert done.status_code == 200 and b"Ann: yes, with a seat." in done.content
    assert Rsvp.objects.get(player=ann).answer == "yes"
    assert Rsvp.objects.get(player=bob).answer == "maybe"


def test_a_tampered_or_expired_link_is_refused_and_changes_nothing(club, settings):
    league, admin, (ann, *_) = club
    night = schedule(league, admin)
    token = rsvp_token(night_id=night.pk, player_id=ann.pk, answer="yes")
    # Another player's id put into a link signed for Ann:
    payload = signing.b64_encode(f'{{"n":{night.pk},"p":{ann.pk + 1},"a":"yes"}}'.encode())
    forged = payload.decode() + token[token.index(":") :]
    for bad in (token[:-3] + "abc", forged):
        response = Client().post(f"/rsvp/{bad}/")
        assert response.status_code == 400 and b"not a valid answer link" in response.content
    settings.RSVP_LINK_MAX_AGE_SECONDS = -1  # any link is older than that
    with pytest.raises(DomainError, match="expired") as refused:
        rsvp_answer_by_link(token=token)
    assert refused.value.code == "link_expired"
    assert Client().post(f"/rsvp/{token}/").status_code == 400
    assert not Rsvp.objects.exists()


def test_no_answer_once_the_night_has_started(club):
    league, admin, (ann, *_) = club
    night = schedule(league, admin)
    token = rsvp_token(night_id=night.pk, player_id=ann.pk, answer="yes")
    ScheduledNight.objects.filter(pk=night.pk).update(starts_at=timezone.now())
    with pytest.raises(Conflict, match="started"):
        rsvp_answer_by_link(token=token)
    assert not Rsvp.objects.exists()


def test_the_reminder_goes_once_the_day_before(club, django_capture_on_commit_callbacks):
    league, admin, (ann, bob, cat, dan, _) = club
    night = schedule(league, admin, starts_at=soon(days=2), seats=2)
    later = schedule(league, admin, starts_at=soon(days=5))
    for p, a in ((ann, "yes"), (bob, "maybe"), (cat, "no"), (dan, "yes")):
        rsvp_answer(night=night, player_id=p.pk, answer=a, by=p.user)
    # Ann and Dan hold the two seats, Bob may come, Cat does not: three reminders.
    mail.outbox.clear()
    assert night_reminders_send() == []  # two days ahead: not yet
    tomorrow = timezone.now() + dt.timedelta(days=1, hours=1)
    with django_capture_on_commit_callbacks(execute=True):
        assert night_reminders_send(now=tomorrow) == [night.pk]
        assert night_reminders_send(now=tomorrow) == []  # beat again: nothing more
    assert sorted(m.to[0] for m in mail.outbox) == [
        "ann@example.org",
        "bob@example.org",
        "dan@example.org",
    ]
    assert all(m.subject.startswith("Reminder:") for m in mail.outbox)
    assert ScheduledNight.objects.get(pk=later.pk).reminded_at is None


def test_the_pages_schedule_and_answer(club, django_capture_on_commit_callbacks):
    league, admin, (ann, *_) = club
    client = Client()
    client.force_login(admin)
    when = (timezone.localtime() + dt.timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
    bad = client.post(
        f"/leagues/{league.slug}/schedule/new/", {"starts_at": when, "place": "Here", "seats": "9"}
    )
    assert bad.status_code == 400 and b"from 2 to 7 seats" in bad.content
    with django_capture_on_commit_callbacks(execute=True):
        made = client.post(
            f"/leagues/{league.slug}/schedule/new/",
            {"starts_at": when, "place": "Here", "seats": "4", "variant": "", "note": ""},
        )
    assert made.status_code == 302 and len(mail.outbox) == 5
    night = ScheduledNight.objects.get()
    player_client = Client()
    player_client.force_login(ann.user)
    player_client.post(f"/nights/{night.pk}/answer/", {"player": ann.pk, "answer": "yes"})
    page = client.get(f"/nights/{night.pk}/")
    assert b"1 of 4 seats taken" in page.content
    member = add_member(league, "jo", "member")
    jo = Client()
    jo.force_login(member)
    assert jo.get(f"/leagues/{league.slug}/schedule/new/").status_code == 403


def test_the_api_schedules_lists_and_answers(club, django_capture_on_commit_callbacks):
    league, admin, (ann, bob, cat, *_) = club
    admin_api = api_client(admin)
    bad = admin_api.post(
        "/api/v1/nights/",
        {"league": league.slug, "starts_at": soon().isoformat(), "place": "", "seats": 99},
        format="json",
    )
    assert bad.status_code == 400
    assert set(bad.json()["error"]["fields"]) == {"place", "seats"}
    made = admin_api.post(
        "/api/v1/nights/",
        {"league": league.slug, "starts_at": soon().isoformat(), "place": "Here", "seats": 2},
        format="json",
    )
    assert made.status_code == 201, made.json()
    pk = made.json()["id"]
    for p in (ann, bob, cat):
        r = api_client(p.user).post(
            f"/api/v1/nights/{pk}/answer/", {"player": p.pk, "answer": "yes"}, format="json"
        )
        assert r.status_code == 200
    assert r.json()["seat"] == "waitlist"
    refused = api_client(ann.user).post(
        f"/api/v1/nights/{pk}/answer/", {"player": bob.pk, "answer": "no"}, format="json"
    )
    assert refused.status_code == 403 and refused.json()["error"]["code"] == "permission_denied"
    member = api_client(add_member(league, "jo", "member"))
    assert (
        member.post(
            "/api/v1/nights/",
            {"league": league.slug, "starts_at": soon().isoformat(), "place": "X", "seats": 2},
            format="json",
        ).status_code
        == 403
    )
    detail = api_client().get(f"/api/v1/nights/{pk}/").json()
    assert [r["player_name"] for r in detail["answers"]["going"]] == ["Ann", "Bob"]
    assert [r["player_name"] for r in detail["answers"]["waitlist"]] == ["Cat"]
    assert [n["id"] for n in api_client().get("/api/v1/nights/").json()["results"]] == [pk]


def test_the_docstring_examples_of_the_schedule_rules_hold():
    import doctest

    from tracker.engine import schedule

    result = doctest.testmod(schedule)
    assert result.attempted >= 4 and result.failed == 0


@concurrent("concurrent answers")
def test_yeses_arriving_together_never_give_a_seat_twice(club):
    league, admin, players = club
    night = schedule(league, admin, seats=2)
    outcomes = at_once(
        [
            lambda p=p: rsvp_answer(night=night, player_id=p.pk, answer="yes", by=p.user)
            for p in players
        ]
    )
    errors = [o for o in outcomes if isinstance(o, Exception)]
    assert not errors
    a = night_answers(night)
    assert len(a.going) == 2 and len(a.waitlist) == 3
