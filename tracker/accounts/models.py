"""Accounts: the API tokens a user keeps (several, each with a label)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class ApiToken(models.Model):
    """One API token of a user, sent as ``Authorization: Token <key>``.

    The key itself is never stored: ``digest`` is its SHA-256 (hex), and the key is shown
    once, when the token is created. ``fingerprint`` (``tok_`` and the digest's first 12
    characters) names the token in the audit log and on the profile page. A revoked token
    stays, with ``revoked_at``, so the profile page can say when it stopped working.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    label = models.CharField(max_length=80)
    digest = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(default=timezone.now)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "revoked_at"], name="apitoken_user_live")]

    def __str__(self) -> str:
        return f"{self.label} ({self.fingerprint}) of {self.user}"

    @property
    def fingerprint(self) -> str:
        return "tok_" + self.digest[:12]

    @property
    def is_live(self) -> bool:
        return self.revoked_at is None


class AccountName(models.Model):
    """The username of an account as the uniqueness rules see it (tracker/accounts/names.py).

    ``canonical`` (NFKC, case-folded) and ``skeleton`` (the UTS #39 confusable skeleton) are
    each unique, so no two accounts are the same name ignoring case, nor names a reader
    takes for one another, even when two sign-ups race (the database refuses the second).
    Kept in step with the username on every save of a user (tracker/accounts/signals.py).
    Both are empty (NULL) for an account older than the rule whose name collides with an
    earlier account's (migration 0021 reports them): it keeps working, and its name stays
    reserved by the earlier one.
    """

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="account_name",
    )
    # NULL, not "": several accounts may hold no claim under the unique indexes.
    canonical = models.CharField(max_length=150, unique=True, null=True)  # noqa: DJ001
    skeleton = models.CharField(max_length=600, unique=True, null=True)  # noqa: DJ001

    def __str__(self) -> str:
        return f"{self.canonical} ({self.user_id})"


class EmailAddress(models.Model):
    """An e-mail address of an account: at most one verified and one not yet verified.

    Only a verified address receives mail (a password reset, anything the site sends),
    except the verification mail itself, which carries a signed link that expires
    (tracker/accounts/services.py, ``email_verify``). The user's ``email`` field mirrors the
    verified address (empty without one), so nothing reading it finds an unverified address.
    A new address replaces the one waiting for verification; verifying it replaces the
    verified one. One address is verified by one account only: the database holds it (a
    partial unique index on ``canonical``, the address lower-cased).
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="email_addresses"
    )
    address = models.EmailField(max_length=254)
    canonical = models.CharField(max_length=254)
    created_at = models.DateTimeField(default=timezone.now)
    verified_at = models.DateTimeField(null=True, blank=True)
    # The verification mail: when one was last asked for, and when one was last sent (the
    # task sends only what was asked for since, so a task delivered twice mails once).
    mail_requested_at = models.DateTimeField(null=True, blank=True)
    mail_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-verified_at", "-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(verified_at__isnull=True),
                name="email_one_unverified_per_user",
            ),
            models.UniqueConstraint(
                fields=["user"],
                condition=models.Q(verified_at__isnull=False),
                name="email_one_verified_per_user",
            ),
            models.UniqueConstraint(
                fields=["canonical"],
                condition=models.Q(verified_at__isnull=False),
                name="email_verified_by_one_account",
            ),
        ]

    def __str__(self) -> str:
        state = "verified" if self.verified_at else "not verified"
        return f"{self.address} ({state}) of {self.user}"

    @property
    def is_verified(self) -> bool:
        return self.verified_at is not None
