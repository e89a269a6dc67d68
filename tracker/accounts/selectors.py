"""Reads about accounts: a user's API tokens, and the token a request presents."""

from __future__ import annotations

import hashlib

from django.db.models import QuerySet

from tracker.accounts.models import ApiToken


def token_digest(key: str) -> str:
    """The stored form of a token key (SHA-256, hex).

    >>> token_digest("abc")[:12]
    'ba7816bf8f01'
    """
    return hashlib.sha256(key.encode()).hexdigest()


def api_tokens_of(user) -> QuerySet[ApiToken]:
    """``user``'s tokens, newest first, live and revoked."""
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")


def api_token_for_key(key: str) -> ApiToken | None:
    """The live token with this key, with its user; None for an unknown or revoked key."""
    if not key:
        return None
    return (
        ApiToken.objects.select_related("user")
        .filter(digest=token_digest(key), revoked_at__isnull=True)
        .first()
    )
