"""A new password revokes the user's API tokens, whichever way it is set (the change page,
a reset, the admin, set_password in a script); the change page keeps its own session. A hash
upgrade at sign-in is no password change and revokes nothing."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.hashers import make_password
from django.core import mail
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from tests.factories import make_user
from tracker.accounts.models import ApiToken, EmailAddress
from tracker.accounts.services import api_token_create
from tracker.audit.models import AuditEntry

pytestmark = pytest.mark.django_db

OLD, NEW = "the-old-long-phrase", "a-brand-new-phrase"


def works(key: str) -> bool:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    status = api.get("/api/v1/memberships/").status_code
    assert status in (200, 401)
    return status == 200


@pytest.fixture
def ann():
    user = make_user("ann", password=OLD)
    user.email = "ann@example.org"  # verified: only a verified address receives a reset
    user.save()
    EmailAddress.objects.create(
        user=user, address=user.email, canonical=user.email, verified_at=timezone.now()
    )
    keys = [api_token_create(user=user, label=label)[1] for label in ("laptop", "phone")]
    assert all(works(k) for k in keys)
    return user, keys


def test_the_change_page_revokes_every_token_and_keeps_this_session(ann):
    user, keys = ann
    here, elsewhere = Client(), Client()
    here.force_login(user)
    elsewhere.force_login(user)
    form = here.get("/accounts/password_change/").content.decode()
    assert "Your API tokens will be revoked" in form
    done = here.post(
        "/accounts/password_change/",
        {"old_password": OLD, "new_password1": NEW, "new_password2": NEW},
        follow=True,
    )
    assert done.status_code == 200
    page = done.content.decode()
    assert "Your API tokens were revoked" in page and "you stay logged in here" in page
    assert not any(works(k) for k in keys)
    assert not ApiToken.objects.filter(user=user, revoked_at__isnull=True).exists()
    assert here.get("/accounts/profile/").status_code == 200  # this session stays
    assert elsewhere.get("/accounts/profile/").status_code == 302  # the others do not
    revoked = AuditEntry.objects.filter(action="token.revoke")
    assert revoked.count() == 2
    assert {e.data["reason"] for e in revoked} == {"password changed"}
    profile = here.get("/accounts/profile/").content.decode()
    assert "Changing your password revokes them all." in profile


def test_a_password_reset_revokes_every_token(ann, client, django_capture_on_commit_callbacks):
    user, keys = ann
    with django_capture_on_commit_callbacks(execute=True):  # the task mails after commit
        client.post("/accounts/password_reset/", {"email": "ann@example.org"})
    (message,) = mail.outbox
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", message.body).group(1)
    form = client.get(link, follow=True)
    assert "Your API tokens will be revoked" in form.content.decode()
    done = client.post(
        form.redirect_chain[-1][0], {"new_password1": NEW, "new_password2": NEW}, follow=True
    )
    assert "Your API tokens were revoked" in done.content.decode()
    assert not any(works(k) for k in keys)


def test_set_password_anywhere_revokes_the_tokens_once_saved(ann):
    user, keys = ann
    user.set_password(NEW)  # the admin's password form, manage.py changepassword, a script
    assert all(works(k) for k in keys)  # not before it is saved
    user.save()
    assert not any(works(k) for k in keys)


def test_a_token_made_after_the_change_works(ann):
    user, keys = ann
    user.set_password(NEW)
    user.save()
    assert works(api_token_create(user=user, label="new laptop")[1])


def test_other_saves_and_sign_ins_revoke_nothing(ann, settings):
    user, keys = ann
    user.first_name = "Ann"
    user.save()
    # A sign-in whose stored hash Django upgrades to the preferred hasher: no new password.
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.PBKDF2PasswordHasher",
        "django.contrib.auth.hashers.MD5PasswordHasher",
    ]
    type(user).objects.filter(pk=user.pk).update(password=make_password(OLD, hasher="md5"))
    signed_in = APIClient().post(
        "/api/v1/auth/token/", {"username": "ann", "password": OLD}, format="json"
    )
    assert signed_in.status_code == 201
    user.refresh_from_db()
    assert user.password.startswith("pbkdf2_")  # upgraded
    assert all(works(k) for k in keys)
