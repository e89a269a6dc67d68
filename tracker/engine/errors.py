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
    INVALID_PAY = "invalid_pay"
    INVALID_CHOICE = "invalid_choice"
    DECLARATION = "declaration"
    INCOMPLETE_HAND = "incomplete_hand"
    INVALID_HAND = "invalid_hand"
    UNKNOWN_FIELD = "unknown_field"
    INVALID_VARIANT = "invalid_variant"
    INVALID_GAME = "invalid_game"
    UNKNOWN_GAME = "unknown_game"
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

    # refusals of the site's services (leagues, nights, money, mail, links, accounts)
    ALREADY_DISPUTED = "already_disputed"
    AWARD_REQUIRED = "award_required"
    AWARD_TOTAL = "award_total"
    BELOW_ZERO = "below_zero"
    CLIENT_ID_REUSED = "client_id_reused"
    DEAL_NEEDS_EVERYONE = "deal_needs_everyone"
    DRAFT_CLOSED = "draft_closed"
    DRAFT_CONFLICT = "draft_conflict"
    DUPLICATE = "duplicate"
    ENTRY_FINAL = "entry_final"
    ENTRY_UNDONE = "entry_undone"
    FILE_TOO_LARGE = "file_too_large"
    HAND_EXISTS = "hand_exists"
    IMPORT_FAILED = "import_failed"
    INVALID_CURRENCY = "invalid_currency"
    INVALID_DAYS = "invalid_days"
    INVALID_DEAL = "invalid_deal"
    INVALID_EMAIL = "invalid_email"
    INVALID_JSON = "invalid_json"
    INVALID_LOCALE = "invalid_locale"
    INVALID_NIGHT = "invalid_night"
    INVALID_PARTY = "invalid_party"
    INVALID_PHH = "invalid_phh"
    INVALID_SEASON = "invalid_season"
    INVALID_SIGNUP = "invalid_signup"
    INVALID_TIME_ZONE = "invalid_time_zone"
    INVALID_VERSION = "invalid_version"
    LAST_ADMIN = "last_admin"
    LINK_EXPIRED = "link_expired"
    LINK_INVALID = "link_invalid"
    LINK_REPLACED = "link_replaced"
    LOCKED = "locked"
    NIGHT_CANCELLED = "night_cancelled"
    NIGHT_NOT_OVER = "night_not_over"
    NIGHT_OVER = "night_over"
    NIGHT_STARTED = "night_started"
    NOT_AUTHENTICATED = "not_authenticated"
    NOT_CHECKED_IN = "not_checked_in"
    NOT_DEALT_IN = "not_dealt_in"
    NOT_ELIGIBLE = "not_eligible"
    NOT_INVALID = "not_invalid"
    NOT_IN_LEAGUE = "not_in_league"
    NOT_IN_SETTLE_UP = "not_in_settle_up"
    NOT_ON_ROSTER = "not_on_roster"
    NOT_SETTLED = "not_settled"
    NOT_STILL_IN = "not_still_in"
    NO_TABLE_RESULT = "no_table_result"
    NO_VERIFIED_ADDRESS = "no_verified_address"
    PLAYER_OUT = "player_out"
    REASON_REQUIRED = "reason_required"
    REASON_TOO_LONG = "reason_too_long"
    SEATS_FULL = "seats_full"
    STALE_DRAFT = "stale_draft"
    START_REFUSED = "start_refused"
    TABLE_RESULT = "table_result"
    THROTTLED = "throttled"
    TOO_FEW_PLAYERS = "too_few_players"
    UNCHANGED = "unchanged"
    UNKNOWN_PLAYER = "unknown_player"
    VERIFIED_ELSEWHERE = "verified_elsewhere"
    VERSION_NOT_KEPT = "version_not_kept"

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
