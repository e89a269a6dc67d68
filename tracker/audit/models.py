"""The audit log: one append-only row per write.

The audit log holds no foreign keys at all (plain ids and names), so it
outlives anything it mentions.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from tracker.core.models import AppendOnlyModel


class AuditEntry(AppendOnlyModel):
    """One write: who, when, what, through which channel, from which address.

    No foreign keys: ids and names are copied, so an entry outlives what it names.
    ``token_id`` is a fingerprint of the API token used (never the token itself).
    """

    created_at = models.DateTimeField(default=timezone.now, db_index=True)
    action = models.CharField(max_length=48, db_index=True)
    actor_id = models.BigIntegerField(null=True, blank=True)
    actor = models.CharField(max_length=150)  # username, "system" or "anonymous"
    channel = models.CharField(max_length=16)  # session, token, password, system
    token_id = models.CharField(max_length=24, blank=True)
    ip = models.GenericIPAddressField(null=True, blank=True)
    league_id = models.BigIntegerField(null=True, blank=True)
    league_slug = models.CharField(max_length=60, blank=True)
    target_type = models.CharField(max_length=32, blank=True)
    target_id = models.CharField(max_length=64, blank=True)
    target = models.CharField(max_length=200, blank=True)
    data = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["league_id", "-id"], name="audit_league_recent"),
            models.Index(fields=["target_type", "target_id"], name="audit_target"),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M:%S} {self.actor} {self.action} {self.target}"
