"""Reads about accounts: a user's API tokens, and the token a request presents."""

from __future__ import annotations

import hashlib

from django.db.models import Q, QuerySet

from tracker.accounts.models import AccountName, ApiToken
from tracker.accounts.names import canonical_username, username_skeleton


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


def name_holder(username: str) -> str | None:
    """The canonical name of the account that ``username`` would collide with: the same
    canonical form (taken) or the same confusable skeleton (a look-alike); None if free. One
    lookup on the two unique indexes of ``AccountName``."""
    canonical = canonical_username(username)
    return (
        AccountName.objects.filter(Q(canonical=canonical) | Q(skeleton=username_skeleton(username)))
        .values_list("canonical", flat=True)
        .first()
    )
