"""What every page view shares: domain errors as HTTP answers."""

from __future__ import annotations

from functools import wraps

from django.core.exceptions import PermissionDenied
from django.http import Http404

from tracker.core.errors import NotFound
from tracker.core.errors import PermissionDenied as DomainPermissionDenied


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
