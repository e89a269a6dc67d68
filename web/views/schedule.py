"""Scheduled nights: the form that makes one, the night's page (who comes, the viewer's
answer), and the one-tap answer link from the e-mail (a confirm button that POSTs)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from tracker.core.permissions import Capability, capabilities, require
from tracker.engine.errors import DomainError
from tracker.leagues.selectors import visible_league
from tracker.schedule.selectors import night_answers, players_of_user, visible_night
from tracker.schedule.services import (
    night_schedule,
    rsvp_answer,
    rsvp_answer_by_link,
    rsvp_link_read,
)
from web.forms.schedule import NightForm


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
        },
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
