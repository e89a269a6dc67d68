"""What a client asks to record: one hand, as sent, before any check.

The API and the pages build a :class:`HandRequest` once from what they received and hand it
to the recording services (tracker/hands/services/recording.py: ``hand_record``,
``hand_record_with_state``, ``hand_check``, ``entry_digest``), which check it against the
tournament and the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["HandRequest"]


@dataclass(frozen=True, kw_only=True)
class HandRequest:
    """One hand as asked for (docs/recording.md).

    ``entry_mode`` is ``quick`` (the results) or ``full`` (the action history) and ``entry``
    the hand in that mode; ``variant`` names the hand's game (None: the tournament's default
    variant) and ``options`` its announcements; ``table_result`` is who the table awarded the
    pots to, if said; ``number`` the hand number the client means to record (None: the next).
    Nothing is checked here: the services refuse what is wrong, naming the field.
    """

    entry_mode: str
    entry: Mapping[str, Any]
    variant: str | None = None
    options: Mapping[str, Any] | None = None
    table_result: Mapping[str, Any] | None = None
    number: int | None = None
    # A house game of the tournament's league by its slug, and a version number (None: the
    # latest); then ``variant`` and ``options`` are not given. The one way to name a house
    # game's version: a live draft names the version it was dealt under by its number, as a
    # client or an import does.
    game: str | None = None
    game_version: int | None = None

    @classmethod
    def given(cls, hand: HandRequest | None, fields: Mapping[str, Any]) -> HandRequest:
        """``hand``, or one made of its ``fields`` (the keywords of a caller that has the
        parts); a TypeError for both or for a field it does not have."""
        if hand is None:
            return cls(**fields)
        if fields:
            raise TypeError(f"a HandRequest or its fields, not both ({', '.join(fields)})")
        return hand
