"""Site-wide request guards and response headers.

- ``InputGuardMiddleware``: a NUL character in the address, a query parameter or a form
  field (``application/x-www-form-urlencoded``) is refused with a 400 before any view runs
  (PostgreSQL cannot store one; Django's form fields refuse them too, but not every filter
  or view reads through a form). Under /api/ the answer has the API's error body.
- ``ContentSecurityPolicyMiddleware``: sets ``Content-Security-Policy`` from the
  ``CONTENT_SECURITY_POLICY`` setting on every answer that has none (the pages carry no
  inline script; the API docs page gets inline styles, which Swagger UI needs).
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponseBadRequest

from api.errors import API_PREFIX, error_response

FORM = "application/x-www-form-urlencoded"


def _nul_in(query) -> str | None:
    for key, values in query.lists():
        if "\x00" in key:
            return "a parameter name"
        if any("\x00" in v for v in values):
            return key
    return None


class InputGuardMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        where = None
        if "\x00" in request.path:
            where = "the address"
        else:
            where = _nul_in(request.GET)
            if where is None and request.content_type == FORM and request.method == "POST":
                where = _nul_in(request.POST)
        if where is not None:
            message = f"{where}: must not contain a NUL character"
            if request.path.startswith(API_PREFIX):
                return error_response(400, "invalid", message, {where: [message[len(where) + 2 :]]})
            return HttpResponseBadRequest(message, content_type="text/plain; charset=utf-8")
        return self.get_response(request)


class ContentSecurityPolicyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        policy = settings.CONTENT_SECURITY_POLICY
        if policy and "Content-Security-Policy" not in response:
            if request.path.startswith("/api/docs/"):
                policy = settings.CONTENT_SECURITY_POLICY_DOCS or policy
            response["Content-Security-Policy"] = policy
        return response
