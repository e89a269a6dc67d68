"""E-mail addresses: verified (a signed link that expires) before they receive any mail but
the verification mail itself; one address waiting per account, one account per verified
address; the profile shows the state and sends the link again within an allowance; the
password reset mails only verified addresses, within its limits per client address and per
e-mail address, answering alike whether or not the address has an account, and doing the
same work in the request (the mail goes after commit, from a task)."""

from __future__ import annotations

import re
import time

import pytest
from django.contrib.auth import get_user_model
from django.core import mail, signing
from django.db import IntegrityError, connection, transaction
from django.test import Client, TestCase
from django.test.utils import CaptureQueriesContext

from tests.factories import make_user
from tests.support.accounts import reset_from_mail
from tracker.accounts.models import EmailAddress
from tracker.accounts.services import (
    email_address_set,
    email_verification_resend,
    email_verification_send,
    email_verify,
    verification_token,
)
from tracker.core.errors import Conflict
from tracker.engine.errors import DomainError

pytestmark = pytest.mark.django_db

GOOD = "a-long-pass-phrase"
SITE = "http://testserver/"


def _link(message) -> str:
    return re.search(r"https?://[^/]+(/accounts/email/verify/\S+/)", message.body).group(1)


def _verified(user, address, capture) -> EmailAddress:
    with capture(execute=True):
        email, _ = email_address_set(user=user, address=address, base_url=SITE)
    return email_verify(token=verification_token(email))


def _reset(client, address):
    """A reset request, its transaction committed: the task it sent has run (eagerly)."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post("/accounts/password_reset/", {"email": address})


def _reset_mails():
    return [m for m in mail.outbox if "password" in m.subject.lower()]


def test_sign_up_keeps_the_address_waiting_and_mails_only_its_link(
    client, django_capture_on_commit_callbacks
):
    body = {"username": "ann", "email": "Ann@Example.org", "password1": GOOD, "password2": GOOD}
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post("/accounts/signup/", body).status_code == 302
    user = get_user_model().objects.get(username="ann")
    assert user.email == ""  # the user's email holds only a verified address
    (waiting,) = EmailAddress.objects.filter(user=user)
    assert waiting.address == "Ann@Example.org" and not waiting.is_verified
    (message,) = mail.outbox
    assert message.to == ["Ann@Example.org"] and "Verify" in message.subject
    profile = client.get("/accounts/profile/").content.decode()
    assert 'data-testid="email-unverified"' in profile and "Send the link again" in profile

    # No other mail reaches it before it is verified: a reset answers alike and sends nothing.
    r = _reset(Client(), "ann@example.org")
    assert r.status_code == 302 and r["Location"] == "/accounts/password_reset/done/"
    assert len(mail.outbox) == 1

    link = _link(message)
    page = Client().get(link)  # a mail scanner opening the link verifies nothing
    assert page.status_code == 200 and b"Verify this address" in page.content
    assert not EmailAddress.objects.get(pk=waiting.pk).is_verified
    r = Client().post(link)  # no login needed: the link is the proof
    assert r.status_code == 200 and b'data-testid="email-verified"' in r.content
    user.refresh_from_db()
    assert user.email == "Ann@Example.org"
    assert "verified" in client.get("/accounts/profile/").content.decode()
    assert Client().post(link).status_code == 200  # again: nothing changes

    assert _reset(Client(), "ann@example.org").status_code == 302
    (reset,) = _reset_mails()
    assert reset.to == ["Ann@Example.org"]


def test_an_address_set_in_the_admin_without_verification_gets_no_reset_mail(client):
    user = make_user("ann")
    user.email = "ann@example.org"  # the admin's user form writes this field directly
    user.save()
    assert _reset(client, "ann@example.org").status_code == 302
    assert mail.outbox == []


def test_the_password_reset_end_to_end_for_a_verified_address(
    client, django_capture_on_commit_callbacks
):
    user = make_user("ann")
    _verified(user, "ann@example.org", django_capture_on_commit_callbacks)
    mail.outbox.clear()
    assert _reset(client, "ANN@example.org").status_code == 302
    (message,) = mail.outbox
    _, r = reset_from_mail(client, message, "another-long-phrase")
    assert b"Password saved" in r.content
    user.refresh_from_db()
    assert user.check_password("another-long-phrase")


def test_the_reset_mail_goes_after_commit_from_a_task_not_in_the_request(
    client, django_capture_on_commit_callbacks
):
    user = make_user("ann")
    _verified(user, "ann@example.org", django_capture_on_commit_callbacks)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=False) as asked:
        r = client.post("/accounts/password_reset/", {"email": "Ann@example.org"})
    assert r.status_code == 302 and r["Location"] == "/accounts/password_reset/done/"
    assert mail.outbox == []  # nothing sent inside the request
    (send,) = asked  # one task, sent once the request's transaction commits
    send()
    (message,) = mail.outbox
    assert message.to == ["ann@example.org"] and "password" in message.subject.lower()
    link = re.search(r"http://testserver(/accounts/reset/\S+)", message.body).group(1)
    assert client.get(link, follow=True).status_code == 200
    send()  # the task delivered again: no second mail
    assert len(mail.outbox) == 1


def test_a_reset_does_the_same_work_in_the_request_whether_or_not_the_address_has_an_account(
    django_capture_on_commit_callbacks,
):
    _verified(make_user("ann"), "ann@example.org", django_capture_on_commit_callbacks)
    make_user("bob").email_addresses.create(address="bob@example.org", canonical="bob@example.org")
    mail.outbox.clear()
    work = {}
    for address in ("ann@example.org", "bob@example.org", "nobody@example.org"):
        with (
            CaptureQueriesContext(connection) as queries,
            django_capture_on_commit_callbacks(execute=False) as asked,
        ):
            r = Client().post("/accounts/password_reset/", {"email": address})
        assert r.status_code == 302 and r["Location"] == "/accounts/password_reset/done/"
        work[address] = (len(queries), len(asked), mail.outbox[:])
    assert work["ann@example.org"] == work["bob@example.org"] == work["nobody@example.org"]
    assert work["nobody@example.org"][1:] == (1, [])  # one task asked for, no mail sent


def test_the_reset_task_mails_only_an_account_still_able_to_reset(
    django_capture_on_commit_callbacks,
):
    from tracker.accounts.services import password_reset_send

    ann, bob = make_user("ann"), make_user("bob")
    for user in (ann, bob):
        _verified(user, f"{user.username}@example.org", django_capture_on_commit_callbacks)
    mail.outbox.clear()
    bob.is_active = False  # between the request and the task
    bob.save()
    assert password_reset_send(user_ids=[ann.pk, bob.pk], base_url=SITE, request_id="r1") == 1
    assert [m.to for m in mail.outbox] == [["ann@example.org"]]
    assert password_reset_send(user_ids=[ann.pk], base_url=SITE, request_id="r1") == 0
    assert password_reset_send(user_ids=[ann.pk], base_url=SITE, request_id="r2") == 1


def test_an_address_is_verified_by_one_account_only(django_capture_on_commit_callbacks):
    ann, bob = make_user("ann"), make_user("bob")
    with django_capture_on_commit_callbacks(execute=True):
        bobs, sent = email_address_set(user=bob, address="shared@example.org", base_url=SITE)
    assert sent
    _verified(ann, "Shared@example.org", django_capture_on_commit_callbacks)
    mail.outbox.clear()
    with pytest.raises(Conflict) as refused:  # bob's link, mailed before ann verified
        email_verify(token=verification_token(bobs))
    assert "another account" in refused.value.message
    page = Client().post(f"/accounts/email/verify/{verification_token(bobs)}/")
    assert page.status_code == 400 and b"verified by another account" in page.content
    with pytest.raises(Conflict):
        email_verification_resend(user=bob, base_url=SITE)
    # A sign-up giving the address keeps it waiting, and mails nothing to it.
    with django_capture_on_commit_callbacks(execute=True):
        email_address_set(user=make_user("cy"), address="shared@example.org", base_url=SITE)
    assert mail.outbox == []
    # And the database holds the rule, whatever a service checks.
    with pytest.raises(IntegrityError), transaction.atomic():
        EmailAddress.objects.filter(pk=bobs.pk).update(
            verified_at=ann.email_addresses.get().verified_at
        )


def test_one_address_waits_per_account_and_a_new_one_ends_the_earlier_links(
    django_capture_on_commit_callbacks,
):
    ann = make_user("ann")
    first, _ = email_address_set(user=ann, address="one@example.org", base_url=SITE)
    old_link = verification_token(first)
    second, _ = email_address_set(user=ann, address="two@example.org", base_url=SITE)
    assert list(EmailAddress.objects.filter(user=ann).values_list("address", flat=True)) == [
        "two@example.org"
    ]
    with pytest.raises(DomainError) as gone:
        email_verify(token=old_link)
    assert gone.value.code == "link_replaced"
    with pytest.raises(IntegrityError), transaction.atomic():
        EmailAddress.objects.create(user=ann, address="x@example.org", canonical="x@example.org")
    # A verified address stays in use while a new one waits; verifying replaces it.
    email_verify(token=verification_token(second))
    third, _ = email_address_set(user=ann, address="three@example.org", base_url=SITE)
    ann.refresh_from_db()
    assert ann.email == "two@example.org"
    email_verify(token=verification_token(third))
    ann.refresh_from_db()
    assert ann.email == "three@example.org"
    assert list(EmailAddress.objects.filter(user=ann).values_list("address", flat=True)) == [
        "three@example.org"
    ]


def test_a_link_expires_and_a_forged_one_is_refused(monkeypatch, settings, client):
    ann = make_user("ann")
    email, _ = email_address_set(user=ann, address="ann@example.org", base_url=SITE)
    now = time.time()
    monkeypatch.setattr(
        signing.time, "time", lambda: now - settings.EMAIL_VERIFY_MAX_AGE_SECONDS - 5
    )
    old = verification_token(email)
    monkeypatch.setattr(signing.time, "time", lambda: now)
    r = client.post(f"/accounts/email/verify/{old}/")
    assert r.status_code == 400 and b"expired" in r.content
    forged = signing.TimestampSigner(salt="another").sign_object(
        {"e": email.pk, "a": email.canonical}
    )
    for token in (forged, verification_token(email) + "x", "nonsense"):
        r = client.get(f"/accounts/email/verify/{token}/")
        assert r.status_code == 400 and b"not a valid verification link" in r.content
    assert not EmailAddress.objects.get(pk=email.pk).is_verified


def test_the_profile_sets_an_address_and_sends_the_link_again_within_the_allowance(
    client, settings, django_capture_on_commit_callbacks
):
    settings.EMAIL_VERIFY_MAIL_LIMIT = 2
    ann = make_user("ann")
    client.force_login(ann)
    r = client.post("/accounts/profile/email/", {"email": "not an address"})
    assert r.status_code == 400 and r.context["email_form"].errors["email"]
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post("/accounts/profile/email/", {"email": "ann@example.org"})
    assert r.status_code == 302
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post("/accounts/profile/email/resend/").status_code == 302
    with django_capture_on_commit_callbacks(execute=True):
        r = client.post("/accounts/profile/email/resend/")
    assert r.status_code == 429 and b"enough verification mails" in r.content
    assert len(mail.outbox) == 2
    # The allowance is per address too: another account cannot flood it.
    bob = make_user("bob")
    with django_capture_on_commit_callbacks(execute=True):
        _, sent = email_address_set(user=bob, address="ANN@example.org", base_url=SITE)
    assert not sent and len(mail.outbox) == 2
    assert Client().post("/accounts/profile/email/resend/").status_code == 302  # a login


def test_the_verification_task_mails_once_when_delivered_twice():
    ann = make_user("ann")
    email, sent = email_address_set(user=ann, address="ann@example.org", base_url=SITE)
    assert sent  # asked for (the task is sent on commit)
    assert email_verification_send(email_id=email.pk, base_url=SITE) is True
    assert email_verification_send(email_id=email.pk, base_url=SITE) is False
    assert len(mail.outbox) == 1


def test_password_resets_are_limited_per_client_address(
    settings, django_capture_on_commit_callbacks
):
    settings.PASSWORD_RESET_ADDRESS_LIMIT = 5
    settings.PASSWORD_RESET_EMAIL_LIMIT = 100
    for name in ("ann", "bob"):
        _verified(make_user(name), f"{name}@example.org", django_capture_on_commit_callbacks)
    mail.outbox.clear()
    client = Client(REMOTE_ADDR="203.0.113.7")
    answers = [
        _reset(client, f"{('ann', 'bob')[n % 2]}@example.org").status_code for n in range(30)
    ]
    assert answers == [302] * 5 + [429] * 25
    assert len(mail.outbox) == 5  # was 30 (and 60 with two accounts on one address)
    r = _reset(client, "ann@example.org")
    assert b"Too many password resets" in r.content
    assert _reset(Client(REMOTE_ADDR="198.51.100.1"), "ann@example.org").status_code == 302


def test_password_resets_are_limited_per_email_address_answering_alike(
    settings, django_capture_on_commit_callbacks
):
    settings.PASSWORD_RESET_EMAIL_LIMIT = 3
    _verified(make_user("ann"), "ann@example.org", django_capture_on_commit_callbacks)
    mail.outbox.clear()
    known = [_reset(Client(REMOTE_ADDR=f"198.51.100.{n}"), "ann@example.org") for n in range(10)]
    unknown = [_reset(Client(REMOTE_ADDR=f"192.0.2.{n}"), "nobody@example.org") for n in range(10)]
    for r in known + unknown:  # the same answer, whether the address has an account or not
        assert r.status_code == 302 and r["Location"] == "/accounts/password_reset/done/"
    assert len(mail.outbox) == 3


def test_mail_to_a_user_goes_only_to_the_verified_address(django_capture_on_commit_callbacks):
    from tracker.accounts.services import user_mail_send

    ann = make_user("ann")
    ann.email = "typed@example.org"  # written without verification (the admin's form)
    ann.save()
    assert user_mail_send(user=ann, subject="Results", body="...") is False
    email_address_set(user=ann, address="waiting@example.org", base_url=SITE)
    assert user_mail_send(user=ann, subject="Results", body="...") is False
    assert mail.outbox == []
    _verified(ann, "ann@example.org", django_capture_on_commit_callbacks)
    mail.outbox.clear()
    assert user_mail_send(user=ann, subject="Results", body="...") is True
    (message,) = mail.outbox
    assert message.to == ["ann@example.org"]


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="concurrent writers: PostgreSQL")
def test_a_double_submit_of_a_new_address_leaves_one_waiting(monkeypatch):
    """Both requests are past their checks at once (a barrier): the account's row lock lets
    one replace the other's address, never two waiting nor an IntegrityError."""
    import threading

    from tracker.accounts import services

    ann = make_user("ann")
    barrier = threading.Barrier(2, timeout=30)
    canonical = services.canonical_email

    def canonical_then_wait(address):
        barrier.wait()
        return canonical(address)

    monkeypatch.setattr(services, "canonical_email", canonical_then_wait)
    failures: list[Exception] = []

    def submit(address):
        try:
            email_address_set(user=ann, address=address, base_url=SITE)
        except Exception as exc:  # noqa: BLE001 - the outcome is what is checked
            failures.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=submit, args=(a,)) for a in ("a@x.org", "b@x.org")]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert EmailAddress.objects.filter(user=ann, verified_at__isnull=True).count() == 1
