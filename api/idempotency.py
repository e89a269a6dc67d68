"""Idempotency-Key support for create endpoints.

A client may send ``Idempotency-Key: <token>`` with a write. The first
successful response is stored with a hash of the request; a retry with the
same key and body gets that response again and stores nothing; the same key
with a different body is refused (422). Keys are per user.

Two requests with one key at once: the second finds no stored response, waits on what the
first holds (the tournament row, say), and then fails on what the first did (the hand number
is taken: a Conflict; the key is stored: an IntegrityError); it answers with the first's
response instead.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import IntegrityError, transaction
from rest_framework.response import Response

from api.models import IdempotencyRecord
from tracker.core.digest import canonical_json, sha256_hex
from tracker.core.errors import Conflict
from tracker.engine.errors import DomainError

HEADER = "Idempotency-Key"


class IdempotencyKeyReused(DomainError):
    """The key came back with a different request (HTTP 422, api/errors.py)."""

    code = "idempotency_key_reused"


def _fingerprint(request) -> str:
    body = canonical_json(request.data, compact=False)
    return sha256_hex(f"{request.method} {request.path}\n{body}")


def idempotent(request, produce: Callable[[], Response]) -> Response:
    key = request.headers.get(HEADER)
    if not key or not request.user.is_authenticated:
        return produce()
    if len(key) > 128:
        raise DomainError("at most 128 characters", field=HEADER)
    fingerprint = _fingerprint(request)

    def replay(record: IdempotencyRecord) -> Response:
        if record.request_hash != fingerprint:
            raise IdempotencyKeyReused(
                "this Idempotency-Key was used with a different request", field=HEADER
            )
        response = Response(record.body, status=record.status_code)
        response["Idempotent-Replayed"] = "true"
        return response

    existing = stored(request.user, key)
    if existing:
        return replay(existing)
    try:
        with transaction.atomic():
            response = produce()
            if 200 <= response.status_code < 300:
                IdempotencyRecord.objects.create(
                    user=request.user,
                    key=key,
                    request_hash=fingerprint,
                    status_code=response.status_code,
                    body=response.data,
                )
            return response
    except (IntegrityError, Conflict):
        # The same key arrived twice at once: the other request stored its response first.
        existing = stored(request.user, key)
        if existing is None:
            raise
        return replay(existing)


def stored(user, key: str) -> IdempotencyRecord | None:
    """The response stored for ``key`` of ``user``, if any."""
    return IdempotencyRecord.objects.filter(user=user, key=key).first()
