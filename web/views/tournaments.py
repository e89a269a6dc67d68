"""The tournament page and the new game night form."""

from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import quote_etag
from django.views.decorators.http import condition, require_GET, require_http_methods, require_POST

from tracker.core.permissions import Capability, capabilities
from tracker.engine.errors import DomainError
from tracker.games.selectors import league_games
from tracker.leagues.selectors.people import league_roster
from tracker.leagues.selectors.visibility import visible_league, visible_tournament
from tracker.money.selectors import league_money
from tracker.money.services import night_create
from tracker.tournaments.selectors import table_link_of, table_link_open
from tracker.tournaments.services import (
    TournamentSettings,
    table_link_create,
    table_link_revoke,
)
from web.forms.tournaments import TournamentForm
from web.presenters.pages import tournament_page
from web.presenters.table import link_tournaments, table_screen_etag, table_share
from web.presenters.table import table_screen as table_screen_page
from web.views.common import login_first, page_gate


@require_GET
def tournament(request, pk):
    page = tournament_page(request.user, pk)
    # a dealer's choice night: the league's own games too, loggable live
    house_games = [] if page.tournament.default_variant else league_games(page.league)
    return render(request, "tracker/tournament.html", {"page": page, "house_games": house_games})


@require_http_methods(["GET", "POST"])
def tournament_new(request, slug):
    """A scorekeeper or admin starts a game night, then lands on its page."""
    league = visible_league(request.user, slug)
    can = page_gate(request, league, Capability.RECORD_HAND, "start a game night")
    if can is None:
        return login_first(request)
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
                settings=TournamentSettings(
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
                ),
            )
        except DomainError as exc:
            form.add_domain_error(exc)
        else:
            return redirect(created.get_absolute_url())
    return render(
        request,
        "tracker/tournament_form.html",
        {"form": form, "league": league, "can": can},
        status=400 if request.method == "POST" else 200,  # as the site's other forms
    )


# The table screen polls its fragment: "fast while visible, slow while hidden"
# (static/js/table.js), and the fragment answers 304 while the night's cheap version stays
# the same (``condition`` compares it with the poll's If-None-Match before rendering).
POLL_CACHE = "private, no-cache"


@require_GET
def table_screen(request, pk):
    """The table screen: large type for a TV or tablet at the table, with the night's live
    view link as a QR code for the league's members (docs/nights.md)."""
    etag = table_screen_etag(request.user, pk)  # read first: the first poll can be a 304
    screen = table_screen_page(request.user, pk)
    share = table_share(request, screen.tournament, capabilities(request.user, screen.league))
    return render(
        request,
        "tracker/table_screen.html",
        {"screen": screen, "share": share, "etag": quote_etag(etag)},
    )


def _screen_etag(request, pk):
    return table_screen_etag(request.user, pk)


@require_GET
@condition(etag_func=_screen_etag)
def table_screen_fragment(request, pk):
    """The table screen's changing part, which the page fetches every few seconds."""
    response = render(
        request, "tracker/_table_screen.html", {"screen": table_screen_page(request.user, pk)}
    )
    response["Cache-Control"] = POLL_CACHE
    return response


@require_POST
def table_link_new(request, pk):
    """A scorekeeper or admin puts the night's live view link (a QR code) on its screen."""
    tournament = visible_tournament(request.user, pk)
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("table-screen", kwargs={"pk": pk}))
    table_link_create(tournament=tournament, by=request.user)
    return redirect("table-screen", pk=pk)


@require_POST
def table_link_revoke_page(request, pk, link):
    """An admin stops the night's live view link: it answers 404 from now on."""
    tournament = visible_tournament(request.user, pk)
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("table-screen", kwargs={"pk": pk}))
    table_link_revoke(link=table_link_of(tournament, link), by=request.user)
    messages.success(request, "Live view link revoked: it opens nothing now.")
    return redirect("table-screen", pk=pk)


# --------------------------------------------------------------------------
# The read-only live view: a night's table screen for whoever holds its link


def read_only(view):
    """A live view answers GET and HEAD alone; any write is refused (403), whoever asks."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.method not in ("GET", "HEAD"):
            raise PermissionDenied("This live view is read-only: it changes nothing.")
        return view(request, *args, **kwargs)

    return wrapper


def _private(response):
    response["Cache-Control"] = POLL_CACHE
    response["Referrer-Policy"] = "no-referrer"  # the link is the key: never sent on
    response["X-Robots-Tag"] = "noindex"
    return response


@read_only
def live_view(request, token):
    """The night's table screen on a phone, with no account and nothing to change."""
    link = table_link_open(token)
    among = link_tournaments(link)
    etag = table_screen_etag(request.user, link.tournament_id, among=among)
    screen = table_screen_page(request.user, link.tournament_id, among=among)
    live_url = reverse("live-view-state", kwargs={"token": token})
    context = {"screen": screen, "live_url": live_url, "etag": quote_etag(etag)}
    return _private(render(request, "tracker/live_view.html", context))


def _live_etag(request, token):
    link = table_link_open(token)
    return table_screen_etag(request.user, link.tournament_id, among=link_tournaments(link))


@read_only
@condition(etag_func=_live_etag)
def live_view_state(request, token):
    """The live view's changing part (the table screen's fragment), polled like it."""
    link = table_link_open(token)
    screen = table_screen_page(request.user, link.tournament_id, among=link_tournaments(link))
    return _private(render(request, "tracker/_table_screen.html", {"screen": screen}))
