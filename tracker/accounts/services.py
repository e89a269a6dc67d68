"""Accounts: sign-up and API tokens (create with a label, revoke, note their use)."""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from tracker.accounts.models import AccountName, ApiToken
from tracker.accounts.names import canonical_username
from tracker.accounts.selectors import name_holder, token_digest
from tracker.audit.services import audit_record
from tracker.core.errors import Conflict, NotFound
from tracker.engine.errors import DomainError

# The label of the token that POST /api/v1/auth/token/ issues (one at a time: a new one
# revokes the previous one).
SIGN_IN_LABEL = "API sign-in"
# How stale "last used" may be: a token used again within this time is not written again, so
# most API reads write nothing (the profile page says the time shown may be this much early).
LAST_USED_RESOLUTION = timedelta(hours=1)


TAKEN = "that username is taken"
LOOKS_ALIKE = "that username looks too much like an existing one: choose another"


@transaction.atomic
def user_signup(*, username: str, password: str, email: str = ""):
    """A new account. The username must be valid and free, the password pass Django's
    validators (AUTH_PASSWORD_VALIDATORS) and the email, if any, be one. Every problem is
    reported at once (one DomainError naming each field; a Conflict when the only one is a
    taken username).

    The username is normalised (NFKC, as Django stores it) before any check. It is taken when
    an account has the same canonical form (case-folded: ``ＲＯＢ`` is ``rob``), and refused as
    a look-alike when one has the same confusable skeleton (``rоb`` with a Cyrillic о):
    tracker/accounts/names.py. The database holds both unique (``AccountName``), so of two
    sign-ups racing for one name the second is refused like the first check would."""
    User = get_user_model()
    username = User.normalize_username((username or "").strip())
    email = (email or "").strip()
    problems: dict[str, list[str]] = {}
    try:
        User._meta.get_field(User.USERNAME_FIELD).clean(username, None)
    except ValidationError as exc:
        problems["username"] = list(exc.messages)
    holder = name_holder(username)
    taken = holder == canonical_username(username)
    if holder is not None:
        problems.setdefault("username", []).append(TAKEN if taken else LOOKS_ALIKE)
    candidate = User(username=username, email=email)
    try:
        validate_password(password, user=candidate)
    except ValidationError as exc:
        problems["password"] = list(exc.messages)
    if email:
        try:
            User._meta.get_field("email").clean(email, candidate)
        except ValidationError as exc:
            problems["email"] = list(exc.messages)
    if problems:
        if taken and list(problems) == ["username"] and len(problems["username"]) == 1:
            raise Conflict(TAKEN, code="duplicate", field="username")
        first = next(iter(problems.values()))[0]
        raise DomainError(first, code="invalid_signup", fields=problems)
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, email=email, password=password)
    except IntegrityError:  # the same username, committed since the check
        raise Conflict(TAKEN, code="duplicate", field="username") from None
    # The claim is written with the user (tracker/accounts/signals.py); it is empty when a
    # sign-up that raced this one committed the name (or a look-alike) first.
    if AccountName.objects.get(user=user).canonical is None:
        raise Conflict(TAKEN, code="duplicate", field="username")
    audit_record(action="user.signup", target=user, actor=user, data={"username": username})
    return user


def _new_key() -> str:
    return secrets.token_hex(20)  # 40 characters, like the tokens before it


@transaction.atomic
def api_token_create(*, user, label: str) -> tuple[ApiToken, str]:
    """A new token for ``user`` with ``label``; returns it and its key (shown once)."""
    label = (label or "").strip()
    if not label:
        raise DomainError("a token needs a label (what it is for)", field="label")
    if len(label) > 80:
        raise DomainError("a label has at most 80 characters", field="label")
    key = _new_key()
    token = ApiToken.objects.create(user=user, label=label, digest=token_digest(key))
    audit_record(
        action="token.create",
        target=user,
        actor=user,
        data={"token_id": token.fingerprint, "label": label},
    )
    return token, key


@transaction.atomic
def api_token_revoke(*, user, token_id: int) -> ApiToken:
    """Revoke one of ``user``'s tokens: it stops working at once. Revoking a revoked token
    changes nothing."""
    token = ApiToken.objects.select_for_update().filter(user=user, pk=token_id).first()
    if token is None:
        raise NotFound("No such token.")
    if token.revoked_at is None:
        token.revoked_at = timezone.now()
        token.save(update_fields=["revoked_at"])
        audit_record(
            action="token.revoke",
            target=user,
            actor=user,
            data={"token_id": token.fingerprint, "label": token.label},
        )
    return token


@transaction.atomic
def api_token_sign_in(*, user) -> tuple[ApiToken, str, list[str]]:
    """The token a password sign-in gives (labelled "API sign-in"): the previous sign-in
    tokens stop working. Returns the token, its key, and the fingerprints revoked."""
    now = timezone.now()
    old = list(
        ApiToken.objects.select_for_update().filter(
            user=user, label=SIGN_IN_LABEL, revoked_at__isnull=True
        )
    )
    ApiToken.objects.filter(pk__in=[t.pk for t in old]).update(revoked_at=now)
    key = _new_key()
    token = ApiToken.objects.create(user=user, label=SIGN_IN_LABEL, digest=token_digest(key))
    return token, key, [t.fingerprint for t in old]


def api_token_used(token: ApiToken) -> None:
    """Note that ``token`` was just used: at most one write per token and
    LAST_USED_RESOLUTION, none while the time read with the token is newer than that. The
    write is conditional, so requests arriving together with the same token write once."""
    now = timezone.now()
    stale = now - LAST_USED_RESOLUTION
    if token.last_used_at is not None and token.last_used_at > stale:
        return
    ApiToken.objects.filter(pk=token.pk).filter(
        Q(last_used_at__isnull=True) | Q(last_used_at__lte=stale)
    ).update(last_used_at=now)
    token.last_used_at = now
