"""Request middleware: the audit context of each request."""

from __future__ import annotations

from tracker.audit.services import request_context


class AuditContextMiddleware:
    """Make the request (its user, API token or session, and address) the context of every
    audit entry written while it is handled. The user is read when an entry is written, so
    API requests authenticated later by Django REST framework are attributed correctly."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        with request_context(request):
            return self.get_response(request)
