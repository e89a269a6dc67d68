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
import functools
import json
import re
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any, NamedTuple

from .announcements import options_from_text
from .cards import format_card
from .errors import DomainError
from .events import (
    BET_EVENTS,
    BringIn,
    Buy,
    Call,
    Check,
    CheckOrCall,
    ChooseSeventh,
    CompleteBetOrRaise,
    DealBoard,
    DealHole,
    Declare,
    Fold,
    Muck,
    Pay,
    Show,
    TableEvent,
)
from .games import GameDefinition, GameDefinitionError, load_game
from .stud import Code, ProcedureError

__all__ = [
    "OUR_FIELDS",
    "PHH_OPTIONAL",
    "PHH_REQUIRED",
    "PHH_VARIANT",
    "PHHActionError",
    "PHHError",
    "dump",
    "dumps",
    "format_action",
    "game_from_phh",
    "history_entry",
    "iter_hands",
    "iter_sections",
    "Section",
    "StreamedHand",
    "stream_hands",
    "load",
    "loads",
    "parse_action",
    "replay_text",
]

PHH_VARIANT = "F7S"
PHH_REQUIRED = (
    "variant",
    "antes",
    "bring_in",
    "small_bet",
    "big_bet",
    "starting_stacks",
    "actions",
)
PHH_OPTIONAL = frozenset(
    (
        "author event url venue address city region postal_code country time time_zone "
        "time_zone_abbreviation day month year hand level seats seat_count table players "
        "finishing_stacks winnings currency currency_symbol ante_trimming_status time_limit "
        "time_banks"
    ).split()
)
OUR_FIELDS = ("_variant", "_options", "_seventh_card", "_buys", "_declarations", "_game")
#: Our per-seat PHH fields and the keys a recorded full-history entry keeps them under.
ENTRY_FIELDS = {"_seventh_card": "seventh_card", "_buys": "buys", "_declarations": "declarations"}

_NULLABLE_LISTS = ("_seventh_card", "_declarations")
# The parts of a game definition (``_game``) that may be null: written "none" in TOML.
_GAME_NULLABLE = (("max_players",), ("buy",), ("buy", "price"), ("pot", "low"))
_GAME_NULLABLE += (("pot", "low", "qualifier"),)
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
        line: int | None = None,
    ) -> None:
        super().__init__(message, field=field)
        self.source = source
        self.hand = hand
        self.line = line  # the file's line at fault (1-based), when known

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
    if isinstance(hand.get("_game"), Mapping):
        hand["_game"] = _game_nulls(hand["_game"], "none", None)
    return hand


def _game_nulls(game: Mapping[str, Any], old: Any, new: Any) -> dict:
    """A copy of the definition ``game`` with ``old`` at its nullable parts made ``new``
    (``"none"`` -> ``None`` when read, the other way when written)."""
    out = json.loads(json.dumps(game, default=str))
    for path in _GAME_NULLABLE:
        node = out
        for key in path[:-1]:
            node = node.get(key) if isinstance(node, dict) else None
        if isinstance(node, dict) and path[-1] in node and node[path[-1]] == old:
            node[path[-1]] = new
    return out


def game_from_phh(value: Any) -> GameDefinition:
    """The game definition of a hand's ``_game`` field (as :func:`loads` gives it: the
    definition's JSON, nulls included), checked: a :class:`PHHError` names the part at
    fault under ``_game``.

    >>> from tracker.engine.game_presets import PRESETS
    >>> from tracker.engine.games import dump_game
    >>> text = dumps({"variant": "F7S", "_game": dump_game(PRESETS["razz"])})
    >>> game_from_phh(loads(text)[0]["_game"]) == PRESETS["razz"]
    True
    >>> game_from_phh({"name": "x", "title": "X", "pot": {"kind": "pot_limit"}})
    Traceback (most recent call last):
    ...
    tracker.engine.phh.PHHError: 'pot_limit' is not one of high, low, high_low, high_chicago, low_chicago
    >>> game_from_phh([])
    Traceback (most recent call last):
    ...
    tracker.engine.phh.PHHError: must be a table: a game definition (docs/engine.md)
    """
    if not isinstance(value, Mapping):
        raise PHHError("must be a table: a game definition (docs/engine.md)", field="_game")
    try:
        return load_game(value)
    except GameDefinitionError as exc:
        path = next(iter(exc.fields), "")
        where = "_game" if path in ("", "definition") else f"_game.{path}"
        raise PHHError(exc.message, field=where) from None


# A PHH file is shallow: a .phhs table of hands, a hand's fields, lists of actions or
# cards, an options table. Anything deeper is refused before it is read further.
MAX_DEPTH = 16


def _may_break_shape(text: str) -> bool:
    r"""Whether a TOML text could hold what :func:`_check_shape` refuses: a NUL can only come
    from an escape (TOML refuses the raw character), and each level of nesting takes a ``[``,
    a ``{`` or a ``.`` (of a dotted key), so a text with fewer of those cannot nest deeper.

    >>> _may_break_shape('a = [1, 2]'), _may_break_shape('a = "\\u0000"')
    (False, True)
    """
    if "\\u0000" in text or "\\U00000000" in text:
        return True
    return text.count("[") + text.count("{") + text.count(".") >= MAX_DEPTH


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


# --------------------------------------------------------------------------
# A fast path for the plain TOML that PHH writers (ours among them) produce

# What the fast path reads, a line at a time: at most one table header ``[key]`` before any
# field, then ``key = value`` lines whose value is a decimal integer, a basic string without
# escapes, a boolean, or an array of those on one line. Anything else (a comment, an escape,
# a float, a dotted key, a second header, an array over several lines, a key given twice, a
# carriage return) is left to ``tomllib``, which reads the text whole: the same result, or
# the same error, as ``tomllib`` gives.
_PLAIN_STR = r'"[^"\\\x00-\x08\x0a-\x1f\x7f]*"'
_PLAIN_INT = r"-?(?:0|[1-9][0-9]*)"
_PLAIN_ITEM = rf"{_PLAIN_STR}|{_PLAIN_INT}|true|false"
# A field: its key, then its value's text as a string's content, an integer, a boolean or
# an array (checked by _PLAIN_ARRAY).
_PLAIN_LINE = re.compile(
    rf"[ \t]*([A-Za-z0-9_-]+)[ \t]*=[ \t]*"
    rf"(?:({_PLAIN_STR})|({_PLAIN_INT})|(true|false)|(\[.*\]))[ \t]*"
)
_PLAIN_HEADER = re.compile(r"[ \t]*\[([A-Za-z0-9_-]+)\][ \t]*")
_PLAIN_ARRAY = re.compile(
    rf"\[[ \t]*(?:(?:{_PLAIN_ITEM})[ \t]*,[ \t]*)*(?:(?:{_PLAIN_ITEM})[ \t]*)?\]"
)
# Such an array is also JSON of the same meaning (a tab is the one control character its
# strings may hold: ``strict=False`` lets JSON read it), save for a trailing comma.
_PLAIN_JSON = json.JSONDecoder(strict=False)


def _toml_plain(text: str) -> dict | None:
    r"""``tomllib.loads(text)`` for a plain text (see above), read faster; None for any
    other text (then ``tomllib`` reads it).

    >>> _toml_plain('[7]\nvariant = "F7S"\nantes = [1, 1]\nok = true\n')
    {'7': {'variant': 'F7S', 'antes': [1, 1], 'ok': True}}
    >>> _toml_plain('bring_in = 2\n'), _toml_plain('x = 1 # a comment\n')
    ({'bring_in': 2}, None)
    >>> _toml_plain('a = [1, 2,]\n') is None, _toml_plain('a = [1, [2]]\n') is None
    (True, True)
    """
    if "\r" in text:
        return None
    root: dict[str, Any] = {}
    table = root
    header = True  # a header may come before any field
    for line in text.split("\n"):
        match = _PLAIN_LINE.fullmatch(line)
        if match is None:
            if not line.strip(" \t"):
                continue
            head = _PLAIN_HEADER.fullmatch(line) if header else None
            if head is None:
                return None
            table = root[head[1]] = {}
            header = False
            continue
        header = False
        key, string, integer, boolean, array = match.groups()
        if key in table:
            return None
        if string is not None:
            table[key] = string[1:-1]
        elif boolean is not None:
            table[key] = boolean == "true"
        elif integer is None and _PLAIN_ARRAY.fullmatch(array) is None:
            return None
        else:
            try:
                table[key] = int(integer) if integer is not None else _PLAIN_JSON.decode(array)
            except ValueError:  # a trailing comma, an integer of too many digits: tomllib's
                return None
    return root


def iter_hands(text: str, *, source: str | None = None) -> list[tuple[str | int, dict]]:
    """The hands of a ``.phh`` or ``.phhs`` text as ``(label, hand)`` pairs.

    A ``.phh`` hand is labelled 1; a ``.phhs`` hand by its table name.
    """
    data = _toml_plain(text)
    try:
        if data is None:
            data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PHHError(f"not valid TOML: {exc}", source=source) from None
    except RecursionError:
        raise PHHError(
            f"not a PHH file: arrays or tables nested deeper than {MAX_DEPTH} levels",
            source=source,
        ) from None
    except ValueError:  # Python's limit on an integer's digits (4,300); TOML has none
        raise PHHError(
            "not a PHH file: an integer of more than 4,300 digits", source=source
        ) from None
    if _may_break_shape(text):
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


# --------------------------------------------------------------------------
# Reading a long .phhs file a hand at a time

# A table header on a line of its own: ``[1]``, ``["hand one"]``, ``[1._options]``; its first
# key is the hand's. ``[[...]]`` (an array of tables) belongs to the table before it.
_HEADER = re.compile(
    r"""[ \t]*\[[ \t]*("(?:[^"\\\n]|\\.)*"|'[^'\n]*'|[A-Za-z0-9_-]+)[ \t]*"""
    r"""(?:\.[^\]\n]*)?\][ \t]*(?:#.*)?\r?\n?"""
)
_AT_LINE = re.compile(r"\(at line (\d+), column (\d+)\)")


class Section(NamedTuple):
    """One hand's table of a ``.phhs`` text: its place (0-based), the header's first key as
    written, the line of the header (1-based) and its TOML text. A ``.phh`` text (top-level
    fields) is one section with ``key`` None."""

    index: int
    key: str | None
    line: int
    text: str


class StreamedHand(NamedTuple):
    """A hand read by :func:`stream_hands`: its place in the file (0-based), its label, the
    line of its table header (1-based) and the hand mapping."""

    index: int
    label: str | int
    line: int
    hand: dict


def _lines(chunks: Iterable[str]) -> Iterable[str]:
    """The lines of a text given in pieces, each with its newline (the last one may lack it)."""
    rest = ""
    for chunk in chunks:
        if not chunk:
            continue
        parts = (rest + chunk).split("\n")
        rest = parts.pop()
        for part in parts:
            yield part + "\n"
    if rest:
        yield rest


def iter_sections(chunks: Iterable[str], *, source: str | None = None) -> Iterable[Section]:
    r"""The hand tables of a PHH text given in pieces (``chunks``: strings, cut anywhere),
    one at a time: never more than one table's text is held. A table header is a line of
    its own such as ``[1]``; the lines up to the next header of another key are that hand's
    (``[1._options]`` goes on with hand 1). A text whose first line of content is not a
    table header is a ``.phh`` hand (or a text to read whole): one section, key None.

    A header key used twice is refused, as TOML does, with the line of the second one.

    >>> text = '# night\n[1]\nantes = 1\n[1._options]\nx = 1\n\n[2]\nantes = 2\n'
    >>> [(s.index, s.key, s.line) for s in iter_sections([text[:9], text[9:]])]
    [(0, '1', 2), (1, '2', 7)]
    >>> list(iter_sections(['[1]\n', '[2]\n', '[1]\n']))[-1]
    Traceback (most recent call last):
    ...
    tracker.engine.phh.PHHError: table [1] appears twice (line 3)
    """
    index = 0
    key: str | None = None
    start = 0
    body: list[str] = []
    whole = False
    # The keys seen: while they run 1, 2, 3, ... only the last number is kept, so a long
    # archive does not make this grow.
    run = 0
    seen: set[str] = set()
    number = 0
    for number, line in enumerate(_lines(chunks), start=1):
        if whole:
            body.append(line)
            continue
        head = line.lstrip(" \t")[:2]
        if head[:1] == "[" and head != "[[":
            match = _HEADER.fullmatch(line)
            if match is not None:
                name = match[1]
                if name == key:
                    body.append(line)
                    continue
                if key is not None:
                    yield Section(index, key, start, "".join(body))
                    index += 1
                counted = name.isdigit() and name == str(int(name))
                if counted and int(name) == run + 1 and not seen:
                    run += 1
                elif (counted and 0 < int(name) <= run) or name in seen:
                    raise PHHError(f"table [{name}] appears twice (line {number})", source=source)
                else:
                    seen.add(name)
                key, start, body = name, number, [line]
                continue
        if key is None:
            stripped = line.strip()
            if stripped and not stripped.startswith("#"):
                whole, start = True, 1
        body.append(line)
    if whole:
        yield Section(0, None, 1, "".join(body))
    elif key is not None:
        yield Section(index, key, start, "".join(body))
    else:
        raise PHHError("no hand: the text is empty", source=source)


def _section_hands(section: Section, source: str | None) -> list[tuple[str | int, dict]]:
    """The hands of one section, TOML errors placed at the file's line."""
    try:
        return iter_hands(section.text, source=source)
    except PHHError as exc:
        if section.key is None:
            raise
        first = section.line

        def moved(m: re.Match) -> str:
            return f"(at line {first + int(m[1]) - 1}, column {m[2]})"

        message, lines = exc.message, _AT_LINE.findall(exc.message)
        exc.message = _AT_LINE.sub(moved, message)
        exc.line = first + int(lines[0][0]) - 1 if lines else first
        exc.hand = _label(section.key.strip("\"'"))
        raise


def stream_hands(
    chunks: Iterable[str], *, source: str | None = None, skip: int = 0
) -> Iterable[StreamedHand]:
    r"""The hands of a PHH text given in pieces, one at a time (:func:`iter_sections`), each
    read as TOML on its own. The first ``skip`` tables are passed over unread (a resumed
    import). A fault raises :class:`PHHError` with the hand and the file's ``line``.

    >>> text = '[1]\nvariant = "F7S"\n\n[2]\nvariant = \n'
    >>> [(h.index, h.label, h.line) for h in stream_hands([text], skip=1)]
    Traceback (most recent call last):
    ...
    tracker.engine.phh.PHHError: hand 2: not valid TOML: Invalid value (at line 5, column 11)
    >>> [(h.index, h.label, h.line, h.hand) for h in stream_hands([text[:20]])]
    [(0, 1, 1, {'variant': 'F7S'})]
    """
    for section in iter_sections(chunks, source=source):
        if section.key is not None and section.index < skip:
            continue
        pairs = _section_hands(section, source)
        if section.key is not None and len(pairs) != 1:
            raise PHHError(
                "a hand table holds one hand", source=source, hand=pairs[0][0], line=section.line
            )
        for k, (label, hand) in enumerate(pairs):
            if section.index + k >= skip:
                yield StreamedHand(section.index + k, label, section.line, hand)


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
        elif key == "_game" and isinstance(value, Mapping):
            value = _game_nulls(value, None, "none")
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
# Actions: the codec between PHH action text and table events

# Two-character card codes of PHH, any case; None is the unknown card "??".
_CODES: dict[str, int | None] = {"??": None}
for _c in range(52):
    _t = format_card(_c)
    for _r in {_t[0].upper(), _t[0].lower()}:
        for _s in {_t[1].upper(), _t[1].lower()}:
            _CODES[_r + _s] = _c
del _c, _t, _r, _s


class PHHActionError(ProcedureError):
    """An action text that is no PHH action. ``about`` is the event type the text was
    recognisably about (a deal, a completion/bet/raise, a show) and ``seat`` its
    player, when known: a driver may first ask the machine whether such an event
    could happen at all, so that a wrong moment is named before a typo."""

    def __init__(self, message: str, code: Code, *, about: type | None = None, seat=None):
        super().__init__(message, code=code.value, seat=seat)
        self.about = about


def _player(token: str, n: int) -> int:
    p = _PLAYERS.get(token)
    if p is not None and p < n:
        return p
    if token[:1] == "p" and token[1:].isdigit():
        p = int(token[1:]) - 1
        if 0 <= p < n:
            return p
        raise PHHActionError(
            f"there is no player {token} (players p1 to p{n})", Code.INVALID_ACTION
        )
    raise PHHActionError(
        f"{token!r} is neither the dealer 'd' nor a player 'pN'", Code.INVALID_ACTION
    )


_PLAYERS = {f"p{k + 1}": k for k in range(64)}


def _read_cards(text: str, about: type | None = None, seat: int | None = None) -> tuple:
    try:
        if len(text) % 2:
            raise ValueError(text)
        return tuple(_CODES[text[k : k + 2]] for k in range(0, len(text), 2))
    except (KeyError, ValueError):
        raise PHHActionError(
            f"{text!r} is not a run of two-character cards (rank 2-9 T J Q K A, suit c d h s, "
            "or ?? for an unknown card)",
            Code.INVALID_CARD,
            about=about,
            seat=seat,
        ) from None


_SEAT_ACTIONS = {"cc": CheckOrCall, "f": Fold, "pb": BringIn, "_pay": Pay}


def parse_action(text: str, *, n: int) -> TableEvent | None:
    """The event a PHH action string stands for in a hand of ``n`` players (None for
    a no-op: an empty action or commentary only). Raises :class:`PHHActionError`.

    >>> parse_action("d dh p1 ????2c", n=2), parse_action("p2 cbr 10", n=2)
    (DealHole(seat=0, cards=(None, None, 0)), CompleteBetOrRaise(seat=1, to=10))
    >>> parse_action("p2 _pay", n=2)  # ours: a house game's pay rule (Baseball's three up)
    Pay(seat=1)
    >>> parse_action("p3 f", n=2)
    Traceback (most recent call last):
    ...
    tracker.engine.phh.PHHActionError: there is no player p3 (players p1 to p2)
    """
    return _parse_action(text, n)


@functools.lru_cache(maxsize=4096)
def _parse_action(text: str, n: int) -> TableEvent | None:
    words = (text.split("#", 1)[0] if "#" in text else text).split()
    if not words:
        return None
    actor = words[0]
    argc = len(words)
    if actor == "d":
        if argc == 4 and words[1] == "dh":
            p = _player(words[2], n)
            return DealHole(p, _read_cards(words[3], DealHole, p))
        if argc == 3 and words[1] == "db":
            cards = _read_cards(words[2])
            if len(cards) != 1:
                raise PHHActionError(
                    "the community card is one card", Code.DEAL_COUNT, about=DealBoard
                )
            return DealBoard(cards[0])
        raise PHHActionError(
            "is not a dealing action ('d dh pN cards' or 'd db card')", Code.INVALID_ACTION
        )
    p = _player(actor, n)
    verb = words[1] if argc > 1 else ""
    if argc == 2 and verb in _SEAT_ACTIONS:
        return _SEAT_ACTIONS[verb](p)
    if verb == "cbr" and argc == 3:
        try:
            return CompleteBetOrRaise(p, int(words[2]))
        except ValueError:
            raise PHHActionError(
                f"{words[2]!r} is not a whole number of chips",
                Code.BET_SIZE,
                about=CompleteBetOrRaise,
                seat=p,
            ) from None
    if verb == "sm" and argc <= 3:
        if argc == 2:
            return Muck(p)
        if words[2] == "-":
            return Show(p)
        return Show(p, _read_cards(words[2], Show, p))
    if verb == "sd":
        raise PHHActionError("stud has no draw: 'sd' is not a stud action", Code.INVALID_ACTION)
    raise PHHActionError("is not a PHH action", Code.INVALID_ACTION)


def _cards_text(cards: Sequence[int | None]) -> str:
    return "".join("??" if c is None else format_card(c) for c in cards)


def format_action(event: TableEvent) -> str | None:
    """The PHH action string of an event (None for the events PHH keeps elsewhere:
    the antes, and the per-seat choices of :func:`history_entry`).

    >>> from tracker.engine.events import Complete, Show
    >>> format_action(DealHole(0, (None, None, 0))), format_action(Complete(1, 5))
    ('d dh p1 ????2c', 'p2 cbr 5')
    >>> format_action(Show(1)), format_action(Muck(1)), format_action(Buy(0))
    ('p2 sm -', 'p2 sm', None)
    >>> format_action(Pay(2))
    'p3 _pay'
    """
    cls = type(event)
    if cls is DealHole:
        return f"d dh p{event.seat + 1} {_cards_text(event.cards)}"  # type: ignore[union-attr]
    if cls is DealBoard:
        return f"d db {_cards_text((event.card,))}"  # type: ignore[union-attr]
    p = f"p{getattr(event, 'seat', 0) + 1}"
    if cls in BET_EVENTS:
        return f"{p} cbr {event.to}"  # type: ignore[union-attr]
    if cls in (Call, Check, CheckOrCall):
        return f"{p} cc"
    if cls is Fold:
        return f"{p} f"
    if cls is BringIn:
        return f"{p} pb"
    if cls is Pay:
        return f"{p} _pay"
    if cls is Show:
        cards = event.cards  # type: ignore[union-attr]
        return f"{p} sm {'-' if cards is None else _cards_text(cards)}"
    if cls is Muck:
        return f"{p} sm"
    return None


def history_entry(events: Iterable[TableEvent], *, n: int) -> dict[str, Any]:
    """The full-history entry of a hand's events (what the recording service takes):
    PHH ``actions``, and the per-seat ``buys``, ``seventh_card`` and ``declarations``
    when any was made.

    >>> history_entry([DealHole(0, (None, None, 0)), DealHole(1, (None, None, 4)),
    ...                BringIn(0), Fold(1)], n=2)
    {'actions': ['d dh p1 ????2c', 'd dh p2 ????3c', 'p1 pb', 'p2 f']}
    >>> history_entry([Buy(1), ChooseSeventh(0, False), Declare(0, "low")], n=2)
    {'actions': [], 'buys': [False, True], 'seventh_card': ['down', None], 'declarations': ['low', None]}
    """
    actions: list[str] = []
    buys = [False] * n
    seventh: list[str | None] = [None] * n
    declarations: list[str | None] = [None] * n
    for event in events:
        cls = type(event)
        if cls is Buy:
            buys[event.seat] = True  # type: ignore[union-attr]
        elif cls is ChooseSeventh:
            seventh[event.seat] = "up" if event.up else "down"  # type: ignore[union-attr]
        elif cls is Declare:
            declarations[event.seat] = event.choice  # type: ignore[union-attr]
        else:
            action = format_action(event)
            if action is not None:
                actions.append(action)
    entry: dict[str, Any] = {"actions": actions}
    if any(buys):
        entry["buys"] = buys
    if any(seventh):
        entry["seventh_card"] = seventh
    if any(declarations):
        entry["declarations"] = declarations
    return entry


# --------------------------------------------------------------------------
# Replaying a file


def replay_text(text: str, *, source: str | None = None, **replay_options: Any) -> Iterable[dict]:
    """Replay every hand of a PHH text; yield one JSON-ready dict per hand:
    ``{"ok": true, "hand", "contributions", "pots", "showdown", "payouts",
    "finishing_stacks"}`` or ``{"ok": false, "hand", "error": {"hand",
    "action_index", "action", "message", "code", "field"}}``.

    A text that is not PHH at all raises :class:`PHHError`.
    """
    from .procedure import replay_hand  # the driver reads this module's codec

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
