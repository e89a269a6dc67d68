"""The e-mail outbox: one row per (kind, recipient, subject), sent exactly once by tasks
that may run twice or die mid-send; only to verified addresses; the user's choices and the
one-click unsubscribe (RFC 8058)."""

from __future__ import annotations

from datetime import timedelta
from smtplib import SMTPException

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from tests.factories import add_member, make_league, make_user
from tests.support.threads import at_once, concurrent
from tracker.accounts.models import EmailAddress
from tracker.engine.errors import DomainError
from tracker.leagues.models import Invite
from tracker.leagues.services import invite_create
from tracker.mail.models import MailKind, MailOptOut, OutboxMessage, OutboxStatus
from tracker.mail.services import (
    mail_kinds_set,
    outbox_enqueue,
    outbox_message_send,
    outbox_sweep,
    unsubscribe_token,
)
from tracker.mail.tasks import outbox_send_task

pytestmark = pytest.mark.django_db
SITE = "http://testserver/"


def verified(user, address: str | None = None):
    address = address or f"{user.username}@example.org"
    EmailAddress.objects.create(
        user=user, address=address, canonical=address.lower(), verified_at=timezone.now()
    )
    return user


def ask(user, key: str = "invite:1", kind: str = MailKind.LEAGUE_INVITE):
    league, admin = make_league(slug=f"l{OutboxMessage.objects.count()}")
    return outbox_enqueue(
        kind=kind,
        user=user,
        subject_key=key,
        template="league_invite",
        context={"league": league, "role": "member", "by": "alex", "link": "http://x/i/"},
        base_url=SITE,
    )


def test_asking_twice_keeps_one_message_and_mails_once(django_capture_on_commit_callbacks):
    ann = verified(make_user("ann"))
    with django_capture_on_commit_callbacks(execute=True):
        first = ask(ann)
        again = ask(ann)
    assert first.pk == again.pk and OutboxMessage.objects.count() == 1
    (message,) = mail.outbox
    assert message.to == ["ann@example.org"]
    assert "invites you to join" in message.body
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html" and "<strong>" in html
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert message.extra_headers["List-Unsubscribe"].startswith("<http://testserver/mail/")
    row = OutboxMessage.objects.get()
    assert row.status == OutboxStatus.SENT and row.address == "ann@example.org"
    assert row.body_text == "" and row.attempts == 1  # its links are not kept once sent


def test_the_same_message_sent_by_two_tasks_gives_one_mail():
    ann = verified(make_user("ann"))
    row = ask(ann)  # not committed: no task ran yet
    assert outbox_send_task.delay(row.pk).get() is True
    assert outbox_send_task.delay(row.pk).get() is False
    assert len(mail.outbox) == 1


def test_a_worker_that_died_mid_send_is_replaced_once_its_lease_is_over():
    ann = verified(make_user("ann"))
    row = ask(ann)
    # A worker claimed it and died: the row says "sending", its lease still running.
    OutboxMessage.objects.filter(pk=row.pk).update(
        status=OutboxStatus.SENDING, attempts=1, lease_until=timezone.now() + timedelta(minutes=1)
    )
    assert outbox_sweep() == [] and outbox_message_send(message_id=row.pk) is False
    assert mail.outbox == []
    OutboxMessage.objects.filter(pk=row.pk).update(
        lease_until=timezone.now() - timedelta(seconds=1)
    )
    assert outbox_sweep() == [row.pk]
    assert outbox_sweep() == []  # sent: nothing more to do
    assert len(mail.outbox) == 1
    row.refresh_from_db()
    assert row.status == OutboxStatus.SENT and row.attempts == 2


def test_a_message_whose_task_was_lost_is_sent_by_the_sweep(settings):
    ann = verified(make_user("ann"))
    row = ask(ann)
    assert outbox_sweep() == []  # within the grace: its task may still come
    OutboxMessage.objects.filter(pk=row.pk).update(
        created_at=timezone.now() - timedelta(seconds=settings.MAIL_SWEEP_GRACE + 1)
    )
    assert outbox_sweep() == [row.pk] and len(mail.outbox) == 1


def test_no_mail_without_a_verified_address_nor_to_a_kind_turned_off():
    bob = make_user("bob")
    EmailAddress.objects.create(user=bob, address="bob@example.org", canonical="bob@example.org")
    row = ask(bob)
    assert outbox_message_send(message_id=row.pk) is False
    row.refresh_from_db()
    assert row.status == OutboxStatus.SKIPPED and row.error == "no verified address"
    cat = verified(make_user("cat"))
    mail_kinds_set(user=cat, kinds_on=[MailKind.NIGHT_REMINDER])
    row = ask(cat)
    assert outbox_message_send(message_id=row.pk) is False
    assert OutboxMessage.objects.get(pk=row.pk).status == OutboxStatus.SKIPPED
    assert mail.outbox == []


def test_a_failed_send_is_retried_then_given_up(settings, monkeypatch):
    settings.MAIL_MAX_ATTEMPTS = 2
    ann = verified(make_user("ann"))
    row = ask(ann)
    from tracker.mail import services

    def refuse(**kwargs):
        raise SMTPException("421 try later")

    monkeypatch.setattr(services, "user_mail_send", refuse)
    with pytest.raises(SMTPException):
        outbox_message_send(message_id=row.pk)
    row.refresh_from_db()
    assert row.status == OutboxStatus.PENDING and "421" in row.error
    assert outbox_message_send(message_id=row.pk) is False  # the second attempt: given up
    row.refresh_from_db()
    assert row.status == OutboxStatus.FAILED and row.attempts == 2


def test_one_click_unsubscribe_turns_off_one_kind_and_a_scanner_changes_nothing():
    ann = verified(make_user("ann"))
    token = unsubscribe_token(user_id=ann.pk, kind=MailKind.NIGHT_REMINDER)
    client = Client(enforce_csrf_checks=True)
    page = client.get(f"/mail/unsubscribe/{token}/")
    assert page.status_code == 200 and b"Reminders the day before" in page.content
    assert not MailOptOut.objects.exists()  # opening the link is not unsubscribing
    # The mail client's one-click POST (RFC 8058): no CSRF token, no login.
    done = client.post(f"/mail/unsubscribe/{token}/", {"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200
    assert list(MailOptOut.objects.values_list("kind", flat=True)) == [MailKind.NIGHT_REMINDER]
    assert client.post(f"/mail/unsubscribe/{token}/").status_code == 200  # again: no change
    assert MailOptOut.objects.count() == 1


def test_a_tampered_unsubscribe_link_is_refused_and_changes_nothing():
    ann = verified(make_user("ann"))
    token = unsubscribe_token(user_id=ann.pk, kind=MailKind.NIGHT_REMINDER)
    bad = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    response = Client().post(f"/mail/unsubscribe/{bad}/")
    assert response.status_code == 400 and b"not valid" in response.content
    assert not MailOptOut.objects.exists()


def test_the_profile_sets_which_kinds_of_mail_arrive():
    ann = make_user("ann")
    client = Client()
    client.force_login(ann)
    page = client.get("/accounts/profile/")
    assert page.content.count(b'name="kinds"') == len(MailKind.values)
    response = client.post("/accounts/profile/mail/", {"kinds": [MailKind.LEAGUE_INVITE]})
    assert response.status_code == 302
    assert set(MailOptOut.objects.values_list("kind", flat=True)) == set(MailKind.values) - {
        MailKind.LEAGUE_INVITE
    }
    with pytest.raises(DomainError) as refused:
        mail_kinds_set(user=ann, kinds_on=["spam"])
    assert refused.value.fields == {"kinds": [refused.value.message]}


def test_an_invite_mailed_to_an_account_carries_its_link(django_capture_on_commit_callbacks):
    league, admin = make_league()
    verified(make_user("jo"))
    with django_capture_on_commit_callbacks(execute=True):
        invite, token = invite_create(
            league=league, role="member", by=admin, mail_to="jo", base_url=SITE
        )
    (message,) = mail.outbox
    assert message.to == ["jo@example.org"]
    assert f"http://testserver/invites/{token}/" in message.body
    assert OutboxMessage.objects.get().subject_key == f"invite:{invite.pk}"


def test_an_invite_to_an_account_without_a_verified_address_is_refused_whole():
    league, admin = make_league()
    make_user("jo")
    with pytest.raises(DomainError) as refused:
        invite_create(league=league, role="member", by=admin, mail_to="jo", base_url=SITE)
    assert "mail_to" in refused.value.fields and "verified" in refused.value.message
    assert not Invite.objects.exists() and not OutboxMessage.objects.exists()


def test_the_members_page_mails_an_invite(django_capture_on_commit_callbacks):
    league, admin = make_league()
    verified(add_member(league, "jo", "member"))
    client = Client()
    client.force_login(admin)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/leagues/{league.slug}/members/",
            {
                "action": "invite",
                "invite-role": "scorekeeper",
                "invite-uses": "single",
                "invite-days": "7",
                "invite-mail_to": "jo",
            },
        )
    assert response.status_code == 303
    assert len(mail.outbox) == 1 and "as scorekeeper" in mail.outbox[0].body


def test_the_api_mails_an_invite_and_refuses_an_unknown_account(django_capture_on_commit_callbacks):
    from tests.factories import api_client

    league, admin = make_league()
    verified(make_user("jo"))
    client = api_client(admin)
    bad = client.post(
        "/api/v1/invites/",
        {"league": league.slug, "role": "member", "mail_to": "nobody"},
        format="json",
    )
    assert bad.status_code == 400 and "mail_to" in bad.json()["error"]["fields"]
    with django_capture_on_commit_callbacks(execute=True):
        good = client.post(
            "/api/v1/invites/",
            {"league": league.slug, "role": "member", "mail_to": "jo"},
            format="json",
        )
    assert good.status_code == 201 and len(mail.outbox) == 1
    assert good.json()["url"] in mail.outbox[0].body


@concurrent("concurrent workers")
def test_two_workers_racing_for_one_message_send_it_once():
    ann = verified(make_user("ann"))
    row = OutboxMessage.objects.create(  # asked for, its task not run yet
        kind=MailKind.LEAGUE_INVITE, user=ann, subject_key="invite:1", subject="Hi", body_text="."
    )
    results = at_once([lambda: outbox_message_send(message_id=row.pk)] * 4)
    assert sorted(results) == [False, False, False, True]
    assert len(mail.outbox) == 1


def test_the_docstring_examples_of_the_outbox_hold():
    import doctest

    from tracker.mail import services

    result = doctest.testmod(services)
    assert result.attempted >= 1 and result.failed == 0
