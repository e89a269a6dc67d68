"""The league's calendar: its feed links and the nights they list."""

from __future__ import annotations

from tracker.accounts.selectors import token_digest
from tracker.core.errors import NotFound
from tracker.leagues.models import CalendarFeed, League
from tracker.tournaments.models import Tournament


def calendar_feed_open(token: str) -> CalendarFeed:
    """The working calendar feed link ``token`` names, with its league; NotFound when no
    link has that token (made up, changed) or it was revoked."""
    feed = (
        CalendarFeed.objects.select_related("league")
        .filter(digest=token_digest(token or ""), revoked_at__isnull=True)
        .first()
    )
    if feed is None:
        raise NotFound("No such calendar.")
    return feed


def league_calendar_feeds(league: League) -> list[CalendarFeed]:
    """The league's calendar feed links, newest first (revoked ones too)."""
    return list(league.calendar_feeds.order_by("-created_at", "-id"))


def league_calendar_feed(league: League, pk: object) -> CalendarFeed:
    feed = league.calendar_feeds.filter(pk=pk).first() if str(pk).isdigit() else None
    if feed is None:
        raise NotFound("No such calendar link.")
    feed.league = league
    return feed


def league_nights(league: League, *, limit: int = 500) -> list[Tournament]:
    """The league's game nights for its calendar, latest first (at most ``limit``)."""
    return list(
        Tournament.objects.filter(league=league)
        .order_by("-date", "-id")
        .only("id", "name", "date", "status", "created_at", "finished_at", "league_id")[:limit]
    )
