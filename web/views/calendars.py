"""Calendars: a league's iCalendar feed at its secret address, a night's "add to calendar"
file, and the admins' page for the league's time zone and feed links (docs/nights.md)."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_http_methods

from tracker.core.errors import NotFound
from tracker.core.permissions import Capability
from tracker.engine.errors import DomainError
from tracker.leagues.selectors.calendars import (
    calendar_feed_open,
    league_calendar_feed,
    league_calendar_feeds,
    league_nights,
)
from tracker.leagues.selectors.visibility import visible_league, visible_tournament
from tracker.leagues.services import (
    calendar_feed_create,
    calendar_feed_revoke,
    league_time_zone_set,
)
from tracker.schedule.selectors import calendar_scheduled_nights, visible_night
from web.presenters.calendar import calendar_ics
from web.views import shown_once
from web.views.common import login_first, page_gate

CALENDAR = "shown_once.calendar"
ICS = "text/calendar; charset=utf-8"


def _ics(request, body: bytes, *, filename: str | None = None) -> HttpResponse:
    response = HttpResponse(body, content_type=ICS)
    response["Cache-Control"] = "private, no-cache"
    response["Referrer-Policy"] = "no-referrer"
    if filename:
        response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@require_GET
def calendar_feed(request, token):
    """The league's game nights for a calendar app, at the feed link's secret address."""
    feed = calendar_feed_open(token)
    league = feed.league
    body = calendar_ics(
        league,
        league_nights(league),
        url_of=lambda night: request.build_absolute_uri(night.get_absolute_url()),
        scheduled=calendar_scheduled_nights(league),
        scheduled_url_of=lambda night: request.build_absolute_uri(
            reverse("night", kwargs={"pk": night.pk})
        ),
    )
    return _ics(request, body)


@require_GET
def scheduled_night_ics(request, pk):
    """A scheduled night's "add to calendar" file, for whoever may see the night (cancelled:
    the same event, STATUS:CANCELLED, so importing it again removes it)."""
    night = visible_night(request.user, pk)
    body = calendar_ics(
        night.league,
        [],
        url_of=None,
        name=f"{night.league.name} game night",
        scheduled=[night],
        scheduled_url_of=lambda n: request.build_absolute_uri(
            reverse("night", kwargs={"pk": n.pk})
        ),
    )
    return _ics(request, body, filename=f"scheduled-night-{night.pk}.ics")


@require_GET
def night_ics(request, pk):
    """One night's "add to calendar" file, for whoever may see the night."""
    night = visible_tournament(request.user, pk)
    body = calendar_ics(
        night.league,
        [night],
        url_of=lambda n: request.build_absolute_uri(n.get_absolute_url()),
        name=night.name,
    )
    return _ics(request, body, filename=f"game-night-{night.pk}.ics")


@require_http_methods(["GET", "POST"])
def league_calendar(request, slug):
    """Admins: the league's time zone, and its calendar feed links (a new one is shown once,
    after a 303 back here: only its token's digest is stored)."""
    league = visible_league(request.user, slug)
    can = page_gate(request, league, Capability.CALENDAR, "set the league's calendar")
    if can is None:
        return login_first(request)
    here = reverse("league-calendar", kwargs={"slug": league.slug})
    error, status = None, 200
    if request.method == "POST":
        action = request.POST.get("action")
        try:
            if action == "time_zone":
                league_time_zone_set(
                    league=league, time_zone=request.POST.get("time_zone", ""), by=request.user
                )
                messages.success(request, f"The league's time zone is {league.time_zone}.")
                return redirect(here)
            if action == "feed":
                feed, token = calendar_feed_create(league=league, by=request.user)
                address = request.build_absolute_uri(
                    reverse("calendar-feed", kwargs={"token": token})
                )
                return shown_once.keep_and_redirect(
                    request, CALENDAR, pk=feed.pk, secret=address, to=here, league=league.slug
                )
            if action == "revoke":
                feed = league_calendar_feed(league, request.POST.get("feed"))
                calendar_feed_revoke(feed=feed, by=request.user)
                messages.success(request, "The calendar link is revoked: it shows nothing now.")
                return redirect(here)
            raise NotFound("No such action.")
        except NotFound:
            raise
        except DomainError as exc:
            error, status = exc.message, 400
    feeds = league_calendar_feeds(league)
    new_address = None
    if request.method == "GET":
        kept = shown_once.take(request, CALENDAR, league=league.slug)
        if kept and any(f.pk == kept[0] and f.revoked_at is None for f in feeds):
            new_address = kept[1]
    response = render(
        request,
        "tracker/league_calendar.html",
        {
            "league": league,
            "can": can,
            "feeds": feeds,
            "new_address": new_address,
            "error": error,
            "time_zone": request.POST.get("time_zone", league.time_zone)
            if error
            else league.time_zone,
        },
        status=status,
    )
    if new_address:
        shown_once.no_store(response)
    return response
