"""The tournament page."""

from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_GET

from web.presenters.pages import tournament_page
from web.views.common import not_found_as_404


@require_GET
@not_found_as_404
def tournament(request, pk):
    return render(request, "tracker/tournament.html", {"page": tournament_page(request.user, pk)})
