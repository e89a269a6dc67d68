"""Sign-in finds the account by its canonical name (tracker/accounts/backends.py): an account
made as "Bob" signs in as "bob" or "ＢＯＢ" on the login page, the admin's and the API token
endpoint; an account without a claim still signs in by its exact name; a look-alike (another
skeleton, not the same canonical form) signs in nobody."""

from __future__ import annotations

import pytest
from django.contrib.auth import authenticate, get_user_model
from django.test import Client
from rest_framework.test import APIClient

from tests.factories import make_user
from tracker.accounts.models import AccountName

pytestmark = pytest.mark.django_db

RIGHT = "the-right-password"
VARIANTS = ["Bob", "bob", "BOB", "ＢＯＢ", "ｂｏｂ"]


@pytest.fixture
def bob():
    return make_user("Bob", password=RIGHT)


@pytest.mark.parametrize("typed", VARIANTS)
def test_the_login_page_signs_in_by_any_form_of_the_name(bob, typed):
    client = Client()
    r = client.post("/accounts/login/", {"username": typed, "password": RIGHT})
    assert r.status_code == 302, r.content
    assert client.session["_auth_user_id"] == str(bob.pk)
    assert b"Logged in as" in client.get("/").content  # the session's backend is known


@pytest.mark.parametrize("typed", VARIANTS)
def test_the_admin_login_signs_in_by_any_form_of_the_name(bob, typed):
    bob.is_staff = True
    bob.save()
    client = Client()
    r = client.post("/admin/login/", {"username": typed, "password": RIGHT, "next": "/admin/"})
    assert r.status_code == 302 and r["Location"] == "/admin/"
    assert client.session["_auth_user_id"] == str(bob.pk)
    assert client.get("/admin/").status_code == 200


@pytest.mark.parametrize("typed", VARIANTS)
def test_the_token_endpoint_signs_in_by_any_form_of_the_name(bob, typed):
    r = APIClient().post(
        "/api/v1/auth/token/", {"username": typed, "password": RIGHT}, format="json"
    )
    assert r.status_code == 201, r.json()
    assert r.json()["username"] == "Bob"  # the account's name as stored
    me = APIClient(HTTP_AUTHORIZATION=f"Token {r.json()['token']}")
    assert me.delete("/api/v1/auth/token/").status_code == 204  # the token is bob's


def test_a_wrong_password_or_a_look_alike_signs_in_nobody(bob):
    assert authenticate(username="bob", password="wrong") is None
    assert authenticate(username="b0b", password=RIGHT) is None  # another name
    assert authenticate(username="bоb", password=RIGHT) is None  # a Cyrillic о: a look-alike
    assert authenticate(username="nobody", password=RIGHT) is None
    bob.is_active = False
    bob.save()
    assert authenticate(username="bob", password=RIGHT) is None


def test_an_account_without_a_claim_signs_in_by_its_exact_name():
    rob = make_user("rob", password=RIGHT)
    # An account older than the rule, its name colliding with rob's: it holds no claim.
    old = get_user_model().objects.create_user(username="Rob", password="old-rob-password")
    assert AccountName.objects.get(user=old).canonical is None
    assert authenticate(username="Rob", password="old-rob-password") == old
    assert authenticate(username="ROB", password="old-rob-password") is None  # that is rob's
    assert authenticate(username="ROB", password=RIGHT) == rob
    assert authenticate(username="rob", password=RIGHT) == rob
