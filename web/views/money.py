"""The night's money at the table: one tap to record a buy-in, a rebuy or an add-on, one to
undo it (until the next hand is recorded), from the tournament page's money section."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from tracker.core.errors import NotFound
from tracker.engine.errors import DomainError
from tracker.leagues.selectors.visibility import visible_tournament
from tracker.money.selectors import visible_entry
from tracker.money.services import entry_record, entry_undo

KIND_WORDS = {"buy_in": "buy-in", "rebuy": "rebuy", "addon": "add-on"}


def _back(tournament):
    return redirect(f"{tournament.get_absolute_url()}#money")


@require_POST
def entry_new(request, pk):
    tournament = visible_tournament(request.user, pk)
    if not request.user.is_authenticated:
        return redirect_to_login(tournament.get_absolute_url())
    kind = request.POST.get("kind", "")
    try:
        player_id = int(request.POST.get("player", ""))
    except ValueError:
        raise NotFound("No such player.") from None
    try:
        entry = entry_record(tournament=tournament, player_id=player_id, kind=kind, by=request.user)
    except DomainError as exc:
        messages.error(request, f"Not recorded: {exc.message}.")
        return _back(tournament)
    messages.success(
        request,
        f"{entry.player.name}: {KIND_WORDS[entry.kind]} recorded (undo until the next hand).",
    )
    return _back(tournament)


@require_POST
def entry_undo_page(request, pk, entry_id):
    tournament = visible_tournament(request.user, pk)
    if not request.user.is_authenticated:
        return redirect_to_login(tournament.get_absolute_url())
    entry = visible_entry(tournament, entry_id)
    try:
        entry_undo(entry=entry, by=request.user)
    except DomainError as exc:
        messages.error(request, f"Not undone: {exc.message}.")
        return _back(tournament)
    messages.success(request, f"{entry.player.name}: {KIND_WORDS[entry.kind]} undone.")
    return _back(tournament)
