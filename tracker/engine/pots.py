"""Pots from contributions, and who wins each one.

Pots
----
Players are seat indices in clockwise order from the dealer's left (index
0 sits left of the dealer; the dealer is the last index). Each player's
*live* contribution (antes, bring-in, bets and calls, with any uncalled
part already returned) is cut into levels at every distinct amount put
in; a level's chips form a pot that the players still in who reached that
level can win. Consecutive levels with the same contenders are one pot.
So the main pot comes first, then the side pots in the order the all-ins
cap them. A folded player's chips stay in the pots they reached, but the
player contends for none. *Dead* money (Low Hold's buys) goes into the
main pot and does not count toward levels.

>>> [p.to_dict() for p in build_pots([100, 40, 100, 20], [True, True, True, False])]
[{'amount': 140, 'eligible': [0, 1, 2]}, {'amount': 120, 'eligible': [0, 2]}]
>>> build_pots([30, 30], [True, True], dead=[0, 40])[0].amount
100

Payouts
-------
Each pot is read by the hand-value engine (``evaluate_showdown``) over its
contenders only. Equal hands split; odd chips go to the first winner
clockwise from the dealer (the lowest seat index). In a high-low pot the
high half takes the odd chip; without a qualifying low the high hand takes
it all. A pot with one contender is that player's without a showdown.

>>> split_amount(10, [4, 1, 2])
[(1, 4), (2, 3), (4, 3)]
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import Code, DomainError

__all__ = [
    "Pot",
    "PotAward",
    "Settlement",
    "award_pot",
    "build_pots",
    "pay_pots",
    "settle_pots",
    "split_amount",
    "uncontested_award",
]

Evaluate = Callable[[Mapping[str, Any]], Mapping[str, Any]]


@dataclass(frozen=True, slots=True)
class Pot:
    """One pot: its chips and the seats that can win it (ascending)."""

    amount: int
    eligible: tuple[int, ...]

    def to_dict(self) -> dict:
        return {"amount": self.amount, "eligible": list(self.eligible)}


@dataclass(frozen=True, slots=True)
class PotAward:
    """How one pot was paid.

    ``reason`` is ``"showdown"`` (hands compared) or ``"uncontested"`` (one
    contender left). ``high_winners`` / ``low_winners`` are seat indices
    (empty when that half was not played or had no qualifying hand);
    ``awards`` pairs (seat, chips) in seat order; ``spade_winners`` (a Chicago house game
    only, else ``None``) the seats of the spade half.
    """

    pot: int
    amount: int
    eligible: tuple[int, ...]
    reason: str
    high_winners: tuple[int, ...]
    low_winners: tuple[int, ...]
    awards: tuple[tuple[int, int], ...]
    spade_winners: tuple[int, ...] | None = None  # a Chicago game's spade half

    def to_dict(self) -> dict:
        out: dict = {
            "pot": self.pot,
            "amount": self.amount,
            "eligible": list(self.eligible),
            "reason": self.reason,
            "high_winners": list(self.high_winners),
            "low_winners": list(self.low_winners),
            "awards": [{"player": s, "amount": a} for s, a in self.awards],
        }
        if self.spade_winners is not None:
            out["spade_winners"] = list(self.spade_winners)
        return out


@dataclass(slots=True)
class Settlement:
    """Payouts of every pot, each seat's total winnings, and the showdown reading
    (``None`` when the hand ended without a showdown)."""

    payouts: list[PotAward]
    winnings: list[int]
    showdown: dict | None = field(default=None)


def build_pots(
    contributions: Sequence[int],
    in_hand: Sequence[bool],
    dead: Sequence[int] | None = None,
) -> list[Pot]:
    """Main and side pots from live contributions; ``dead`` chips join the main pot.

    Raises DomainError (code ``pot_without_contender``) if chips would sit
    in a pot nobody still in can win -- a sign the contributions are not
    those of a legal hand (a folded player put in more than anyone still in).
    """
    n = len(contributions)
    if len(in_hand) != n or (dead is not None and len(dead) != n):
        raise ValueError("contributions, in_hand and dead must have one entry per player")
    pots: list[Pot] = []
    previous = 0
    for level in sorted(set(contributions)):
        if level <= 0:
            continue
        amount = 0
        eligible = []
        for i, c in enumerate(contributions):
            if c > previous:
                amount += (c if c < level else level) - previous
                if c >= level and in_hand[i]:
                    eligible.append(i)
        previous = level
        key = tuple(eligible)
        if pots and pots[-1].eligible == key:
            pots[-1] = Pot(pots[-1].amount + amount, key)
        else:
            pots.append(Pot(amount, key))
    dead_total = sum(dead) if dead is not None else 0
    if dead_total:
        if pots:
            pots[0] = Pot(pots[0].amount + dead_total, pots[0].eligible)
        else:
            pots.append(Pot(dead_total, tuple(i for i in range(n) if in_hand[i])))
    for k, pot in enumerate(pots):
        if not pot.eligible:
            raise DomainError(
                f"{pot.amount} chips of pot {k} have no player still in to win them: "
                "a folded player cannot have put in more than every player still in",
                code=Code.POT_WITHOUT_CONTENDER,
            )
    return pots


def split_amount(amount: int, winners: Sequence[int]) -> list[tuple[int, int]]:
    """Split ``amount`` equally among ``winners``; the odd chips go to the first
    winner clockwise from the dealer (the lowest seat index)."""
    ordered = sorted(winners)
    share, odd = divmod(amount, len(ordered))
    return [(seat, share + (odd if k == 0 else 0)) for k, seat in enumerate(ordered)]


def _default_evaluate() -> Evaluate:
    from .showdown import evaluate_showdown

    return evaluate_showdown


def settle_pots(
    pots: Sequence[Pot],
    *,
    n_players: int,
    variant: str,
    options: Mapping[str, Any],
    hands: Mapping[int, Mapping[str, Any]],
    community: str | None = None,
    evaluate: Evaluate | None = None,
) -> Settlement:
    """Pay every pot.

    ``hands`` maps each seat still in at the showdown to its cards
    (``{"down": [...], "up": [...]}``, plus ``"declare"`` when players
    declare). With fewer than two seats in ``hands`` there is no showdown:
    each pot goes to its only contender. ``options`` are the normalized
    announcements (``game`` decides high, low or high-low; absent = high).
    """
    game = options.get("game", "high")
    readings: dict[tuple[int, ...], tuple[tuple[int, ...], tuple[int, ...], Mapping]] = {}
    showdown_seats = tuple(sorted(hands))
    evaluate_fn = evaluate

    def read(seats: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...], Mapping]:
        nonlocal evaluate_fn
        cached = readings.get(seats)
        if cached is None:
            if evaluate_fn is None:
                evaluate_fn = _default_evaluate()
            result = evaluate_fn(
                {
                    "variant": variant,
                    "options": dict(options),
                    "community": community,
                    "players": [dict(hands[s]) for s in seats],
                }
            )
            high = tuple(sorted(seats[i] for i in result.get("high_winners", ())))
            low = tuple(sorted(seats[i] for i in result.get("low_winners", ())))
            cached = readings[seats] = (high, low, result)
        return cached

    showdown: dict | None = None
    if len(showdown_seats) >= 2:
        high, low, result = read(showdown_seats)
        per_seat: list[dict | None] = [None] * n_players
        for k, seat in enumerate(showdown_seats):
            reading = result["players"][k]
            entry = {"down": list(hands[seat]["down"]), "up": list(hands[seat]["up"])}
            if "declare" in hands[seat]:
                entry["declare"] = hands[seat]["declare"]
            entry["high"] = reading.get("high")
            entry["low"] = reading.get("low")
            per_seat[seat] = entry
        showdown = {
            "community": community,
            "players": per_seat,
            "high_winners": list(high),
            "low_winners": list(low),
        }

    def split(k: int, pot: Pot) -> PotAward:
        high, low, _ = read(pot.eligible)
        awards = award_pot(pot.amount, game, high, low, pot.eligible)
        return PotAward(k, pot.amount, pot.eligible, "showdown", high, low, awards)

    payouts, winnings = pay_pots(
        pots, n_players=n_players, contested=len(showdown_seats) >= 2, split=split
    )
    return Settlement(payouts, winnings, showdown)


def pay_pots(
    pots: Sequence[Pot],
    *,
    n_players: int,
    contested: bool,
    split: Callable[[int, Pot], PotAward],
) -> tuple[list[PotAward], list[int]]:
    """Every pot's payout and each seat's total winnings: a pot with one contender, or
    every pot when the hand has no showdown (``contested`` false), goes to that contender
    (:func:`uncontested_award`); any other pot ``k`` is paid as ``split(k, pot)`` says
    (the hands compared over its contenders).

    >>> def split(k, pot):
    ...     awards = tuple(split_amount(pot.amount, pot.eligible))
    ...     return PotAward(k, pot.amount, pot.eligible, "showdown", pot.eligible, (), awards)
    >>> payouts, winnings = pay_pots([Pot(30, (0, 1, 2)), Pot(11, (0, 2))], n_players=3,
    ...                             contested=True, split=split)
    >>> winnings, payouts[1].awards
    ([16, 10, 15], ((0, 6), (2, 5)))
    """
    winnings = [0] * n_players
    payouts: list[PotAward] = []
    for k, pot in enumerate(pots):
        if not contested or len(pot.eligible) == 1:
            payout = uncontested_award(k, pot)
        elif not pot.eligible:
            raise DomainError(
                f"pot {k} has no contender at the showdown", code=Code.POT_WITHOUT_CONTENDER
            )
        else:
            payout = split(k, pot)
        payouts.append(payout)
        for seat, amount in payout.awards:
            winnings[seat] += amount
    return payouts, winnings


def uncontested_award(k: int, pot: Pot) -> PotAward:
    """Pot ``k`` paid to its one contender, without a showdown."""
    if len(pot.eligible) != 1:
        raise DomainError(
            f"pot {k} has {len(pot.eligible)} contenders but there is no showdown",
            code=Code.POT_WITHOUT_CONTENDER,
        )
    awards = ((pot.eligible[0], pot.amount),)
    return PotAward(k, pot.amount, pot.eligible, "uncontested", (), (), awards)


def award_pot(
    amount: int,
    game: str,
    high: Sequence[int],
    low: Sequence[int],
    contenders: Sequence[int],
) -> tuple[tuple[int, int], ...]:
    """(seat, chips) pairs paying one pot of ``game`` ("high", "low" or
    "high_low") to its ``high`` and ``low`` winners (seat indices).

    High-low: the high half takes the odd chip; with no low winner the high
    takes all (and the reverse). Each half splits with odd chips to the
    first winner clockwise from the dealer.

    >>> award_pot(17, "high_low", [2], [0, 1], [0, 1, 2])
    ((0, 4), (1, 4), (2, 9))
    """
    if game == "high":
        parts = [(amount, high)]
    elif game == "low":
        parts = [(amount, low)]
    elif high and low:
        low_half = amount // 2
        parts = [(amount - low_half, high), (low_half, low)]
    else:
        parts = [(amount, high or low)]
    totals: dict[int, int] = {}
    for part, winners in parts:
        # No winner on a half (no qualifying low in a low game, or every
        # contender disqualified by a failed declaration): the half is
        # shared by all its contenders rather than left on the table.
        for seat, chips in split_amount(part, winners or contenders):
            totals[seat] = totals.get(seat, 0) + chips
    return tuple(sorted(totals.items()))
