"""Cards: parsing, formatting and the integer encoding the engine works with.

Encoding
--------
A card is an ``int`` from 0 to 51::

    card = (rank - 2) * 4 + suit        rank 2..14 (ace = 14), suit 0..3

with suits ordered clubs (0), diamonds (1), hearts (2), spades (3). So
comparing two card ints compares rank first, then suit with clubs lowest --
exactly the bring-in order of RULES.md (natural value, aces high, then
clubs < diamonds < hearts < spades).

Text forms
----------
* Canonical text (storage, API output, ``cards`` / ``wild`` of a hand):
  rank letter + lower-case suit letter -- ``"Kd"``, ``"Tc"``, ``"2s"``,
  ``"Ah"``. Ten is always ``T``.
* Symbol form (human explanations, the ``text`` of a hand): ``"K♦"``,
  ``"10♣"`` -- see :func:`card_symbol`.
* Parsing (:func:`parse_card`) is case-insensitive, ignores surrounding
  white space, and accepts ``T`` or ``10`` for ten and the suit letters
  ``c d h s`` or the symbols ``♣ ♦ ♥ ♠`` (also the white ``♧ ♢ ♡ ♤`` and an
  emoji variation selector). ``"Kd"``, ``"KD"``, ``"K♦"``, ``"10♣"``,
  ``"tc"`` all parse.
* ``"??"`` is the unknown-card token (a face-down card nobody saw). It is
  not a card: :func:`parse_card` refuses it; test for it with
  :func:`is_unknown`.

>>> format_card(parse_card("10♣")), card_symbol(parse_card("kd"))
('Tc', 'K♦')
>>> rank_of(parse_card("As")), suit_of(parse_card("As"))
(14, 3)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .errors import Code, DomainError

__all__ = [
    "DECK",
    "RANK_CHARS",
    "SUIT_CHARS",
    "SUIT_NAMES",
    "SUIT_SYMBOLS",
    "UNKNOWN_CARD",
    "CardError",
    "card_symbol",
    "format_card",
    "format_cards",
    "is_unknown",
    "make_card",
    "parse_card",
    "parse_cards",
    "rank_char",
    "rank_name",
    "rank_of",
    "suit_of",
    "symbol_text",
]

RANK_CHARS = "23456789TJQKA"  # index = rank - 2
SUIT_CHARS = "cdhs"  # index = suit
SUIT_SYMBOLS = "♣♦♥♠"
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
UNKNOWN_CARD = "??"

DECK: tuple[int, ...] = tuple(range(52))

_RANK_WORDS = {
    1: ("ace", "aces"),
    2: ("two", "twos"),
    3: ("three", "threes"),
    4: ("four", "fours"),
    5: ("five", "fives"),
    6: ("six", "sixes"),
    7: ("seven", "sevens"),
    8: ("eight", "eights"),
    9: ("nine", "nines"),
    10: ("ten", "tens"),
    11: ("jack", "jacks"),
    12: ("queen", "queens"),
    13: ("king", "kings"),
    14: ("ace", "aces"),
}

_RANK_PARSE = {c: i + 2 for i, c in enumerate(RANK_CHARS)}
_RANK_PARSE["10"] = 10
_SUIT_PARSE = {c: i for i, c in enumerate(SUIT_CHARS)}
_SUIT_PARSE.update({c: i for i, c in enumerate(SUIT_SYMBOLS)})
_SUIT_PARSE.update({c: i for i, c in enumerate("♧♢♡♤")})

_CANON = tuple(RANK_CHARS[c >> 2] + SUIT_CHARS[c & 3] for c in DECK)
_SYMBOL = tuple(("10" if (c >> 2) == 8 else RANK_CHARS[c >> 2]) + SUIT_SYMBOLS[c & 3] for c in DECK)

# Every accepted spelling, built once: parsing is one dict lookup.
_PARSE: dict[str, int] = {}
for _r_text, _r in _RANK_PARSE.items():
    for _s_text, _s in _SUIT_PARSE.items():
        _PARSE[(_r_text + _s_text).upper()] = (_r - 2) * 4 + _s
del _r_text, _r, _s_text, _s
#: The spellings parse_card reads without stripping anything: each key of _PARSE, and its
#: rank upper and suit lower ("As"), the way cards are written (format_card).
_EXACT: dict[str, int] = {**_PARSE, **{k[:-1] + k[-1].lower(): c for k, c in _PARSE.items()}}


class CardError(DomainError):
    """A token that is not a card."""

    code = "invalid_card"


def is_unknown(token: object) -> bool:
    """True for the unknown-card token ``"??"`` (white space ignored)."""
    return isinstance(token, str) and token.strip() == UNKNOWN_CARD


def card_of_text(token: object) -> int | None:
    """The card a token spells the usual way (``"As"``, ``"AS"``, ``"A♠"``), looked up
    at once; None for anything else, which :func:`parse_card` then reads (other cases,
    white space) or refuses, saying why.

    >>> card_of_text("Tc") == parse_card("Tc"), card_of_text(" Tc"), card_of_text(["As"])
    (True, None, None)
    """
    return _EXACT.get(token) if type(token) is str else None


def parse_card(token: object, field: str | None = None) -> int:
    """Parse one card token to its int; :class:`CardError` (naming ``field``) if it is not one.

    >>> parse_card("Tc") == parse_card("10♣") == parse_card("tC")
    True
    """
    if isinstance(token, str):
        key = token.strip().replace("\ufe0f", "").upper()
        card = _PARSE.get(key)
        if card is not None:
            return card
        if key == UNKNOWN_CARD:
            raise CardError("'??' is an unknown card; a showdown needs every card", field=field)
    raise CardError(f"{token!r} is not a card", field=field)


def parse_cards(tokens: object, field: str) -> list[int]:
    """Parse a list of tokens; errors name ``field[i]``."""
    if isinstance(tokens, str) or not isinstance(tokens, Sequence):
        raise DomainError("must be a list of cards", code=Code.INVALID, field=field)
    return [parse_card(t, f"{field}[{i}]") for i, t in enumerate(tokens)]


def make_card(rank: int, suit: int) -> int:
    """The card of ``rank`` (2..14, or 1 for a low ace) and ``suit`` (0..3)."""
    if rank == 1:
        rank = 14
    return (rank - 2) * 4 + suit


def rank_of(card: int) -> int:
    """Rank 2..14 (ace high)."""
    return (card >> 2) + 2


def suit_of(card: int) -> int:
    """Suit 0..3: clubs, diamonds, hearts, spades."""
    return card & 3


def format_card(card: int) -> str:
    """Canonical text, e.g. ``"Kd"``, ``"Tc"``."""
    return _CANON[card]


def format_cards(cards: Iterable[int]) -> list[str]:
    return [_CANON[c] for c in cards]


def card_symbol(card: int) -> str:
    """Symbol form for explanations, e.g. ``"K♦"``, ``"10♣"``."""
    return _SYMBOL[card]


def symbol_text(token: object) -> str:
    """A card token in symbol form, for text: ``"Tc"`` -> ``"10♣"``; what is not a card
    (the unseen ``"??"``, a typo) is given back as written, and no token at all is ``"?"``.

    >>> symbol_text("Tc"), symbol_text("??"), symbol_text("xx"), symbol_text(None)
    ('10♣', '??', 'xx', '?')
    """
    if token is None or token == "":
        return "?"
    try:
        return _SYMBOL[parse_card(token)]
    except CardError:
        return str(token)


def rank_char(rank: int) -> str:
    """``"A"`` for 1 or 14, ``"T"`` for 10, ..."""
    return RANK_CHARS[(14 if rank == 1 else rank) - 2]


def rank_name(rank: int, plural: bool = False) -> str:
    """``"four"`` / ``"fours"``; ranks 1 and 14 are both ace."""
    return _RANK_WORDS[rank][1 if plural else 0]
