"""Models of the REST API: stored responses for Idempotency-Key retries.

The table keeps its original name (``tracker_idempotencyrecord``): the model belongs to the
``tracker`` app label, so no data moved when it came here.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class IdempotencyRecord(models.Model):
    """The first response to a request sent with an Idempotency-Key, to replay on retries."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=128)
    request_hash = models.CharField(max_length=64)
    status_code = models.PositiveSmallIntegerField()
    body = models.JSONField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        app_label = "tracker"
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_unique")
        ]

    def __str__(self) -> str:
        return f"idempotency key {self.key}"
