"""A stud game as data: a typed, frozen, validated :class:`GameDefinition`.

A definition says what the engine needs to deal, bet, value and explain a hand
of one stud game: the cards of each street and their faces, the betting unit
of each street, the wild rules, how the pot is shared, the extra-card, pay and
buy rules, who brings in and who acts first, and how many players the deck
serves. It loads from and dumps to plain dicts (JSON); every omitted field
takes its default, so a definition is always complete and explicit -- the
house choices stay named choices with defaults, as the announcements of
RULES.md do. A bad definition is refused with a :class:`GameDefinitionError`
naming the part at fault (``streets[2].faces[0]``, ``wild[0].rank``, ``pot.low``).

>>> game = load_game({"name": "deuces", "title": "Deuces Wild",
...                   "wild": [{"kind": "fixed", "ranks": ["2"]}]})
>>> game.cards_per_player, game.player_limit, [s.unit for s in game.streets]
(7, 8, ['small', 'small', 'big', 'big', 'big'])
>>> dump_game(game)["wild"]
[{'kind': 'fixed', 'ranks': ['2'], 'cards': []}]
>>> load_game({"name": "x", "title": "X", "pot": {"kind": "high", "low": {}}})
Traceback (most recent call last):
...
tracker.engine.games.GameDefinitionError: a low rule on a high-only pot (kind high); drop it or choose low, high_low
>>> load_game({"name": "x", "title": "X", "streets": [{"faces": ["down", "up"]}] * 6})
Traceback (most recent call last):
...
tracker.engine.games.GameDefinitionError: 12 cards a player: a stud hand holds 5 to 7 cards

Wild rules compose: a hand's wild cards are the union of what each rule makes
wild (:func:`wild_options` lists the sets a player may choose between). The
evaluator (:func:`evaluate_game`) values every valid definition with the fast
evaluators of :mod:`.hands` and :mod:`.low`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

from .cards import RANK_CHARS, format_card, parse_card
from .errors import Code, DomainError
from .low import LOW_RANKINGS

__all__ = [
    "BUY_VERSIONS",
    "DECK_SIZE",
    "FACES",
    "LATER_X",
    "LAST_X",
    "POT_KINDS",
    "BuyRule",
    "ExtraCardRule",
    "FixedWild",
    "FollowWild",
    "GameDefinition",
    "GameDefinitionError",
    "KingsAndLowestWild",
    "LowRule",
    "LowestHoleWild",
    "PayRule",
    "PotRule",
    "StreetRule",
    "bring_in_seat",
    "dump_game",
    "first_to_act",
    "follow_ranks",
    "load_game",
    "table_follow_ranks",
    "wild_now",
    "wild_options",
]

DECK_SIZE = 52
FACES = ("down", "up", "choice", "community")
UNITS = ("small", "big")
POT_KINDS = ("high", "low", "high_low", "high_chicago", "low_chicago")
DECLARATIONS = ("cards_speak", "declare")
SAME_RANK = ("none", "face_down", "all")
LATER_X = ("replaces", "adds", "ignored")
LAST_X = ("no_follow", "keeps")
BUY_VERSIONS = ("contributed", "buderick")
BRING_IN = ("lowest", "highest")
FIRST_TO_ACT = ("best_board", "lowest_board")
ACES = ("high", "low")
STREET_NAMES = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh")


class GameDefinitionError(DomainError):
    """A game definition the engine cannot play; ``fields`` names the part at fault."""

    code = "invalid_game"


# --- reading plain values ---------------------------------------------------------------


def _obj(value: Any, at: str, keys: Sequence[str]) -> Mapping[str, Any]:
    if value is None:
        value = {}
    if not isinstance(value, Mapping):
        raise GameDefinitionError("must be an object", field=at or "definition")
    for key in value:
        if key not in keys:
            where = f"{at}.{key}" if at else str(key)
            raise GameDefinitionError(
                f"unknown field {key!r} (fields: {', '.join(keys)})", field=where
            )
    return value


def _path(at: str, key: str) -> str:
    return f"{at}.{key}" if at else key


def _choice(d: Mapping, key: str, choices: Sequence[str], default: str, at: str) -> str:
    value = d.get(key, default)
    if value not in choices:
        raise GameDefinitionError(
            f"{value!r} is not one of {', '.join(choices)}", field=_path(at, key)
        )
    return value


def _bool(d: Mapping, key: str, default: bool, at: str) -> bool:
    value = d.get(key, default)
    if not isinstance(value, bool):
        raise GameDefinitionError(f"must be true or false, not {value!r}", field=_path(at, key))
    return value


def _rank(value: Any, at: str) -> int:
    """A rank written ``"2"``..``"9"``, ``"T"``/``"10"``, ``"J"``, ``"Q"``, ``"K"``, ``"A"``: 2..14."""
    text = str(value).strip().upper() if isinstance(value, (str, int)) else None
    if text == "10":
        text = "T"
    if text is None or isinstance(value, bool) or len(text) != 1 or text not in RANK_CHARS:
        raise GameDefinitionError(f"{value!r} is not a rank (2-9, T, J, Q, K, A)", field=at)
    return RANK_CHARS.index(text) + 2


def _chips(d: Mapping, key: str, at: str, *, pot: bool = False) -> int | str | None:
    value = d.get(key)
    if value is None or (pot and value == "pot"):
        return value
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        also = ', "pot"' if pot else ""
        raise GameDefinitionError(
            f"must be a whole number of chips (0 or more){also} or null, not {value!r}",
            field=_path(at, key),
        )
    return value


def _list(value: Any, at: str) -> list:
    if value is None:
        return []
    if isinstance(value, (str, Mapping)) or not isinstance(value, Sequence):
        raise GameDefinitionError("must be a list", field=at)
    return list(value)


# --- the parts ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class StreetRule:
    """The cards each player still in gets on one street, in order, and the betting unit.

    Faces: ``down``, ``up``, ``choice`` (the player says up or down) and
    ``community`` (one card face up in the middle, everyone's card).
    """

    faces: tuple[str, ...]
    unit: str = "small"

    def to_dict(self) -> dict:
        return {"faces": list(self.faces), "unit": self.unit}


@dataclass(frozen=True, slots=True)
class FixedWild:
    """Every card of ``ranks`` and each card of ``cards`` is wild: deuces (``ranks`` 2),
    one-eyed jacks (``cards`` Js Jh), the suicide king (``cards`` Kh)."""

    kind: ClassVar[str] = "fixed"
    #: Whether its wild cards depend on every card the player holds (the lowest of them):
    #: while some are unseen a screen cannot mark them (see ``ranks_while_unseen``).
    reads_every_card: ClassVar[bool] = False
    #: Of a rule that reads every card, the ranks (rank index, card >> 2) of its wild cards
    #: that no unseen card can change, marked while some are unseen.
    ranks_while_unseen: ClassVar[frozenset[int]] = frozenset()
    ranks: tuple[int, ...] = ()
    cards: tuple[int, ...] = ()

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "ranks": [RANK_CHARS[r - 2] for r in self.ranks],
            "cards": [format_card(c) for c in self.cards],
        }


@dataclass(frozen=True, slots=True)
class KingsAndLowestWild:
    """Kings and the player's lowest card (Kings and Little Ones; the announcements of RULES.md)."""

    kind: ClassVar[str] = "kings_and_lowest"
    reads_every_card: ClassVar[bool] = True  # the little one: the lowest of them all
    ranks_while_unseen: ClassVar[frozenset[int]] = frozenset({11})  # the kings
    king_required: bool = True
    all_lowest_wild: bool = False
    ace_low_for_lowest: bool = False
    door_card_kings: bool = False

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "king_required": self.king_required,
            "all_lowest_wild": self.all_lowest_wild,
            "ace_low_for_lowest": self.ace_low_for_lowest,
            "door_card_kings": self.door_card_kings,
        }


@dataclass(frozen=True, slots=True)
class LowestHoleWild:
    """The player's lowest face-down card (aces high; for an ace-low low half, aces low).

    ``same_rank``: ``all`` -- every card of that rank the player holds, the
    community card included (Low Hole); ``face_down`` -- every face-down card
    of it; ``none`` -- that one card, the player's pick among equals (Low Hold).
    """

    kind: ClassVar[str] = "lowest_hole"
    reads_every_card: ClassVar[bool] = True  # the lowest face-down card
    ranks_while_unseen: ClassVar[frozenset[int]] = frozenset()
    same_rank: str = "all"

    def to_dict(self) -> dict:
        return {"kind": self.kind, "same_rank": self.same_rank}


@dataclass(frozen=True, slots=True)
class FollowWild:
    """Follow the X: the card dealt face up after an up X sets a wild rank for everyone.

    ``rank`` is X (12, the queen); ``x_wild``: the Xs themselves are wild.
    ``later_x`` -- what a later up X does: ``replaces`` (the card after it sets
    the new wild rank, the old one is natural again), ``adds`` (its follower's
    rank is wild too) or ``ignored`` (the first follower's rank stays).
    ``last_x`` -- an X as the last up card of the deal (nothing follows it):
    ``no_follow`` (no follow rank at all, only the Xs) or ``keeps`` (the rank
    already following stays wild).
    """

    kind: ClassVar[str] = "follow"
    reads_every_card: ClassVar[bool] = False  # the table's up cards only
    ranks_while_unseen: ClassVar[frozenset[int]] = frozenset()
    rank: int = 12
    x_wild: bool = True
    later_x: str = "replaces"
    last_x: str = "no_follow"

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "rank": RANK_CHARS[self.rank - 2],
            "x_wild": self.x_wild,
            "later_x": self.later_x,
            "last_x": self.last_x,
        }


WildRule = FixedWild | KingsAndLowestWild | LowestHoleWild | FollowWild
_WILD_KINDS = {
    "fixed": FixedWild,
    "kings_and_lowest": KingsAndLowestWild,
    "lowest_hole": LowestHoleWild,
    "follow": FollowWild,
}


@dataclass(frozen=True, slots=True)
class LowRule:
    """How low hands rank (``ace_to_five``, ``ace_to_six``, ``deuce_to_seven``) and the
    qualifier (a low must be five unpaired cards this rank or lower; ``None``: any low)."""

    ranking: str = "ace_to_five"
    qualifier: int | None = None

    def to_dict(self) -> dict:
        return {"ranking": self.ranking, "qualifier": self.qualifier}


@dataclass(frozen=True, slots=True)
class PotRule:
    """How the pot is shared.

    ``kind``: ``high``; ``low``; ``high_low`` (half the best high, half the best
    qualifying low; no qualifying low: the high takes all); ``high_chicago`` /
    ``low_chicago`` (half the best high hand, half the highest / lowest spade in
    the hole -- the card as dealt, wild or not; no spade in the hole: the high
    takes all). ``declaration`` (``high_low`` only): ``cards_speak`` or
    ``declare``. ``spade_ace`` (``low_chicago``): whether the ace of spades is
    the highest (``high``, the default) or the lowest spade.
    """

    kind: str = "high"
    low: LowRule | None = None
    declaration: str = "cards_speak"
    spade_ace: str = "high"

    @property
    def has_high(self) -> bool:
        return self.kind != "low"

    @property
    def has_low(self) -> bool:
        return self.kind in ("low", "high_low")

    @property
    def chicago(self) -> bool:
        return self.kind.endswith("chicago")

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"kind": self.kind}
        if self.low is not None:
            out["low"] = self.low.to_dict()
        if self.kind == "high_low":
            out["declaration"] = self.declaration
        if self.kind == "low_chicago":
            out["spade_ace"] = self.spade_ace
        return out


@dataclass(frozen=True, slots=True)
class ExtraCardRule:
    """A card of ``rank`` dealt face up gets the player one more card at once, dealt
    ``face`` (Baseball: a four up)."""

    rank: int
    face: str = "up"

    def to_dict(self) -> dict:
        return {"rank": RANK_CHARS[self.rank - 2], "face": self.face}


@dataclass(frozen=True, slots=True)
class PayRule:
    """A card of ``rank`` dealt face up costs ``price`` chips (``"pot"``: as much as the pot
    holds) or the player folds (Baseball: a three up)."""

    rank: int
    price: int | str = "pot"

    def to_dict(self) -> dict:
        return {"rank": RANK_CHARS[self.rank - 2], "price": self.price}


@dataclass(frozen=True, slots=True)
class BuyRule:
    """Low Hold's buy of the last card: ``contributed`` (it comes down; pay to get it up) or
    ``buderick`` (it comes up; pay to get it down); ``price`` chips (``None``: one big bet)."""

    version: str = "contributed"
    price: int | None = None

    def to_dict(self) -> dict:
        return {"version": self.version, "price": self.price}


_SEVEN_STREETS = (
    StreetRule(("down", "down", "up"), "small"),
    StreetRule(("up",), "small"),
    StreetRule(("up",), "big"),
    StreetRule(("up",), "big"),
    StreetRule(("down",), "big"),
)


@dataclass(frozen=True, slots=True)
class GameDefinition:
    """One stud game. Build it with :func:`load_game` (which validates); the fields are
    documented in docs/engine.md ("Game definitions")."""

    name: str
    title: str
    streets: tuple[StreetRule, ...] = _SEVEN_STREETS
    wild: tuple[WildRule, ...] = ()
    pot: PotRule = field(default_factory=PotRule)
    extra_cards: tuple[ExtraCardRule, ...] = ()
    pays: tuple[PayRule, ...] = ()
    buy: BuyRule | None = None
    bring_in: str = "lowest"
    first_to_act: str = "best_board"
    order_aces: str = "high"
    double_ace_flush: bool = False
    max_players: int | None = None

    @property
    def faces(self) -> tuple[str, ...]:
        """Every card of a player's deal in order (the community card is one of them)."""
        return tuple(f for s in self.streets for f in s.faces)

    @property
    def cards_per_player(self) -> int:
        return len(self.faces)

    @property
    def deck_limit(self) -> int:
        """The most players the deck serves, the community-card rule of RULES.md included: a
        card is burned before each street; when the last street is one card a player, one
        community card may stand in for it (dealt from the shuffled burns if need be)."""
        streets = self.streets
        total = sum(len(s.faces) for s in streets)
        last = streets[-1].faces
        own = [f for f in self.faces if f != "community"]
        shared = total - len(own)
        if len(last) == 1 and last[0] != "community":
            before = len(own) - 1
            # every card before the last street comes from the deck; the burns may be
            # shuffled for the community card that stands in for the last one
            burns = len(streets) - 1
            return (DECK_SIZE - burns - shared) // before if before else DECK_SIZE
        return (DECK_SIZE - len(streets) - shared) // max(1, len(own))

    @property
    def player_limit(self) -> int:
        """The house's ``max_players`` when set (never above the deck's limit), else the
        deck's limit."""
        return self.deck_limit if self.max_players is None else self.max_players

    def refuse_players(
        self,
        players: int,
        *,
        field: str,
        error: type[DomainError] = DomainError,
        code: str = Code.PLAYER_COUNT,
    ) -> None:
        """Refuse dealing the game to more ``players`` than it seats (:attr:`player_limit`),
        naming ``field``: the one refusal of the machine, the recording services and the
        showdown reader (``error`` and ``code`` are the caller's kind of refusal).

        >>> from tracker.engine.game_presets import PRESETS
        >>> PRESETS["follow_the_queen"].refuse_players(7, field="stacks")
        >>> PRESETS["follow_the_queen"].refuse_players(8, field="stacks")
        Traceback (most recent call last):
        tracker.engine.errors.DomainError: Follow the Queen is dealt to at most 7 players, not 8
        """
        most = self.player_limit
        if players > most:
            raise error(
                f"{self.title} is dealt to at most {most} players, not {players}",
                code=code,
                field=field,
            )

    @property
    def up_order_needed(self) -> bool:
        """Whether valuing a hand needs the order the up cards were dealt (follow-the-X)."""
        return any(isinstance(w, FollowWild) for w in self.wild)

    def unit(self, street: int) -> str:
        return self.streets[street].unit

    def to_dict(self) -> dict:
        return dump_game(self)


# --- load and dump --------------------------------------------------------------------------

_TOP_KEYS = (
    "name",
    "title",
    "streets",
    "wild",
    "pot",
    "extra_cards",
    "pays",
    "buy",
    "bring_in",
    "first_to_act",
    "order_aces",
    "double_ace_flush",
    "max_players",
)


def _load_streets(value: Any) -> tuple[StreetRule, ...]:
    if value is None:
        return _SEVEN_STREETS
    items = _list(value, "streets")
    if not items:
        raise GameDefinitionError("a game needs at least one street", field="streets")
    out = []
    for i, raw in enumerate(items):
        at = f"streets[{i}]"
        d = _obj(raw, at, ("faces", "unit"))
        faces = _list(d.get("faces"), f"{at}.faces")
        if not faces:
            raise GameDefinitionError("a street deals at least one card", field=f"{at}.faces")
        for j, f in enumerate(faces):
            if f not in FACES:
                raise GameDefinitionError(
                    f"{f!r} is not one of {', '.join(FACES)}", field=f"{at}.faces[{j}]"
                )
        out.append(StreetRule(tuple(faces), _choice(d, "unit", UNITS, "small", at)))
    return tuple(out)


def _load_wild(value: Any) -> tuple[WildRule, ...]:
    rules: list[WildRule] = []
    seen: dict[str, str] = {}
    for i, raw in enumerate(_list(value, "wild")):
        at = f"wild[{i}]"
        if not isinstance(raw, Mapping):
            raise GameDefinitionError("a wild rule must be an object with a kind", field=at)
        kind = raw.get("kind")
        if kind == "none":
            _obj(raw, at, ("kind",))
            continue
        if kind not in _WILD_KINDS:
            raise GameDefinitionError(
                f"{kind!r} is not a wild rule (none, {', '.join(_WILD_KINDS)})",
                field=f"{at}.kind",
            )
        if kind in seen:
            raise GameDefinitionError(
                f"a second {kind} rule; put everything it makes wild in {seen[kind]}",
                field=f"{at}.kind",
            )
        seen[kind] = at
        rule: WildRule
        if kind == "fixed":
            d = _obj(raw, at, ("kind", "ranks", "cards"))
            ranks = tuple(
                _rank(r, f"{at}.ranks[{j}]") for j, r in enumerate(_list(d.get("ranks"), at))
            )
            cards = []
            for j, c in enumerate(_list(d.get("cards"), f"{at}.cards")):
                try:
                    cards.append(parse_card(c, f"{at}.cards[{j}]"))
                except DomainError as exc:
                    raise GameDefinitionError(exc.message, field=f"{at}.cards[{j}]") from None
            if not ranks and not cards:
                raise GameDefinitionError(
                    "a fixed wild rule names at least one rank or card", field=at
                )
            rule = FixedWild(tuple(sorted(set(ranks))), tuple(sorted(set(cards))))
        elif kind == "kings_and_lowest":
            names = ("king_required", "all_lowest_wild", "ace_low_for_lowest", "door_card_kings")
            d = _obj(raw, at, ("kind", *names))
            defaults = KingsAndLowestWild()
            rule = KingsAndLowestWild(*(_bool(d, n, getattr(defaults, n), at) for n in names))
        elif kind == "lowest_hole":
            d = _obj(raw, at, ("kind", "same_rank"))
            rule = LowestHoleWild(_choice(d, "same_rank", SAME_RANK, "all", at))
        else:
            d = _obj(raw, at, ("kind", "rank", "x_wild", "later_x", "last_x"))
            rule = FollowWild(
                _rank(d.get("rank", "Q"), f"{at}.rank"),
                _bool(d, "x_wild", True, at),
                _choice(d, "later_x", LATER_X, "replaces", at),
                _choice(d, "last_x", LAST_X, "no_follow", at),
            )
        rules.append(rule)
    return tuple(rules)


def _load_pot(value: Any) -> PotRule:
    d = _obj(value, "pot", ("kind", "low", "declaration", "spade_ace"))
    kind = _choice(d, "kind", POT_KINDS, "high", "pot")
    low = None
    if d.get("low") is not None:
        if kind not in ("low", "high_low"):
            raise GameDefinitionError(
                f"a low rule on a high-only pot (kind {kind}); drop it or choose low, high_low",
                field="pot.low",
            )
        ld = _obj(d["low"], "pot.low", ("ranking", "qualifier"))
        ranking = _choice(ld, "ranking", LOW_RANKINGS, "ace_to_five", "pot.low")
        q = ld.get("qualifier", 8 if kind == "high_low" else None)
        if q is not None and (isinstance(q, bool) or not isinstance(q, int) or not 6 <= q <= 10):
            raise GameDefinitionError(
                f"must be a rank from 6 to 10 (8: eight or better) or null, not {q!r}",
                field="pot.low.qualifier",
            )
        if q is not None and ranking == "deuce_to_seven" and q < 7:
            raise GameDefinitionError(
                "no deuce-to-seven low is 6 or better", field="pot.low.qualifier"
            )
        low = LowRule(ranking, q)
    elif kind in ("low", "high_low"):
        low = LowRule("ace_to_five", 8 if kind == "high_low" else None)
    declaration = _choice(d, "declaration", DECLARATIONS, "cards_speak", "pot")
    if declaration == "declare" and kind != "high_low":
        raise GameDefinitionError(
            f"players declare only in a high_low pot, not in {kind}", field="pot.declaration"
        )
    if "spade_ace" in d and kind != "low_chicago":
        raise GameDefinitionError("spade_ace is a low_chicago choice", field="pot.spade_ace")
    spade_ace = _choice(d, "spade_ace", ACES, "high", "pot")
    return PotRule(kind, low, declaration, spade_ace)


def _check_streets(streets: tuple[StreetRule, ...]) -> list[str]:
    """The faces of a player's deal, once the streets make a stud deal; else refused."""
    faces = [f for s in streets for f in s.faces]
    if not 5 <= len(faces) <= 7:
        raise GameDefinitionError(
            f"{len(faces)} cards a player: a stud hand holds 5 to 7 cards", field="streets"
        )
    if faces.count("community") > 1:
        raise GameDefinitionError("at most one community card", field="streets")
    if len(streets) > len(STREET_NAMES):
        raise GameDefinitionError("at most seven streets", field="streets")
    first = streets[0].faces
    if "up" not in first and "choice" not in first:
        raise GameDefinitionError(
            "the first street deals a card face up (the door card, for the bring-in)",
            field="streets[0].faces",
        )
    for i, s in enumerate(streets):
        if "community" in s.faces and len(s.faces) != 1:
            raise GameDefinitionError(
                "a community card is a street of its own", field=f"streets[{i}].faces"
            )
    return faces


def _check_wild(wild: tuple[WildRule, ...], faces: list[str], first: tuple[str, ...]) -> None:
    """Refuse a wild rule the deal gives nothing to act on."""
    for i, w in enumerate(wild):
        at = f"wild[{i}]"
        if isinstance(w, FollowWild):
            ups = sum(1 for f in faces if f in ("up", "choice", "community"))
            if ups < 2:
                raise GameDefinitionError(
                    "follow the X has nothing to follow: the deal has fewer than two up cards",
                    field=at,
                )
        if isinstance(w, LowestHoleWild) and "down" not in faces:
            raise GameDefinitionError(
                "the lowest hole card has nothing to follow: the deal has no face-down card",
                field=at,
            )
        if (
            isinstance(w, KingsAndLowestWild)
            and w.door_card_kings
            and not any(f in ("up", "choice") for f in first)
        ):
            raise GameDefinitionError(
                "door-card kings need a door card (an up card on the first street)",
                field=f"{at}.door_card_kings",
            )


def _load_extras(
    d: Mapping, faces: list[str]
) -> tuple[tuple[ExtraCardRule, ...], tuple[PayRule, ...]]:
    """The extra-card and pay rules, checked against each other and the deal."""
    extra = []
    for i, raw in enumerate(_list(d.get("extra_cards"), "extra_cards")):
        at = f"extra_cards[{i}]"
        e = _obj(raw, at, ("rank", "face"))
        if "rank" not in e:
            raise GameDefinitionError("required", code="required", field=f"{at}.rank")
        extra.append(
            ExtraCardRule(
                _rank(e["rank"], f"{at}.rank"), _choice(e, "face", ("up", "down"), "up", at)
            )
        )
    pays = []
    for i, raw in enumerate(_list(d.get("pays"), "pays")):
        at = f"pays[{i}]"
        p = _obj(raw, at, ("rank", "price"))
        if "rank" not in p:
            raise GameDefinitionError("required", code="required", field=f"{at}.rank")
        price = _chips(p, "price", at, pot=True)
        pays.append(PayRule(_rank(p["rank"], f"{at}.rank"), "pot" if price is None else price))
    ranks = [e.rank for e in extra] + [p.rank for p in pays]
    if len(set(ranks)) != len(ranks):
        raise GameDefinitionError(
            "one rank has two extra-card or pay rules", field="pays" if pays else "extra_cards"
        )
    if (extra or pays) and not any(f in ("up", "choice") for f in faces):
        raise GameDefinitionError(
            "extra-card and pay rules act on up cards; the deal has none",
            field="extra_cards" if extra else "pays",
        )
    return tuple(extra), tuple(pays)


def _load_buy(value: Any, streets: tuple[StreetRule, ...]) -> BuyRule | None:
    """The buy of the last card, which must be dealt as its version turns it over."""
    if value is None:
        return None
    b = _obj(value, "buy", ("version", "price"))
    version = _choice(b, "version", BUY_VERSIONS, "contributed", "buy")
    price = _chips(b, "price", "buy")
    last = streets[-1].faces
    want = "down" if version == "contributed" else "up"
    if len(last) != 1 or last[0] != want:
        raise GameDefinitionError(
            f"the {version} buy turns over a last card dealt {want}; "
            f"the last street deals {', '.join(last)}",
            field="buy.version",
        )
    return BuyRule(version, price)  # type: ignore[arg-type]


def _with_max_players(game: GameDefinition, mp: Any) -> GameDefinition:
    """``game`` once the deck serves two players, with the house's ``max_players`` if set."""
    limit = game.deck_limit
    if limit < 2:
        raise GameDefinitionError(
            f"the deck cannot serve this deal to two players ({game.cards_per_player} cards "
            f"each, {len(game.streets)} burns, {DECK_SIZE} cards)",
            field="streets",
        )
    if mp is None:
        return game
    if isinstance(mp, bool) or not isinstance(mp, int) or mp < 2:
        raise GameDefinitionError(
            f"must be a whole number of players, 2 or more, not {mp!r}", field="max_players"
        )
    if mp > limit:
        raise GameDefinitionError(
            f"the deck cannot serve {mp} players this deal (at most {limit})",
            field="max_players",
        )
    return _replace(game, max_players=mp)


def load_game(data: Any) -> GameDefinition:
    """A :class:`GameDefinition` from a plain dict, checked; omitted fields take defaults.

    Raises :class:`GameDefinitionError` naming the part at fault.
    """
    d = _obj(data, "", _TOP_KEYS)
    name, title = d.get("name"), d.get("title")
    if not isinstance(name, str) or not name.strip():
        raise GameDefinitionError("a game needs a name", code="required", field="name")
    if not isinstance(title, str) or not title.strip():
        raise GameDefinitionError("a game needs a title", code="required", field="title")
    streets = _load_streets(d.get("streets"))
    faces = _check_streets(streets)
    wild = _load_wild(d.get("wild"))
    _check_wild(wild, faces, streets[0].faces)
    pot = _load_pot(d.get("pot"))
    extra, pays = _load_extras(d, faces)
    buy = _load_buy(d.get("buy"), streets)
    order_aces = _choice(d, "order_aces", ACES, "high", "")  # checked before the two below
    game = GameDefinition(
        name=name.strip(),
        title=title.strip(),
        streets=streets,
        wild=wild,
        pot=pot,
        extra_cards=extra,
        pays=pays,
        buy=buy,
        bring_in=_choice(d, "bring_in", BRING_IN, "lowest", ""),
        first_to_act=_choice(d, "first_to_act", FIRST_TO_ACT, "best_board", ""),
        order_aces=order_aces,
        double_ace_flush=_bool(d, "double_ace_flush", False, ""),
    )
    return _with_max_players(game, d.get("max_players"))


def _replace(game: GameDefinition, **changes: Any) -> GameDefinition:
    values = {name: getattr(game, name) for name in _TOP_KEYS}
    values.update(changes)
    return GameDefinition(**values)


def dump_game(game: GameDefinition) -> dict:
    """The plain dict of a definition (every field explicit); ``load_game`` reads it back.

    >>> from tracker.engine.game_presets import PRESETS
    >>> all(load_game(dump_game(g)) == g for g in PRESETS.values())
    True
    """
    return {
        "name": game.name,
        "title": game.title,
        "streets": [s.to_dict() for s in game.streets],
        "wild": [w.to_dict() for w in game.wild],
        "pot": game.pot.to_dict(),
        "extra_cards": [e.to_dict() for e in game.extra_cards],
        "pays": [p.to_dict() for p in game.pays],
        "buy": None if game.buy is None else game.buy.to_dict(),
        "bring_in": game.bring_in,
        "first_to_act": game.first_to_act,
        "order_aces": game.order_aces,
        "double_ace_flush": game.double_ace_flush,
        "max_players": game.max_players,
    }


# --- wild cards ------------------------------------------------------------------------------


def follow_ranks(rule: FollowWild, up_order: Sequence[int]) -> frozenset[int]:
    """The follow ranks (2..14) after the up cards ``up_order`` (card ints, table order).

    >>> from tracker.engine.cards import parse_card
    >>> order = [parse_card(c) for c in "Qd 7h 3c Qs 9d 5c".split()]
    >>> sorted(follow_ranks(FollowWild(), order))
    [9]
    >>> sorted(follow_ranks(FollowWild(later_x="adds"), order))
    [7, 9]
    >>> sorted(follow_ranks(FollowWild(later_x="ignored"), order))
    [7]
    >>> sorted(follow_ranks(FollowWild(), order + [parse_card("Qh")]))
    []
    >>> sorted(follow_ranks(FollowWild(last_x="keeps"), order + [parse_card("Qh")]))
    [9]
    """
    ranks: set[int] = set()
    pending = False
    for card in up_order:
        r = (card >> 2) + 2
        if r == rule.rank:
            pending = True
            continue
        if pending:
            pending = False
            if rule.later_x == "replaces":
                ranks = {r}
            elif rule.later_x == "adds" or not ranks:
                ranks.add(r)
    if pending and rule.last_x == "no_follow":
        ranks = set()
    return frozenset(ranks)


def wild_now(
    game: GameDefinition,
    down: Sequence[int],
    up: Sequence[int],
    up_order: Sequence[int],
    *,
    complete: bool,
    community: int | None = None,
) -> frozenset[int]:
    """A player's cards (ints) that are wild as things stand after the up cards
    ``up_order`` (the table's, in the order dealt): every card that any of
    :func:`wild_options`'s choices makes wild, with the follow ranks of
    :func:`follow_ranks`. ``complete``: every up card of the deal is out, so an X as the
    last of them follows ``last_x``; before that an X waiting for its follower leaves
    the rank already following wild (its follower has not fallen yet).

    >>> from tracker.engine.cards import parse_card as c
    >>> ftq = load_game({"name": "ftq", "title": "Follow the Queen",
    ...                  "wild": [{"kind": "follow", "rank": "Q"}]})
    >>> mine = [c("9h"), c("7d")]
    >>> sorted(map(format_card, wild_now(ftq, mine, [], [c("Qd"), c("7h")], complete=False)))
    ['7d']
    >>> order = [c(x) for x in "Qd 7h Qs 9d".split()]
    >>> sorted(map(format_card, wild_now(ftq, mine, [], order, complete=False)))
    ['9h']
    >>> sorted(map(format_card, wild_now(ftq, mine, [], order + [c("Qh")], complete=False)))
    ['9h']
    >>> sorted(map(format_card, wild_now(ftq, mine, [], order + [c("Qh")], complete=True)))
    []
    """
    follow = table_follow_ranks(game, up_order, complete=complete)
    options = wild_options(game, down, up, community, follow)
    return frozenset().union(*options)


def table_follow_ranks(
    game: GameDefinition, up_order: Sequence[int], *, complete: bool
) -> frozenset[int]:
    """The follow ranks of the table after the up cards ``up_order`` (the same for every
    player: :func:`wild_now` and the live logger's screen work them out once), as
    :func:`wild_now`'s ``complete`` says.

    >>> from tracker.engine.cards import parse_card as c
    >>> ftq = load_game({"name": "ftq", "title": "Follow the Queen",
    ...                  "wild": [{"kind": "follow", "rank": "Q"}]})
    >>> order = [c(x) for x in "Qd 7h Qs".split()]
    >>> sorted(table_follow_ranks(ftq, order, complete=False))
    [7]
    >>> sorted(table_follow_ranks(ftq, order, complete=True))
    []
    """
    follow: frozenset[int] = frozenset()
    for w in game.wild:
        if isinstance(w, FollowWild):
            rule = w if complete else replace(w, last_x="keeps")
            follow = follow_ranks(rule, up_order)
    return follow


def _kings_and_lowest(
    w: KingsAndLowestWild, down: Sequence[int], up: Sequence[int], hand: list[int]
) -> list[frozenset[int]]:
    # rank index (card >> 2): king 11, ace 12
    if w.door_card_kings:
        kings = frozenset(up[:1]) if up and up[0] >> 2 == 11 else frozenset()
        holds_king = any(c >> 2 == 11 for c in hand)
    else:
        kings = frozenset(c for c in hand if c >> 2 == 11)
        holds_king = bool(kings)
    if w.king_required and not holds_king:
        return [kings]
    rest = [c for c in hand if c not in kings]
    if not rest:
        return [kings]
    if w.ace_low_for_lowest and any(c >> 2 == 12 for c in rest):
        lowest = [c for c in rest if c >> 2 == 12]
    else:
        low = min(rest) >> 2
        lowest = [c for c in rest if c >> 2 == low]
    if len(lowest) == 1:
        return [kings | {lowest[0]}]
    if w.all_lowest_wild:
        return [kings | frozenset(lowest)]
    return [kings | {c} for c in lowest]


def _lowest_hole(
    w: LowestHoleWild, down: Sequence[int], hand: list[int], aces_low: bool
) -> list[frozenset[int]]:
    if not down:
        return [frozenset()]
    low = min(down) >> 2
    if aces_low and any(c >> 2 == 12 for c in down):
        low = 12
    mode = w.same_rank
    if mode == "all":
        return [frozenset([c for c in hand if c >> 2 == low])]
    lowest = [c for c in down if c >> 2 == low]
    if mode == "none":
        return [frozenset((c,)) for c in lowest]
    return [frozenset(lowest)]


def wild_options(
    game: GameDefinition,
    down: Sequence[int],
    up: Sequence[int],
    community: int | None = None,
    follow: frozenset[int] = frozenset(),
    half: str = "high",
) -> list[frozenset[int]]:
    """The sets of a player's cards (ints) that may be wild; never empty.

    ``up`` is the player's up cards in the order dealt (``up[0]`` the door
    card); ``follow`` the follow ranks of the table (:func:`follow_ranks`);
    ``half`` ``"low"`` asks for the low hand (a hole ace is then the lowest
    hole card under an ace-low ranking). Every rule's wild cards are added;
    a rule with a choice (which of equal lowest cards) gives one set each.

    >>> from tracker.engine.cards import parse_card as c
    >>> g = load_game({"name": "d", "title": "D", "wild": [{"kind": "fixed", "ranks": ["2"]}]})
    >>> [sorted(map(format_card, o)) for o in wild_options(g, [c("2d"), c("5h")], [c("2s")])]
    [['2d', '2s']]
    """
    hand = list(down) + list(up)
    if community is not None:
        hand.append(community)
    fixed: set[int] = set()
    choices: list[list[frozenset[int]]] = []
    for w in game.wild:
        if isinstance(w, FixedWild):
            fixed.update(c for c in hand if (c >> 2) + 2 in w.ranks or c in w.cards)
        elif isinstance(w, FollowWild):
            fixed.update(
                c for c in hand if (c >> 2) + 2 in follow or (w.x_wild and (c >> 2) + 2 == w.rank)
            )
        elif isinstance(w, KingsAndLowestWild):
            choices.append(_kings_and_lowest(w, down, up, hand))
        else:
            low = game.pot.low
            aces_low = half == "low" and low is not None and low.ranking != "deuce_to_seven"
            choices.append(_lowest_hole(w, down, hand, aces_low))
    if not fixed and len(choices) == 1:
        return choices[0]
    options = [frozenset(fixed)]
    for alternatives in choices:
        options = [o | a for o in options for a in alternatives]
    if len(options) > 1:
        options = list(dict.fromkeys(options))
    return options


# --- who brings in, who acts first --------------------------------------------------------


def _order_rank(card: int, aces: str) -> int:
    r = (card >> 2) + 2
    return 1 if r == 14 and aces == "low" else r


def bring_in_seat(game: GameDefinition, doors: Sequence[int]) -> int:
    """The seat (index into ``doors``, each player's door card) that brings in.

    ``lowest``: the lowest door card (``order_aces`` high: aces high), ties by
    suit, clubs lowest; ``highest`` (Razz): the highest door card, aces low
    under ``order_aces`` low, ties by suit, spades highest.

    >>> from tracker.engine.game_presets import PRESETS
    >>> from tracker.engine.cards import parse_card as c
    >>> doors = [c("Kd"), c("Ah"), c("2c")]
    >>> bring_in_seat(PRESETS["seven_card_stud"], doors), bring_in_seat(PRESETS["razz"], doors)
    (2, 0)
    """

    def key(i: int) -> tuple[int, int]:
        return (_order_rank(doors[i], game.order_aces), doors[i] & 3)

    seats = range(len(doors))
    return min(seats, key=key) if game.bring_in == "lowest" else max(seats, key=key)


def _board_high(up: Sequence[int], aces: str) -> tuple:
    counts: dict[int, int] = {}
    for c in up:
        r = _order_rank(c, aces)
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(((k, r) for r, k in counts.items()), reverse=True)
    top = groups[0][0] if groups else 0
    second = groups[1][0] if len(groups) > 1 else 0
    # quads, full house, trips, two pair, pair, high card: boards of four and of five up
    # cards compare by what they make, their kickers after
    if top >= 4:
        category = 5
    elif top == 3:
        category = 4 if second >= 2 else 3
    elif top == 2:
        category = 2 if second == 2 else 1
    else:
        category = 0
    return (category, tuple(r for _, r in groups))


def _board_low(up: Sequence[int], aces: str) -> tuple:
    """Bigger is a better low board: fewer paired cards, then the lowest top cards."""
    counts: dict[int, int] = {}
    for c in up:
        r = _order_rank(c, aces)
        counts[r] = counts.get(r, 0) + 1
    paired = sum(k - 1 for k in counts.values())
    singles = sorted(counts, reverse=True)
    return (-paired, tuple(-r for r in singles))


def first_to_act(game: GameDefinition, boards: Sequence[Sequence[int] | None]) -> int:
    """The seat that acts first after the first street: the best face-up hand at natural
    values (``best_board``; no straights or flushes) or the lowest (``lowest_board``,
    Razz); ties go to the first of them (seats in order from the dealer's left). A folded
    player's board is ``None``.

    >>> from tracker.engine.game_presets import PRESETS
    >>> from tracker.engine.cards import parse_card as c
    >>> boards = [[c("Kd"), c("Kh")], [c("3s"), c("Ah")], [c("9c"), c("Qh")]]
    >>> first_to_act(PRESETS["seven_card_stud"], boards), first_to_act(PRESETS["razz"], boards)
    (0, 1)
    >>> first_to_act(PRESETS["seven_card_stud"], [[c(x) for x in b.split()] for b in
    ...     ("4h 4c Ah Ad", "Ks Kh Qs Qd Jc")])  # two pair, aces up, beats kings up
    0
    """
    judge = _board_high if game.first_to_act == "best_board" else _board_low
    best, seat = None, -1
    for i, up in enumerate(boards):
        if up is None:
            continue
        key = judge(up, game.order_aces)
        if best is None or key > best:
            best, seat = key, i
    return seat
