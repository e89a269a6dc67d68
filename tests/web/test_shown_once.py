"""web/views/shown_once.py: a secret kept for one page, taken once, dropped when stale."""

from __future__ import annotations

from types import SimpleNamespace

from web.views import shown_once


def _request():
    return SimpleNamespace(session={})


def test_a_secret_is_taken_once_by_the_page_it_was_kept_for():
    request = _request()
    response = shown_once.keep_and_redirect(
        request, shown_once.INVITE, pk=7, secret="s3cret", to="/leagues/a/members/", league="a"
    )
    assert response.status_code == 303 and response["Location"] == "/leagues/a/members/"
    assert shown_once.take(request, shown_once.INVITE, league="a") == (7, "s3cret")
    assert shown_once.take(request, shown_once.INVITE, league="a") is None


def test_another_page_drops_it_unseen():
    request = _request()
    shown_once.keep_and_redirect(request, shown_once.INVITE, pk=7, secret="x", to="/", league="a")
    assert shown_once.take(request, shown_once.INVITE, league="b") is None
    assert shown_once.take(request, shown_once.INVITE, league="a") is None
    assert request.session == {}


def test_a_secret_not_shown_in_time_is_dropped(monkeypatch):
    request = _request()
    now = 1_000_000.0
    monkeypatch.setattr(shown_once.time, "time", lambda: now)
    shown_once.keep_and_redirect(request, shown_once.TOKEN, pk=3, secret="key", to="/")
    now += shown_once.KEEP_SECONDS + 1  # the redirect was never followed in time
    assert shown_once.take(request, shown_once.TOKEN) is None
    assert request.session == {}
    shown_once.keep_and_redirect(request, shown_once.TOKEN, pk=3, secret="key", to="/")
    now += shown_once.KEEP_SECONDS - 1
    assert shown_once.take(request, shown_once.TOKEN) == (3, "key")
