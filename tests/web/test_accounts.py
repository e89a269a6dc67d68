"""The account pages: sign-up (Django's password validators, the sign-up limits), the login
page's links, the styled password reset, and the profile's API tokens."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import make_user
from tests.support.accounts import reset_from_mail
from tracker.accounts.models import ApiToken
from tracker.audit.models import AuditEntry

pytestmark = pytest.mark.django_db

GOOD = "a-long-pass-phrase"


@pytest.fixture(autouse=True)
def _fresh_limits():
    cache.clear()
    yield
    cache.clear()


def signup(client, **fields):
    body = {"username": "ann", "email": "", "password1": GOOD, "password2": GOOD, **fields}
    return client.post("/accounts/signup/", body)


def test_sign_up_creates_the_account_logs_in_and_returns_to_next(client):
    r = signup(client, next="/calculator/")
    assert r.status_code == 302 and r["Location"] == "/calculator/"
    user = get_user_model().objects.get(username="ann")
    assert user.check_password(GOOD) and user.email == ""
    page = client.get("/")
    assert b"Logged in as" in page.content and b"ann" in page.content
    assert AuditEntry.objects.filter(action="user.signup", actor="ann").exists()


def test_sign_up_refuses_an_outside_next(client):
    r = signup(client, next="https://evil.example/")
    assert r.status_code == 302 and r["Location"] == "/"


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"password1": "12345678", "password2": "12345678"}, "password1", "entirely numeric"),
        ({"password1": "short", "password2": "short"}, "password1", "too short"),
        ({"password2": "something-else"}, "password2", "differ"),
        ({"username": "a b"}, "username", "valid username"),
        ({"email": "not-an-address"}, "email", "valid email"),
        ({"username": "ANN-TAKEN"}, "username", "taken"),
    ],
)
def test_sign_up_says_what_is_wrong_on_the_field(client, fields, field, words):
    make_user("ann-taken")
    r = signup(client, **fields)
    assert r.status_code == 400
    errors = r.context["form"].errors[field]
    assert any(words in e for e in errors), errors
    assert get_user_model().objects.filter(username="ann").count() == 0


def test_sign_up_is_limited_per_address(client, settings):
    settings.SIGNUP_ADDRESS_LIMIT = 3
    for n in range(3):
        signup(client, username=f"bad {n}")  # refused usernames count too
    r = signup(client, username="fine")
    assert r.status_code == 429
    assert b"Too many sign-ups from your address; try again in 60 minutes." in r.content
    assert not get_user_model().objects.filter(username="fine").exists()
    other = Client(REMOTE_ADDR="198.51.100.9")
    assert signup(other, username="fine").status_code == 302


def test_the_login_page_links_to_sign_up_and_password_reset(client):
    page = client.get("/accounts/login/?next=/calculator/").content.decode()
    assert 'href="/accounts/password_reset/"' in page
    assert 'href="/accounts/signup/?next=/calculator/"' in page


def test_password_reset_end_to_end_with_the_site_pages(client, django_capture_on_commit_callbacks):
    from tracker.accounts.services import email_address_set, email_verify, verification_token

    user = make_user("ann")
    email, _ = email_address_set(user=user, address="ann@example.org", base_url="http://x/")
    email_verify(token=verification_token(email))  # only a verified address is mailed
    form = client.get("/accounts/password_reset/")
    assert b"auth-box" in form.content and b"Reset your password" in form.content
    with django_capture_on_commit_callbacks(execute=True):  # the task mails after commit
        r = client.post("/accounts/password_reset/", {"email": "ann@example.org"})
    assert r.status_code == 302
    assert b"Check your email" in client.get(r["Location"]).content
    (message,) = mail.outbox
    form, r = reset_from_mail(client, message, "another-long-phrase")
    assert b"Choose a new password" in form.content
    assert b"Password saved" in r.content
    user.refresh_from_db()
    assert user.check_password("another-long-phrase")


def test_the_profile_needs_a_login(client):
    r = client.get("/accounts/profile/")
    assert r.status_code == 302 and r["Location"].startswith("/accounts/login/")


def test_a_token_made_on_the_profile_works_once_shown_and_is_revoked_there(client):
    user = make_user("ann")
    client.force_login(user)
    r = client.post("/accounts/profile/tokens/", {"label": "scoring laptop"})
    assert r.status_code == 303 and r["Location"] == "/accounts/profile/"
    r = client.get(r["Location"])
    assert r.status_code == 200 and r["Cache-Control"] == "no-store"
    key = r.context["new_key"]
    assert key in r.content.decode()
    token = ApiToken.objects.get(user=user)
    assert token.label == "scoring laptop" and key not in token.digest
    # The key is shown only on that page, once.
    assert key not in client.get("/accounts/profile/").content.decode()

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/v1/memberships/").status_code == 200
    token.refresh_from_db()
    assert token.last_used_at is not None
    page = client.get("/accounts/profile/").content.decode()
    assert "scoring laptop" in page and token.fingerprint in page and "never" not in page
    assert "up to an hour after the time shown" in page  # "last used" is noted once an hour

    r = client.post(f"/accounts/profile/tokens/{token.pk}/revoke/")
    assert r.status_code == 302
    assert api.get("/api/v1/memberships/").status_code == 401
    assert "revoked" in client.get("/accounts/profile/").content.decode()
    entries = AuditEntry.objects.filter(action__startswith="token.").values_list(
        "action", flat=True
    )
    assert sorted(entries) == ["token.create", "token.revoke"]


def test_a_new_token_is_shown_once_after_the_redirect_and_a_reload_makes_no_other(client):
    user = make_user("ann")
    client.force_login(user)
    r = client.post("/accounts/profile/tokens/", {"label": "script"})
    assert r.status_code == 303 and r["Location"] == "/accounts/profile/"
    assert ApiToken.objects.filter(user=user).count() == 1
    assert "shown_once.token" in client.session
    first = client.get("/accounts/profile/")
    key = first.context["new_key"]
    assert first["Cache-Control"] == "no-store" and key in first.content.decode()
    assert first.context["new_token"] == ApiToken.objects.get(user=user)
    # Taken out of the session: the reload (a GET) shows it no more and makes no other token.
    assert "shown_once.token" not in client.session
    again = client.get("/accounts/profile/")
    assert again.context["new_key"] is None and key not in again.content.decode()
    assert again.get("Cache-Control") != "no-store"
    assert ApiToken.objects.filter(user=user).count() == 1
    # No other page shows it.
    client.post("/accounts/profile/tokens/", {"label": "another"})
    (new,) = ApiToken.objects.filter(user=user, label="another")
    for other in ("/", "/calculator/", "/accounts/password_change/"):
        assert 'id="new-token-key"' not in client.get(other).content.decode()
    assert client.get("/accounts/profile/").context["new_token"] == new


def test_a_token_revoked_before_the_redirect_is_not_shown(client):
    user = make_user("ann")
    client.force_login(user)
    assert client.post("/accounts/profile/tokens/", {"label": "script"}).status_code == 303
    token = ApiToken.objects.get(user=user)
    assert client.post(f"/accounts/profile/tokens/{token.pk}/revoke/").status_code == 302
    r = client.get("/accounts/profile/")
    assert r.status_code == 200 and r.context["new_key"] is None
    assert 'id="new-token-key"' not in r.content.decode()
    assert r.get("Cache-Control") != "no-store" and "shown_once.token" not in client.session


def test_a_token_needs_a_label_and_others_cannot_revoke_it(client):
    ann, bob = make_user("ann"), make_user("bob")
    client.force_login(ann)
    r = client.post("/accounts/profile/tokens/", {"label": "  "})
    assert r.status_code == 400 and r.context["form"].errors["label"]  # shown in place
    assert (
        not ApiToken.objects.filter(user=ann).exists() and "shown_once.token" not in client.session
    )
    client.post("/accounts/profile/tokens/", {"label": "script"})
    token = ApiToken.objects.get(user=ann)
    client.force_login(bob)
    assert client.post(f"/accounts/profile/tokens/{token.pk}/revoke/").status_code == 404
    token.refresh_from_db()
    assert token.revoked_at is None


def test_sign_up_reports_every_problem_at_once(client):
    make_user("ann")
    r = signup(client, username="ANN", email="nope", password1="123", password2="123")
    assert r.status_code == 400
    errors = r.context["form"].errors
    assert "taken" in str(errors["username"])
    assert "too short" in str(errors["password1"]) and "valid email" in str(errors["email"])
