"""All-in equity: each contender's share of the pots when the betting stopped before the last card.

When at most one player still in a hand has chips left, nobody can bet any
more and the remaining cards are dealt out. At that moment each contender's
*equity* in a pot is the chips of that pot they can expect from the cards
still to come, as a share of the pot; their *expected chips* are the sum
over the pots they contend for. This module computes both, with the
wild-card rules of the hand, from:

* each contender's cards so far (face down and face up, in the order dealt)
  and the faces of the cards still to come (``to_come``: one flag per
  card, ``True`` for face up) -- the stud dealing: one up card a street to
  sixth, then the seventh card down (or up, when the player took or bought
  it face up);
* the *dead* cards: every other card seen in the hand (folded players'
  cards). Cards nobody saw (burns, folded hole cards) are as good as
  unseen and stay in the deck;
* the pots (amount and which contenders are eligible), settled as the
  engine settles them (:func:`~tracker.engine.pots.award_pot`: high-low
  halves, odd chips to the first winner clockwise);
* ``community``: the seventh card is one community card for everyone
  (docs/procedure.md: the deck cannot give each player a seventh card).

Exact enumeration of every runout is used when the work is small enough
(:data:`EXACT_LIMIT`); otherwise a Monte Carlo estimate over ``samples``
random runouts, with its standard error per player. Every runout is
valued with the hand-value engine's fast internal API
(:func:`~tracker.engine.showdown.hand_keys` and
:func:`~tracker.engine.showdown.decide_winners`), the same code that
settles the showdown.

Cards are ints (:mod:`tracker.engine.cards`). An example: heads-up on sixth
street, one card to come each (face down), Ann's four hearts against Bob's
two pair -- exact, since only 40 x 39 runouts remain (9 hearts and two
fours make Ann's hand, unless Bob fills up with a queen or a jack):

>>> from tracker.engine.cards import parse_card as c
>>> ann = Seat(down=(c("Ah"), c("2h")), up=(c("9h"), c("5h"), c("Kc"), c("3d")), to_come=(False,))
>>> bob = Seat(down=(c("Qs"), c("Qd")), up=(c("Js"), c("Jd"), c("4c"), c("8s")), to_come=(False,))
>>> result = all_in_equity("seven_card_stud", None, [ann, bob], pots=[Pot(200, (0, 1))])
>>> result.method, result.runouts
('exact', 1560)
>>> [round(e, 3) for e in result.equity]
[0.248, 0.752]
>>> [round(x, 1) for x in result.expected], result.stderr
([49.6, 150.4], (0.0, 0.0))

With wild cards the same call reads the variant's rules (here Kings and
Little Ones: Ann's king is wild and makes her lowest card, the deuce, wild too):

>>> ann = Seat(down=(c("Kh"), c("2h")), up=(c("9h"), c("5h"), c("Tc"), c("3d")), to_come=(False,))
>>> result = all_in_equity("kings_and_little_ones", {}, [ann, bob], pots=[Pot(200, (0, 1))])
>>> [round(e, 3) for e in result.equity]
[0.871, 0.129]

A house game is valued by its definition (``game``). In Follow the Queen the runouts follow
the up cards dealt so far (``up_order``, folded players' included): a folded player's Qc
was followed by Ann's 5h, so fives are wild, and her 5h makes any pair trips:

>>> from tracker.engine.game_presets import PRESETS
>>> ann = Seat(down=(c("Ah"), c("2h")), up=(c("Th"), c("5h"), c("Kc"), c("6d")), to_come=(False,))
>>> bob = Seat(down=(c("Js"), c("Jd")), up=(c("9c"), c("Ts"), c("8c"), c("8s")), to_come=(False,))
>>> order = [c(x) for x in "Th 9c Qc 5h Ts Kc 8c 6d 8s".split()]
>>> result = all_in_equity("house", None, [ann, bob], pots=[Pot(200, (0, 1))], dead=[c("Qc")],
...                        game=PRESETS["follow_the_queen"], up_order=order)
>>> result.method, result.runouts, [round(e, 3) for e in result.equity]
('exact', 1482, [0.484, 0.516])
"""

from __future__ import annotations

import math
import random
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from typing import Any

from .announcements import check_variant, has_high, has_low, normalize_announcements
from .errors import Code, DomainError
from .game_showdown import game_hand_keys, spade_key
from .games import DECK_SIZE, FollowWild, GameDefinition, follow_ranks
from .hands import eval7
from .low import best_low
from .pots import award_pot
from .showdown import decide_winners, hand_keys
from .variants import VARIANT_RULES
from .wild import wild_options

__all__ = [
    "EXACT_LIMIT",
    "GENERIC_COST",
    "SAMPLES",
    "Equity",
    "EquityError",
    "Pot",
    "Seat",
    "all_in_equity",
    "runout_work",
]

#: Exact enumeration when its cost is at most this: a runout of a heads-up pot of
#: high hands costs 1 (it is a comparison of two precomputed keys, about 20 million
#: a second), any other runout :data:`GENERIC_COST` (the general path, about a
#: million a second). So heads-up high pots are exact up to three million runouts
#: (fifth street heads-up: about 2.7 million) and the rest up to 100,000 (sixth
#: street three-handed: about 60,000).
EXACT_LIMIT = 3_000_000
GENERIC_COST = 30
#: Monte Carlo runouts otherwise. The standard error of an equity is at most
#: 0.5 / sqrt(SAMPLES): 0.5 % at 10,000 (about +-1 % at 95 % confidence).
SAMPLES = 10_000


class EquityError(DomainError):
    code = "invalid_equity"


@dataclass(frozen=True)
class Seat:
    """A contender at the all-in moment.

    ``down`` and ``up`` are the cards dealt so far (ints, in the order
    dealt; the door card is ``up[0]``); ``to_come`` has one flag per card
    still to come, in order, ``True`` for a face-up card (a house game's
    extra cards not counted: the runout deals them). ``declare`` is
    the player's declaration in a high-low game played with declarations
    (``"high"``, ``"low"``, ``"both"``), else ``None``. ``chips``: the
    chips the player has left (0: all in); read only by a house game's
    pay rules (a player with chips pays a pay card's price, see
    :func:`all_in_equity`). A house game's community street is nobody's
    ``to_come``.
    """

    down: tuple[int, ...]
    up: tuple[int, ...]
    to_come: tuple[bool, ...] = ()
    declare: str | None = None
    chips: int = 0


@dataclass(frozen=True)
class Pot:
    """A pot: its chips and the contenders (indices into the seats) who can win it."""

    amount: int
    eligible: tuple[int, ...]


@dataclass(frozen=True)
class Equity:
    """The result.

    ``expected[i]``: the chips seat ``i`` can expect from the pots;
    ``equity[i]``: that as a share of the chips in the pots ``i`` is
    eligible for (0..1); ``pot_equity[k][i]``: seat ``i``'s share of pot
    ``k``; ``stderr[i]``: the standard error of ``expected[i]`` (0 when
    exact); ``runouts``: how many runouts were valued; ``method``:
    ``"exact"`` or ``"monte_carlo"``.
    """

    method: str
    runouts: int
    expected: tuple[float, ...]
    equity: tuple[float, ...]
    pot_equity: tuple[tuple[float, ...], ...]
    stderr: tuple[float, ...]

    @property
    def equity_error(self) -> tuple[float, ...]:
        """The standard error of each equity (``stderr`` over the chips contended for)."""
        out = []
        for i, err in enumerate(self.stderr):
            e = self.equity[i]
            x = self.expected[i]
            out.append(0.0 if not x else err * e / x)
        return tuple(out)


def _choose(n: int, k: int) -> int:
    return math.comb(n, k) if 0 <= k <= n else 0


def runout_work(n_unseen: int, seats: Sequence[Seat], community: bool = False) -> int:
    """The number of steps of an exact enumeration: per seat, the ways to fill its
    up cards and down cards from the unseen cards, multiplied over the seats (and
    by the community card's choices).

    >>> runout_work(40, [Seat((), (), (False,)), Seat((), (), (False,))])
    1600
    >>> runout_work(41, [Seat((), (), (True, True, False))] * 2)
    1022720400
    """
    total = n_unseen if community else 1
    pool = n_unseen - (1 if community else 0)
    for s in seats:
        ups = sum(1 for f in s.to_come if f)
        downs = len(s.to_come) - ups
        total *= _choose(pool, ups) * _choose(pool - ups, downs)
    return total


KeyFn = Callable[[Sequence[int], Sequence[int], int | None], tuple[int | None, int | None]]


def _key_function(variant: str, ann: Mapping[str, Any]) -> KeyFn:
    """Per-player values ``(high, low)``, as :func:`hand_keys` gives them.

    Natural stud goes straight to the seven-card table. Low halves are
    memoised for the runs of one calculation: an ``ace_to_five`` low depends
    only on the ranks of the natural cards and the number of wild cards
    (suits never count in it), so most runouts repeat one already valued.
    """
    want_high = has_high(variant, ann)
    want_low = has_low(variant, ann)
    if not VARIANT_RULES[variant].has_wild and not want_low:

        def stud(down: Sequence[int], up: Sequence[int], community: int | None):
            cards = [*down, *up] if community is None else [*down, *up, community]
            return eval7(cards), None

        return stud
    if not want_low:

        def high_only(down: Sequence[int], up: Sequence[int], community: int | None):
            return hand_keys(variant, ann, down, up, community)

        return high_only
    high_ann = {**ann, "game": "high"}
    ranking = ann["low_ranking"]
    qualifier = ann["low_qualifier"]
    by_ranks = ranking == "ace_to_five"
    memo: dict[tuple, int | None] = {}

    def with_low(down: Sequence[int], up: Sequence[int], community: int | None):
        high = hand_keys(variant, high_ann, down, up, community)[0] if want_high else None
        cards = [*down, *up] if community is None else [*down, *up, community]
        low = None
        for opt in wild_options(variant, ann, down, up, community, "low"):
            naturals = [c for c in cards if c not in opt]
            key = (
                tuple(sorted(c >> 2 for c in naturals)) if by_ranks else tuple(sorted(naturals)),
                len(opt),
            )
            if key in memo:
                k = memo[key]
            else:
                k = memo[key] = best_low(naturals, len(opt), ranking, qualifier)
            if k is not None and (low is None or k > low):
                low = k
        return high, low

    return with_low


Outcome = tuple  # per pot: the winners (high only), or (high winners, low winners)


class _Settler:
    """Who wins each pot in a runout (its *outcome*), and what each outcome pays."""

    def __init__(
        self, game: str, pots: Sequence[Pot], declares: list[str | None] | None, n: int
    ) -> None:
        self.game = game
        self.pots = list(pots)
        self.eligibles = [p.eligible for p in pots]
        self.declares = declares
        self.n = n
        self.high_only = game == "high" and declares is None
        self.adds = False  # outcomes are (chips paid into the main pot, winners)

    def outcome(self, high: list[int | None], low: list[int | None]) -> Outcome:
        out = []
        if self.high_only:
            for elig in self.eligibles:
                if len(elig) == 1:
                    out.append(elig)
                    continue
                top = max(high[i] for i in elig)  # type: ignore[type-var]
                out.append(tuple(i for i in elig if high[i] == top))
            return tuple(out)
        declares = self.declares
        for elig in self.eligibles:
            if len(elig) == 1:
                out.append((elig, ()))
                continue
            decl = None if declares is None else [declares[i] for i in elig]
            hw, lw = decide_winners([high[i] for i in elig], [low[i] for i in elig], decl)
            out.append((tuple(elig[j] for j in hw), tuple(elig[j] for j in lw)))
        return tuple(out)

    def amounts(self, outcome: Outcome) -> list[int]:
        """The chips of each pot in ``outcome``'s runout: the pots, and in a house game with
        pay rules (``adds``) the chips paid in the runout, which join the main pot."""
        amounts = [p.amount for p in self.pots]
        if self.adds:
            amounts[0] += outcome[0]
        return amounts

    def paid(self, outcome: Outcome) -> list[tuple[tuple[int, int], ...]]:
        """Per pot, the ``(seat, chips)`` pairs of ``outcome`` (as the engine pays them)."""
        out = []
        amounts = self.amounts(outcome)
        if self.adds:
            outcome = outcome[1]
        for pot, amount, won in zip(self.pots, amounts, outcome, strict=True):
            if self.high_only:
                hi, lo, game = won, (), "high"
            else:
                (hi, lo), game = won, self.game
            out.append(award_pot(amount, game, hi, lo, pot.eligible))
        return out


def _check(
    seats: Sequence[Seat],
    pots: Sequence[Pot],
    dead: Iterable[int],
    community: bool,
    cards: int | None = 7,
) -> tuple[list[int], list[Pot]]:
    """The unseen cards and the pots, checked; ``cards``: how many cards a hand ends with
    (``None``: not checked here, the caller checks the deal)."""
    if len(seats) < 2:
        raise EquityError("an all-in needs at least two contenders", field="seats")
    seen: set[int] = set()

    def take(card: object, field: str) -> None:
        if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 52:
            raise EquityError(f"{card!r} is not a card (0..51)", field=field)
        if card in seen:
            raise EquityError(f"card {card} appears twice", code=Code.DUPLICATE_CARD, field=field)
        seen.add(card)

    for i, s in enumerate(seats):
        for j, card in enumerate(s.down):
            take(card, f"seats[{i}].down[{j}]")
        for j, card in enumerate(s.up):
            take(card, f"seats[{i}].up[{j}]")
        total = len(s.down) + len(s.up) + len(s.to_come) + (1 if community else 0)
        if cards is not None and total != cards:
            with_community = f" ({cards - 1} and the community card)" if community else ""
            raise EquityError(
                f"{total} cards in all; a hand of this deal ends with {cards}{with_community}",
                field=f"seats[{i}]",
            )
        if not s.up:
            raise EquityError(
                "the all-in comes after third street: a door card is up", field=f"seats[{i}].up"
            )
    for j, card in enumerate(dead):
        take(card, f"dead[{j}]")
    unseen = [c for c in range(52) if c not in seen]
    need = sum(len(s.to_come) for s in seats) + (1 if community else 0)
    if need > len(unseen):
        raise EquityError(f"{need} cards to come but only {len(unseen)} unseen", field="seats")
    checked = []
    for k, pot in enumerate(pots):
        elig = tuple(sorted(set(pot.eligible)))
        if not elig or any(not 0 <= i < len(seats) for i in elig):
            raise EquityError(
                "eligible seats must be indices of the contenders", field=f"pots[{k}]"
            )
        if pot.amount < 0:
            raise EquityError("a pot cannot be negative", field=f"pots[{k}].amount")
        checked.append(Pot(int(pot.amount), elig))
    return unseen, checked


def _dealt_in_order(game: GameDefinition) -> bool:
    """Whether a runout must be dealt card by card in the machine's order: the order of the
    up cards sets what is wild (follow-the-X), an up card changes the deal (extra cards,
    pay rules), or one card of the deal is everyone's (a community street)."""
    return (
        game.up_order_needed
        or bool(game.extra_cards)
        or bool(game.pays)
        or "community" in game.faces
    )


def all_in_equity(
    variant: str,
    announcements: Mapping[str, Any] | None,
    seats: Sequence[Seat],
    pots: Sequence[Pot] | None = None,
    *,
    dead: Iterable[int] = (),
    community: bool = False,
    exact_limit: int = EXACT_LIMIT,
    samples: int = SAMPLES,
    seed: int | None = None,
    game: GameDefinition | None = None,
    up_order: Sequence[int] | None = None,
    dealt: int | None = None,
    board: int | None = None,
) -> Equity:
    """Each contender's equity and expected chips (see the module doc).

    ``game``: a house game's definition, whose hands are valued by ``game_hand_keys`` (the
    values :func:`~tracker.engine.game_showdown.evaluate_game` settles by; ``variant`` and
    ``announcements`` are then not read), in a deal of any length (five- and six-card stud:
    each seat's ``to_come`` is what the definition's streets still deal it). A Chicago pot
    is paid as settlement pays it (:mod:`tracker.engine.game_settle`): a high half and a
    half to the best spade in the hole, the high hand taking all without one. Follow-the-X,
    extra cards, pay rules and a community street are dealt card by card as the machine
    deals them (:class:`_HouseDeal`): ``up_order`` is every up card of the hand so far in
    the order dealt (folded players' too; required by follow-the-X), each runout's up cards
    follow it, and the follow ranks of the whole order set what is wild; an up card of an
    extra-card rank gets its player one more card at once, from the rest of the deck.

    A pay card costs its player the price, all in if short, as the machine charges it: an
    all-in player pays nothing and plays on; a player with ``chips`` left is taken to pay
    (``"pot"``: every chip in the pots so far, the runout's earlier pays included), since
    folding would give up the pots it has chips in for the price of one card. What is paid
    is dead money in the main pot (``pots[0]``), so the pots of a runout grow by it;
    ``expected`` counts the chips won from them (the price paid is not taken off) and
    ``equity`` divides by the pots' average size over the runouts.

    A definition's community street is one card for every contender (``to_come`` leaves it
    out); ``board`` is that card once dealt (required then, and it is in ``up_order``).
    ``dealt``: the cards dealt in the hand so far, seen or not; given, each runout decides
    the community card standing in for a last card as the machine does (the deck short of
    a last card each), else ``community`` holds for every runout. Such runouts differ in
    length, so an exact enumeration weighs each by its chance.

    ``pots`` default to one pot of 1 chip everyone can win (so ``expected``
    is the equity). ``seed`` fixes the Monte Carlo draw; by default it is
    derived from the cards, so the same all-in always gives the same answer.
    Bad input raises :class:`EquityError` naming the field.
    """
    house = game
    seats = list(seats)
    n = len(seats)
    pots = list(pots) if pots is not None else [Pot(1, tuple(range(n)))]
    if house is not None and _dealt_in_order(house):
        return _house_equity(
            house, seats, pots, list(dead), community, exact_limit, samples, seed,
            up_order, dealt, board,
        )  # fmt: skip
    if board is not None:
        raise EquityError("only a house game's community street deals a board card", field="board")
    if house is not None:
        unseen, pots = _check(seats, pots, list(dead), community, house.cards_per_player)
        chicago = house.pot.chicago
        # Chicago: a high half and a spade half, paid as a high-low pot whose "low" is the
        # spade in the hole (tracker.engine.game_settle)
        game = "high_low" if chicago else house.pot.kind
        declaring = game == "high_low" and house.pot.declaration == "declare"

        def keys(down: Sequence[int], up: Sequence[int], comm: int | None):
            if chicago:
                return game_hand_keys(house, down, up, comm)[0], spade_key(house, down)
            return game_hand_keys(house, down, up, comm)

    else:
        variant = check_variant(variant)
        ann = normalize_announcements(variant, announcements)
        unseen, pots = _check(seats, pots, list(dead), community)
        if not has_high(variant, ann):
            game = "low"
        elif has_low(variant, ann):
            game = ann.get("game", "high")
        else:
            game = "high"
        declaring = ann.get("declaration") == "declare" and ann.get("game") == "high_low"
        keys = _key_function(variant, ann)
    declares = [s.declare for s in seats] if declaring else None
    if declares is not None and any(d is None for d in declares):
        raise EquityError("every contender declares in a declare game", field="seats")
    settler = _Settler(game, pots, declares, n)
    cost = 1 if _heads_up_high(settler) else GENERIC_COST
    if runout_work(len(unseen), seats, community) * cost <= exact_limit:
        tally = _exact(seats, unseen, community, keys, settler)
        method = "exact"
    else:
        if samples < 1:
            raise EquityError("at least one sample", field="samples")
        if seed is None:
            marks = [c for s in seats for c in (*s.down, 99, *s.up, 98)]
            seed = zlib.crc32(bytes(marks + unseen))
        tally = _monte_carlo(seats, unseen, community, keys, settler, samples, seed)
        method = "monte_carlo"
    return _result(method, tally, settler)


def _result(
    method: str, tally: Mapping[Outcome, Any], settler: _Settler, runouts: int | None = None
) -> Equity:
    """The equities from ``tally``: each outcome's weight (a count of runouts, or a
    probability, a Fraction, when runouts are dealt card by card and differ in length)."""
    n = settler.n
    pots = settler.pots
    count = sum(tally.values())
    per_pot = [[0.0] * len(pots) for _ in range(n)]
    total = [0.0] * n
    square = [0.0] * n
    size = [0.0] * len(pots)  # the chips of each pot, summed over the runouts
    for outcome, times in tally.items():
        for k, amount in enumerate(settler.amounts(outcome)):
            size[k] += amount * times
        chips = [0] * n
        for k, paid in enumerate(settler.paid(outcome)):
            for seat, amount in paid:
                per_pot[seat][k] += amount * times
                chips[seat] += amount
        for i in range(n):
            total[i] += chips[i] * times
            square[i] += chips[i] * chips[i] * times
    expected = tuple(float(total[i] / count) for i in range(n))
    stderr = []
    for i in range(n):
        if method == "exact":
            stderr.append(0.0)
        else:
            var = max(float(square[i] / count) - expected[i] ** 2, 0.0)
            stderr.append(math.sqrt(var / count))
    mean = [float(x / count) for x in size]  # the pots' chips (more on a runout's pays)
    pot_equity = tuple(
        tuple(
            float(per_pot[i][k] / count / mean[k]) if mean[k] and i in pot.eligible else 0.0
            for i in range(n)
        )
        for k, pot in enumerate(pots)
    )
    equity = []
    for i in range(n):
        contended = sum(mean[k] for k, p in enumerate(pots) if i in p.eligible)
        equity.append(expected[i] / contended if contended else 0.0)
    return Equity(
        method=method,
        runouts=count if runouts is None else runouts,
        expected=expected,
        equity=tuple(equity),
        pot_equity=pot_equity,
        stderr=tuple(stderr),
    )


def _completions(
    seat: Seat, pool: Sequence[int]
) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """Every way to deal the seat's cards to come from ``pool``: (mask, new down, new up)."""
    ups = sum(1 for f in seat.to_come if f)
    downs = len(seat.to_come) - ups
    out = []
    for up_cards in combinations(pool, ups):
        rest = [c for c in pool if c not in up_cards] if ups else pool
        up_mask = 0
        for c in up_cards:
            up_mask |= 1 << c
        for down_cards in combinations(rest, downs):
            mask = up_mask
            for c in down_cards:
                mask |= 1 << c
            out.append((mask, down_cards, up_cards))
    return out


def _walk(
    i: int,
    used: int,
    valued: list[list[tuple[int, int | None, int | None]]],
    high: list[int | None],
    low: list[int | None],
    tally: dict[Outcome, int],
    settler: _Settler,
) -> None:
    """Tally every runout of seats ``i``.. that does not use the cards in ``used``."""
    last = i == len(valued) - 1
    outcome = settler.outcome
    for mask, hi, lo in valued[i]:
        if mask & used:
            continue
        high[i] = hi
        low[i] = lo
        if last:
            key = outcome(high, low)
            tally[key] = tally.get(key, 0) + 1
        else:
            _walk(i + 1, used | mask, valued, high, low, tally, settler)


def _heads_up_high(settler: _Settler) -> bool:
    return settler.n == 2 and settler.high_only and settler.eligibles == [(0, 1)]


def _exact(
    seats: list[Seat], unseen: list[int], community: bool, keys: KeyFn, settler: _Settler
) -> dict[Outcome, int]:
    """Every runout once: each seat's completions are valued once, then combined."""
    n = len(seats)
    tally: dict[Outcome, int] = {}
    heads_up = _heads_up_high(settler)
    for comm in unseen if community else (None,):
        pool = [c for c in unseen if c != comm]
        valued = []
        for s in seats:
            rows = []
            for mask, new_down, new_up in _completions(s, pool):
                hi, lo = keys(s.down + new_down, s.up + new_up, comm)
                rows.append((mask, hi, lo))
            valued.append(rows)
        if heads_up:
            # The common case, inline: one pot, two players, high only.
            wins = [0, 0, 0]  # first wins, second wins, split
            second = [(m, h) for m, h, _ in valued[1]]
            for ma, ha, _ in valued[0]:
                for mb, hb in second:
                    if ma & mb:
                        continue
                    wins[0 if ha > hb else 1 if hb > ha else 2] += 1
            for won, times in zip((((0,),), ((1,),), ((0, 1),)), wins, strict=True):
                if times:
                    tally[won] = tally.get(won, 0) + times
        else:
            _walk(0, 0, valued, [None] * n, [None] * n, tally, settler)
    return tally


def _monte_carlo(
    seats: list[Seat],
    unseen: list[int],
    community: bool,
    keys: KeyFn,
    settler: _Settler,
    samples: int,
    seed: int,
) -> dict[Outcome, int]:
    n = len(seats)
    tally: dict[Outcome, int] = {}
    sample = random.Random(seed).sample
    outcome = settler.outcome
    # Where each seat's new cards sit in the draw, split by face.
    plans = []
    at = 0
    for s in seats:
        downs = tuple(at + j for j, f in enumerate(s.to_come) if not f)
        ups = tuple(at + j for j, f in enumerate(s.to_come) if f)
        plans.append((s.down, s.up, downs, ups))
        at += len(s.to_come)
    need = at + (1 if community else 0)
    high: list[int | None] = [None] * n
    low: list[int | None] = [None] * n
    for _ in range(samples):
        draw = sample(unseen, need)
        comm = draw[at] if community else None
        for i, (down, up, di, ui) in enumerate(plans):
            d = down + tuple(draw[j] for j in di) if di else down
            u = up + tuple(draw[j] for j in ui) if ui else up
            high[i], low[i] = keys(d, u, comm)
        key = outcome(high, low)
        tally[key] = tally.get(key, 0) + 1
    return tally


# --- house games dealt card by card -----------------------------------------------------------

_MORE = object()  # a runout that needs more cards than it was given


class _HouseDeal:
    """A house game's runout dealt as the machine deals it (:mod:`tracker.engine.stud`):
    street by street, within a street round the table one card at a time in seat order, an
    extra card at once after the up card that earns it (its own rules apply in turn), a
    community street's one card for everyone, the community card for the last street of one
    card when the deck cannot serve everyone. Every contender stays in: a pay card costs its
    player the price, all in if short (the machine's rule), so an all-in player pays
    nothing and plays on, and a player with chips is taken to pay (see all_in_equity); what
    is paid joins the main pot."""

    def __init__(
        self,
        game: GameDefinition,
        seats: list[Seat],
        community: bool,
        up_order: Sequence[int] | None,
        dealt: int | None,
        seen: set[int],
        board: int | None = None,
    ) -> None:
        self.game = game
        self.seats = seats
        self.n = len(seats)
        streets = game.streets
        width = len(seats[0].to_come)
        for i, s in enumerate(seats):
            if len(s.to_come) != width:
                raise EquityError(
                    f"{len(s.to_come)} cards to come; seat 0 has {width}: every contender "
                    "is dealt the same streets",
                    field=f"seats[{i}].to_come",
                )
        shared = [st.faces == ("community",) for st in streets]
        if community and (any(shared) or len(streets[-1].faces) != 1):
            raise EquityError(
                "a community card stands in only for a last street of one card a player",
                field="community",
            )
        remaining = width + (1 if community else 0)
        k, acc = len(streets), 0
        while acc < remaining and k > 0:
            k -= 1
            acc += 0 if shared[k] else len(streets[k].faces)
        if board is None and k > 1 and shared[k - 1]:
            k -= 1  # the community street comes before the cards to come: it is to come too
        if acc != remaining or k == 0:
            raise EquityError(
                f"{remaining} cards to come a player do not end the streets of {game.title} "
                "after the first",
                field="seats",
            )
        if True in shared:
            at_street = shared.index(True)
            if board is None and at_street < k:
                raise EquityError(
                    f"required: the community card of {game.title} is dealt",
                    code=Code.REQUIRED,
                    field="board",
                )
            if board is not None and at_street >= k:
                raise EquityError(
                    f"the community card of {game.title} is still to come", field="board"
                )
        elif board is not None:
            raise EquityError(f"{game.title} has no community street", field="board")
        self.first = k  # the first street to come
        before = sum(len(st.faces) for st, sh in zip(streets[:k], shared, strict=False) if not sh)
        extra = {e.rank: e.face == "up" for e in game.extra_cards}
        self.extra = extra
        self.pays = {p.rank: p.price for p in game.pays}
        for i, s in enumerate(seats):
            earned = sum(1 for c in s.up if (c >> 2) + 2 in extra)
            if len(s.down) + len(s.up) != before + earned:
                raise EquityError(
                    f"{len(s.down) + len(s.up)} cards dealt; {game.title} deals {before} by "
                    f"street {k} and {earned} extra",
                    field=f"seats[{i}]",
                )
            if s.chips < 0:
                raise EquityError("chips left cannot be negative", field=f"seats[{i}].chips")
        # each seat's faces per street to come (None: the community street; the stand-in
        # community card's street left out)
        self.plan: list[list[tuple[bool, ...]] | None] = []
        at = 0
        for st, sh in zip(streets[k:], shared[k:], strict=True):
            if sh:
                self.plan.append(None)
                continue
            w = len(st.faces)
            if at + w > width:  # the stand-in community card's street
                break
            self.plan.append([s.to_come[at : at + w] for s in seats])
            at += w
        self.community = community
        self.board = board
        self.dealt = dealt
        last = streets[-1].faces
        self.last_single = len(last) == 1 and not shared[-1]
        self.last_default = last[0] if self.last_single else None
        self.rule = next((w for w in game.wild if isinstance(w, FollowWild)), None)
        order: list[int] = []
        if self.rule is not None:
            if up_order is None:
                raise EquityError(
                    f"required: {game.title} needs the up cards so far in the order dealt",
                    code=Code.REQUIRED,
                    field="up_order",
                )
            order = list(up_order)
            listed = set(order)
            for j, c in enumerate(order):
                if c not in seen:
                    raise EquityError(
                        f"card {c} is in up_order but nowhere in the hand", field=f"up_order[{j}]"
                    )
            if len(listed) != len(order):
                raise EquityError(
                    "a card appears twice", code=Code.DUPLICATE_CARD, field="up_order"
                )
            for i, s in enumerate(seats):
                for j, c in enumerate(s.up):
                    if c not in listed:
                        raise EquityError(
                            f"card {c} is up but not in up_order", field=f"seats[{i}].up[{j}]"
                        )
            if board is not None and board not in listed:
                raise EquityError(f"card {board} is up but not in up_order", field="board")
        self.order = order
        self.chicago = game.pot.chicago
        #: a seat with chips may pay in a runout: outcomes then carry the chips paid
        self.adds = bool(self.pays) and any(s.chips for s in seats)

    def cards_bound(self) -> int:
        """The regular cards a runout deals (its extra cards come on top)."""
        own = sum(len(street[0]) for street in self.plan if street is not None) * self.n
        return own + sum(1 for street in self.plan if street is None) + (1 if self.community else 0)

    def play(self, cards: Sequence[int], pot: int = 0) -> Any:
        """The (high, low-or-spade) keys of every seat after dealing ``cards`` in order, how
        many of them the runout took and the chips paid under pay rules (``pot``: the
        chips in the pots before), or ``_MORE`` when it needs more cards."""
        n = self.n
        down = [list(s.down) for s in self.seats]
        up = [list(s.up) for s in self.seats]
        chips = [s.chips for s in self.seats]
        paid = 0
        order = list(self.order)
        extra = self.extra
        pays = self.pays
        at = 0
        size = len(cards)
        dealt = self.dealt
        streets = self.game.streets
        comm = self.board
        plan = self.plan
        last_street = len(streets) - self.first - 1
        for j in range(len(streets) - self.first):
            faces = plan[j] if j < len(plan) else None
            board = j < len(plan) and faces is None  # the community street
            stand_in = False  # the community card for a last card each
            if j == last_street and self.last_single:
                if dealt is None:
                    stand_in = self.community
                else:
                    stand_in = DECK_SIZE - len(streets) - dealt < n
            if board or stand_in:
                if at >= size:
                    return _MORE
                comm = cards[at]
                at += 1
                order.append(comm)
                if stand_in:
                    break
                continue
            width = len(faces[0]) if faces is not None else 1
            for w in range(width):
                for i in range(n):
                    if faces is not None:
                        face = faces[i][w]
                    elif self.last_default in ("up", "down") and self.game.buy is None:
                        face = self.last_default == "up"
                    else:
                        raise EquityError(
                            "the deck serves a last card the all-in thought shared, and its "
                            "face is the player's choice",
                            field="community",
                        )
                    while True:
                        if at >= size:
                            return _MORE
                        card = cards[at]
                        at += 1
                        if dealt is not None:
                            dealt += 1
                        if not face:
                            down[i].append(card)
                            break
                        up[i].append(card)
                        order.append(card)
                        rank = (card >> 2) + 2
                        price = pays.get(rank)
                        if price is not None and chips[i]:
                            amount = min(pot + paid if price == "pot" else price, chips[i])
                            chips[i] -= amount
                            paid += amount
                        nxt = extra.get(rank)
                        if nxt is None:
                            break
                        face = nxt  # the extra card, at once
        follow = follow_ranks(self.rule, order) if self.rule is not None else frozenset()
        game = self.game
        out = []
        for i in range(n):
            high, low = game_hand_keys(game, down[i], up[i], comm, follow)
            if self.chicago:
                low = spade_key(game, down[i])
            out.append((high, low))
        return out, at, paid


def _house_equity(
    game: GameDefinition,
    seats: list[Seat],
    pots: list[Pot],
    dead: list[int],
    community: bool,
    exact_limit: int,
    samples: int,
    seed: int | None,
    up_order: Sequence[int] | None,
    dealt: int | None,
    board: int | None = None,
) -> Equity:
    """A house game whose runouts are dealt card by card (:class:`_HouseDeal`)."""
    if board is not None:
        if isinstance(board, bool) or not isinstance(board, int) or not 0 <= board < 52:
            raise EquityError(f"{board!r} is not a card (0..51)", field="board")
        dead = [*dead, board]
    unseen, pots = _check(seats, pots, dead, community, None)
    seen = {c for s in seats for c in (*s.down, *s.up)} | set(dead)
    deal = _HouseDeal(game, seats, community, up_order, dealt, seen, board)
    kind = "high_low" if game.pot.chicago else game.pot.kind
    declaring = kind == "high_low" and game.pot.declaration == "declare"
    declares = [s.declare for s in seats] if declaring else None
    if declares is not None and any(d is None for d in declares):
        raise EquityError("every contender declares in a declare game", field="seats")
    n = len(seats)
    settler = _Settler(kind, pots, declares, n)
    settler.adds = deal.adds
    base = sum(p.amount for p in pots)  # a pay rule's "pot" price counts every chip in
    need = deal.cards_bound()
    if need > len(unseen):
        raise EquityError(f"{need} cards to come but only {len(unseen)} unseen", field="seats")
    ups = sum(1 for s in seats for f in s.to_come if f)
    work = math.perm(len(unseen), min(len(unseen), need + (ups if game.extra_cards else 0)))
    outcome = settler.outcome
    if work * GENERIC_COST <= exact_limit:
        tally: dict[Outcome, Any] = {}
        leaves = 0
        total = len(unseen)
        stack: list[tuple[int, ...]] = [()]
        while stack:
            prefix = stack.pop()
            played = deal.play(prefix, base)
            if played is _MORE:
                rest = [c for c in unseen if c not in prefix]
                if not rest:
                    raise EquityError("the deck runs out before the runout ends", field="seats")
                stack.extend(prefix + (c,) for c in rest)
                continue
            leaves += 1
            keys = played[0]
            won = outcome([k[0] for k in keys], [k[1] for k in keys])
            if deal.adds:
                won = (played[2], won)
            weight = Fraction(1, math.perm(total, len(prefix)))
            tally[won] = tally.get(won, 0) + weight
        return _result("exact", tally, settler, leaves)
    if samples < 1:
        raise EquityError("at least one sample", field="samples")
    if seed is None:
        marks = [c for s in seats for c in (*s.down, 99, *s.up, 98)]
        seed = zlib.crc32(bytes(marks + unseen))
    rng = random.Random(seed)
    tally = {}
    for _ in range(samples):
        played = deal.play(rng.sample(unseen, len(unseen)), base)
        if played is _MORE:
            raise EquityError("the deck runs out before the runout ends", field="seats")
        keys = played[0]
        won = outcome([k[0] for k in keys], [k[1] for k in keys])
        if deal.adds:
            won = (played[2], won)
        tally[won] = tally.get(won, 0) + 1
    return _result("monte_carlo", tally, settler)
