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
            self.code = code
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
