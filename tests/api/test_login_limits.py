"""Sign-in limits on the login page and the token endpoint (tracker/accounts/signin.py:
django-axes and tracker/core/ratelimit.py)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from api.throttles import WriteThrottle
from tests.factories import make_user
from tracker.core import ratelimit

pytestmark = pytest.mark.django_db

TOKEN = "/api/v1/auth/token/"
LOGIN = "/accounts/login/"
RIGHT = "the-right-password"


@pytest.fixture
def user():
    return make_user("rob", password=RIGHT)


def token(client, password, addr="10.0.0.1", **headers):
    return client.post(
        TOKEN, {"username": "rob", "password": password}, format="json", REMOTE_ADDR=addr, **headers
    )


def login(client, password, addr="10.0.0.1", username="rob"):
    return client.post(LOGIN, {"username": username, "password": password}, REMOTE_ADDR=addr)


def test_token_300_wrong_passwords_are_refused_after_the_limit(user, settings):
    client = APIClient()
    codes = [token(client, f"guess-{i}").status_code for i in range(300)]
    limit = settings.LOGIN_FAILURE_LIMIT
    assert codes[:limit] == [401] * limit
    assert set(codes[limit:]) == {429}
    refused = token(client, RIGHT)  # the right password too, from the locked address
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "throttled"
    assert int(refused["Retry-After"]) > 0
    # One sentence, as on the login page (not DRF's "... Expected available in 900 seconds.").
    wait = settings.LOGIN_LOCKOUT_SECONDS // 60
    assert refused.json()["error"]["message"] == (
        f"Too many failed sign-ins; try again in {wait} minutes."
    )


def test_token_right_password_from_another_address_still_works(user):
    client = APIClient()
    for i in range(300):
        token(client, f"guess-{i}", addr="10.0.0.1")
    assert token(client, RIGHT, addr="10.0.0.2").status_code == 201


def test_x_forwarded_for_is_ignored_without_trusted_proxies(user, settings):
    assert settings.TRUSTED_PROXY_COUNT == 0
    client = APIClient()
    codes = [
        token(client, f"guess-{i}", HTTP_X_FORWARDED_FOR=f"192.0.2.{i % 250}").status_code
        for i in range(300)
    ]
    assert codes.count(429) == 300 - settings.LOGIN_FAILURE_LIMIT


def test_x_forwarded_for_is_read_through_the_trusted_proxy_count(user, settings):
    settings.TRUSTED_PROXY_COUNT = 1
    client = APIClient()
    proxy = "10.9.9.9"
    for i in range(20):
        token(client, f"guess-{i}", addr=proxy, HTTP_X_FORWARDED_FOR="198.51.100.7")
    assert token(client, RIGHT, addr=proxy, HTTP_X_FORWARDED_FOR="198.51.100.7").status_code == 429
    # A client cannot get round it by prepending addresses: only the proxy's entry counts.
    spoofed = token(client, RIGHT, addr=proxy, HTTP_X_FORWARDED_FOR="1.2.3.4, 198.51.100.7")
    assert spoofed.status_code == 429
    # Another client behind the same proxy signs in.
    assert token(client, RIGHT, addr=proxy, HTTP_X_FORWARDED_FOR="198.51.100.8").status_code == 201


def test_sign_in_is_apart_from_the_write_allowance(user, monkeypatch):
    monkeypatch.setattr(WriteThrottle, "rate", "3/min", raising=False)
    client = APIClient()
    assert all(token(client, RIGHT).status_code == 201 for _ in range(10))


def test_login_page_300_wrong_passwords_refused_after_the_limit(user, settings):
    client = Client()
    codes = [login(client, f"guess-{i}").status_code for i in range(300)]
    limit = settings.LOGIN_FAILURE_LIMIT
    assert codes[:limit] == [200] * limit  # the form again, with its error
    assert set(codes[limit:]) == {429}
    locked = login(client, RIGHT)
    assert locked.status_code == 429
    assert b"Too many failed sign-ins; try again in 15 minutes." in locked.content
    assert "_auth_user_id" not in client.session


def test_login_page_right_password_from_another_address_logs_in(user):
    attacker = Client()
    for i in range(300):
        login(attacker, f"guess-{i}", addr="10.0.0.1")
    me = Client()
    response = login(me, RIGHT, addr="10.0.0.2")
    assert response.status_code == 302
    assert me.session["_auth_user_id"] == str(user.pk)


def test_one_address_trying_many_usernames_is_locked(user, settings):
    client = Client()
    for i in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT):
        login(client, "nope", username=f"user{i}")
    assert login(client, RIGHT).status_code == 429
    assert login(Client(), RIGHT, addr="10.0.0.2").status_code == 302


def test_a_username_guessed_from_many_addresses_is_locked_briefly(user, settings, monkeypatch):
    for i in range(settings.LOGIN_USER_FAILURE_LIMIT):
        token(APIClient(), "nope", addr=f"10.1.{i // 250}.{i % 250}")
    assert token(APIClient(), RIGHT, addr="10.2.0.1").status_code == 429
    # The user-wide lock ends after LOGIN_USER_LOCKOUT_SECONDS (the clock moved on).
    now = ratelimit.time.time()
    monkeypatch.setattr(
        ratelimit.time, "time", lambda: now + settings.LOGIN_USER_LOCKOUT_SECONDS + 1
    )
    assert token(APIClient(), RIGHT, addr="10.2.0.1").status_code == 201


def test_client_address_parsing(rf, settings):
    request = rf.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="1.1.1.1, 2.2.2.2")
    settings.TRUSTED_PROXY_COUNT = 0
    assert ratelimit.client_address(request) == "10.0.0.1"
    settings.TRUSTED_PROXY_COUNT = 1
    assert ratelimit.client_address(request) == "2.2.2.2"
    settings.TRUSTED_PROXY_COUNT = 2
    assert ratelimit.client_address(request) == "1.1.1.1"
    settings.TRUSTED_PROXY_COUNT = 3  # more proxies than hops: the header is not trusted
    assert ratelimit.client_address(request) == "10.0.0.1"
    junk = rf.get("/", REMOTE_ADDR="10.0.0.1", HTTP_X_FORWARDED_FOR="not-an-address")
    settings.TRUSTED_PROXY_COUNT = 1
    assert ratelimit.client_address(junk) == "10.0.0.1"


def test_the_admin_login_has_the_same_limits(user, settings):
    user.is_staff = True
    user.save()
    client = Client()
    for i in range(settings.LOGIN_FAILURE_LIMIT):
        client.post(
            "/admin/login/", {"username": "rob", "password": f"g{i}"}, REMOTE_ADDR="10.0.0.1"
        )
    locked = client.post(
        "/admin/login/", {"username": "rob", "password": RIGHT}, REMOTE_ADDR="10.0.0.1"
    )
    assert locked.status_code == 429  # as on the login page
    assert b"Too many failed sign-ins; try again in 15 minutes." in locked.content
    assert "_auth_user_id" not in client.session
    other = Client().post(
        "/admin/login/", {"username": "rob", "password": RIGHT}, REMOTE_ADDR="10.0.0.2"
    )
    assert other.status_code == 302


def test_the_user_wide_lock_spares_an_address_the_user_signed_in_from(user, settings):
    assert token(APIClient(), RIGHT, addr="10.3.0.1").status_code == 201  # home
    for i in range(settings.LOGIN_USER_FAILURE_LIMIT):
        token(APIClient(), "nope", addr=f"10.1.{i // 250}.{i % 250}")
    assert token(APIClient(), RIGHT, addr="10.2.0.1").status_code == 429  # a new address
    assert token(APIClient(), RIGHT, addr="10.3.0.1").status_code == 201  # home still works


def test_the_ratelimit_doctests():
    import doctest

    result = doctest.testmod(ratelimit)
    assert result.attempted and not result.failed


class Clock:
    """The clock of the limits and of the (memory) cache that holds them."""

    def __init__(self, monkeypatch):
        self.now = ratelimit.time.time()
        monkeypatch.setattr(ratelimit.time, "time", lambda: self.now)


def guesses_in_a_day(username: str, clock: Clock, address) -> int:
    """A guesser with a fresh address for every try, waiting out each lock: how many
    passwords get checked in 24 hours."""
    end, checked, n = clock.now + ratelimit.DAY, 0, 0
    while clock.now < end:
        wait = ratelimit.login_wait(username, address(n))
        if wait:
            clock.now += wait
            continue
        ratelimit.login_failed(username, address(n))
        checked, n = checked + 1, n + 1
        clock.now += 0.1
    return checked


def test_a_guesser_with_many_addresses_gets_the_daily_budget_at_most(settings, monkeypatch):
    clock = Clock(monkeypatch)
    checked = guesses_in_a_day(
        "rob", clock, lambda n: f"10.{n // 65536}.{n // 256 % 256}.{n % 256}"
    )
    assert checked == settings.LOGIN_USER_DAILY_FAILURE_LIMIT == 100


def test_the_daily_lock_lasts_until_the_day_is_over_but_spares_known_addresses(
    user, settings, monkeypatch
):
    settings.LOGIN_USER_FAILURE_LIMIT = 10_000  # only the daily budget counts here
    clock = Clock(monkeypatch)
    assert token(APIClient(), RIGHT, addr="10.3.0.1").status_code == 201  # home
    for i in range(settings.LOGIN_USER_DAILY_FAILURE_LIMIT):
        assert token(APIClient(), "nope", addr=f"10.1.{i // 250}.{i % 250}").status_code == 401
    refused = token(APIClient(), RIGHT, addr="10.2.0.1")  # a new address, the right password
    assert refused.status_code == 429
    assert 23 * 3600 < int(refused["Retry-After"]) <= ratelimit.DAY
    clock.now += 23 * 3600
    assert token(APIClient(), RIGHT, addr="10.2.0.1").status_code == 429
    assert token(APIClient(), RIGHT, addr="10.3.0.1").status_code == 201  # home still works
    clock.now += 3600 + 1  # the 24 hours from the first wrong password are over
    assert token(APIClient(), RIGHT, addr="10.2.0.1").status_code == 201


def test_an_ipv6_64_counts_as_one_address(user, settings):
    client = APIClient()
    for i in range(settings.LOGIN_FAILURE_LIMIT):
        assert token(client, "nope", addr=f"2001:db8:1:2::{i + 1:x}").status_code == 401
    assert token(client, RIGHT, addr="2001:db8:1:2:ffff:ffff:ffff:ffff").status_code == 429
    assert token(client, RIGHT, addr="2001:db8:1:3::1").status_code == 201  # another /64
    page = Client()
    for i in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT):
        login(page, "nope", addr=f"2001:db8:9:9:{i + 1:x}::1", username=f"user{i}")
    assert login(page, RIGHT, addr="2001:db8:9:9::abcd").status_code == 429


def test_the_user_wide_locks_spare_the_whole_64_the_user_signed_in_from(user, settings):
    assert token(APIClient(), RIGHT, addr="2001:db8:5:5::10").status_code == 201
    for i in range(settings.LOGIN_USER_FAILURE_LIMIT):
        token(APIClient(), "nope", addr=f"10.1.{i // 250}.{i % 250}")
    assert token(APIClient(), RIGHT, addr="10.2.0.1").status_code == 429
    # The same home network, a new privacy address: still home.
    assert token(APIClient(), RIGHT, addr="2001:db8:5:5:1234::77").status_code == 201


def test_a_burst_of_other_attempts_does_not_push_a_lock_out_of_the_memory_cache(settings):
    # The lock of one address (the lock of a username and address is a database row now).
    for n in range(settings.LOGIN_ADDRESS_FAILURE_LIMIT):
        ratelimit.login_failed(f"guess{n}", "10.0.0.1")
    assert ratelimit.login_wait("rob", "10.0.0.1") > 0
    for n in range(1000):  # thousands of cache entries, more than Django's default 300
        ratelimit.login_failed(f"user{n}", f"10.{n // 65536}.{n // 256 % 256}.{n % 256}")
    assert ratelimit.login_wait("rob", "10.0.0.1") > 0


# Usernames are counted by their canonical form, as they sign in: "Rob", "rob", "ＲＯＢ" and
# "ｒｏｂ" are one account, so they are one username for every per-username counter.
VARIANTS = ["Rob", "rob", "ROB", "ＲＯＢ", "ｒｏｂ"]


def test_wrong_passwords_under_variants_of_a_username_count_as_one(user, settings):
    assert settings.LOGIN_FAILURE_LIMIT == len(VARIANTS)
    for variant in VARIANTS:
        assert login(Client(), "nope", username=variant).status_code == 200
    for variant in VARIANTS:  # the pair is locked, under every form of the name
        assert login(Client(), RIGHT, username=variant).status_code == 429
        r = APIClient().post(
            TOKEN, {"username": variant, "password": RIGHT}, format="json", REMOTE_ADDR="10.0.0.1"
        )
        assert r.status_code == 429
    assert login(Client(), RIGHT, addr="10.0.0.2", username="ＲＯＢ").status_code == 302


def test_the_user_wide_limit_counts_variants_of_a_username_as_one(user, settings):
    for i in range(settings.LOGIN_USER_FAILURE_LIMIT):
        variant = VARIANTS[i % len(VARIANTS)]
        r = APIClient().post(
            TOKEN,
            {"username": variant, "password": "nope"},
            format="json",
            REMOTE_ADDR=f"10.1.{i // 250}.{i % 250}",
        )
        assert r.status_code == 401
    assert token(APIClient(), RIGHT, addr="10.2.0.1").status_code == 429
    assert login(Client(), RIGHT, addr="10.2.0.2", username="ｒｏｂ").status_code == 429


def test_a_sign_in_under_a_variant_marks_the_address_known_to_the_account(user, settings):
    home = APIClient().post(
        TOKEN, {"username": "ｒｏｂ", "password": RIGHT}, format="json", REMOTE_ADDR="10.3.0.1"
    )
    assert home.status_code == 201
    for i in range(settings.LOGIN_USER_FAILURE_LIMIT):
        token(APIClient(), "nope", addr=f"10.1.{i // 250}.{i % 250}")
    assert token(APIClient(), RIGHT, addr="10.2.0.1").status_code == 429  # a new address
    assert token(APIClient(), RIGHT, addr="10.3.0.1").status_code == 201  # home still works
    assert login(Client(), RIGHT, addr="10.3.0.1", username="Rob").status_code == 302


def test_the_pair_lock_is_an_axes_row_that_an_operator_can_delete(user, settings):
    from axes.models import AccessAttempt

    for i in range(settings.LOGIN_FAILURE_LIMIT):
        login(Client(), f"guess-{i}", username="ROB", addr="2001:db8:7:7::1")
    rows = AccessAttempt.objects.filter(username="rob", ip_address="2001:db8:7:7::")
    assert sum(rows.values_list("failures_since_start", flat=True)) == settings.LOGIN_FAILURE_LIMIT
    assert token(APIClient(), RIGHT, addr="2001:db8:7:7::2").status_code == 429
    rows.delete()  # what the admin's delete does
    assert token(APIClient(), RIGHT, addr="2001:db8:7:7::2").status_code == 201


def test_a_right_password_forgets_the_pairs_wrong_ones(user, settings):
    from axes.models import AccessAttempt

    for i in range(settings.LOGIN_FAILURE_LIMIT - 1):
        token(APIClient(), f"guess-{i}")
    assert AccessAttempt.objects.filter(username="rob").exists()
    assert login(Client(), RIGHT).status_code == 302
    assert not AccessAttempt.objects.filter(username="rob").exists()
    for i in range(settings.LOGIN_FAILURE_LIMIT - 1):
        assert token(APIClient(), f"again-{i}").status_code == 401
    assert token(APIClient(), RIGHT).status_code == 201
