"""Recording hands in the tests: one call for the service with the entry first, and the
showdown of aces against kings that many tests record (the table agreeing or not)."""

from __future__ import annotations

from tests.factories import ACES, KINGS, showdown_entry
from tracker.hands.services.recording import hand_record
from tracker.tournaments.selectors import tournament_state


def record(tournament, by, entry, *, mode: str = "quick", **fields):
    """``hand_record`` of ``entry`` in ``tournament`` by ``by``: a quick entry unless
    ``mode`` says otherwise; ``fields`` (variant, table_result, ...) as they are."""
    return hand_record(tournament=tournament, by=by, entry_mode=mode, entry=entry, **fields)


def aces_against_kings(tournament) -> dict:
    """A quick entry of ``tournament``'s next hand: the first player by position shows
    three aces, the second three kings, after putting in 24 each; the others fold their
    ante."""
    return showdown_entry(tournament, [ACES, KINGS], 24)


def record_showdown(tournament, by, **fields):
    """``aces_against_kings`` recorded in ``tournament`` by ``by``; ``fields`` as in
    ``record``."""
    return record(tournament, by, aces_against_kings(tournament), **fields)


def record_disputed(tournament, by, **fields):
    """``record_showdown`` with a table result that says the kings won: once settled, the
    engine disagrees and the pot is disputed."""
    kings = tournament_state(tournament).next_positions()[1].player_id
    return record_showdown(tournament, by, table_result={"winners": [kings]}, **fields)
