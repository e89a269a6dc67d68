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
