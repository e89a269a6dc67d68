"""One exception handler, one error body.

Every error the API answers has the body::

    {"error": {"code": "...", "message": "...", "fields": {"path.to[0].field": ["..."]}}}

A refusal (``DomainError`` from the engine and the services, ``NotFound`` and
``PermissionDenied`` from the selectors and the permissions table) carries its own code and
field paths; its HTTP status comes from its class, in one table (``STATUS_BY_ERROR``). DRF's validation and auth errors are translated to the
same shape, with nested serializer errors flattened to dotted paths. A database that
cannot be reached is a 503 with ``Retry-After``; a body over the size limit a 413. Errors
that never reach DRF get the same body from api/middleware.py.
"""

from __future__ import annotations

import logging
from http import HTTPStatus

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, JsonResponse
from rest_framework import exceptions as drf_exceptions
from rest_framework import status as http
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from api.idempotency import IdempotencyKeyReused
from tracker.core.errors import Conflict, DomainError, NotFound, PermissionDenied, Refusal
from tracker.core.ratelimit import too_many

log = logging.getLogger(__name__)

API_PREFIX = "/api/"

# What the database raises when it cannot be reached (down, restarting, out of connections).
DATABASE_DOWN = (OperationalError, InterfaceError)
RETRY_AFTER_SECONDS = 30

# Codes for errors that have no richer code of their own (Django's, or a bare status).
CODE_BY_STATUS = {
    400: "invalid",
    401: "not_authenticated",
    403: "permission_denied",
    404: "not_found",
    405: "method_not_allowed",
    406: "not_acceptable",
    413: "too_large",
    415: "unsupported_media_type",
    429: "throttled",
    500: "server_error",
    503: "unavailable",
}
MESSAGE_BY_STATUS = {
    413: "The request body is too large.",
    500: "Something went wrong on our side; the error was logged.",
    503: "The service is unavailable for a moment; try again shortly.",
}


def status_error(status: int) -> tuple[str, str]:
    """The code and message of an error known only by its HTTP status."""
    try:
        phrase = HTTPStatus(status).phrase
    except ValueError:
        phrase = "Error"
    code = CODE_BY_STATUS.get(status, phrase.lower().replace(" ", "_").replace("-", "_"))
    return code, MESSAGE_BY_STATUS.get(status, f"{phrase}.")


def error_response(status: int, code: str, message: str, fields: dict | None = None):
    """A plain Django answer with the error body (for errors that never reach DRF)."""
    response = JsonResponse(error_body(code, message, fields), status=status)
    if status == http.HTTP_503_SERVICE_UNAVAILABLE:
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


# Error class -> HTTP status; a subclass answers with its nearest listed ancestor's status.
STATUS_BY_ERROR: dict[type[Refusal], int] = {
    DomainError: http.HTTP_400_BAD_REQUEST,
    NotFound: http.HTTP_404_NOT_FOUND,
    PermissionDenied: http.HTTP_403_FORBIDDEN,
    Conflict: http.HTTP_409_CONFLICT,
    IdempotencyKeyReused: http.HTTP_422_UNPROCESSABLE_ENTITY,
}


def http_status(exc: Refusal) -> int:
    """The HTTP status of a refusal, from ``STATUS_BY_ERROR``."""
    for cls in type(exc).__mro__:
        if cls in STATUS_BY_ERROR:
            return STATUS_BY_ERROR[cls]
    return http.HTTP_400_BAD_REQUEST


def flatten_errors(detail, prefix: str = "") -> dict[str, list[str]]:
    """Flatten DRF's nested error detail into {path: [messages]}.

    >>> flatten_errors({"players": [{}, {"down": ["bad card"]}]})
    {'players[1].down': ['bad card']}
    """
    out: dict[str, list[str]] = {}
    if isinstance(detail, dict):
        for key, value in detail.items():
            path = f"{prefix}.{key}" if prefix else str(key)
            for k, v in flatten_errors(value, path).items():
                out.setdefault(k, []).extend(v)
    elif isinstance(detail, list):
        if all(not isinstance(item, (dict, list)) for item in detail):
            if detail:
                out.setdefault(prefix or "non_field_errors", []).extend(str(i) for i in detail)
        else:
            for index, value in enumerate(detail):
                for k, v in flatten_errors(value, f"{prefix}[{index}]").items():
                    out.setdefault(k, []).extend(v)
    else:
        out.setdefault(prefix or "non_field_errors", []).append(str(detail))
    return out


def error_body(code: str, message: str, fields: dict | None = None) -> dict:
    return {"error": {"code": code, "message": message, "fields": fields or {}}}


class TooMany(drf_exceptions.Throttled):
    """A 429 (with ``Retry-After``) whose message is one sentence: the limit and when to try
    again (``too_many``: "Too many failed sign-ins; try again in 15 minutes.")."""

    def __init__(self, reason: str, wait: float | None):
        super().__init__(wait=wait)
        message = too_many(reason, wait) if wait is not None else f"{reason}; try again shortly."
        self.detail = drf_exceptions.ErrorDetail(message, code=self.default_code)


def exception_handler(exc, context):
    if isinstance(exc, Refusal):
        return Response(error_body(exc.code, exc.message, exc.fields), status=http_status(exc))
    if isinstance(exc, DATABASE_DOWN):
        log.error("database unavailable", exc_info=exc)
        response = Response(error_body(*status_error(503)), status=503)
        response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
    if isinstance(exc, RequestDataTooBig):
        return Response(error_body(*status_error(413)), status=413)
    if isinstance(exc, Http404):
        exc = drf_exceptions.NotFound()
    elif isinstance(exc, DjangoPermissionDenied):
        exc = drf_exceptions.PermissionDenied()
    elif isinstance(exc, drf_exceptions.Throttled) and not isinstance(exc, TooMany):
        exc = TooMany("Too many requests", exc.wait)  # the write allowance (DRF's throttle)

    response = drf_exception_handler(exc, context)
    if response is None:
        return None  # an unexpected error: Django's 500 handling and logging take over
    if isinstance(exc, drf_exceptions.ValidationError):
        fields = flatten_errors(exc.detail)
        first = next(iter(fields.items()), None)
        message = f"{first[0]}: {first[1][0]}" if first else "Invalid input."
        response.data = error_body("invalid", message, fields)
        response.status_code = http.HTTP_400_BAD_REQUEST
    else:
        detail = getattr(exc, "detail", None)
        code = getattr(detail, "code", None) or getattr(exc, "default_code", "error")
        response.data = error_body(str(code), str(detail) if detail is not None else str(exc))
    return response
