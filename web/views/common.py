"""What every page view shares: domain errors as HTTP answers."""

from __future__ import annotations

from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404

from tracker.core.errors import NotFound
from tracker.core.errors import PermissionDenied as DomainPermissionDenied
from tracker.core.permissions import capabilities
from tracker.leagues.selectors import visible_tournament


def not_found_as_404(view):
    """A NotFound from a selector (also: a private league seen by an outsider) is a 404."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except NotFound as exc:
            raise Http404(exc.message) from None

    return wrapper


def domain_errors_as_http(view):
    """NotFound is a 404; a domain PermissionDenied is Django's 403."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        try:
            return view(request, *args, **kwargs)
        except NotFound as exc:
            raise Http404(exc.message) from None
        except DomainPermissionDenied as exc:
            raise PermissionDenied(exc.message) from None

    return wrapper


def records_hands(view):
    """A page that records hands of the tournament ``pk``: it gets the tournament once the
    viewer is known to be one of the league's scorekeepers or admins (anonymous viewers go
    to the login page; others get a 403 naming their role)."""

    @wraps(view)
    def wrapper(request, pk, *args, **kwargs):
        tournament = visible_tournament(request.user, pk)
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        can = capabilities(request.user, tournament.league)
        if not can.record_hand:
            raise PermissionDenied(
                f"Only a scorekeeper or an admin of {tournament.league.name} may record hands "
                f"(your role: {can.role or 'not a member'})."
            )
        return view(request, tournament, *args, **kwargs)

    return wrapper
