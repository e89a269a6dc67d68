"""The home page, league pages and player pages."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from web.presenters.pages import home_leagues, league_page, player_page


@require_GET
def home(request):
    return render(request, "tracker/home.html", {"leagues": home_leagues(request.user)})


@require_GET
def league(request, slug):
    return render(request, "tracker/league.html", {"page": league_page(request.user, slug)})


@require_GET
def player(request, pk):
    return render(request, "tracker/player.html", {"page": player_page(request.user, pk)})
