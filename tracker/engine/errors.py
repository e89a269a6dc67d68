"""The one error type of homegame.

Every refusal in the project -- a card that does not parse, an illegal bet,
a hand recorded after the game is over, a permission denied -- is a
:class:`DomainError` (or a subclass: ``NotFound``, ``PermissionDenied`` and
``Conflict`` live outside the engine, in tracker/core/errors.py). The REST API
maps it, through one exception handler, to one body::

    {"error": {"code": "invalid_card", "message": "...", "fields": {"players[0].down[1]": ["..."]}}}

The engine raises it too, so this module is pure Python (no Django import).

>>> err = DomainError("'Zz' is not a card", code="invalid_card", field="players[0].down[1]")
>>> err.as_dict()["fields"]
{'players[0].down[1]': ["'Zz' is not a card"]}
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


class DomainError(Exception):
    """A refusal with a machine code, a human message and the field paths at fault."""

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
