"""Scheduled nights: the form that makes one, the night's page (who comes, the viewer's
answer), the one-tap answer link from the e-mail (a confirm button that POSTs), check-in at
the door (which starts the night), and a user's own nights."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from tracker.core.permissions import Capability, capabilities, require
from tracker.engine.errors import DomainError
from tracker.leagues.selectors.visibility import visible_league
from tracker.money.formatting import amount_format
from tracker.money.selectors import league_money
from tracker.schedule import services
from tracker.schedule.models import Rsvp
from tracker.schedule.selectors import (
    door_list,
    my_nights,
    night_answers,
    players_of_user,
    visible_night,
)
from tracker.schedule.services import (
    check_in_limit,
    night_check_in,
    night_check_out,
    night_schedule,
    night_start,
    rsvp_answer,
    rsvp_answer_by_link,
    rsvp_link_read,
)
from web.forms.schedule import NightCancelForm, NightEditForm, NightForm


@require_http_methods(["GET", "POST"])
def night_new(request, slug):
    """Schedule a night ahead (admins and scorekeepers; a private league is a 404 to
    outsiders, anonymous visitors of a public one go to the login page)."""
    league = visible_league(request.user, slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    require(request.user, league, Capability.SCHEDULE_NIGHT, "schedule a night")
    form = NightForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            night = night_schedule(
                league=league,
                starts_at=data["starts_at"],
                place=data["place"],
                seats=data["seats"],
                variant=data["variant"],
                note=data["note"],
                by=request.user,
                base_url=request.build_absolute_uri("/"),
            )
        except DomainError as exc:
            form.add_domain_error(exc)
        else:
            messages.success(request, "The night is scheduled: the roster is invited by e-mail.")
            return redirect("night", pk=night.pk)
    status = 400 if request.method == "POST" else 200
    return render(
        request, "tracker/night_form.html", {"league": league, "form": form}, status=status
    )


@require_http_methods(["GET"])
def night(request, pk):
    """Who comes, at a glance, and the viewer's own answer buttons."""
    night = visible_night(request.user, pk)
    can = capabilities(request.user, night.league)
    answers = night_answers(night)
    mine = players_of_user(request.user, night.league)
    by_player = {
        r.player_id: r
        for group in (answers.going, answers.waitlist, answers.maybe, answers.no)
        for r in group
    }
    return render(
        request,
        "tracker/night.html",
        {
            "night": night,
            "league": night.league,
            "can": can,
            "answers": answers,
            "mine": [(p, by_player.get(p.pk)) for p in mine],
            "open": night.cancelled_at is None
            and night.started_at is None
            and night.starts_at > timezone.now(),
            "no_shows": Rsvp.objects.filter(night=night, no_show=True).select_related("player")
            if night.started_at
            else [],
        },
    )


def _organiser_night(request, pk: int, doing: str):
    """The night, for an organiser (a private league's night is a 404 to outsiders, even
    before they log in; anonymous visitors of a public one go to the login page: None)."""
    night = visible_night(request.user, pk)
    if not request.user.is_authenticated:
        return None
    require(request.user, night.league, Capability.SCHEDULE_NIGHT, doing)
    return night


@require_http_methods(["GET", "POST"])
def night_edit(request, pk):
    """An organiser changes the time, place, seats or note; the invited players are told."""
    night = _organiser_night(request, pk, "change a night")
    if night is None:
        return redirect_to_login(request.get_full_path())
    initial = {
        "starts_at": timezone.localtime(night.starts_at),
        "place": night.place,
        "seats": night.seats,
        "note": night.note,
    }
    form = NightEditForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            before = night.sequence
            night = services.night_edit(
                night=night,
                by=request.user,
                starts_at=data["starts_at"],
                place=data["place"],
                seats=data["seats"],
                note=data["note"],
            )
        except DomainError as exc:
            form.add_domain_error(exc)
        else:
            if night.sequence == before:
                messages.info(request, "Nothing changed: no mail was sent.")
            else:
                messages.success(request, "The night is changed: the invited players are told.")
            return redirect("night", pk=night.pk)
    status = 400 if request.method == "POST" else 200
    return render(
        request,
        "tracker/night_edit.html",
        {
            "night": night,
            "league": night.league,
            "form": form,
            "cancel_form": NightCancelForm(),
        },
        status=status,
    )


@require_POST
def night_cancel(request, pk):
    """An organiser cancels the night; the invited players are told."""
    night = _organiser_night(request, pk, "cancel a night")
    if night is None:
        return redirect_to_login(request.get_full_path())
    form = NightCancelForm(request.POST)
    if form.is_valid():
        try:
            services.night_cancel(night=night, by=request.user, reason=form.cleaned_data["reason"])
        except DomainError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, "The night is cancelled: the invited players are told.")
        return redirect("night", pk=night.pk)
    return render(
        request,
        "tracker/night_edit.html",
        {
            "night": night,
            "league": night.league,
            "form": NightEditForm(
                initial={
                    "starts_at": timezone.localtime(night.starts_at),
                    "place": night.place,
                    "seats": night.seats,
                    "note": night.note,
                }
            ),
            "cancel_form": form,
        },
        status=400,
    )


@login_required
@require_POST
def night_answer(request, pk):
    night = visible_night(request.user, pk)
    try:
        rsvp = rsvp_answer(
            night=night,
            player_id=int(request.POST.get("player") or 0),
            answer=request.POST.get("answer", ""),
            by=request.user,
        )
    except (ValueError, DomainError) as exc:
        messages.error(request, getattr(exc, "message", "Choose a player and an answer."))
    else:
        messages.success(request, _said(rsvp))
    back = request.POST.get("next", "")
    if back and url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return redirect(back)
    return redirect("night", pk=night.pk)


def _said(rsvp) -> str:
    if rsvp.seat == "going":
        return f"{rsvp.player.name}: yes, with a seat."
    if rsvp.seat == "waitlist":
        return f"{rsvp.player.name}: yes, on the waitlist (the seats are taken)."
    return f"{rsvp.player.name}: {rsvp.get_answer_display().lower()}."


# No login and no CSRF token: the signed token in the address is the authority (it can only
# change one player's answer to one night); the GET only shows a button, so a mail scanner
# opening the link changes nothing.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def rsvp_link(request, token: str):
    try:
        if request.method == "POST":
            rsvp = rsvp_answer_by_link(token=token)
            return render(
                request,
                "tracker/rsvp_link.html",
                {"night": rsvp.night, "player": rsvp.player, "done": _said(rsvp)},
            )
        night, player, answer = rsvp_link_read(token)
    except DomainError as exc:
        return render(request, "tracker/rsvp_link.html", {"error": exc.message}, status=400)
    return render(
        request,
        "tracker/rsvp_link.html",
        {"night": night, "player": player, "answer": answer},
    )


# --------------------------------------------------------------------------
# Check-in at the door


def _door_money(league) -> str | None:
    """What a player pays at the door, in words, when the league's nights have a buy-in."""
    money = league_money(league)
    rules = money.rules
    total = rules.buy_in + rules.fee + rules.bounty
    if not total:
        return None
    return amount_format(total, currency=money.currency, locale=money.locale)


@require_http_methods(["GET", "POST"])
def night_check_in_page(request, pk):
    """Check-in at the door (admins and scorekeepers, phone first): tap who is here, the
    yeses first, then the waitlist and the maybes, then walk-ins from the roster; undo a
    tap; start the night (the seat draw), which opens its tournament page."""
    night = visible_night(request.user, pk)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    require(request.user, night.league, Capability.CHECK_IN, "check players in")
    if request.method == "POST":
        action = request.POST.get("action", "")
        try:
            player_id = int(request.POST.get("player") or 0)
        except ValueError:
            player_id = 0
        try:
            if action == "in":
                row = night_check_in(
                    night=night,
                    player_id=player_id,
                    buy_in=request.POST.get("buy_in") == "1",
                    by=request.user,
                )
                messages.success(request, f"{row.player.name} is here.")
            elif action == "out":
                night_check_out(night=night, player_id=player_id, by=request.user)
                messages.success(request, "Check-in undone.")
            elif action == "start":
                tournament = night_start(night=night, by=request.user)
                messages.success(
                    request,
                    f"The night has started: {tournament.seats.count()} players, seats drawn.",
                )
                return redirect(tournament.get_absolute_url())
            else:
                messages.error(request, "Choose check in, undo or start.")
        except DomainError as exc:
            messages.error(request, exc.message)
        return redirect("night-check-in", pk=night.pk)
    door = door_list(night)
    return render(
        request,
        "tracker/night_check_in.html",
        {
            "night": night,
            "league": night.league,
            "door": door,
            "here": len(door.here),
            "limit": check_in_limit(night),
            "door_money": _door_money(night.league),
        },
    )


@login_required
@require_http_methods(["GET"])
def my_nights_page(request):
    """The signed-in user's nights in every league: upcoming (with their answer, and the
    buttons to change it), past (their finish, money result and transfers), and what they
    owe or are owed."""
    return render(request, "tracker/my_nights.html", {"mine": my_nights(request.user)})
