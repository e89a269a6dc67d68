"""Refusals that are not about the game: something missing, not allowed, or in conflict.

``Conflict`` is a :class:`~tracker.engine.errors.DomainError` (a page shows it on its form).
``NotFound`` and ``PermissionDenied`` are not: they share the shape (a code, a message and
the field paths at fault, :class:`~tracker.engine.errors.Refusal`) and are Django's own
``Http404`` and ``PermissionDenied``, so a page view lets them through and Django answers
404 or 403 with their message, while ``except DomainError`` around a form never catches
them. The API maps each class to its HTTP status in one table (api/errors.py), with the
same body for all.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404

from tracker.engine.errors import DomainError, Refusal

__all__ = ["Conflict", "DomainError", "NotFound", "PermissionDenied", "Refusal"]


class NotFound(Refusal, Http404):
    code = "not_found"


class PermissionDenied(Refusal, DjangoPermissionDenied):
    code = "permission_denied"


class Conflict(DomainError):
    code = "conflict"
