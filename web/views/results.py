"""A finished night's settle-up: one tap to mark a transfer paid, from the tournament page's
"Who owes whom" section (its payer, its payee or an admin)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from tracker.engine.errors import DomainError
from tracker.leagues.selectors.visibility import visible_tournament
from tracker.money.settle import transfer_mark_paid


@require_POST
def transfer_paid_page(request, pk, position):
    tournament = visible_tournament(request.user, pk)
    back = redirect(f"{tournament.get_absolute_url()}#results")
    if not request.user.is_authenticated:
        return redirect_to_login(tournament.get_absolute_url())
    try:
        transfer_mark_paid(tournament=tournament, position=position, by=request.user)
    except DomainError as exc:
        messages.error(request, f"Not marked paid: {exc.message}.")
        return back
    messages.success(request, "Transfer marked paid.")
    return back
