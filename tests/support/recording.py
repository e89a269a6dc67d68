"""Recording hands in the tests: one call for the service with the entry first."""

from __future__ import annotations

from tracker.hands.services.recording import hand_record


def record(tournament, by, entry, *, mode: str = "quick", **fields):
    """``hand_record`` of ``entry`` in ``tournament`` by ``by``: a quick entry unless
    ``mode`` says otherwise; ``fields`` (variant, table_result, ...) as they are."""
    return hand_record(tournament=tournament, by=by, entry_mode=mode, entry=entry, **fields)
