"""A league's money page: its currency, locale and payout unit, and its nights' default
money rules (the league's admins)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from tracker.core.permissions import Capability
from tracker.engine.errors import DomainError
from tracker.leagues.selectors.visibility import visible_league
from tracker.money.selectors import league_money
from tracker.money.services import league_money_set
from web.forms.money import LeagueMoneyForm
from web.views.common import login_first, page_gate


@require_http_methods(["GET", "POST"])
def league_money_page(request, slug):
    league = visible_league(request.user, slug)
    can = page_gate(request, league, Capability.SET_MONEY, "set the league's money rules")
    if can is None:
        return login_first(request)
    form = LeagueMoneyForm(request.POST or None, money=league_money(league))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                league_money_set(league=league, by=request.user, values=form.values())
            except DomainError as exc:
                form.add_domain_error(exc)
            else:
                messages.success(request, "Money rules saved: nights started from now on use them.")
                return redirect("league-money", slug=slug)
        status = 400
    return render(
        request,
        "tracker/league_money.html",
        {"league": league, "can": can, "form": form},
        status=status,
    )
