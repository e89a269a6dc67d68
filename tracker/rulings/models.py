"""Rulings: the authority's append-only decisions on disputed pots.

Foreign keys from these rows to hands, pots and users are ``PROTECT``: a hand
that was evaluated, disputed or ruled on cannot be deleted, so nothing of its
history can be lost.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from tracker.core.models import AppendOnlyModel
from tracker.core.typed import chips_property
from tracker.hands.models import Dispute


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

    award_chips = chips_property("award", "The award imposed, by player id.")
    previous_award_chips = chips_property("previous_award", "What stood before, by player id.")
    correction_chips = chips_property("correction", "Chips moved, by player id.")

    def __str__(self) -> str:
        return f"ruling {self.pk} on {self.pot}: {self.result}"
