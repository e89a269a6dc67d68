"""Every error answered under /api/ carries the API's error body, whoever produced it.

Django REST framework's errors already do (api/errors.py). This middleware, first in
MIDDLEWARE, catches the rest: Django's own 404 for an unknown address, 400/413 for a body
Django refused (homegame/errors.py), 500/503 for an unhandled exception, and an error
rendered as CSV or PHH text by an endpoint that serves those. Headers that tell the client
what to do next (Retry-After, Allow, WWW-Authenticate) are kept.
"""

from __future__ import annotations

from api.errors import API_PREFIX, error_response, status_error

KEPT_HEADERS = ("Retry-After", "Allow", "WWW-Authenticate", "Vary")


class ApiErrorBodyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if response.status_code < 400 or not request.path.startswith(API_PREFIX):
            return response
        if response.get("Content-Type", "").startswith("application/json"):
            return response
        code, message = status_error(response.status_code)
        replaced = error_response(response.status_code, code, message)
        for header in KEPT_HEADERS:
            if header in response:
                replaced[header] = response[header]
        return replaced
