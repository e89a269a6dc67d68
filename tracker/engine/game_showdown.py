"""Evaluate a showdown of any valid game definition: who wins each share of the pot, and why.

The input is a showdown as :func:`~tracker.engine.showdown.evaluate_showdown`
takes it, without the variant (the definition says the rules)::

    evaluate_game(PRESETS["follow_the_queen"], {
        "community": None,
        "up_order": ["Qd", "7h", ...],    # every up card in the order dealt (follow-the-X only)
        "players": [{"down": [...], "up": [...], "declare": "high"}, ...],
    })
    -> {"players": [{"high": {...}, "low": None, "spade": None, "wild": ["7c", "Qd"]}, ...],
        "high_winners": [0], "low_winners": [], "spade_winners": [],
        "follow": ["7"],
        "shares": [{"share": "high", "portion": "all", "winners": [0], "text": "..."}]}

Each hand is valued by the fast evaluators (:func:`~tracker.engine.hands.best_high`,
:func:`~tracker.engine.low.best_low`) on each set of wild cards the definition
allows (:func:`~tracker.engine.games.wild_options`); the explanation comes from
the same builders as today's showdowns.

>>> from tracker.engine.game_presets import PRESETS
>>> result = evaluate_game(PRESETS["deuces_wild"], {"players": [
...     {"down": ["2d", "Ks", "9h"], "up": ["Kh", "7c", "7d", "4s"]},
...     {"down": ["Ac", "Ad", "Jh"], "up": ["Ah", "8c", "8d", "3s"]}]})
>>> result["players"][0]["high"]["text"]
'full house, kings full of sevens (2♦ as K♦)'
>>> result["shares"]
[{'share': 'high', 'portion': 'all', 'winners': [1], 'text': 'Seat 1 wins the pot with full house, aces full of eights'}]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from .cards import card_symbol, format_card, parse_card, rank_char
from .errors import Code, DomainError
from .explain import wild_high
from .games import (
    FixedWild,
    FollowWild,
    GameDefinition,
    KingsAndLowestWild,
    LowRule,
    _kings_and_lowest,
    _lowest_hole,
    follow_ranks,
    wild_options,
)
from .hands import best_high
from .low import best_low, low_hand
from .showdown import decide_winners

__all__ = ["GameShowdownError", "evaluate_game", "game_hand_keys", "share_text", "spade_key"]

_TOP_KEYS = ("community", "up_order", "players")
_PLAYER_KEYS = ("down", "up", "declare")


class GameShowdownError(DomainError):
    code = "invalid_showdown"


def spade_key(game: GameDefinition, down: Sequence[int]) -> int | None:
    """The player's Chicago spade as a key (bigger wins its half), ``None`` without one:
    the highest spade in the hole (``high_chicago``) or the lowest (``low_chicago``, the
    ace lowest under ``spade_ace`` low)."""
    spades = [(c >> 2) + 2 for c in down if c & 3 == 3]
    if not spades:
        return None
    if game.pot.kind == "high_chicago":
        return max(spades)
    ace = 1 if game.pot.spade_ace == "low" else 14
    return -min(ace if r == 14 else r for r in spades)


class _Plan:
    """What :func:`game_hand_keys` needs of a definition, worked out once: the cards always
    wild as a bit mask (card ``c`` is bit ``c``), the follow rule, the rules with choices."""

    __slots__ = ("aces_low", "choices", "da", "fixed", "follow", "high", "low", "x_mask")

    def __init__(self, game: GameDefinition):
        self.fixed = 0
        self.follow = None
        self.x_mask = 0
        self.choices = []
        for w in game.wild:
            if isinstance(w, FixedWild):
                for r in w.ranks:
                    self.fixed |= _RANK_MASK[r]
                for c in w.cards:
                    self.fixed |= 1 << c
            elif isinstance(w, FollowWild):
                self.follow = w
                if w.x_wild:
                    self.x_mask = _RANK_MASK[w.rank]
            else:
                self.choices.append(w)
        self.da = game.double_ace_flush
        self.high = game.pot.has_high
        self.low = game.pot.low
        # the lowest hole card of the low hand: an ace under an ace-low ranking
        self.aces_low = self.low is not None and self.low.ranking != "deuce_to_seven"


_RANK_MASK = {r: 0xF << (4 * (r - 2)) for r in range(2, 15)}
_PLANS: dict[int, tuple[GameDefinition, _Plan]] = {}
_FOLLOW_MASKS: dict[frozenset[int], int] = {}


def _plan(game: GameDefinition) -> _Plan:
    entry = _PLANS.get(id(game))
    if entry is None or entry[0] is not game:
        entry = _PLANS[id(game)] = (game, _Plan(game))
    return entry[1]


def game_hand_keys(
    game: GameDefinition,
    down: Sequence[int],
    up: Sequence[int],
    community: int | None = None,
    follow: frozenset[int] = frozenset(),
) -> tuple[int | None, int | None]:
    """Fast values of one hand, no explanation: ``(high_key, low_key)`` (bigger is better;
    ``None`` for a half the pot does not have, or a low that does not qualify).

    The same values as valuing every set of :func:`~tracker.engine.games.wild_options` and
    keeping the best, with the always-wild cards found by one bit mask.

    >>> from tracker.engine.game_presets import PRESETS
    >>> from tracker.engine.cards import parse_card as c
    >>> high, low = game_hand_keys(PRESETS["deuces_wild"], [c("2c"), c("2d"), c("Kh")],
    ...                            [c("Ks"), c("Kc"), c("5d"), c("9s")])
    >>> from tracker.engine.hands import category_name
    >>> category_name(high), low
    ('five_of_a_kind', None)
    """
    plan = _plan(game)
    cards = list(down) + list(up)
    if community is not None:
        cards.append(community)
    mask = plan.fixed | plan.x_mask
    if follow:
        mask |= _follow_mask(follow)
    if not plan.choices:
        return _masked_keys(plan, cards, mask)
    high_opts, low_opts = _choice_options(plan, game, down, up, cards, community, follow, mask)
    high = _best_high_key(cards, high_opts, plan.da) if plan.high else None
    low = _best_low_key(cards, low_opts, plan.low) if plan.low is not None else None
    return high, low


def _follow_mask(follow: frozenset[int]) -> int:
    fm = _FOLLOW_MASKS.get(follow)
    if fm is None:
        fm = _FOLLOW_MASKS[follow] = sum(_RANK_MASK[r] for r in follow)
    return fm


def _masked_keys(plan: _Plan, cards: list[int], mask: int) -> tuple[int | None, int | None]:
    """The keys when the wild cards are exactly those of ``mask`` (no rule with choices)."""
    wild = [c for c in cards if mask >> c & 1] if mask else ()
    nat = [c for c in cards if not mask >> c & 1] if wild else cards
    high = best_high(nat, len(wild), plan.da) if plan.high else None
    low = None
    if plan.low is not None:
        low = best_low(nat, len(wild), plan.low.ranking, plan.low.qualifier)
    return high, low


_Options = Sequence[frozenset[int]]


def _choice_options(
    plan: _Plan,
    game: GameDefinition,
    down: Sequence[int],
    up: Sequence[int],
    cards: list[int],
    community: int | None,
    follow: frozenset[int],
    mask: int,
) -> tuple[_Options, _Options]:
    """The sets of wild cards to try for the high and for the low hand."""
    if len(plan.choices) == 1 and not mask:  # one rule with choices (today's wild games)
        w = plan.choices[0]
        if isinstance(w, KingsAndLowestWild):
            opts = _kings_and_lowest(w, down, up, cards)
            return opts, opts
        high_opts = _lowest_hole(w, down, cards, False)
        low_opts = _lowest_hole(w, down, cards, plan.aces_low) if plan.aces_low else high_opts
        return high_opts, low_opts
    high_opts = wild_options(game, down, up, community, follow, "high")
    low_opts = wild_options(game, down, up, community, follow, "low") if plan.low else ()
    return high_opts, low_opts


def _best_high_key(cards: list[int], options: _Options, da: bool) -> int | None:
    high = None
    for opt in options:
        if opt:
            k = best_high([c for c in cards if c not in opt], len(opt), da)
        else:
            k = best_high(cards, 0, da)
        if high is None or k > high:
            high = k
    return high


def _best_low_key(cards: list[int], options: _Options, rule: LowRule) -> int | None:
    low = None
    ranking, qualifier = rule.ranking, rule.qualifier
    for opt in options:
        k = best_low([c for c in cards if c not in opt], len(opt), ranking, qualifier)
        if k is not None and (low is None or k > low):
            low = k
    return low


def _cards(value: Any, at: str, seen: dict[int, str]) -> list[int]:
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise GameShowdownError("must be a list of cards", field=at)
    out = []
    for j, token in enumerate(value):
        where = f"{at}[{j}]"
        card = parse_card(token, where)
        if card in seen:
            msg = f"{format_card(card)} appears twice: {seen[card]} and {where}"
            raise GameShowdownError(
                msg, code="duplicate_card", fields={seen[card]: [msg], where: [msg]}
            )
        seen[card] = where
        out.append(card)
    return out


def _check_counts(
    game: GameDefinition, down: list[int], up: list[int], community: int | None, at: str
) -> None:
    faces = list(game.faces)
    if "community" in faces:
        faces.remove("community")
    elif community is not None:
        if len(game.streets[-1].faces) != 1:
            raise GameShowdownError(
                "a community card stands in only for a last street of one card",
                field="community",
            )
        faces.pop()  # the community card stands in for each player's last card
    extra_ranks = {e.rank: e.face for e in game.extra_cards}
    extra_down = sum(1 for c in up if extra_ranks.get((c >> 2) + 2) == "down")
    extra_up = sum(1 for c in up if extra_ranks.get((c >> 2) + 2) == "up")
    need = len(faces) + extra_down + extra_up
    n = len(down) + len(up)
    if n != need:
        extras = f" and {extra_down + extra_up} extra" if extra_down + extra_up else ""
        raise GameShowdownError(
            f"{n} cards ({len(down)} down, {len(up)} up); this deal gives {len(faces)}{extras}",
            code="wrong_card_count",
            field=at,
        )
    lo = faces.count("down") + extra_down
    hi = lo + faces.count("choice")
    if game.buy is not None and community is None:
        if game.buy.version == "contributed":
            lo -= 1  # a bought last card comes up
        else:
            hi += 1  # a bought last card comes down
    if not lo <= len(down) <= hi:
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        raise GameShowdownError(
            f"{len(down)} down and {len(up)} up; this deal gives {want} face down",
            code="wrong_card_count",
            field=f"{at}.down",
        )


def _parse(game: GameDefinition, showdown: Any):
    if not isinstance(showdown, Mapping):
        raise GameShowdownError("a showdown must be an object with players")
    for key in showdown:
        if key not in _TOP_KEYS:
            raise GameShowdownError(
                f"unknown field {key!r} (fields: {', '.join(_TOP_KEYS)})", field=str(key)
            )
    seen: dict[int, str] = {}
    community = None
    if showdown.get("community") is not None:
        community = _cards([showdown["community"]], "community", seen)[0]
        seen[community] = "community"
    players = showdown.get("players")
    if isinstance(players, str) or not isinstance(players, Sequence) or not players:
        raise GameShowdownError("must be a list of at least one player", field="players")
    game.refuse_players(
        len(players), field="players", error=GameShowdownError, code=Code.TOO_MANY_PLAYERS
    )
    declaring = game.pot.kind == "high_low" and game.pot.declaration == "declare"
    seats = [
        _parse_player(game, p, f"players[{i}]", community, seen, declaring)
        for i, p in enumerate(players)
    ]
    return community, seats, _parse_follow(game, showdown, seats, community)


_Seat = tuple[list[int], list[int], str | None]


def _parse_player(
    game: GameDefinition,
    p: Any,
    at: str,
    community: int | None,
    seen: dict[int, str],
    declaring: bool,
) -> _Seat:
    """One player's ``(down, up, declare)``, checked against the deal."""
    if not isinstance(p, Mapping):
        raise GameShowdownError("a player must be an object with down and up", field=at)
    for key in p:
        if key not in _PLAYER_KEYS:
            raise GameShowdownError(
                f"unknown field {key!r} (fields: {', '.join(_PLAYER_KEYS)})",
                field=f"{at}.{key}",
            )
    for key in ("down", "up"):
        if key not in p:
            raise GameShowdownError("required", code="required", field=f"{at}.{key}")
    down = _cards(p["down"], f"{at}.down", seen)
    up = _cards(p["up"], f"{at}.up", seen)
    _check_counts(game, down, up, community, at)
    declare = p.get("declare")
    if declaring:
        if declare not in ("high", "low", "both"):
            raise GameShowdownError(
                "required: high, low or both (the game is played high-low with declarations)",
                code="required",
                field=f"{at}.declare",
            )
    elif declare is not None:
        raise GameShowdownError("this game has no declarations", field=f"{at}.declare")
    return down, up, declare


def _parse_follow(
    game: GameDefinition, showdown: Mapping, seats: list[_Seat], community: int | None
) -> frozenset[int]:
    """The follow ranks of the table from ``up_order`` (follow-the-X), checked against the
    players' cards; an ``up_order`` a game without one is only read as cards."""
    rule = next((w for w in game.wild if isinstance(w, FollowWild)), None)
    if rule is None:
        if showdown.get("up_order") is not None:
            _cards(showdown["up_order"], "up_order", {})
        return frozenset()
    if showdown.get("up_order") is None:
        raise GameShowdownError(
            f"required: {game.title} needs the order the up cards were dealt",
            code="required",
            field="up_order",
        )
    order = _cards(showdown["up_order"], "up_order", {})
    listed = set(order)
    for i, (down, up, _) in enumerate(seats):
        for j, c in enumerate(up):
            if c not in listed:
                raise GameShowdownError(
                    f"{format_card(c)} is up but not in up_order",
                    field=f"players[{i}].up[{j}]",
                )
        for j, c in enumerate(down):
            if c in listed:
                raise GameShowdownError(
                    f"{format_card(c)} is face down but listed in up_order",
                    field=f"players[{i}].down[{j}]",
                )
    if community is not None and community not in listed:
        raise GameShowdownError("the community card is up but not in up_order", field="community")
    return follow_ranks(rule, order)


def _explain_high(game: GameDefinition, cards: list[int], options: list[frozenset[int]]):
    da = game.double_ace_flush
    best_opt, best_key = options[0], None
    for opt in options:
        key = best_high([c for c in cards if c not in opt], len(opt), da)
        if best_key is None or key > best_key:
            best_opt, best_key = opt, key
    key, hand = wild_high([c for c in cards if c not in best_opt], list(best_opt), da, key=best_key)
    return key, hand, best_opt


def _explain_low(game: GameDefinition, cards: list[int], options: list[frozenset[int]]):
    low = game.pot.low
    best = None
    for opt in options:
        key, ok, hand = low_hand(
            [c for c in cards if c not in opt], sorted(opt), low.ranking, low.qualifier
        )
        if best is None or (ok, key) > (best[1], best[0]):
            best = (key, ok, hand, opt)
    return best


def _winners(keys: Mapping[int, int]) -> list[int]:
    if not keys:
        return []
    top = max(keys.values())
    return sorted(i for i, k in keys.items() if k == top)


def _names(seats: Sequence[int], names: Sequence[str] = ()) -> str:
    return " and ".join(names[i] if i < len(names) else f"seat {i}" for i in seats)


def _opening(who: str) -> str:
    return f"{who[0].upper()}{who[1:]}"


def share_text(share: Mapping[str, Any], names: Sequence[str]) -> str:
    """A share's sentence (``evaluate_game``'s ``shares``) with its winners (seat indexes)
    named by ``names``; a share nobody wins reads as it is.

    >>> share_text({"winners": [1], "text": "Seat 1 wins the pot with two pair"}, ["Ann", "Bob"])
    'Bob wins the pot with two pair'
    >>> share_text({"winners": [0, 1], "text": "Seat 0 and seat 1 split the low half with 7-5"},
    ...            ["ann", "Bob"])
    'Ann and Bob split the low half with 7-5'
    """
    text, winners = share["text"], list(share.get("winners") or ())
    said = _opening(_names(winners)) if winners else ""
    if not said or not text.startswith(said):
        return text
    return _opening(_names(winners, names)) + text[len(said) :]


def evaluate_game(game: GameDefinition, showdown: Mapping[str, Any]) -> dict:
    """Value every hand under ``game`` and name the winners of each share (module doc).

    Raises :class:`GameShowdownError` (or a card error) naming the field at fault.
    """
    community, seats, follow = _parse(game, showdown)
    pot = game.pot
    players: list[dict] = []
    high_keys: list[int | None] = []
    low_keys: list[int | None] = []
    spades: list[int | None] = []
    for down, up, declare in seats:
        cards = down + up + ([] if community is None else [community])
        entry: dict[str, Any] = {"high": None, "low": None, "spade": None}
        hk = lk = None
        wild: set[int] = set()
        if pot.has_high:
            options = wild_options(game, down, up, community, follow, "high")
            hk, entry["high"], opt = _explain_high(game, cards, options)
            wild |= opt
        if pot.low is not None:
            options = wild_options(game, down, up, community, follow, "low")
            key, ok, entry["low"], opt = _explain_low(game, cards, options)
            lk = key if ok else None
            wild |= opt
        sk = None
        if pot.chicago:
            sk = spade_key(game, down)
            spade = [c for c in down if c & 3 == 3]
            if sk is not None:
                pick = (
                    max(spade)
                    if pot.kind == "high_chicago"
                    else min(
                        spade, key=lambda c: 1 if c >> 2 == 12 and pot.spade_ace == "low" else c
                    )
                )
                entry["spade"] = format_card(pick)
        entry["wild"] = sorted(format_card(c) for c in wild)
        if declare is not None:
            entry["declare"] = declare
        players.append(entry)
        high_keys.append(hk)
        low_keys.append(lk)
        spades.append(sk)
    declares = [d for _, _, d in seats] if seats[0][2] is not None else None
    hi, lo = decide_winners(high_keys, low_keys, declares)
    sp = _winners({i: k for i, k in enumerate(spades) if k is not None}) if pot.chicago else []
    result: dict[str, Any] = {
        "players": players,
        "high_winners": hi,
        "low_winners": lo,
        "spade_winners": sp,
        "shares": _shares(game, players, hi, lo, sp),
    }
    if game.up_order_needed:
        result["follow"] = [rank_char(r) for r in sorted(follow)]
    return result


def _shares(game: GameDefinition, players: list[dict], hi: list[int], lo: list[int], sp: list[int]):
    """The shares of the pot, each with its winners and a sentence saying why."""
    pot = game.pot

    def share(name: str, portion: str, winners: list[int], half: str | None) -> dict:
        tail = "the pot" if portion == "all" else f"the {name} half"
        if not winners:
            text = f"Nobody wins {tail}"
        else:
            who = _names(winners)
            verb = "split" if len(winners) > 1 else "wins"
            if half is None:  # the Chicago spade
                which = "highest" if pot.kind == "high_chicago" else "lowest"
                spade = card_symbol(parse_card(players[winners[0]]["spade"]))
                why = f"the {which} spade in the hole, {spade}"
            else:
                why = players[winners[0]][half]["text"].split(" (")[0]
            text = f"{_opening(who)} {verb} {tail} with {why}"
        return {"share": name, "portion": portion, "winners": winners, "text": text}

    if pot.kind == "high":
        return [share("high", "all", hi, "high")]
    if pot.kind == "low":
        return [share("low", "all", lo, "low")]
    if pot.kind == "high_low":
        if not lo:
            return [share("high", "all", hi, "high")]
        if not hi:
            return [share("low", "all", lo, "low")]
        return [share("high", "half", hi, "high"), share("low", "half", lo, "low")]
    if not sp:  # Chicago without a spade in the hole: the high hand takes it all
        return [share("high", "all", hi, "high")]
    return [share("high", "half", hi, "high"), share("spade", "half", sp, None)]
