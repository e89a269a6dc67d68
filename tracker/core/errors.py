"""Refusals that are not about the game: something missing, not allowed, or in conflict.

They are :class:`~tracker.engine.errors.DomainError` subclasses (a code, a message and the
field paths at fault), raised by services and selectors. The engine knows nothing of them;
the API maps each class to its HTTP status in one table (api/errors.py) and the pages turn
them into 404, 403 or a message.
"""

from __future__ import annotations

from tracker.engine.errors import DomainError

__all__ = ["Conflict", "DomainError", "NotFound", "PermissionDenied"]


class NotFound(DomainError):
    code = "not_found"


class PermissionDenied(DomainError):
    code = "permission_denied"


class Conflict(DomainError):
    code = "conflict"
