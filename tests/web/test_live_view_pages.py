"""The table screen's QR code, the read-only live view it opens, and the poll's 304s, through
Django's test client."""

from __future__ import annotations

import re

import pytest

from tests.web.conftest import make_game, record_walk
from tracker.tournaments.models import TableLink
from tracker.tournaments.selectors import table_link_token
from tracker.tournaments.services import table_link_create

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", response.content.decode()))


@pytest.fixture
def secret():
    """A night of a private league, with its players' names only at its table."""
    game = make_game(slug="secret", public=False)
    game.league.name = "The Hidden Circle"
    game.league.save()
    return game


def live_path(link) -> str:
    return f"/live/{table_link_token(link)}/"


def test_the_screen_offers_a_qr_code_to_those_who_run_the_table(client, secret):
    t = secret.tournament
    client.force_login(secret.member)
    page = text(client.get(f"/tournaments/{t.pk}/table/"))
    assert "A scorekeeper or an admin can put a QR code here" in page
    client.force_login(secret.keeper)
    response = client.get(f"/tournaments/{t.pk}/table/")
    assert b'data-testid="ts-share-new"' in response.content
    response = client.post(f"/tournaments/{t.pk}/table/links/")
    assert response.status_code == 302 and response["Location"] == f"/tournaments/{t.pk}/table/"
    link = TableLink.objects.get(tournament=t)
    html = client.get(f"/tournaments/{t.pk}/table/").content.decode()
    assert f"http://testserver{live_path(link)}" in html
    qr = re.search(r'<div class="ts-qr" role="img" aria-label="[^"]+"[^>]*>(<svg.*?</svg>)', html)
    assert qr and "<path" in qr.group(1)
    assert "style" not in qr.group(1) and "script" not in qr.group(1)  # the CSP holds
    assert 'data-testid="ts-revoke"' not in html  # a scorekeeper does not revoke
    client.force_login(secret.admin)
    assert b'data-testid="ts-revoke"' in client.get(f"/tournaments/{t.pk}/table/").content


def test_a_member_or_a_stranger_makes_no_link(client, secret):
    t = secret.tournament
    assert client.post(f"/tournaments/{t.pk}/table/links/").status_code == 404  # private
    client.force_login(secret.member)
    response = client.post(f"/tournaments/{t.pk}/table/links/")
    assert response.status_code == 403
    assert not TableLink.objects.exists()
    public = make_game(slug="open")
    client.logout()
    page = client.get(f"/tournaments/{public.tournament.pk}/table/").content
    assert b"ts-share" not in page  # a public league's visitors read the screen itself


def test_the_live_view_opens_without_an_account_and_shows_that_night_alone(client, secret):
    link = table_link_create(tournament=secret.tournament, by=secret.keeper)
    response = client.get(live_path(link))
    assert response.status_code == 200
    page = text(response)
    assert "Game night live view" in page and "Hand 1 of 50" in page
    assert "Ann" in page and "Dealer Ann" in page
    html = response.content.decode()
    assert "<form" not in html  # nothing to log in to, nothing to change
    assert "The Hidden Circle" not in html and "/leagues/" not in html
    assert "/accounts/login" not in html
    assert response["Referrer-Policy"] == "no-referrer"
    assert "script-src 'self'" in response["Content-Security-Policy"]
    assert not re.search(r"<script(?![^>]*\bsrc=)", html)  # no inline script
    # The link opens nothing else of the league.
    assert client.get(f"/tournaments/{secret.tournament.pk}/").status_code == 404
    assert client.get(f"/leagues/{secret.league.slug}/").status_code == 404


def test_the_live_view_refuses_every_write(client, secret):
    t = secret.tournament
    link = table_link_create(tournament=t, by=secret.keeper)
    for path in (live_path(link), live_path(link) + "state/"):
        for method in ("post", "put", "patch", "delete"):
            response = getattr(client, method)(path, data={"anything": "1"})
            assert response.status_code == 403, (path, method)
    assert b"read-only" in client.post(live_path(link)).content
    # Its holder is nobody: the night's writes stay out of reach.
    assert client.post(f"/tournaments/{t.pk}/hands/new/").status_code == 404
    assert client.post(f"/tournaments/{t.pk}/table/links/").status_code == 404
    revoke = f"/tournaments/{t.pk}/table/links/{link.pk}/revoke/"
    assert client.post(revoke).status_code == 404
    assert t.hands.count() == 0 and TableLink.objects.get().revoked_at is None


def test_a_revoked_or_tampered_link_answers_404(client, secret):
    t = secret.tournament
    link = table_link_create(tournament=t, by=secret.keeper)
    path = live_path(link)
    assert client.get(path).status_code == 200
    etag = client.get(path + "state/").headers["ETag"]
    tampered = path.replace(":", ":x", 1)
    assert client.get(tampered).status_code == 404
    assert client.get(f"/live/{link.pk}:{'A' * 27}/").status_code == 404
    client.force_login(secret.keeper)
    revoke = f"/tournaments/{t.pk}/table/links/{link.pk}/revoke/"
    assert client.post(revoke).status_code == 403  # only an admin revokes
    client.force_login(secret.admin)
    response = client.post(revoke, follow=True)
    assert "Live view link revoked" in text(response)
    client.logout()
    assert client.get(path).status_code == 404
    assert client.get(path + "state/").status_code == 404
    assert client.get(path + "state/", headers={"if_none_match": etag}).status_code == 404


# --------------------------------------------------------------------------
# The poll: 304 while nothing changed


def page_and_poll(game, where):
    """The table screen's page and the address it polls: the night's own ("screen") or
    through a read-only link ("live")."""
    t = game.tournament
    if where == "screen":
        return f"/tournaments/{t.pk}/table/", f"/tournaments/{t.pk}/table/live/"
    page = live_path(table_link_create(tournament=t, by=game.keeper))
    return page, page + "state/"


@pytest.mark.parametrize("where", ["screen", "live"])
def test_the_poll_answers_304_until_the_night_changes(
    client, django_capture_on_commit_callbacks, where
):
    game = make_game()
    _, url = page_and_poll(game, where)
    first = client.get(url)
    assert first.status_code == 200 and "No hand yet." in text(first)
    etag = first["ETag"]
    assert "no-cache" in first["Cache-Control"]
    same = client.get(url, headers={"if_none_match": etag})
    assert same.status_code == 304 and same.content == b"" and same["ETag"] == etag
    with django_capture_on_commit_callbacks(execute=True):
        record_walk(game)
    fresh = client.get(url, headers={"if_none_match": etag})
    assert fresh.status_code == 200 and fresh["ETag"] != etag
    assert "Bob takes 12" in text(fresh)
    assert client.get(url, headers={"if_none_match": fresh["ETag"]}).status_code == 304


@pytest.mark.parametrize("where", ["screen", "live"])
def test_the_first_poll_is_a_304_when_nothing_changed_since_the_page(
    client, django_capture_on_commit_callbacks, where
):
    game = make_game()
    page, poll = page_and_poll(game, where)
    etag = re.search(r'data-etag="([^"]+)"', client.get(page).content.decode()).group(1)
    etag = etag.replace("&quot;", '"')
    assert client.get(poll, headers={"if_none_match": etag}).status_code == 304
    with django_capture_on_commit_callbacks(execute=True):
        record_walk(game)
    assert client.get(poll, headers={"if_none_match": etag}).status_code == 200


def test_a_poll_of_a_hidden_night_is_404_whatever_its_etag(client, secret):
    url = f"/tournaments/{secret.tournament.pk}/table/live/"
    client.force_login(secret.member)
    etag = client.get(url)["ETag"]
    client.logout()
    assert client.get(url, headers={"if_none_match": etag}).status_code == 404
