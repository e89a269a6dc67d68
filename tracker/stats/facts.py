"""Per-seat *facts* of a settled hand: what the statistics are summed from.

Pure Python (the engine only, no Django): :func:`hand_facts` reads a hand as
recorded (variant, announcements, the full history or the quick entry) and
the engine's reading of it (``Hand.engine_reading``: contributions, folds,
pots, the showdown) and returns one small dict of numbers per position.
Settlement stores them on each ``HandSeat.facts``; the statistics pages
sum them in the database (docs/analytics.md defines every statistic).

Every hand gives: ``saw4`` .. ``saw7`` (was dealt that street's card),
``sd`` (reached the showdown, a muck there included), ``cat`` (the high
hand's category at the showdown) and ``wild`` (how many of the player's
cards were wild at the showdown). A full history also gives the betting:
``vpip``, ``bi`` (posted the bring-in), ``comp`` (completed on third
street), ``r3`` (raised on third street), ``bets`` (completions, bets and
raises, every street), ``calls`` (calls of a bet, every street),
``st_try`` / ``steal`` (a completion nobody had called before, and one
that everyone then folded to), and the all-in luck: when the betting
stopped before the last card with this player still in (at most one
player in had chips left), ``ai`` = 1, ``ai_st`` the street (3..6), ``eq``
the equity, ``ev`` the expected chips from the pots, ``ai_se`` the
standard error of ``ev`` (0 when exact) and ``ai_m`` the method.

An example: Ann (p1) posts the bring-in, Bob completes, Cat folds, Ann
calls, and on fourth street Bob bets and Ann folds.

>>> reading = {
...     "antes": [4, 4, 4], "starting_stacks": [1000, 1000, 1000],
...     "stakes": {"ante": 4, "bring_in": 10, "small_bet": 20, "big_bet": 40},
...     "folded": ["fourth", None, "third"], "pots": [{"amount": 52, "eligible": [1]}],
...     "showdown": None, "winnings": [0, 52, 0], "community": None}
>>> actions = ["d dh p1 9c8d2c", "d dh p2 AsKsQs", "d dh p3 7h7d9s", "p1 pb", "p2 cbr 20",
...            "p3 f", "p1 cc", "d dh p1 3d", "d dh p2 Js", "p2 cbr 20", "p1 f"]
>>> ann, bob, cat = hand_facts(variant="seven_card_stud", options={}, entry_mode="full",
...                            entry={"actions": actions}, reading=reading)
>>> ann["bi"], ann["vpip"], ann["calls"], ann["saw4"], ann["saw5"]
(1, 1, 1, 1, 0)
>>> bob["vpip"], bob["comp"], bob["bets"], bob["st_try"], bob["steal"], bob["sd"]
(1, 1, 2, 1, 0, 0)
>>> cat["vpip"], cat["saw4"]
(0, 0)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tracker.engine.announcements import has_high, normalize_announcements
from tracker.engine.cards import is_unknown, parse_card
from tracker.engine.equity import SAMPLES, Pot, Seat, all_in_equity
from tracker.engine.errors import DomainError
from tracker.engine.wild import wild_options

__all__ = ["FACTS_VERSION", "STREET_INDEX", "hand_facts"]

#: Bumped when the facts change meaning; ``refresh_stats`` recomputes older rows.
FACTS_VERSION = 1
STREETS = ("third", "fourth", "fifth", "sixth", "seventh")
STREET_INDEX = {name: k for k, name in enumerate(STREETS)}
BETTING_KEYS = ("vpip", "bi", "comp", "r3", "bets", "calls", "st_try", "steal")


def _card(token: str) -> int | None:
    return None if is_unknown(token) else parse_card(token)


def _cards(text: str) -> list[int | None]:
    return [_card(text[k : k + 2]) for k in range(0, len(text), 2)]


def _reached(folded: Sequence[str | None], showdown: bool) -> list[int]:
    """The last street index (0 = third .. 4 = seventh) each seat was dealt, from the folds.

    A seat that folded saw the street it folded on; a seat at the showdown saw
    the seventh; the winner of an uncontested pot saw as far as the last
    opponent to fold.
    """
    last_fold = max(
        (STREET_INDEX[f] for f in folded if f is not None and f in STREET_INDEX), default=0
    )
    out = []
    for f in folded:
        if f is None:
            out.append(4 if showdown else last_fold)
        elif f == "showdown":
            out.append(4)
        else:
            out.append(STREET_INDEX[f])
    return out


class _Walk:
    """Reads a full history (already replayed and accepted by the engine) action by action."""

    def __init__(self, n: int, stakes: Mapping[str, int], starting: Sequence[int], antes):
        self.n = n
        self.small_bet = stakes["small_bet"]
        self.bring_in = stakes["bring_in"]
        self.stacks = [starting[i] - antes[i] for i in range(n)]
        self.in_hand = [True] * n
        self.cards: list[list[int | None]] = [[] for _ in range(n)]
        self.street = 0
        self.bets = [0] * n
        self.max_bet = 0
        self.completion_due = True
        self.called_bring_in = False
        self.completer: int | None = None
        self.contested = False
        self.closed_at: int | None = None  # street index after whose betting nobody could bet
        self.contenders: tuple[int, ...] = ()
        self.facts = [dict.fromkeys(BETTING_KEYS, 0) for _ in range(n)]

    def run(self, actions: Sequence[str]) -> None:
        for action in actions:
            words = action.split("#", 1)[0].split()
            if not words:
                continue
            if words[0] == "d":
                if words[1] == "dh":
                    self.deal(int(words[2][1:]) - 1, words[3])
                elif words[1] == "db":
                    self.new_street(4)
                continue
            p = int(words[0][1:]) - 1
            verb = words[1]
            if verb == "pb":
                self.put(p, min(self.stacks[p], self.bring_in))
                self.facts[p]["bi"] = 1
                if self.bets[p] >= self.small_bet:
                    self.completion_due = False
            elif verb == "cc":
                amount = min(self.max_bet - self.bets[p], self.stacks[p])
                if amount > 0:
                    self.facts[p]["calls"] += 1
                    if self.street == 0:
                        self.facts[p]["vpip"] = 1
                        if self.completer is None:
                            self.called_bring_in = True
                        elif p != self.completer:
                            self.contested = True
                self.put(p, amount)
            elif verb == "cbr":
                self.put(p, int(words[2]) - self.bets[p])
                f = self.facts[p]
                f["bets"] += 1
                if self.street == 0:
                    f["vpip"] = 1
                    if self.completion_due:
                        f["comp"] = 1
                        self.completer = p
                        if not self.called_bring_in:
                            f["st_try"] = 1
                    else:
                        f["r3"] = 1
                        if p != self.completer:
                            self.contested = True
                self.completion_due = False
            elif verb == "f":
                self.in_hand[p] = False
            elif verb == "sm" and len(words) == 2:
                self.in_hand[p] = False  # a muck at the showdown
            elif verb == "sm" and words[2] != "-":
                self.show(p, words[2])
        if self.street == 0 and sum(self.in_hand) == 1 and self.completer is not None:
            if self.in_hand[self.completer] and not self.contested:
                self.facts[self.completer]["steal"] = self.facts[self.completer]["st_try"]

    def put(self, p: int, amount: int) -> None:
        self.stacks[p] -= amount
        self.bets[p] += amount
        if self.bets[p] > self.max_bet:
            self.max_bet = self.bets[p]

    def deal(self, p: int, text: str) -> None:
        new = _cards(text)
        street = max(0, len(self.cards[p]) + len(new) - 3)
        if street > self.street:
            self.new_street(street)
        self.cards[p].extend(new)

    def show(self, p: int, text: str) -> None:
        shown = _cards(text)
        held = self.cards[p]
        if len(shown) == len(held):
            self.cards[p] = [s if s is not None else h for s, h in zip(shown, held, strict=True)]

    def new_street(self, street: int) -> None:
        """The betting of the street before is over: return the uncalled bet, and see
        whether anybody can still bet."""
        bets = self.bets
        top = max(bets)
        if top:
            ordered = sorted(bets)
            if top > ordered[-2]:
                p = bets.index(top)
                self.stacks[p] += top - ordered[-2]
        self.bets = [0] * self.n
        self.max_bet = 0
        live = [i for i in range(self.n) if self.in_hand[i]]
        if (
            self.closed_at is None
            and len(live) >= 2
            and sum(1 for i in live if self.stacks[i] > 0) <= 1
        ):
            self.closed_at = self.street
            self.contenders = tuple(live)
        self.street = street


def _wild_count(variant: str, options: Mapping[str, Any], seat: Mapping, community) -> int:
    down = [parse_card(c) for c in seat.get("down") or []]
    up = [parse_card(c) for c in seat.get("up") or []]
    comm = parse_card(community) if community else None
    half = "high" if has_high(variant, options) else "low"
    return max(len(o) for o in wild_options(variant, options, down, up, comm, half))


def _luck(
    variant: str,
    options: Mapping[str, Any],
    walk: _Walk,
    reading: Mapping[str, Any],
    samples: int,
) -> dict[int, dict[str, Any]]:
    """Equity and expected chips of each contender at the all-in moment, by position."""
    showdown = reading.get("showdown") or {}
    players = showdown.get("players") or []
    community = showdown.get("community") or reading.get("community")
    street = walk.closed_at
    if street is None or street >= 4:
        return {}
    contenders = walk.contenders
    seats = []
    for pos in contenders:
        shown = players[pos] if pos < len(players) else None
        if not shown:
            return {}  # a contender mucked: the runout did not decide the pots
        down = [parse_card(c) for c in shown["down"]]
        up = [parse_card(c) for c in shown["up"]]
        seventh: tuple[bool, ...] = ()
        if community is None:
            seventh = (len(up) == 5,)
        seats.append(
            Seat(
                down=tuple(down[:2]),
                up=tuple(up[: street + 1]),
                to_come=(True,) * (3 - street) + seventh,
                declare=shown.get("declare"),
            )
        )
    index = {pos: k for k, pos in enumerate(contenders)}
    pots = []
    for pot in reading.get("pots") or []:
        eligible = tuple(index[p] for p in pot["eligible"] if p in index)
        if eligible and pot["amount"]:
            pots.append(Pot(pot["amount"], eligible))
    if not pots:
        return {}
    dead = [
        c for pos in range(walk.n) if pos not in index for c in walk.cards[pos] if c is not None
    ]
    result = all_in_equity(
        variant,
        options,
        seats,
        pots,
        dead=dead,
        community=community is not None,
        samples=samples,
    )
    out = {}
    for k, pos in enumerate(contenders):
        out[pos] = {
            "ai": 1,
            "ai_st": street + 3,
            "eq": round(result.equity[k], 4),
            "ev": round(result.expected[k], 2),
            "ai_se": round(result.stderr[k], 2),
            "ai_m": "exact" if result.method == "exact" else "mc",
        }
    return out


def hand_facts(
    *,
    variant: str,
    options: Mapping[str, Any],
    entry_mode: str,
    entry: Mapping[str, Any],
    reading: Mapping[str, Any],
    samples: int = SAMPLES,
) -> list[dict[str, Any]]:
    """One dict of facts per position (see the module doc). ``reading`` is the engine's
    reading of the hand (``HandResult.to_dict()``); ``options`` its announcements."""
    options = normalize_announcements(variant, options)
    folded = list(reading["folded"])
    n = len(folded)
    showdown = reading.get("showdown")
    full = entry_mode == "full"
    facts: list[dict[str, Any]] = [{"v": FACTS_VERSION, "full": int(full)} for _ in range(n)]
    reached = _reached(folded, showdown is not None)
    walk = None
    if full:
        walk = _Walk(n, reading["stakes"], reading["starting_stacks"], reading["antes"])
        walk.run(entry.get("actions") or [])
        for pos in range(n):
            facts[pos].update(walk.facts[pos])
    for pos in range(n):
        f = facts[pos]
        for street in (4, 5, 6, 7):
            f[f"saw{street}"] = int(reached[pos] >= street - 3)
        f["sd"] = int(showdown is not None and folded[pos] in (None, "showdown"))
    if showdown:
        community = showdown.get("community")
        for pos, seat in enumerate(showdown.get("players") or []):
            if not seat:
                continue
            high = seat.get("high")
            if high:
                facts[pos]["cat"] = high["category"]
            try:
                facts[pos]["wild"] = _wild_count(variant, options, seat, community)
            except DomainError:  # pragma: no cover - the reading's cards are always valid
                pass
    if walk is not None:
        try:
            luck = _luck(variant, options, walk, reading, samples)
        except DomainError as exc:
            for pos in walk.contenders:
                facts[pos]["ai_skip"] = exc.message
        else:
            for pos, values in luck.items():
                facts[pos].update(values)
    return facts
