"""The one error type of homegame.

Every refusal in the project -- a card that does not parse, an illegal bet,
a hand recorded after the game is over -- is a :class:`DomainError` (``Conflict``,
a subclass, lives outside the engine, in tracker/core/errors.py). Something missing or
not allowed is not a domain error: ``NotFound`` and ``PermissionDenied``
(tracker/core/errors.py) share only the shape, :class:`Refusal`, so a page that shows a
domain error on its form never catches them by mistake (they reach Django as its 404 and
403). The REST API maps every refusal, through one exception handler, to one body::

    {"error": {"code": "invalid_card", "message": "...", "fields": {"players[0].down[1]": ["..."]}}}

The engine raises it too, so this module is pure Python (no Django import).

>>> err = DomainError("'Zz' is not a card", code="invalid_card", field="players[0].down[1]")
>>> err.as_dict()["fields"]
{'players[0].down[1]': ["'Zz' is not a card"]}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum


class Code(StrEnum):
    """Why a hand or an event was refused (the API's ``error.code``)."""

    ILLEGAL_ACTION = "illegal_action"
    INVALID_ACTION = "invalid_action"
    OUT_OF_TURN = "out_of_turn"
    HAND_OVER = "hand_over"
    BRING_IN = "bring_in"
    BET_SIZE = "bet_size"
    RAISE_CAP = "raise_cap"
    REOPEN = "reopen"
    DEAL_COUNT = "deal_count"
    COMMUNITY_CARD = "community_card"
    INVALID_CARD = "invalid_card"
    DUPLICATE_CARD = "duplicate_card"
    UNKNOWN_CARD = "unknown_card"
    INVALID_SHOW = "invalid_show"
    INVALID_BUY = "invalid_buy"
    INVALID_CHOICE = "invalid_choice"
    DECLARATION = "declaration"
    INCOMPLETE_HAND = "incomplete_hand"
    INVALID_HAND = "invalid_hand"
    UNKNOWN_FIELD = "unknown_field"
    INVALID_VARIANT = "invalid_variant"
    PLAYER_COUNT = "player_count"
    FINISHING_STACKS = "finishing_stacks_mismatch"
    OVER_STACK = "over_stack"
    MISSING_ANTE = "missing_ante"
    UNMATCHED = "unmatched"
    MISSING_CARDS = "missing_cards"
    INVALID_STREET = "invalid_street"

    # refusals outside the procedure: stakes, chips, showdowns, nights, announcements
    INVALID = "invalid"
    INVALID_AMOUNT = "invalid_amount"
    INVALID_CHIPS = "invalid_chips"
    INVALID_SCHEDULE = "invalid_schedule"
    INVALID_SETTLE_UP = "invalid_settle_up"
    INVALID_STAKES = "invalid_stakes"
    POT_WITHOUT_CONTENDER = "pot_without_contender"
    REQUIRED = "required"
    TOO_MANY_LEVELS = "too_many_levels"
    TOO_MANY_PLAYERS = "too_many_players"
    TOURNAMENT_OVER = "tournament_over"
    UNKNOWN_ANNOUNCEMENT = "unknown_announcement"
    WRONG_CARD_COUNT = "wrong_card_count"

    def __str__(self) -> str:
        return self.value


class Refusal(Exception):
    """A refusal with a machine code, a human message and the field paths at fault: the
    shape of :class:`DomainError` and of tracker/core/errors.py's ``NotFound`` and
    ``PermissionDenied``, which the API answers with the same body."""

    code: str = "invalid"

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        field: str | None = None,
        fields: Mapping[str, Sequence[str]] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = str(code)
        merged: dict[str, list[str]] = {k: list(v) for k, v in (fields or {}).items()}
        if field is not None:
            merged.setdefault(field, []).append(message)
        self.fields = merged

    def as_dict(self) -> dict:
        """The ``error`` object of the API error body."""
        return {"code": self.code, "message": self.message, "fields": self.fields}

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return (
            f"{type(self).__name__}({self.message!r}, code={self.code!r}, fields={self.fields!r})"
        )


class DomainError(Refusal):
    """What the game, the rules or a form's input refuse (a page shows it on its form)."""
