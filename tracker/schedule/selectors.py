"""Reads of scheduled nights: the league's upcoming ones, one night's answers at a glance,
what an RSVP link names, the check-in list at the door, and a user's own nights."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.utils import timezone

from tracker.core.errors import NotFound
from tracker.core.permissions import Capability, can, require_view
from tracker.leagues.models import League, Player
from tracker.leagues.selectors.visibility import leagues_visible_to
from tracker.money.formatting import amount_format
from tracker.money.results import HOUSE, night_results
from tracker.schedule.models import Answer, CheckIn, Rsvp, ScheduledNight, Seat
from tracker.tournaments.models import FinalStanding, TournamentStatus
from tracker.tournaments.models import Seat as TableSeat

#: How long after its time a night not started yet still counts as upcoming (it is
#: played late, or its check-in is under way).
STILL_UPCOMING = dt.timedelta(hours=12)


def upcoming_nights(league: League, *, now=None) -> list[ScheduledNight]:
    """The league's nights not started yet and not cancelled, soonest first."""
    now = now or timezone.now()
    return list(
        ScheduledNight.objects.filter(
            league=league,
            starts_at__gt=now,
            cancelled_at__isnull=True,
            started_at__isnull=True,
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


# --------------------------------------------------------------------------
# Check-in at the door


@dataclass(frozen=True)
class DoorRow:
    """One roster player on the check-in list: their answer (if any) and their check-in."""

    player: Player
    rsvp: Rsvp | None
    check_in: CheckIn | None

    @property
    def here(self) -> bool:
        return self.check_in is not None


@dataclass
class DoorList:
    """The check-in list: the yeses with a seat first, then the waitlist (in order) and the
    maybes, then everyone else on the roster (walk-ins: a no, or no answer)."""

    going: list[DoorRow] = field(default_factory=list)
    waiting: list[DoorRow] = field(default_factory=list)
    walk_ins: list[DoorRow] = field(default_factory=list)

    @property
    def rows(self) -> list[DoorRow]:
        return self.going + self.waiting + self.walk_ins

    @property
    def here(self) -> list[DoorRow]:
        return [r for r in self.rows if r.here]


def door_list(night: ScheduledNight) -> DoorList:
    """The check-in list of ``night`` (three queries)."""
    answers = night_answers(night)
    checks = {c.player_id: c for c in CheckIn.objects.filter(night=night)}
    out = DoorList()

    def row(player, rsvp=None) -> DoorRow:
        return DoorRow(player=player, rsvp=rsvp, check_in=checks.get(player.pk))

    out.going = [row(r.player, r) for r in answers.going]
    out.waiting = [row(r.player, r) for r in answers.waitlist + answers.maybe]
    walk = [row(r.player, r) for r in answers.no] + [row(p) for p in answers.unanswered]
    out.walk_ins = sorted(walk, key=lambda r: (r.player.name.lower(), r.player.pk))
    return out


# --------------------------------------------------------------------------
# A user's own nights


@dataclass(frozen=True)
class UpcomingNight:
    night: ScheduledNight
    player: Player
    rsvp: Rsvp | None

    @property
    def answer_text(self) -> str:
        r = self.rsvp
        if r is None:
            return "not answered yet"
        if r.seat == Seat.GOING:
            return "yes, with a seat"
        if r.seat == Seat.WAITLIST:
            return "yes, on the waitlist"
        return r.get_answer_display().lower()


@dataclass(frozen=True)
class Debt:
    """One transfer of a night's settle-up that concerns the player: ``owes`` True when the
    player pays it, False when they are paid; ``other`` the other party's name."""

    other: str
    amount: int
    amount_text: str
    owes: bool
    paid: bool


@dataclass(frozen=True)
class PastNight:
    tournament_id: int
    name: str
    date: dt.date
    league: League
    player: Player
    finished: bool
    place: int | None
    entrants: int
    result_text: str | None  # the money result (payouts and bounties less what was paid)
    result: int | None
    debts: tuple[Debt, ...] = ()


@dataclass
class MyNights:
    upcoming: list[UpcomingNight] = field(default_factory=list)
    past: list[PastNight] = field(default_factory=list)
    # still to pay and still to be paid, in words, one per currency (unpaid transfers only)
    owe: list[str] = field(default_factory=list)
    owed: list[str] = field(default_factory=list)
    missed: list[ScheduledNight] = field(default_factory=list)  # nights said yes and missed


def my_nights(user, *, now: dt.datetime | None = None, past_limit: int = 20) -> MyNights:
    """The nights of the roster players linked to ``user`` in every league they may see:
    the upcoming scheduled nights with their answer (soonest first), the nights they sat at
    (latest first, at most ``past_limit``) with their place and, where they may see the
    league's money, their money result and the settle-up's transfers they pay or are paid;
    what they still owe and are owed, summed per currency."""
    out = MyNights()
    if user is None or not user.is_authenticated:
        return out
    now = now or timezone.now()
    players = list(
        Player.objects.filter(user=user, league__in=leagues_visible_to(user)).select_related(
            "league"
        )
    )
    if not players:
        return out
    by_league: dict[int, list[Player]] = {}
    for p in players:
        by_league.setdefault(p.league_id, []).append(p)
    nights = list(
        ScheduledNight.objects.filter(
            league_id__in=list(by_league),
            started_at__isnull=True,
            starts_at__gt=now - STILL_UPCOMING,
        )
        .select_related("league")
        .order_by("starts_at", "pk")
    )
    rsvps = {
        (r.night_id, r.player_id): r
        for r in Rsvp.objects.filter(night__in=nights, player__in=players)
    }
    for night in nights:
        for p in by_league[night.league_id]:
            out.upcoming.append(
                UpcomingNight(night=night, player=p, rsvp=rsvps.get((night.pk, p.pk)))
            )

    seats = list(
        TableSeat.objects.filter(player__in=players)
        .select_related("tournament__league", "player")
        .order_by("-tournament__date", "-tournament_id")[:past_limit]
    )
    places = {
        (f.tournament_id, f.player_id): f.place
        for f in FinalStanding.objects.filter(
            tournament_id__in=[s.tournament_id for s in seats], player__in=players
        )
    }
    money_leagues = {p.league_id for p in players if can(user, p.league, Capability.VIEW_MONEY)}
    owe: dict[tuple[str, str], int] = {}
    owed: dict[tuple[str, str], int] = {}
    seat_names: dict[int, dict[int, str]] = {}
    for tid, pid, name in TableSeat.objects.filter(
        tournament_id__in=[
            s.tournament_id
            for s in seats
            if s.tournament.status == TournamentStatus.FINISHED
            and s.tournament.league_id in money_leagues
        ]
    ).values_list("tournament_id", "player_id", "player__name"):
        seat_names.setdefault(tid, {})[pid] = name
    for seat in seats:
        t = seat.tournament
        finished = t.status == TournamentStatus.FINISHED
        result = result_text = None
        debts: list[Debt] = []
        if finished and t.league_id in money_leagues:
            results = night_results(t)
            if results.summary.has_money and seat.player_id in results.players:
                fmt = results.summary.fmt
                result = results.players[seat.player_id].result
                result_text = fmt(result)
                names = seat_names.get(t.pk, {})
                for k, tr in enumerate(results.transfers):
                    if seat.player_id not in (tr.payer, tr.payee):
                        continue
                    owes = tr.payer == seat.player_id
                    other = tr.payee if owes else tr.payer
                    paid = k in results.paid_at
                    debts.append(
                        Debt(
                            other="the house" if other == HOUSE else names.get(other, "?"),
                            amount=tr.amount,
                            amount_text=fmt(tr.amount),
                            owes=owes,
                            paid=paid,
                        )
                    )
                    if not paid:
                        key = (results.summary.money.currency, results.summary.locale)
                        into = owe if owes else owed
                        into[key] = into.get(key, 0) + tr.amount
        out.past.append(
            PastNight(
                tournament_id=t.pk,
                name=t.name,
                date=t.date,
                league=t.league,
                player=seat.player,
                finished=finished,
                place=places.get((t.pk, seat.player_id)),
                entrants=t.entrants,
                result=result,
                result_text=result_text,
                debts=tuple(debts),
            )
        )
    for totals, into in ((owe, out.owe), (owed, out.owed)):
        for (currency, locale), amount in sorted(totals.items()):
            into.append(amount_format(amount, currency=currency, locale=locale))
    out.missed = list(
        ScheduledNight.objects.filter(rsvps__player__in=players, rsvps__no_show=True)
        .select_related("league")
        .order_by("-starts_at")[:past_limit]
    )
    return out
