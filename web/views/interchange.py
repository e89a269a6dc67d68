"""Pages' PHH links: download a hand, a tournament or a league; import files from the page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.views.decorators.http import require_GET, require_POST

from tracker.core.errors import Conflict
from tracker.engine.errors import DomainError
from tracker.hands.models import Hand
from tracker.interchange.models import ImportStatus
from tracker.interchange.selectors.export import (
    export_hand,
    export_league,
    export_tournament,
)
from tracker.interchange.services.imports import (
    UploadRateExceeded,
    UploadTooLarge,
    phh_import_start,
    phh_upload_admit,
)
from tracker.leagues.selectors.visibility import leagues_visible_to, tournaments_visible_to
from web.presenters.interchange import phh_response


@require_GET
def hand_download(request, pk):
    hand = get_object_or_404(
        Hand.objects.filter(tournament__in=tournaments_visible_to(request.user)), pk=pk
    )
    try:
        return phh_response(export_hand(hand))
    except DomainError as exc:  # a quick-entry hand has no action history
        return HttpResponse(
            exc.message,
            status=409 if isinstance(exc, Conflict) else 400,
            content_type="text/plain; charset=utf-8",
        )


@require_GET
def tournament_download(request, pk):
    tournament = get_object_or_404(
        tournaments_visible_to(request.user).select_related("league"), pk=pk
    )
    return phh_response(export_tournament(tournament))


@require_GET
def league_download(request, slug):
    league = get_object_or_404(leagues_visible_to(request.user), slug=slug)
    return phh_response(export_league(league))


@require_POST
def tournament_import(request, pk):
    """The upload form of templates/tracker/_imports.html: import, then back to the page."""
    tournament = get_object_or_404(
        tournaments_visible_to(request.user).select_related("league"), pk=pk
    )
    if not request.user.is_authenticated:
        return redirect_to_login(tournament.get_absolute_url())
    try:  # before the body is parsed: its size, the user's role and allowance
        size = max(0, int(request.META.get("CONTENT_LENGTH") or 0))
    except ValueError:
        size = 0
    try:
        phh_upload_admit(tournament=tournament, by=request.user, size=size)
    except (UploadTooLarge, UploadRateExceeded) as exc:
        messages.error(request, exc.message)
        return redirect(tournament)
    files = [(f.name, f) for f in request.FILES.getlist("files")]
    try:
        job = phh_import_start(tournament=tournament, by=request.user, files=files, source="page")
    except DomainError as exc:
        messages.error(request, exc.message)
        return redirect(tournament)
    if job.is_active:
        messages.info(request, f"Importing {job.total} hands in the background.")
    elif job.status == ImportStatus.FAILED:
        messages.error(request, "Nothing imported: " + "; ".join(e["message"] for e in job.errors))
    else:
        messages.success(request, f"Import: {job.summary}.")
    return redirect(tournament)
