"""Accounts: sign-up, e-mail addresses and their verification, the password reset mail, and
API tokens (create with a label, revoke, note their use)."""

from __future__ import annotations

import secrets
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.contrib.auth.tokens import default_token_generator
from django.core import signing
from django.core.exceptions import ValidationError
from django.core.mail import EmailMultiAlternatives, send_mail
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from tracker.accounts.models import AccountName, ApiToken, EmailAddress
from tracker.accounts.names import canonical_username
from tracker.accounts.selectors import (
    name_holder,
    password_reset_users,
    token_digest,
    verified_email_of,
)
from tracker.audit.services import audit_record
from tracker.core.cache import failsafe_cache
from tracker.core.errors import Conflict, NotFound
from tracker.core.jobs import enqueue_on_commit
from tracker.core.ratelimit import allowance_take, email_key
from tracker.engine.errors import Code, DomainError

# The label of the token that POST /api/v1/auth/token/ issues (one at a time: a new one
# revokes the previous one).
SIGN_IN_LABEL = "API sign-in"
# How stale "last used" may be: a token used again within this time is not written again, so
# most API reads write nothing (the profile page says the time shown may be this much early).
LAST_USED_RESOLUTION = timedelta(hours=1)


TAKEN = "that username is taken"
LOOKS_ALIKE = "that username looks too much like an existing one: choose another"


@transaction.atomic
def user_signup(*, username: str, password: str, email: str = "", base_url: str = ""):
    """A new account. The username must be valid and free, the password pass Django's
    validators (AUTH_PASSWORD_VALIDATORS) and the email, if any, be one. Every problem is
    reported at once (one DomainError naming each field; a Conflict when the only one is a
    taken username).

    The username is normalised (NFKC, as Django stores it) before any check. It is taken when
    an account has the same canonical form (case-folded: ``ＲＯＢ`` is ``rob``), and refused as
    a look-alike when one has the same confusable skeleton (``rоb`` with a Cyrillic о):
    tracker/accounts/names.py. The database holds both unique (``AccountName``), so of two
    sign-ups racing for one name the second is refused like the first check would.

    An ``email`` is kept waiting for verification (``email_address_set``): its link is mailed
    (to ``base_url``'s site) within the verification mail allowance."""
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
            raise Conflict(TAKEN, code=Code.DUPLICATE, field="username")
        first = next(iter(problems.values()))[0]
        raise DomainError(first, code=Code.INVALID_SIGNUP, fields=problems)
    try:
        with transaction.atomic():
            user = User.objects.create_user(username=username, password=password)
    except IntegrityError:  # the same username, committed since the check
        raise Conflict(TAKEN, code=Code.DUPLICATE, field="username") from None
    # The claim is written with the user (tracker/accounts/signals.py); it is empty when a
    # sign-up that raced this one committed the name (or a look-alike) first.
    if AccountName.objects.get(user=user).canonical is None:
        raise Conflict(TAKEN, code=Code.DUPLICATE, field="username")
    audit_record(action="user.signup", target=user, actor=user, data={"username": username})
    if email:
        pending = _email_pending(user=user, address=email)
        _verification_mail_ask(pending, base_url=base_url)
    return user


# --------------------------------------------------------------------------
# E-mail addresses. Only a verified address receives mail, except the verification mail.

VERIFY_SALT = "tracker.accounts.email-verify"
VERIFY_TASK = "tracker.email_verification_send"
VERIFIED_ELSEWHERE = "that address is verified by another account (an address belongs to one)"


def canonical_email(address: str) -> str:
    """The form in which two addresses are one (the whole address lower-cased, as the
    password reset compares them).

    >>> canonical_email(" Ann@Example.ORG ")
    'ann@example.org'
    """
    return (address or "").strip().lower()


def _verified_elsewhere(email: EmailAddress) -> bool:
    return (
        EmailAddress.objects.filter(canonical=email.canonical, verified_at__isnull=False)
        .exclude(user_id=email.user_id)
        .exists()
    )


def _email_pending(*, user, address: str) -> EmailAddress:
    """``address`` as ``user``'s one address waiting for verification (replacing any)."""
    address = (address or "").strip()
    try:
        get_user_model()._meta.get_field("email").clean(address, None)
    except ValidationError as exc:
        raise DomainError(exc.messages[0], code=Code.INVALID_EMAIL, field="email") from None
    canonical = canonical_email(address)
    # One at a time per account (a double submit of the profile form): the user row is locked.
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    waiting = EmailAddress.objects.filter(user=user, verified_at__isnull=True)
    if EmailAddress.objects.filter(
        user=user, canonical=canonical, verified_at__isnull=False
    ).exists():
        raise DomainError(
            "that is already your verified address", code=Code.UNCHANGED, field="email"
        )
    waiting.delete()  # one address waiting per account: its earlier links stop working
    return EmailAddress.objects.create(user=user, address=address, canonical=canonical)


def _verification_mail_ask(email: EmailAddress, *, base_url: str) -> bool:
    """Ask for ``email``'s verification mail, within the allowance of its account and of its
    address (EMAIL_VERIFY_MAIL_LIMIT in EMAIL_VERIFY_WINDOW_SECONDS); none for an address
    another account verified. True if one is on its way."""
    if _verified_elsewhere(email):
        return False
    limits = {
        "limit": settings.EMAIL_VERIFY_MAIL_LIMIT,
        "window": settings.EMAIL_VERIFY_WINDOW_SECONDS,
    }
    if not (
        allowance_take("verify-user", str(email.user_id), **limits)
        and allowance_take("verify-email", email_key(email.canonical), **limits)
    ):
        return False
    email.mail_requested_at = timezone.now()
    email.save(update_fields=["mail_requested_at"])
    enqueue_on_commit(VERIFY_TASK, email.pk, base_url)
    return True


@transaction.atomic
def email_address_set(*, user, address: str, base_url: str) -> tuple[EmailAddress, bool]:
    """``user``'s new address, waiting for verification; the one that waited is replaced
    (its links stop working) and a verified one stays in use until this one is verified.
    Returns the address and whether its verification mail is on its way."""
    email = _email_pending(user=user, address=address)
    audit_record(action="email.add", target=user, actor=user, data={"email_id": email.pk})
    return email, _verification_mail_ask(email, base_url=base_url)


@transaction.atomic
def email_verification_resend(*, user, base_url: str) -> EmailAddress:
    """The verification mail again for ``user``'s waiting address, within the allowance."""
    email = EmailAddress.objects.filter(user=user, verified_at__isnull=True).first()
    if email is None:
        raise NotFound("No address is waiting for verification.")
    if _verified_elsewhere(email):
        raise Conflict(VERIFIED_ELSEWHERE, code=Code.VERIFIED_ELSEWHERE, field="email")
    if not _verification_mail_ask(email, base_url=base_url):
        raise DomainError(
            "enough verification mails for now: try again in an hour, or check your spam folder",
            code=Code.THROTTLED,
            field="email",
        )
    return email


def user_mail_send(
    *,
    user,
    subject: str,
    body: str,
    html: str | None = None,
    headers: dict[str, str] | None = None,
) -> bool:
    """Mail ``user`` at their verified address (a plain-text part, and an HTML alternative
    when ``html`` is given, with extra ``headers``); nothing (False) without one. Every mail the site sends to a user goes through here (the outbox,
    tracker/mail, included; a password reset finds only verified addresses itself:
    ``password_reset_users``); the verification mail alone goes to an address that waits."""
    address = verified_email_of(user)
    if address is None:
        return False
    message = EmailMultiAlternatives(subject, body, None, [address], headers=headers or {})
    if html:
        message.attach_alternative(html, "text/html")
    message.send()
    return True


# --------------------------------------------------------------------------
# The password reset mail: asked for in the request, sent after commit by a task.

RESET_SENT_SECONDS = 86400  # how long a sent reset mail is remembered (a task delivered again)


@transaction.atomic
def password_reset_ask(*, address: str, base_url: str) -> None:
    """Ask for the reset mail of every account that verified ``address``
    (``password_reset_users``): one task, sent after commit, carries their ids (an empty
    list for an address no account verified), so the request does the same work (one
    lookup, one task sent) whether or not the address has an account, and the time of its
    answer tells nothing. The task (``password_reset_send``) mails the links to ``base_url``'s site."""
    user_ids = [user.pk for user in password_reset_users(address)]
    request_id = secrets.token_hex(8)  # names this request's mails, for a repeated delivery
    enqueue_on_commit("tracker.password_reset_send", user_ids, base_url, request_id)


def password_reset_send(*, user_ids: list[int], base_url: str, request_id: str) -> int:
    """Mail each of ``user_ids`` a password reset link (the task's work), at their verified
    address, if they are still active with a usable password and still have one. A mail of
    ``request_id`` already sent is not sent again (a task delivered twice, or retried after
    another account's mail failed), for RESET_SENT_SECONDS. Returns how many went out."""
    return sum(
        _password_reset_mail(user_id=user_id, base_url=base_url, request_id=request_id)
        for user_id in user_ids
    )


def _password_reset_mail(*, user_id: int, base_url: str, request_id: str) -> bool:
    sent_key = f"reset-mail:{request_id}:{user_id}"
    if failsafe_cache.get(sent_key):
        return False
    user = get_user_model().objects.filter(pk=user_id, is_active=True).first()
    if user is None or not user.has_usable_password():
        return False
    address = verified_email_of(user)
    if address is None:
        return False
    site = urlsplit(base_url)
    context = {  # what Django's PasswordResetForm gives its templates
        "email": address,
        "domain": site.netloc,
        "site_name": site.netloc,
        "uid": urlsafe_base64_encode(force_bytes(user.pk)),
        "user": user,
        "token": default_token_generator.make_token(user),
        "protocol": site.scheme or "http",
    }
    subject = render_to_string("registration/password_reset_subject.txt", context)
    send_mail(
        "".join(subject.splitlines()),
        render_to_string("registration/password_reset_email.html", context),
        None,
        [address],
    )
    failsafe_cache.set(sent_key, 1, RESET_SENT_SECONDS)
    return True


def verification_token(email: EmailAddress) -> str:
    """The signed token of ``email``'s verification link (it expires with its timestamp)."""
    signer = signing.TimestampSigner(salt=VERIFY_SALT)
    return signer.sign_object({"e": email.pk, "a": email.canonical})


@transaction.atomic
def email_verification_send(*, email_id: int, base_url: str) -> bool:
    """Mail the verification link of one address (the task's work). Only what was asked for
    since the last mail is sent, so a task delivered twice mails once; nothing for an address
    verified meanwhile or replaced. True if a mail went out. Only the address's row is
    locked, not its user's: a profile change holds the user's row while it replaces this
    address, and the two must not wait for each other."""
    email = (
        EmailAddress.objects.select_for_update(of=("self",))
        .select_related("user")
        .filter(pk=email_id, verified_at__isnull=True)
        .first()
    )
    if email is None or email.mail_requested_at is None:
        return False
    if email.mail_sent_at is not None and email.mail_sent_at >= email.mail_requested_at:
        return False
    path = reverse("email-verify", kwargs={"token": verification_token(email)})
    context = {
        "user": email.user,
        "address": email.address,
        "link": base_url.rstrip("/") + path,
        "days": max(1, settings.EMAIL_VERIFY_MAX_AGE_SECONDS // 86400),
    }
    send_mail(
        render_to_string("registration/email_verify_subject.txt", context).strip(),
        render_to_string("registration/email_verify_email.txt", context),
        None,
        [email.address],
    )
    email.mail_sent_at = timezone.now()
    email.save(update_fields=["mail_sent_at"])
    return True


def email_for_token(token: str) -> EmailAddress:
    """The address a verification link names, if the link is still good: signed by us, not
    older than EMAIL_VERIFY_MAX_AGE_SECONDS, and naming the address still waiting (or just
    verified) on its account."""
    signer = signing.TimestampSigner(salt=VERIFY_SALT)
    try:
        data = signer.unsign_object(token, max_age=settings.EMAIL_VERIFY_MAX_AGE_SECONDS)
    except signing.SignatureExpired:
        raise DomainError(
            "this link has expired: send a new one from your profile", code=Code.LINK_EXPIRED
        ) from None
    except signing.BadSignature:
        raise DomainError(
            "this link is not a valid verification link", code=Code.LINK_INVALID
        ) from None
    email = (
        EmailAddress.objects.select_related("user")
        .filter(pk=data.get("e"), canonical=data.get("a"))
        .first()
    )
    if email is None:
        raise DomainError(
            "this link is no longer valid: another address replaced it", code=Code.LINK_REPLACED
        )
    return email


@transaction.atomic
def email_verify(*, token: str) -> EmailAddress:
    """Verify the address a link names: it becomes the account's verified address (the user's
    ``email``), replacing the one verified before. Refused for an address another account
    verified first (one account per address, held by a unique index). Verifying twice
    changes nothing."""
    email = email_for_token(token)
    email = EmailAddress.objects.select_for_update().select_related("user").get(pk=email.pk)
    if email.verified_at is not None:
        return email
    if _verified_elsewhere(email):
        raise Conflict(VERIFIED_ELSEWHERE, code=Code.VERIFIED_ELSEWHERE, field="email")
    EmailAddress.objects.filter(user_id=email.user_id, verified_at__isnull=False).delete()
    email.verified_at = timezone.now()
    try:
        with transaction.atomic():
            email.save(update_fields=["verified_at"])
    except IntegrityError:  # another account verified it since the check
        raise Conflict(VERIFIED_ELSEWHERE, code=Code.VERIFIED_ELSEWHERE, field="email") from None
    get_user_model().objects.filter(pk=email.user_id).update(email=email.address)
    audit_record(
        action="email.verify", target=email.user, actor=email.user, data={"email_id": email.pk}
    )
    return email


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


@transaction.atomic
def api_tokens_revoke_all(*, user, reason: str) -> int:
    """Revoke every live token of ``user`` at once (their password changed: a token made
    with the old one must not outlive it). Each is audited as ``token.revoke`` with the
    ``reason``. Returns how many were revoked."""
    live = list(ApiToken.objects.select_for_update().filter(user=user, revoked_at__isnull=True))
    if not live:
        return 0
    ApiToken.objects.filter(pk__in=[t.pk for t in live]).update(revoked_at=timezone.now())
    for token in live:
        audit_record(
            action="token.revoke",
            target=user,
            actor=user,
            data={"token_id": token.fingerprint, "label": token.label, "reason": reason},
        )
    return len(live)


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
