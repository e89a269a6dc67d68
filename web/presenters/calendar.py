"""Game nights as iCalendar (RFC 5545), written with the ``icalendar`` library: the league's
feed at its secret address, and one night's "add to calendar" file.

A night (``Tournament``) stores its **date** only, plus when it was started on the site
(``created_at``) and finished (``finished_at``), both instants. So an event is:

- timed, in the league's time zone (``DTSTART;TZID=Europe/Paris``), from when the night was
  started to when it finished (``DEFAULT_HOURS`` after the start while it runs), when it was
  started on its own date in that zone, as a night begun at the table is;
- otherwise (a night entered on another day than its date) an all-day event on its date,
  which carries no time and so no zone.

A night scheduled ahead (``ScheduledNight``) is a timed event from its start, in the league's
zone, ``DEFAULT_HOURS`` long, at its place (``LOCATION``), with its game, seats and note in
the description. Its UID is stable (``scheduled-night-<id>@homegame``), its ``SEQUENCE`` the
night's count of changes, so a calendar app updates the event it has when the time or the
place moves; a cancelled night stays in the feed with ``STATUS:CANCELLED``.

The calendar names the zone (``X-WR-TIMEZONE``) and holds its ``VTIMEZONE``, so calendar apps
show the times as the league lives them wherever the reader is.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from zoneinfo import ZoneInfo

import icalendar
from django.utils import timezone

from tracker.engine.variants import VARIANT_RULES
from tracker.leagues.models import League
from tracker.schedule.models import ScheduledNight
from tracker.tournaments.models import Tournament, TournamentStatus

PRODID = "-//homegame//game nights//EN"
DEFAULT_HOURS = 4  # how long a running night is shown to last


def _event(night: Tournament, league: League, zone: ZoneInfo, url: str, now) -> icalendar.Event:
    event = icalendar.Event()
    event.add("uid", f"night-{night.pk}@homegame")
    event.add("dtstamp", now)
    event.add("summary", f"{night.name} · {league.name}")
    start = night.created_at.astimezone(zone)
    if start.date() == night.date:
        end = night.finished_at.astimezone(zone) if night.finished_at else None
        if end is None or end <= start:
            end = start + dt.timedelta(hours=DEFAULT_HOURS)
        event.add("dtstart", start)
        event.add("dtend", end)
    else:
        event.add("dtstart", night.date)
        event.add("dtend", night.date + dt.timedelta(days=1))
    finished = night.status == TournamentStatus.FINISHED
    event.add("status", "CONFIRMED")
    event.add("description", ("Finished. " if finished else "") + f"Game night of {league.name}.")
    event.add("url", url)
    return event


def _scheduled_event(
    night: ScheduledNight, league: League, zone: ZoneInfo, url: str, now
) -> icalendar.Event:
    event = icalendar.Event()
    event.add("uid", f"scheduled-night-{night.pk}@homegame")
    event.add("dtstamp", now)
    event.add("last-modified", night.updated_at)
    event.add("sequence", night.sequence)
    game = VARIANT_RULES[night.variant].title if night.variant else "Dealer's choice"
    event.add("summary", f"Game night · {league.name}")
    start = night.starts_at.astimezone(zone)
    event.add("dtstart", start)
    event.add("dtend", start + dt.timedelta(hours=DEFAULT_HOURS))
    event.add("location", night.place)
    lines = [f"{game}, {night.seats} seats."]
    if night.note:
        lines.append(night.note)
    if night.cancelled:
        lines.insert(0, "Cancelled" + (f": {night.cancel_reason}" if night.cancel_reason else "."))
    event.add("description", "\n".join(lines))
    event.add("status", "CANCELLED" if night.cancelled else "CONFIRMED")
    event.add("url", url)
    return event


def calendar_ics(
    league: League,
    nights: Iterable[Tournament],
    *,
    url_of,
    name: str | None = None,
    scheduled: Iterable[ScheduledNight] = (),
    scheduled_url_of=None,
) -> bytes:
    """``nights`` of ``league`` as one iCalendar file; ``url_of(night)`` is each night's
    absolute address. ``scheduled`` nights (ahead) go in too, ``scheduled_url_of(night)``
    their pages' addresses."""
    zone = ZoneInfo(league.time_zone)
    now = timezone.now()
    cal = icalendar.Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("x-wr-calname", name or f"{league.name} game nights")
    cal.add("x-wr-timezone", league.time_zone)
    for night in nights:
        cal.add_component(_event(night, league, zone, url_of(night), now))
    for night in scheduled:
        cal.add_component(_scheduled_event(night, league, zone, scheduled_url_of(night), now))
    cal.add_missing_timezones()
    return cal.to_ical()
