"""Field paths of a DomainError as data: ``entry.seats[1].down[0]`` <-> ``("entry", "seats", 1,
"down", 0)``.

Services move an engine path to where the input was given (an engine ``put_in[2]`` is the
quick entry's ``entry.seats[k].put_in``; an entry's ``buys[0]`` is a PHH file's ``_buys[0]``)
and the pages put an error next to the input at fault (web/errors.py). Both work on the
parts of a path through small tables, never on the text of a message.

>>> p = FieldPath.parse("shown[1].down[0]")
>>> p.parts
('shown', 1, 'down', 0)
>>> str(FieldPath(("entry", "seats", 3)) + p.parts[2:])
'entry.seats[3].down[0]'
"""

from __future__ import annotations

from dataclasses import dataclass

Part = str | int


@dataclass(frozen=True)
class FieldPath:
    parts: tuple[Part, ...]

    @classmethod
    def parse(cls, text: str) -> FieldPath:
        """Read ``a.b[2].c`` (names separated by dots, list indexes in brackets)."""
        parts: list[Part] = []
        for chunk in text.split(".") if text else []:
            name, _, rest = chunk.partition("[")
            if name:
                parts.append(name)
            while rest:
                index, _, rest = rest.partition("]")
                parts.append(int(index) if index.isdigit() else index)
                rest = rest.removeprefix("[")
        return cls(tuple(parts))

    def __str__(self) -> str:
        out = ""
        for part in self.parts:
            if isinstance(part, int):
                out += f"[{part}]"
            else:
                out += f".{part}" if out else part
        return out

    def __add__(self, more: tuple[Part, ...]) -> FieldPath:
        return FieldPath(self.parts + tuple(more))

    def __len__(self) -> int:
        return len(self.parts)

    @property
    def head(self) -> Part | None:
        return self.parts[0] if self.parts else None

    def startswith(self, *prefix: Part) -> bool:
        return self.parts[: len(prefix)] == prefix

    def after(self, *prefix: Part) -> FieldPath:
        """The rest of the path after ``prefix`` (which it must start with)."""
        return FieldPath(self.parts[len(prefix) :])

    def seat(self, *prefix: Part) -> int | None:
        """The list index right after ``prefix`` (``entry.seats[k]...`` -> k), if any."""
        if self.startswith(*prefix) and len(self.parts) > len(prefix):
            index = self.parts[len(prefix)]
            return index if isinstance(index, int) else None
        return None
