"""The tournament page and the new game night form."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from tracker.core.permissions import capabilities
from tracker.engine.errors import DomainError
from tracker.leagues.selectors import league_roster, visible_league
from tracker.money.selectors import league_money
from tracker.money.services import night_create
from web.forms.tournaments import TournamentForm
from web.presenters.pages import tournament_page
from web.presenters.table import table_screen as table_screen_page
from web.views.common import domain_errors_as_http, not_found_as_404


@require_GET
@not_found_as_404
def tournament(request, pk):
    return render(request, "tracker/tournament.html", {"page": tournament_page(request.user, pk)})


@require_http_methods(["GET", "POST"])
@domain_errors_as_http
def tournament_new(request, slug):
    """A scorekeeper or admin starts a game night, then lands on its page."""
    league = visible_league(request.user, slug)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    can = capabilities(request.user, league)
    if not can.record_hand:
        raise PermissionDenied(
            f"Only a scorekeeper or an admin of {league.name} may start a game night "
            f"(your role: {can.role or 'not a member'})."
        )
    form = TournamentForm(
        request.POST or None,
        roster=league_roster(league),
        money=league_money(league),
        can_set_money=can.set_money,
    )
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            created = night_create(
                league=league,
                money=form.money_values(),
                by=request.user,
                name=data["name"],
                date=data["date"],
                player_ids=data["player_ids"],
                seating=data["seating"],
                first_dealer=data["first_dealer"],
                starting_chips=data["starting_chips"],
                hands_per_level=data["hands_per_level"],
                hand_limit=data["hand_limit"],
                stakes_schedule=data["stakes_schedule"],
                default_variant=data["default_variant"],
                counts_toward_standings=data["counts_toward_standings"],
            )
        except DomainError as exc:
            form.add_domain_error(exc)
        else:
            return redirect(created.get_absolute_url())
    return render(
        request, "tracker/tournament_form.html", {"form": form, "league": league, "can": can}
    )


@require_GET
@not_found_as_404
def table_screen(request, pk):
    """The table screen: large type for a TV or tablet at the table."""
    return render(
        request, "tracker/table_screen.html", {"screen": table_screen_page(request.user, pk)}
    )


@require_GET
@not_found_as_404
def table_screen_fragment(request, pk):
    """The table screen's changing part, which the page fetches every few seconds."""
    response = render(
        request, "tracker/_table_screen.html", {"screen": table_screen_page(request.user, pk)}
    )
    response["Cache-Control"] = "no-store"
    return response
