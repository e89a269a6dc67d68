"""Read and write PHH hand histories (Poker Hand History, TOML, spec 0.0.2).

A ``.phh`` file holds one hand: top-level PHH fields. A ``.phhs`` file
holds many: one table per hand, ``[1]``, ``[2]``, ... (the labels are kept
for error messages). :func:`loads` reads either and returns a list of hand
mappings -- the structure :func:`tracker.engine.replay_hand` takes; the
REST API takes the same structure as JSON. :func:`dumps` writes one hand
(a mapping) as ``.phh`` text or a list of hands as ``.phhs`` text.

TOML has no null. In our per-player fields (``_seventh_card``,
``_declarations``) an empty string ``""`` stands for "no entry", and in
``_options`` the string ``"none"`` stands for a nullable announcement set to
null (``low_qualifier = "none"``: no qualifier; ``same_rank_wild = "none"``
keeps its own meaning). :func:`loads` turns both back
into ``None``; :func:`dumps` writes them so. docs/phh.md lists every field.

>>> hands = loads('''
... variant = "F7S"
... antes = [1, 1]
... bring_in = 2
... small_bet = 5
... big_bet = 10
... starting_stacks = [50, 50]
... actions = ["d dh p1 AsKs2c", "d dh p2 QhQd3c", "p1 pb", "p2 f"]
... _declarations = ["", ""]
... ''')
>>> hands[0]["_declarations"], len(hands)
([None, None], 1)
>>> print(dumps(hands[0]).splitlines()[1])
antes = [1, 1]
"""

from __future__ import annotations

import datetime
import json
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from .announcements import options_from_text
from .errors import DomainError
from .procedure import OUR_FIELDS, PHH_OPTIONAL, PHH_REQUIRED, ProcedureError, replay_hand

__all__ = ["PHHError", "dump", "dumps", "iter_hands", "load", "loads", "replay_text"]

_NULLABLE_LISTS = ("_seventh_card", "_declarations")
_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


class PHHError(DomainError):
    """A PHH text that cannot be read: bad TOML, or a top-level entry that is
    neither a PHH field nor a hand table."""

    code = "invalid_phh"

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        hand: str | int | None = None,
        field: str | None = None,
    ) -> None:
        super().__init__(message, field=field)
        self.source = source
        self.hand = hand

    def __str__(self) -> str:
        where = ", ".join(
            p for p in (self.source, None if self.hand is None else f"hand {self.hand}") if p
        )
        return f"{where}: {self.message}" if where else self.message


def _label(key: str) -> str | int:
    return int(key) if key.isdigit() else key


def _from_toml(table: Mapping[str, Any]) -> dict:
    hand = dict(table)
    options = hand.get("_options")
    if isinstance(options, Mapping):
        hand["_options"] = options_from_text(options)
    for name in _NULLABLE_LISTS:
        value = hand.get(name)
        if isinstance(value, list):
            hand[name] = [None if v == "" else v for v in value]
    return hand


# A PHH file is shallow: a .phhs table of hands, a hand's fields, lists of actions or
# cards, an options table. Anything deeper is refused before it is read further.
MAX_DEPTH = 16


def _check_shape(data: dict, source: str | None) -> None:
    """Refuse nesting deeper than ``MAX_DEPTH`` and text with a NUL character (an escape
    such as ``"\\u0000"`` is valid TOML, but no PHH field may hold one)."""
    stack: list[tuple[object, int, str]] = [(data, 1, "")]
    while stack:
        value, depth, path = stack.pop()
        if isinstance(value, str):
            if "\x00" in value:
                raise PHHError("a text holds a NUL character", source=source, field=path or None)
            continue
        if not isinstance(value, (dict, list)):
            continue
        if depth > MAX_DEPTH:
            raise PHHError(
                f"not a PHH file: arrays or tables nested deeper than {MAX_DEPTH} levels",
                source=source,
            )
        if isinstance(value, dict):
            for key, item in value.items():
                if "\x00" in key:
                    raise PHHError("a key holds a NUL character", source=source)
                stack.append((item, depth + 1, f"{path}.{key}" if path else key))
        else:
            for index, item in enumerate(value):
                stack.append((item, depth + 1, f"{path}[{index}]"))


def iter_hands(text: str, *, source: str | None = None) -> list[tuple[str | int, dict]]:
    """The hands of a ``.phh`` or ``.phhs`` text as ``(label, hand)`` pairs.

    A ``.phh`` hand is labelled 1; a ``.phhs`` hand by its table name.
    """
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"not valid TOML: {exc}", source=source) from None
    except RecursionError:
        raise PHHError(
            f"not a PHH file: arrays or tables nested deeper than {MAX_DEPTH} levels",
            source=source,
        ) from None
    _check_shape(data, source)
    if "variant" in data or "actions" in data:
        return [(1, _from_toml(data))]
    if not data:
        raise PHHError("no hand: the text is empty", source=source)
    hands = []
    for key, value in data.items():
        if not isinstance(value, dict):
            raise PHHError(
                f"{key!r} is neither a PHH field of a .phh hand nor a hand table "
                "([1], [2], ...) of a .phhs file",
                source=source,
                field=key,
            )
        hands.append((_label(key), _from_toml(value)))
    return hands


def loads(text: str, *, source: str | None = None) -> list[dict]:
    """The hands of a ``.phh`` (one) or ``.phhs`` (many) text, in file order."""
    return [hand for _, hand in iter_hands(text, source=source)]


def load(fp: IO[str] | IO[bytes] | str | Path) -> list[dict]:
    """:func:`loads` of a file object or a path."""
    if isinstance(fp, (str, Path)):
        path = Path(fp)
        return loads(path.read_text(encoding="utf-8"), source=str(path))
    data = fp.read()
    if isinstance(data, bytes):
        data = data.decode("utf-8")
    return loads(data, source=getattr(fp, "name", None))


# --------------------------------------------------------------------------
# Writing


def _key(key: str) -> str:
    return key if _BARE_KEY.match(key) else json.dumps(key, ensure_ascii=False)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value:
            return "nan"
        if value in (float("inf"), float("-inf")):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, Mapping):
        items = [f"{_key(str(k))} = {_value(v)}" for k, v in value.items() if v is not None]
        return "{ " + ", ".join(items) + " }" if items else "{}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} in PHH")


def _to_toml(hand: Mapping[str, Any]) -> dict:
    out: dict[str, Any] = {}
    order = list(PHH_REQUIRED) + sorted(k for k in hand if k in PHH_OPTIONAL)
    order += [k for k in OUR_FIELDS if k in hand]
    order += [k for k in hand if k not in order]
    for key in order:
        if key not in hand or hand[key] is None:
            continue
        value = hand[key]
        if key == "antes" and isinstance(value, int) and "starting_stacks" in hand:
            value = [value] * len(hand["starting_stacks"])
        elif key == "_options" and isinstance(value, Mapping):
            value = {k: ("none" if v is None else v) for k, v in value.items()}
        elif key in _NULLABLE_LISTS and isinstance(value, (list, tuple)):
            value = ["" if v is None else v for v in value]
        out[key] = value
    return out


def _dump_one(hand: Mapping[str, Any]) -> str:
    return "".join(f"{_key(k)} = {_value(v)}\n" for k, v in _to_toml(hand).items())


def dumps(hands: Mapping[str, Any] | Sequence[Mapping[str, Any]]) -> str:
    """One hand (a mapping) as ``.phh`` text, or a list of hands as ``.phhs`` text
    with tables ``[1]``, ``[2]``, ..."""
    if isinstance(hands, Mapping):
        return _dump_one(hands)
    return "\n".join(f"[{k}]\n{_dump_one(hand)}" for k, hand in enumerate(hands, start=1))


def dump(hands: Mapping[str, Any] | Sequence[Mapping[str, Any]], fp: IO[str] | str | Path) -> None:
    """:func:`dumps` to a text file object or a path."""
    text = dumps(hands)
    if isinstance(fp, (str, Path)):
        Path(fp).write_text(text, encoding="utf-8")
    else:
        fp.write(text)


# --------------------------------------------------------------------------
# Replaying a file


def replay_text(text: str, *, source: str | None = None, **replay_options: Any) -> Iterable[dict]:
    """Replay every hand of a PHH text; yield one JSON-ready dict per hand:
    ``{"ok": true, "hand", "contributions", "pots", "showdown", "payouts",
    "finishing_stacks"}`` or ``{"ok": false, "hand", "error": {"hand",
    "action_index", "action", "message", "code", "field"}}``.

    A text that is not PHH at all raises :class:`PHHError`.
    """
    for label, hand in iter_hands(text, source=source):
        try:
            result = replay_hand(hand, **replay_options).to_dict()
        except DomainError as exc:
            if isinstance(exc, ProcedureError):
                exc.hand, exc.source = label, source
                action_index, action = exc.action_index, exc.action
            else:
                action_index = action = None
            yield {
                "ok": False,
                "hand": label,
                "error": {
                    "hand": label,
                    "action_index": action_index,
                    "action": action,
                    "message": str(exc),
                    "code": exc.code,
                    "field": next(iter(exc.fields), None),
                },
            }
            continue
        yield {
            "ok": True,
            "hand": label,
            "contributions": result["contributions"],
            "pots": result["pots"],
            "showdown": result["showdown"],
            "payouts": result["payouts"],
            "finishing_stacks": result["finishing_stacks"],
        }
