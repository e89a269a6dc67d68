"""A league's money page: its currency, locale and payout unit, and its nights' default
money rules (the league's admins)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from tracker.core.permissions import capabilities
from tracker.engine.errors import DomainError
from tracker.leagues.selectors import visible_league
from tracker.money.selectors import league_money
from tracker.money.services import league_money_set
from web.forms.money import LeagueMoneyForm
from web.views.common import not_found_as_404


@require_http_methods(["GET", "POST"])
@not_found_as_404
def league_money_page(request, slug):
    league = visible_league(request.user, slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    can = capabilities(request.user, league)
    if not can.set_money:
        raise PermissionDenied(
            f"Only an admin of {league.name} may set its money rules "
            f"(your role: {can.role or 'not a member'})."
        )
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
