"""A finished night's settle-up: one tap to mark a transfer paid, from the tournament page's
"Who owes whom" section (its payer, its payee or an admin)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from tracker.core.errors import PermissionDenied as DomainPermissionDenied
from tracker.engine.errors import DomainError
from tracker.leagues.selectors import visible_tournament
from tracker.money.settle import transfer_mark_paid
from web.views.common import not_found_as_404


@require_POST
@not_found_as_404
def transfer_paid_page(request, pk, position):
    tournament = visible_tournament(request.user, pk)
    back = redirect(f"{tournament.get_absolute_url()}#results")
    if not request.user.is_authenticated:
        return redirect_to_login(tournament.get_absolute_url())
    try:
        transfer_mark_paid(tournament=tournament, position=position, by=request.user)
    except DomainPermissionDenied as exc:
        raise PermissionDenied(exc.message) from None
    except DomainError as exc:
        messages.error(request, f"Not marked paid: {exc.message}.")
        return back
    messages.success(request, "Transfer marked paid.")
    return back
