"""Reads about accounts: a user's API tokens, the token a request presents, the account a
sign-in names, and who a password reset mails."""

from __future__ import annotations

import hashlib

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db.models import Q, QuerySet

from tracker.accounts.models import AccountName, ApiToken, EmailAddress
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


def sign_in_account(username: str) -> AbstractBaseUser | None:
    """The account a sign-in with ``username`` names: the account of exactly that username,
    else the one whose name has the same canonical form (``AccountName.canonical``: ``bob``
    and ``ＢＯＢ`` name ``Bob``); None if neither. The exact name comes first so that an
    account without a claim (older than the rule, its name colliding with an earlier
    account's, tracker/accounts/models.py) is still reached by its own name. Each lookup
    uses a unique index; a sign-in with the name as stored is one query."""
    User = get_user_model()
    exact = User._default_manager.filter(**{User.USERNAME_FIELD: username}).first()
    if exact is not None:
        return exact
    claim = (
        AccountName.objects.select_related("user")
        .filter(canonical=canonical_username(username))
        .first()
    )
    return claim.user if claim is not None else None


def email_addresses_of(user) -> list[EmailAddress]:
    """``user``'s addresses: the verified one first, then the one waiting (at most one each)."""
    return list(EmailAddress.objects.filter(user=user).order_by("-verified_at", "-created_at"))


def password_reset_users(address: str):
    """The active accounts with a usable password that verified ``address`` (compared
    lower-cased): the only ones a password reset mails. An address another account merely
    typed, or one set in the admin without verification, finds nobody; the user's ``email``
    (where Django's reset form sends) must be that address."""
    canonical = (address or "").strip().lower()
    users = get_user_model().objects.filter(
        is_active=True,
        email__iexact=canonical,  # the address the reset mail goes to (Django's form)
        email_addresses__canonical=canonical,
        email_addresses__verified_at__isnull=False,
    )
    return [u for u in users if u.has_usable_password()]


def verified_email_of(user) -> str | None:
    """``user``'s verified address, the only one mail may go to; None without one."""
    return (
        EmailAddress.objects.filter(user=user, verified_at__isnull=False)
        .values_list("address", flat=True)
        .first()
    )
