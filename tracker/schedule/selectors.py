"""Reads of scheduled nights: the league's upcoming ones, one night's answers at a glance,
and what an RSVP link names."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils import timezone

from tracker.core.errors import NotFound
from tracker.core.permissions import require_view
from tracker.leagues.models import League, Player
from tracker.schedule.models import Answer, Rsvp, ScheduledNight, Seat


def upcoming_nights(league: League, *, now=None) -> list[ScheduledNight]:
    """The league's nights not started yet and not cancelled, soonest first."""
    now = now or timezone.now()
    return list(
        ScheduledNight.objects.filter(
            league=league, starts_at__gt=now, cancelled_at__isnull=True
        ).order_by("starts_at")
    )


def calendar_scheduled_nights(league: League, *, limit: int = 200) -> list[ScheduledNight]:
    """The league's scheduled nights for its calendar feed, latest first, cancelled ones
    included (a calendar app removes an event it is told is cancelled)."""
    return list(ScheduledNight.objects.filter(league=league).order_by("-starts_at", "-id")[:limit])


def visible_night(user, pk: int) -> ScheduledNight:
    """The night ``pk`` if ``user`` may see its league (NotFound otherwise)."""
    night = ScheduledNight.objects.select_related("league").filter(pk=pk).first()
    if night is None:
        raise NotFound("No such night.")
    require_view(user, night.league)
    return night


@dataclass
class NightAnswers:
    """Who comes to a night, at a glance: seated, waitlisted (in order), maybe, no, and the
    roster players who have not answered."""

    going: list[Rsvp] = field(default_factory=list)
    waitlist: list[Rsvp] = field(default_factory=list)
    maybe: list[Rsvp] = field(default_factory=list)
    no: list[Rsvp] = field(default_factory=list)
    unanswered: list[Player] = field(default_factory=list)

    @property
    def seats_taken(self) -> int:
        return len(self.going)


def night_answers(night: ScheduledNight) -> NightAnswers:
    """The answers of ``night`` (two queries)."""
    out = NightAnswers()
    rsvps = list(
        Rsvp.objects.filter(night=night).select_related("player").order_by("answered_at", "pk")
    )
    for r in rsvps:
        if r.seat == Seat.GOING:
            out.going.append(r)
        elif r.seat == Seat.WAITLIST:
            out.waitlist.append(r)
        elif r.answer == Answer.MAYBE:
            out.maybe.append(r)
        else:
            out.no.append(r)
    out.waitlist.sort(key=lambda r: (r.waitlisted_at, r.pk))
    answered = {r.player_id for r in rsvps}
    out.unanswered = [
        p
        for p in Player.objects.filter(league=night.league_id).order_by("name", "pk")
        if p.pk not in answered
    ]
    return out


def answer_of(night: ScheduledNight, player: Player) -> Rsvp | None:
    return Rsvp.objects.filter(night=night, player=player).first()


def players_of_user(user, league: League) -> list[Player]:
    """The roster players of ``league`` linked to ``user`` (usually one)."""
    if user is None or not user.is_authenticated:
        return []
    return list(Player.objects.filter(league=league, user=user).order_by("name", "pk"))
