"""What the engine read of a hand, and the pots it disagrees on: append-only records.

Settlement and re-evaluation keep every reading (:class:`~tracker.hands.models.Evaluation`)
and flag the pots where the engine's award differs from the one that stands
(:class:`~tracker.hands.models.Dispute`); the authority rules on them
(tracker/rulings/services.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils import timezone

from tracker.audit.services import audit_record
from tracker.core.bulk import rows_insert
from tracker.core.typed import ChipsByPlayer
from tracker.engine.version import ENGINE_VERSION
from tracker.hands.models import Dispute, Evaluation, Hand, Pot


def evaluation_row(
    *,
    source: str,
    hand: Hand | None = None,
    hand_id: int | None = None,
    outcome=None,
    reading: dict | None = None,
    error: str = "",
    job_id: int | None = None,
) -> dict:
    """The Evaluation row of what this engine version read of ``hand`` (or why it refused
    it), as field values, for :func:`evaluation_record` or a batch of ``rows_insert``.

    ``hand_id`` stands for ``hand`` where the hand was read as plain values, and ``reading``
    is ``outcome.reading()`` where the caller already made it."""
    if reading is None and outcome is not None:
        reading = outcome.reading()
    return {
        "hand_id": hand.pk if hand is not None else hand_id,
        "engine_version": ENGINE_VERSION,
        "source": source,
        "reading": reading,
        "awards": []
        if outcome is None
        else [ChipsByPlayer(pot.engine_award).to_json() for pot in outcome.pots],
        "error": error,
        "job_id": job_id,
        "created_at": timezone.now(),
    }


def evaluation_record(
    *,
    hand: Hand,
    source: str,
    outcome=None,
    error: str = "",
    job_id: int | None = None,
) -> Evaluation:
    """Keep what this engine version read (or why it refused the hand): append-only."""
    row = evaluation_row(hand=hand, source=source, outcome=outcome, error=error, job_id=job_id)
    return Evaluation.objects.create(**row)


def evaluations_record(readings: Iterable[tuple[Hand, object]], *, source: str) -> None:
    """:func:`evaluation_record` for many hands read without error, in one statement run
    for every row (tracker/core/bulk.py, ``rows_insert``)."""
    rows_insert(
        Evaluation,
        [evaluation_row(hand=hand, source=source, outcome=outcome) for hand, outcome in readings],
    )


def disputes_flag(*, hand: Hand, pots: Iterable[Pot], source: str, reason: str) -> list[Dispute]:
    """The engine disagrees with the award that stands on ``pots``: put them to the authority."""
    rows = [
        Dispute.objects.create(
            pot=pot, hand=hand, source=source, reason=reason, engine_version=ENGINE_VERSION
        )
        for pot in pots
    ]
    if rows:
        audit_record(
            action="dispute.flag",
            target=hand,
            league=hand.tournament.league,
            data={
                "hand": hand.number,
                "source": source,
                "pots": [
                    {
                        "index": d.pot.index,
                        "engine_award": d.pot.engine_award,
                        "award": d.pot.award,
                        "table_award": d.pot.table_award,
                    }
                    for d in rows
                ],
                "reason": reason,
            },
        )
    return rows


# --------------------------------------------------------------------------
# Members and the authority
