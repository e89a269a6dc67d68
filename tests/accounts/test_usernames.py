"""Usernames: normalised (NFKC, case-folded) before the uniqueness check, unique in the
database ignoring case and look-alikes (``AccountName``), so a double submit cannot make two
accounts; every refusal a 400 on the page naming the username field, never a 500."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.factories import make_user
from tests.support.threads import at_once, concurrent
from tracker.accounts import services
from tracker.accounts.models import AccountName
from tracker.accounts.names import canonical_username, username_skeleton
from tracker.accounts.services import user_signup
from tracker.core.errors import Conflict
from tracker.engine.errors import DomainError

GOOD = "a-long-pass-phrase"


def _page_signup(client, username):
    body = {"username": username, "email": "", "password1": GOOD, "password2": GOOD}
    return client.post("/accounts/signup/", body)


def _names(canonical):
    return list(
        get_user_model()
        .objects.filter(account_name__canonical=canonical)
        .values_list("username", flat=True)
    )


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "words"),
    [
        ("ｒｏｂ", "taken"),  # fullwidth: was a 500 (the check ran before NFKC)
        ("ＲＯＢ", "taken"),  # was a second "ROB" beside "rob"
        ("Rob", "taken"),
        ("rоb", "looks too much like"),  # a Cyrillic о
        ("r𝐨b", "taken"),  # NFKC folds the mathematical bold o to o
        ("яоb", None),  # another name altogether
    ],
)
def test_a_username_is_refused_on_the_page_when_it_is_another_ignoring_case_or_a_look_alike(
    client, name, words
):
    make_user("rob")
    r = _page_signup(client, name)
    users = get_user_model().objects
    if words is None:
        assert r.status_code == 302 and users.count() == 2
        return
    assert r.status_code == 400, r.status_code
    errors = r.context["form"].errors["username"]
    assert any(words in e for e in errors), errors
    assert users.count() == 1 and not client.session.get("_auth_user_id")


@pytest.mark.django_db
def test_the_service_says_taken_as_a_conflict_and_a_look_alike_as_a_domain_error():
    make_user("bill")
    with pytest.raises(Conflict) as taken:
        user_signup(username="ＢＩＬＬ", password=GOOD)
    assert taken.value.fields == {"username": ["that username is taken"]}
    with pytest.raises(DomainError) as alike:
        user_signup(username="bi11", password=GOOD)
    assert not isinstance(alike.value, Conflict)
    assert "looks too much like" in alike.value.fields["username"][0]
    user = user_signup(username="Ｂｏｂ", password=GOOD)
    assert user.username == "Bob"  # stored as NFKC, its case kept
    assert AccountName.objects.get(user=user).canonical == "bob"


@pytest.mark.django_db
def test_every_account_claims_its_name_and_a_rename_claims_the_new_one():
    user = make_user("ann")  # not through sign-up: the claim is made on save
    assert AccountName.objects.get(user=user).skeleton == username_skeleton("ann")
    user.username = "Annie"
    user.save()
    claim = AccountName.objects.get(user=user)
    assert claim.canonical == "annie"
    assert user_signup(username="ann", password=GOOD)  # the old name is free again
    with pytest.raises(Conflict):
        user_signup(username="ANNIE", password=GOOD)


@pytest.mark.django_db
def test_an_account_made_outside_sign_up_with_a_taken_name_keeps_working_without_a_claim():
    make_user("rob")
    other = make_user("ROB")  # e.g. createsuperuser, which checks the exact name only
    assert AccountName.objects.get(user=other).canonical is None
    assert _names("rob") == ["rob"]
    with pytest.raises(Conflict):
        user_signup(username="rOb", password=GOOD)


@pytest.mark.django_db
@pytest.mark.parametrize("second", ["newbie", "NEWBIE"])
def test_a_sign_up_that_lost_the_race_answers_400_on_the_page(client, monkeypatch, second):
    """The other sign-up committed between this one's check and its insert (the check is
    made to see nothing): the database refuses the name, the page says taken."""
    make_user("newbie")
    monkeypatch.setattr(services, "name_holder", lambda username: None)
    r = _page_signup(client, second)
    assert r.status_code == 400
    assert "that username is taken" in r.context["form"].errors["username"]
    assert get_user_model().objects.count() == 1


@concurrent("concurrent writers")
@pytest.mark.parametrize("names", [("racer", "racer"), ("racer", "RACER"), ("racer", "rаcer")])
def test_two_sign_ups_at_once_make_one_account(monkeypatch, names):
    """Both pass the check before either inserts (a barrier after the check): one account,
    and the other refused as taken, never an IntegrityError."""
    barrier = threading.Barrier(2, timeout=30)
    checked = services.name_holder

    def holder_then_wait(username):
        found = checked(username)
        barrier.wait()
        return found

    monkeypatch.setattr(services, "name_holder", holder_then_wait)
    outcomes = at_once(
        [lambda n=n: user_signup(username=n, password=GOOD).username for n in names],
        barrier=False,  # they meet in name_holder
    )
    made = [o for o in outcomes if isinstance(o, str)]
    refused = [o for o in outcomes if isinstance(o, Exception)]
    assert len(made) == 1 and len(refused) == 1, outcomes
    assert isinstance(refused[0], Conflict) and refused[0].fields["username"]
    assert get_user_model().objects.count() == 1
    assert AccountName.objects.filter(canonical=canonical_username(made[0])).count() == 1


@pytest.mark.django_db
def test_the_page_refuses_a_look_alike_made_of_several_scripts_without_a_500():
    make_user("alex")
    r = _page_signup(Client(), "аlех")  # Cyrillic а, е and х
    assert r.status_code == 400
    assert "looks too much like" in str(r.context["form"].errors["username"])


@pytest.mark.django_db
def test_the_admin_shows_the_claims_and_still_deletes_a_user():
    operator = get_user_model().objects.create_superuser("op", "op@example.org", "pw-for-tests")
    victim = make_user("gone")
    client = Client()
    client.force_login(operator)
    listing = client.get("/admin/tracker/accountname/?q=gone")
    assert listing.status_code == 200 and b"gone" in listing.content
    assert client.get("/admin/tracker/accountname/add/").status_code == 403
    r = client.post(f"/admin/auth/user/{victim.pk}/delete/", {"post": "yes"})
    assert r.status_code == 302
    assert not AccountName.objects.filter(user_id=victim.pk).exists()
    assert user_signup(username="Gone", password=GOOD)  # the name is free again


@pytest.mark.parametrize(
    "module",
    ["tracker.accounts.names", "tracker.accounts.services", "tracker.core.ratelimit"],
)
def test_the_docstring_examples(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0


@pytest.mark.django_db
def test_a_save_that_leaves_the_name_alone_writes_no_claim(django_assert_num_queries):
    user = make_user("ann")
    with django_assert_num_queries(1):  # the user's own UPDATE, nothing for the claim
        user.save(update_fields=["last_login"])
    user.username = "anne"
    user.save(update_fields=["username"])
    assert AccountName.objects.get(user=user).canonical == "anne"


def test_the_migrations_frozen_copy_agrees_with_the_live_rules():
    # Migration 0021 keeps its own copy of names.py (migrations import no live code); the two
    # give the same forms today, so the claimed rows match what sign-up checks.
    import importlib

    from tracker.accounts.names import canonical_username, username_skeleton

    frozen = importlib.import_module("tracker.migrations.0021_account_names")
    for name in ("rob", "ＲＯＢ", "rоb", "bi11", "Straße", "r𝐨b", "José", "m", "rn", "ǅ"):
        assert frozen.canonical_username(name) == canonical_username(name)
        assert frozen.username_skeleton(name) == username_skeleton(name)
