"""Scheduling a night ahead and answering it: invitations, yes/no/maybe, the waitlist and
its promotions, the reminder the day before; then check-in at the door, which turns the
night into a tournament with its buy-ins. Every mail goes through the outbox."""

from __future__ import annotations

import datetime as dt
import random
import zoneinfo

from django.conf import settings
from django.core import signing
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from tracker.audit.services import audit_record
from tracker.core.errors import Conflict, NotFound, PermissionDenied
from tracker.core.permissions import Capability, can, require, require_view
from tracker.engine.errors import Code, DomainError
from tracker.engine.schedule import ANSWERS, promoted, seat_limit
from tracker.engine.variants import VARIANT_RULES
from tracker.leagues.models import League, Player
from tracker.mail.models import MailKind
from tracker.mail.services import outbox_enqueue
from tracker.money.models import EntryKind
from tracker.money.selectors import night_money
from tracker.money.services import entry_record, night_create
from tracker.schedule.models import Answer, CheckIn, Rsvp, ScheduledNight, Seat
from tracker.tournaments.models import Tournament

RSVP_SALT = "tracker.schedule.rsvp"
PLACE_MAX, NOTE_MAX = 200, 1000


# --------------------------------------------------------------------------
# The signed link of an answer: it names one night, one player and one answer.


def rsvp_token(*, night_id: int, player_id: int, answer: str) -> str:
    """The signed token of an RSVP link (it expires: RSVP_LINK_MAX_AGE_SECONDS, and with the
    night's start)."""
    return signing.TimestampSigner(salt=RSVP_SALT).sign_object(
        {"n": night_id, "p": player_id, "a": answer}
    )


def rsvp_link_read(token: str) -> tuple[ScheduledNight, Player, str]:
    """The night, player and answer a link names, if it is still good: signed by us, not
    older than RSVP_LINK_MAX_AGE_SECONDS, for a player still on the roster."""
    try:
        data = signing.TimestampSigner(salt=RSVP_SALT).unsign_object(
            token, max_age=settings.RSVP_LINK_MAX_AGE_SECONDS
        )
    except signing.SignatureExpired:
        raise DomainError(
            "this link has expired: answer on the night's page",
            code=Code.LINK_EXPIRED,
            field="token",
        ) from None
    except signing.BadSignature:
        raise DomainError(
            "this link is not a valid answer link", code=Code.LINK_INVALID, field="token"
        ) from None
    night = ScheduledNight.objects.select_related("league").filter(pk=data.get("n")).first()
    player = Player.objects.filter(pk=data.get("p"), league_id=getattr(night, "league_id", None))
    player = player.first()
    if night is None or player is None or data.get("a") not in ANSWERS:
        raise DomainError(
            "this link names no night of yours", code=Code.LINK_INVALID, field="token"
        )
    if night.cancelled:
        raise Conflict("this night is cancelled: answers are closed", code=Code.NIGHT_CANCELLED)
    return night, player, data["a"]


def _rsvp_links(night: ScheduledNight, player: Player) -> dict[str, str]:
    base = night.base_url.rstrip("/")
    return {
        a: base
        + reverse(
            "rsvp-link",
            kwargs={"token": rsvp_token(night_id=night.pk, player_id=player.pk, answer=a)},
        )
        for a in ANSWERS
    }


def _mail(
    night: ScheduledNight,
    rsvp_player: Player,
    *,
    kind: str,
    key: str,
    template: str,
    extra: dict | None = None,
):
    if rsvp_player.user_id is None:
        return
    outbox_enqueue(
        kind=kind,
        user=rsvp_player.user,
        subject_key=key,
        template=template,
        context={
            "night": night,
            "league": night.league,
            "player": rsvp_player,
            "links": _rsvp_links(night, rsvp_player),
            "page": night.base_url.rstrip("/") + reverse("night", kwargs={"pk": night.pk}),
            "game": VARIANT_RULES[night.variant].title if night.variant else "Dealer's choice",
            **(extra or {}),
        },
        base_url=night.base_url,
    )


# --------------------------------------------------------------------------
# Scheduling


def _checked(*, starts_at, place: str, seats, variant: str, note: str, now) -> dict:
    problems: dict[str, list[str]] = {}
    if not isinstance(starts_at, dt.datetime) or timezone.is_naive(starts_at):
        problems["starts_at"] = ["a date and time with its time zone"]
    elif starts_at <= now:
        problems["starts_at"] = ["a night is scheduled ahead: this time has passed"]
    place = (place or "").strip()
    if not place:
        problems["place"] = ["where the night is played"]
    elif len(place) > PLACE_MAX:
        problems["place"] = [f"at most {PLACE_MAX} characters"]
    variant = variant or ""
    limit = None
    if variant and variant not in VARIANT_RULES:
        problems["variant"] = [f"{variant!r} is not a game ({', '.join(VARIANT_RULES)})"]
    else:
        limit = seat_limit(variant)
    if not isinstance(seats, int) or isinstance(seats, bool):
        problems["seats"] = ["a whole number of seats"]
    elif limit is not None and not 2 <= seats <= limit:
        game = VARIANT_RULES[variant].title if variant else "dealer's choice"
        problems["seats"] = [f"from 2 to {limit} seats ({game} seats at most {limit})"]
    note = (note or "").strip()
    if len(note) > NOTE_MAX:
        problems["note"] = [f"at most {NOTE_MAX} characters"]
    if problems:
        first = next(iter(problems.values()))[0]
        raise DomainError(first, code=Code.INVALID_NIGHT, fields=problems)
    return {"place": place, "variant": variant, "note": note}


@transaction.atomic
def night_schedule(
    *,
    league: League,
    starts_at: dt.datetime,
    place: str,
    seats: int,
    variant: str = "",
    note: str = "",
    by,
    base_url: str,
) -> ScheduledNight:
    """A night of ``league`` scheduled ahead (an admin or scorekeeper): every problem with
    the time (in the future), place, seats (2 to the game's player limit) and note is named
    at once. Every roster player linked to an account is invited by e-mail (the outbox;
    only at a verified address)."""
    require(by, league, Capability.SCHEDULE_NIGHT, "schedule a night")
    clean = _checked(
        starts_at=starts_at,
        place=place,
        seats=seats,
        variant=variant,
        note=note,
        now=timezone.now(),
    )
    night = ScheduledNight.objects.create(
        league=league,
        starts_at=starts_at,
        seats=seats,
        created_by=by,
        base_url=base_url,
        **clean,
    )
    audit_record(
        action="night.schedule",
        target=night,
        league=league,
        actor=by,
        data={
            "starts_at": starts_at,
            "place": night.place,
            "seats": seats,
            "variant": night.variant,
        },
    )
    for player in _invited(night):
        _mail(
            night,
            player,
            kind=MailKind.NIGHT_INVITATION,
            key=f"night:{night.pk}:player:{player.pk}",
            template="night_invitation",
        )
    return night


def _versioned(night: ScheduledNight, rest: str) -> str:
    """An outbox key of ``night`` for its current version: a night moved to another day is
    reminded again (``night:7:player:3``, then ``night:7:v2:player:3``)."""
    if night.sequence:
        return f"night:{night.pk}:v{night.sequence}:{rest}"
    return f"night:{night.pk}:{rest}"


def _invited(night: ScheduledNight):
    """The players a night's mails go to: the roster players linked to an account."""
    return Player.objects.filter(league=night.league_id, user__isnull=False).select_related("user")


def _locked_open(night: ScheduledNight, *, by, doing: str) -> ScheduledNight:
    """``night`` under its row lock, for an organiser, while it can still change."""
    require(by, night.league, Capability.SCHEDULE_NIGHT, doing)
    night = ScheduledNight.objects.select_for_update().select_related("league").get(pk=night.pk)
    if night.cancelled:
        raise Conflict("this night is cancelled", code=Code.NIGHT_CANCELLED)
    if night.starts_at <= timezone.now() or night.started_at is not None:
        raise Conflict("this night has started: it can no longer change", code=Code.NIGHT_STARTED)
    return night


@transaction.atomic
def night_edit(
    *,
    night: ScheduledNight,
    by,
    starts_at: dt.datetime | None = None,
    place: str | None = None,
    seats: int | None = None,
    note: str | None = None,
) -> ScheduledNight:
    """An organiser changes a night not started yet: its time (in the future), place, seats
    or note (``None``: unchanged). Every problem is named at once and nothing is kept. The
    seats may not go below the players already seated (a seat given is not taken back);
    more seats go to the waitlist in order, each promoted player told by e-mail.

    A change bumps ``sequence`` (the calendar's SEQUENCE) and sends every invited player
    one "updated" mail naming what changed (one per change: the outbox key holds the
    sequence). A new time clears the reminder, so the day before the new time reminds
    again. Saving the same values changes nothing and sends nothing."""
    night = _locked_open(night, by=by, doing="change a night")
    starts_at = night.starts_at if starts_at is None else starts_at
    clean = _checked(
        starts_at=starts_at,
        place=night.place if place is None else place,
        seats=night.seats if seats is None else seats,
        variant=night.variant,
        note=night.note if note is None else note,
        now=timezone.now(),
    )
    seats = night.seats if seats is None else seats
    seated = Rsvp.objects.filter(night=night, seat=Seat.GOING).count()
    if seats < seated:
        raise DomainError(
            f"{seated} players have a seat already: at least {seated} seats",
            code=Code.INVALID_NIGHT,
            fields={"seats": [f"{seated} players have a seat already: at least {seated} seats"]},
        )
    new = {"starts_at": starts_at, "place": clean["place"], "seats": seats, "note": clean["note"]}
    changed = {k: v for k, v in new.items() if getattr(night, k) != v}
    if not changed:
        return night
    before = {k: getattr(night, k) for k in changed}
    for k, v in changed.items():
        setattr(night, k, v)
    night.sequence += 1
    night.updated_at = timezone.now()
    fields = [*changed, "sequence", "updated_at"]
    if "starts_at" in changed:
        night.reminded_at = None
        fields.append("reminded_at")
    night.save(update_fields=fields)
    audit_record(
        action="night.edit",
        target=night,
        league=night.league,
        actor=by,
        data={"before": before, "after": changed, "sequence": night.sequence},
    )
    _promote(night)
    labels = {
        "starts_at": "the time",
        "place": "the place",
        "seats": "the seats",
        "note": "the note",
    }
    for player in _invited(night):
        _mail(
            night,
            player,
            kind=MailKind.NIGHT_UPDATED,
            key=f"night:{night.pk}:v{night.sequence}:player:{player.pk}",
            template="night_updated",
            extra={"changed": [labels[k] for k in labels if k in changed]},
        )
    return night


@transaction.atomic
def night_cancel(*, night: ScheduledNight, by, reason: str = "") -> ScheduledNight:
    """An organiser cancels a night not started yet: answers close, it leaves the league's
    upcoming nights, the calendar shows it cancelled, and every invited player is sent one
    "cancelled" mail (with ``reason``, if given). Cancelling twice is refused (Conflict)."""
    night = _locked_open(night, by=by, doing="cancel a night")
    reason = (reason or "").strip()
    if len(reason) > 500:
        raise DomainError("at most 500 characters", field="reason", code=Code.INVALID)
    night.cancelled_at = night.updated_at = timezone.now()
    night.cancel_reason = reason
    night.sequence += 1
    night.save(update_fields=["cancelled_at", "updated_at", "cancel_reason", "sequence"])
    audit_record(
        action="night.cancel",
        target=night,
        league=night.league,
        actor=by,
        data={"reason": reason, "sequence": night.sequence},
    )
    for player in _invited(night):
        _mail(
            night,
            player,
            kind=MailKind.NIGHT_CANCELLED,
            key=f"night:{night.pk}:cancelled:player:{player.pk}",
            template="night_cancelled",
        )
    return night


# --------------------------------------------------------------------------
# Answering


def _answer(night: ScheduledNight, player: Player, answer: str, *, actor, via: str) -> Rsvp:
    """Record ``player``'s ``answer`` (the night's row locked: answers to one night are taken
    one at a time, so seats are never given twice), then fill freed seats from the
    waitlist in order, each promoted player told by e-mail."""
    if answer not in ANSWERS:
        raise DomainError(
            f"{answer!r} is not an answer (yes, no or maybe)", field="answer", code=Code.INVALID
        )
    night = ScheduledNight.objects.select_for_update().select_related("league").get(pk=night.pk)
    now = timezone.now()
    if night.cancelled:
        raise Conflict("this night is cancelled: answers are closed", code=Code.NIGHT_CANCELLED)
    if night.starts_at <= now or night.started_at is not None:
        raise Conflict("this night has started: answers are closed", code=Code.NIGHT_STARTED)
    rsvp = Rsvp.objects.filter(night=night, player=player).first() or Rsvp(
        night=night, player=player
    )
    before = (rsvp.answer, rsvp.seat)
    rsvp.answer = answer
    rsvp.answered_at = now
    if answer == Answer.YES:
        if rsvp.seat not in (Seat.GOING, Seat.WAITLIST):
            going = Rsvp.objects.filter(night=night, seat=Seat.GOING).count()
            if going < night.seats:
                rsvp.seat = Seat.GOING
            else:
                rsvp.seat, rsvp.waitlisted_at = Seat.WAITLIST, now
    else:
        rsvp.seat, rsvp.waitlisted_at = Seat.NONE, None
    rsvp.save()
    if before != (rsvp.answer, rsvp.seat):
        audit_record(
            action="night.answer",
            target=night,
            league=night.league,
            actor=actor,
            data={"player": player.name, "answer": answer, "seat": rsvp.seat, "via": via},
        )
    _promote(night)
    rsvp.refresh_from_db()
    return rsvp


def _promote(night: ScheduledNight) -> list[Rsvp]:
    going = Rsvp.objects.filter(night=night, seat=Seat.GOING).count()
    waitlist = list(
        Rsvp.objects.filter(night=night, seat=Seat.WAITLIST)
        .select_related("player__user")
        .order_by("waitlisted_at", "pk")
    )
    moved = promoted(seats=night.seats, going=going, waitlist=waitlist)
    for rsvp in moved:
        rsvp.seat, rsvp.waitlisted_at = Seat.GOING, None
        rsvp.promotions += 1
        rsvp.save(update_fields=["seat", "waitlisted_at", "promotions"])
        audit_record(
            action="night.promote",
            target=night,
            league=night.league,
            actor=None,
            data={"player": rsvp.player.name},
        )
        _mail(
            night,
            rsvp.player,
            kind=MailKind.WAITLIST_PROMOTION,
            key=f"night:{night.pk}:player:{rsvp.player_id}:promoted:{rsvp.promotions}",
            template="night_promotion",
        )
    return moved


@transaction.atomic
def rsvp_answer(*, night: ScheduledNight, player_id: int, answer: str, by) -> Rsvp:
    """``by`` answers for a roster player: their own (a player linked to their account), or
    anyone's when they may schedule nights (the organiser noting an answer given in person)."""
    require_view(by, night.league)
    if by is None or not by.is_authenticated:
        raise PermissionDenied("Log in to answer (or use the link in your invitation).")
    player = Player.objects.filter(pk=player_id, league=night.league_id).first()
    if player is None:
        raise NotFound("No such player on this league's roster.")
    if player.user_id != by.pk and not can(by, night.league, Capability.SCHEDULE_NIGHT):
        raise PermissionDenied(
            f"You may answer only for yourself; {player.name} is not linked to your account."
        )
    return _answer(night, player, answer, actor=by, via="site")


@transaction.atomic
def rsvp_answer_by_link(*, token: str) -> Rsvp:
    """The answer a signed link names, with no login: it changes only that player's answer
    to that night. Refused (and nothing changed) when tampered with or expired."""
    night, player, answer = rsvp_link_read(token)
    return _answer(night, player, answer, actor=player.user, via="link")


# --------------------------------------------------------------------------
# The reminder the day before (beat)


def night_reminders_send(*, now: dt.datetime | None = None) -> list[int]:
    """Remind the players with a seat (and those who said maybe) of every night starting in
    the next 24 hours and not reminded yet (the beat task's work). Idempotent: the night's
    ``reminded_at`` is set under its lock, and each mail's outbox key is unique. Returns the
    nights reminded."""
    now = now or timezone.now()
    due = ScheduledNight.objects.filter(
        reminded_at__isnull=True,
        cancelled_at__isnull=True,
        started_at__isnull=True,
        starts_at__gt=now,
        starts_at__lte=now + dt.timedelta(days=1),
    ).values_list("pk", flat=True)
    done = []
    for pk in list(due):
        with transaction.atomic():
            night = (
                ScheduledNight.objects.select_for_update()
                .select_related("league")
                .filter(pk=pk, reminded_at__isnull=True, cancelled_at__isnull=True)
                .first()
            )
            if night is None:
                continue
            night.reminded_at = now
            night.save(update_fields=["reminded_at"])
            rsvps = Rsvp.objects.filter(night=night).exclude(answer=Answer.NO)
            for rsvp in rsvps.select_related("player__user"):
                if rsvp.seat == Seat.WAITLIST:
                    continue
                _mail(
                    night,
                    rsvp.player,
                    kind=MailKind.NIGHT_REMINDER,
                    key=_versioned(night, f"player:{rsvp.player_id}"),
                    template="night_reminder",
                )
            done.append(night.pk)
    return done


# --------------------------------------------------------------------------
# Check-in at the door, and the start of the night


def _door(night: ScheduledNight, by, action: str) -> ScheduledNight:
    """The night locked for the rest of the transaction (check-ins, answers and the start
    are taken one at a time), once ``by`` may check players in and it has not started."""
    require(by, night.league, Capability.CHECK_IN, action)
    night = ScheduledNight.objects.select_for_update().select_related("league").get(pk=night.pk)
    if night.cancelled:
        raise Conflict("this night is cancelled: check-in is closed", code=Code.NIGHT_CANCELLED)
    if night.started_at is not None:
        raise Conflict(
            "this night has started: check-in is closed (its tournament holds the seats)",
            code=Code.NIGHT_STARTED,
        )
    return night


def _roster_player(night: ScheduledNight, player_id) -> Player:
    player = None
    if isinstance(player_id, int) and not isinstance(player_id, bool):
        player = Player.objects.filter(pk=player_id, league=night.league_id).first()
    if player is None:
        raise DomainError(
            f"no player {player_id} on {night.league.name}'s roster",
            code=Code.NOT_ON_ROSTER,
            field="player",
        )
    return player


def check_in_limit(night: ScheduledNight) -> int:
    """The most players a night checks in: its seats, never past its game's limit."""
    return min(night.seats, seat_limit(night.variant))


@transaction.atomic
def night_check_in(*, night: ScheduledNight, player_id: int, by, buy_in: bool = True) -> CheckIn:
    """Check a roster player in at the door (an admin or scorekeeper): a yes, a maybe,
    someone on the waitlist or a walk-in who never answered. ``buy_in`` says they paid the
    buy-in at the door (recorded when the night starts, if it has one). Checking in a player
    already in only updates ``buy_in``. Refused past the night's seats (and its game's
    player limit), for a player not on the roster, and once the night has started."""
    night = _door(night, by, "check players in")
    player = _roster_player(night, player_id)
    if not isinstance(buy_in, bool):
        raise DomainError("must be true or false", field="buy_in")
    row = CheckIn.objects.filter(night=night, player=player).first()
    if row is not None:
        if row.buy_in != buy_in:
            row.buy_in = buy_in
            row.save(update_fields=["buy_in"])
        return row
    limit = check_in_limit(night)
    here = CheckIn.objects.filter(night=night).count()
    if here >= limit:
        raise DomainError(
            f"all {limit} seats are taken: {player.name} can sit in only if someone is "
            "checked out first",
            code=Code.SEATS_FULL,
            field="player",
        )
    row = CheckIn.objects.create(
        night=night,
        player=player,
        buy_in=buy_in,
        checked_in_by=by if getattr(by, "is_authenticated", False) else None,
    )
    answer = Rsvp.objects.filter(night=night, player=player).first()
    audit_record(
        action="night.check_in",
        target=night,
        league=night.league,
        actor=by,
        data={
            "player": player.name,
            "answer": answer.answer if answer else "",
            "buy_in": buy_in,
        },
    )
    return row


@transaction.atomic
def night_check_out(*, night: ScheduledNight, player_id: int, by) -> None:
    """Undo a check-in (tapped by mistake, or the player left) before the night starts."""
    night = _door(night, by, "undo a check-in")
    player = _roster_player(night, player_id)
    deleted, _ = CheckIn.objects.filter(night=night, player=player).delete()
    if not deleted:
        raise DomainError(
            f"{player.name} is not checked in", code=Code.NOT_CHECKED_IN, field="player"
        )
    audit_record(
        action="night.check_out",
        target=night,
        league=night.league,
        actor=by,
        data={"player": player.name},
    )


def night_name(night: ScheduledNight) -> str:
    """The tournament's name: the night's day, in the league's zone, and its place."""
    local = night.starts_at.astimezone(zoneinfo.ZoneInfo(night.league.time_zone))
    return f"{local:%a} {local.day} {local:%B} at {night.place}"[:120]


@transaction.atomic
def night_start(*, night: ScheduledNight, by, rng: random.Random | None = None) -> Tournament:
    """Start the night at the door: its checked-in players sit at a new tournament with
    the night's game and the league's money rules, their seats drawn at random on the
    server (the seat draw of ``tournament_create``); each who paid at the door has their
    buy-in recorded (``entry_record``) when the night has one. Every yes with a seat who
    was not checked in is recorded as a no-show. The scheduled night links to the
    tournament, and answers and check-in close. Refused with fewer than two players
    checked in, or once started."""
    night = _door(night, by, "start a night")
    here = list(
        CheckIn.objects.filter(night=night).select_related("player").order_by("checked_in_at", "pk")
    )
    if len(here) < 2:
        raise DomainError(
            f"a night needs at least 2 players checked in ({len(here)} so far)",
            code=Code.TOO_FEW_PLAYERS,
            field="players",
        )
    local = night.starts_at.astimezone(zoneinfo.ZoneInfo(night.league.time_zone))
    tournament = night_create(
        league=night.league,
        by=by,
        name=night_name(night),
        player_ids=[c.player_id for c in here],
        date=local.date(),
        default_variant=night.variant,
        seating="random",
        rng=rng,
    )
    rules = night_money(tournament).rules
    if rules.buy_in or rules.fee or rules.bounty:
        for c in here:
            if c.buy_in:
                entry_record(
                    tournament=tournament, player_id=c.player_id, kind=EntryKind.BUY_IN, by=by
                )
    came = {c.player_id for c in here}
    missing = Rsvp.objects.filter(night=night, seat=Seat.GOING).exclude(player_id__in=came)
    no_shows = list(missing.select_related("player").order_by("player__name"))
    Rsvp.objects.filter(pk__in=[r.pk for r in no_shows]).update(no_show=True)
    night.tournament = tournament
    night.started_at = timezone.now()
    night.save(update_fields=["tournament", "started_at"])
    audit_record(
        action="night.start",
        target=night,
        league=night.league,
        actor=by,
        data={
            "tournament": tournament.pk,
            "players": [c.player.name for c in here],
            "no_shows": [r.player.name for r in no_shows],
        },
    )
    return tournament
