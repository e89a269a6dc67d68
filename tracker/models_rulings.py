"""Disputes, rulings, engine evaluations and the audit log: append-only records.

Rows of these models are written once and never changed or deleted:

- ``save()`` refuses to update a stored row and ``delete()`` refuses outright;
- their querysets refuse ``update()``, ``delete()`` and ``bulk_update()``;
- on PostgreSQL a trigger (migration ``rulings_audit``) raises on any UPDATE or
  DELETE of their rows, whatever client writes to the database.

Foreign keys from these rows to hands, pots and users are ``PROTECT``: a hand
that was evaluated, disputed or ruled on cannot be deleted, so nothing of its
history can be lost. The audit log holds no foreign keys at all (plain ids and
names), so it outlives anything it mentions.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

__all__ = [
    "AppendOnlyError",
    "AuditEntry",
    "Dispute",
    "DisputeSource",
    "Evaluation",
    "EvaluationSource",
    "Ruling",
    "RulingResult",
]


class AppendOnlyError(RuntimeError):
    """A stored append-only row was about to be changed or deleted."""


class AppendOnlyQuerySet(models.QuerySet):
    def _refuse(self, what: str):
        raise AppendOnlyError(f"{self.model.__name__} rows are append-only: {what} refused")

    def update(self, **kwargs):
        self._refuse("update")

    def delete(self):
        self._refuse("delete")

    def bulk_update(self, objs, fields, batch_size=None):
        self._refuse("bulk_update")

    def update_or_create(self, defaults=None, create_defaults=None, **kwargs):
        self._refuse("update_or_create")


class AppendOnlyModel(models.Model):
    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args, **kwargs):
        if not self._state.adding:
            raise AppendOnlyError(
                f"{type(self).__name__} rows are append-only: a stored row cannot be changed"
            )
        kwargs["force_insert"] = True
        kwargs.pop("force_update", None)
        kwargs.pop("update_fields", None)
        super().save(*args, **kwargs)

    def delete(self, *args, **kwargs):
        raise AppendOnlyError(f"{type(self).__name__} rows are append-only: delete refused")


class EvaluationSource(models.TextChoices):
    SETTLEMENT = "settlement", "Settlement"
    REEVALUATION = "reevaluation", "Re-evaluation"


class Evaluation(AppendOnlyModel):
    """One reading of a hand by one engine version (every settlement and re-evaluation)."""

    hand = models.ForeignKey("tracker.Hand", on_delete=models.PROTECT, related_name="evaluations")
    engine_version = models.CharField(max_length=32)
    source = models.CharField(max_length=16, choices=EvaluationSource.choices)
    # The engine's full reading (as Hand.engine_reading), or null when the engine refused the hand.
    reading = models.JSONField(null=True, blank=True)
    # The engine's award per pot, [{player_id: chips}, ...], for a quick comparison of versions.
    awards = models.JSONField(default=list, blank=True)
    error = models.TextField(blank=True)
    # The re-evaluation job that made it (a plain id: jobs are not part of the record).
    job_id = models.BigIntegerField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["hand", "id"]
        indexes = [models.Index(fields=["engine_version"])]

    def __str__(self) -> str:
        return f"{self.hand} read by engine {self.engine_version} ({self.source})"


class DisputeSource(models.TextChoices):
    SETTLEMENT = "settlement", "Flagged at settlement"
    REEVALUATION = "reevaluation", "Flagged by a re-evaluation"
    MEMBER = "member", "Raised by a member"


class Dispute(AppendOnlyModel):
    """A pot put to the league's authority: flagged by the engine, or raised by a member."""

    pot = models.ForeignKey("tracker.Pot", on_delete=models.PROTECT, related_name="disputes")
    hand = models.ForeignKey("tracker.Hand", on_delete=models.PROTECT, related_name="disputes")
    source = models.CharField(max_length=16, choices=DisputeSource.choices)
    reason = models.TextField()
    raised_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    engine_version = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["pot", "id"]

    def __str__(self) -> str:
        return f"dispute on {self.pot} ({self.source})"


class RulingResult(models.TextChoices):
    ENGINE = "engine", "The engine's result stands"
    TABLE = "table", "The table's result stands"
    AWARD = "award", "An award set by the authority"


class Ruling(AppendOnlyModel):
    """The authority's decision on a pot: which result stands, why, who and when.

    ``award`` is the result imposed; ``previous_award`` what stood before it;
    ``correction`` the chips moved (``award - previous_award`` per player, written
    to the ledger as correction entries). ``override`` ("Rob is right") is set when
    the result kept is not the engine's. A later ruling on the same pot supersedes
    this one (``superseded_by``); both stay.
    """

    pot = models.ForeignKey("tracker.Pot", on_delete=models.PROTECT, related_name="rulings")
    hand = models.ForeignKey("tracker.Hand", on_delete=models.PROTECT, related_name="rulings")
    result = models.CharField(max_length=8, choices=RulingResult.choices)
    award = models.JSONField()
    previous_award = models.JSONField()
    correction = models.JSONField(default=dict, blank=True)
    # What the engine and the table said when the ruling was made.
    engine_award = models.JSONField()
    table_award = models.JSONField(null=True, blank=True)
    engine_version = models.CharField(max_length=32, blank=True)
    override = models.BooleanField(default=False)
    reason = models.TextField()
    ruled_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    supersedes = models.OneToOneField(
        "self",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="superseded_by",
    )
    # The latest dispute on the pot when the ruling was made (the one it answers), if any.
    dispute = models.ForeignKey(
        Dispute, on_delete=models.PROTECT, null=True, blank=True, related_name="rulings"
    )
    # Numbers of later hands flagged for review because of this ruling's correction.
    flagged_hands = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(default=timezone.now, db_index=True)

    class Meta:
        ordering = ["pot", "id"]

    def __str__(self) -> str:
        return f"ruling {self.pk} on {self.pot}: {self.result}"


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
