"""What every page view shares: the one gate of a page that needs a capability.

A selector's ``NotFound`` (also: a private league seen by an outsider) is Django's 404 and
a ``PermissionDenied`` from the permissions table is Django's 403 by their own class
(tracker/core/errors.py), so page views let them through and catch only ``DomainError``,
which they show on their forms.
"""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login

from tracker.core.permissions import Capabilities, Capability, require
from tracker.leagues.selectors.visibility import visible_tournament


def page_gate(request, league, capability: Capability, action: str) -> Capabilities | None:
    """The viewer's capabilities in ``league`` once they hold ``capability``: None for an
    anonymous viewer (the page sends them to the login page), a 403 in the permissions
    table's wording (:func:`~tracker.core.permissions.denial`) for anyone else without it."""
    if not request.user.is_authenticated:
        return None
    return require(request.user, league, capability, action)


def login_first(request):
    """The login page, coming back to this page."""
    return redirect_to_login(request.get_full_path())


def records_hands(view):
    """A page that records hands of the tournament ``pk``: it gets the tournament once the
    viewer is known to be one of the league's scorekeepers or admins (anonymous viewers go
    to the login page; others get a 403 naming their role)."""

    @wraps(view)
    def wrapper(request, pk, *args, **kwargs):
        tournament = visible_tournament(request.user, pk)
        if page_gate(request, tournament.league, Capability.RECORD_HAND, "record hands") is None:
            return login_first(request)
        return view(request, tournament, *args, **kwargs)

    return wrapper
