"""Deals: how the players still in split the remaining prize pool when they agree to stop.

Issue 22, step 5. Pure arithmetic (no Django): the money feature calls it with the
chip stacks of the players still in and the payouts of the places still to be decided,
and shows the options side by side before anyone agrees.

Inputs, for every function:

* ``stacks`` -- each remaining player's chips, a positive int, in the caller's order
  (seat order, say). Every result is a list in the same order.
* ``payouts`` -- the prizes of the places still to be decided, in minor units:
  ``payouts[0]`` is first place, ``payouts[1]`` second, and so on. There are at most
  as many places as players; a shorter list means the last players win nothing
  (the busted players' places are already paid and are not part of the deal).
  The remaining pool is ``sum(payouts)``.
* ``unit`` -- the amount the league rounds to, in minor units (``100`` = whole
  currency units; ``1`` = no rounding).

The four deals:

* :func:`icm_deal` -- the exact Malmuth-Harville ICM equity of each stack.
* :func:`chip_chop_deal` -- the chip-count deal ("chip chop"): everyone locks in
  the smallest remaining payout, and the rest is split in proportion to chips.
* :func:`even_deal` -- the pool split evenly.
* :func:`custom_deal` -- amounts typed in, checked: one per player, none negative,
  adding up to the pool exactly.

:func:`deal_options` gives the first three at once for the page.

Rounding (:func:`round_to_unit`): each exact share is rounded down to a whole number
of units, and the units left over (fewer than the number of players) go one each to
the shares that lost the most in rounding down (the largest-remainder method); equal
remainders go to the bigger share, then the bigger stack, then the earlier player.
So every amount is less than one unit from its exact share (in a pool of whole
units), a bigger share never gets less, and the amounts add up to the pool exactly. Handing the leftover units
to the biggest shares regardless of what they lost was not chosen: a share of
exactly 5 units would get 6 while one of 1.67 got 1. If the pool itself is not a
whole number of units (the payouts it comes from gave the odd amount to first
place), that odd amount below a unit goes to the biggest share.

>>> deal_options([6000, 3000, 1000], [5000, 3000, 2000], unit=100)
{'icm': [4100, 3400, 2500], 'chip_chop': [4400, 3200, 2400], 'even': [3400, 3300, 3300]}
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from math import floor

from .errors import DomainError

__all__ = [
    "MAX_ICM_PLAYERS",
    "chip_chop_deal",
    "chip_chop_shares",
    "custom_deal",
    "deal_options",
    "even_deal",
    "icm_deal",
    "icm_equities",
    "round_to_unit",
]

MAX_ICM_PLAYERS = 10
"""The exact ICM walks every set of players already placed: 2^n states (1,024 for 10)."""

CODE = "invalid_deal"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check(stacks: Sequence[int], payouts: Sequence[int], unit: int) -> None:
    """Refuse bad input, naming every field at fault at once."""
    fields: dict[str, list[str]] = {}
    if not stacks:
        fields["stacks"] = ["a deal needs at least one player still in"]
    for i, chips in enumerate(stacks):
        if not _is_int(chips) or chips <= 0:
            fields[f"stacks[{i}]"] = [f"a stack is a positive number of chips, not {chips!r}"]
    if len(payouts) > len(stacks):
        fields["payouts"] = [
            f"{len(payouts)} places to pay but only {len(stacks)} players still in"
        ]
    for i, amount in enumerate(payouts):
        if not _is_int(amount) or amount < 0:
            fields[f"payouts[{i}]"] = [
                f"a payout is a whole amount of at least 0 minor units, not {amount!r}"
            ]
    if not _is_int(unit) or unit < 1:
        fields["unit"] = [f"the rounding unit is a whole amount of at least 1, not {unit!r}"]
    if fields:
        first = next(iter(fields.values()))[0]
        raise DomainError(first, code=CODE, fields=fields)


def round_to_unit(exact: Sequence[Fraction], *, unit: int, stacks: Sequence[int]) -> list[int]:
    """Exact shares -> whole amounts of ``unit`` adding up to ``sum(exact)`` exactly.

    Each share is rounded down to a unit; the leftover units go one each to the
    largest remainders (ties: the bigger share, the bigger stack, the earlier
    player); an odd amount below a unit (when the total is not a whole number of
    units) goes to the biggest share.

    >>> round_to_unit([Fraction(1000, 3)] * 3, unit=100, stacks=[10, 30, 20])
    [300, 400, 300]
    >>> round_to_unit([Fraction(250), Fraction(1000, 3), Fraction(1250, 3)], unit=100,
    ...               stacks=[1, 1, 1])
    [300, 300, 400]
    >>> round_to_unit([Fraction(1034), Fraction(200)], unit=100, stacks=[2, 1])
    [1034, 200]
    """
    total = sum(exact, Fraction(0))
    if total.denominator != 1:
        raise ValueError("the exact shares must add up to a whole amount")
    amounts = [floor(share / unit) * unit for share in exact]
    left = int(total) - sum(amounts)
    players = range(len(exact))
    lost_most = sorted(players, key=lambda i: (amounts[i] - exact[i], -exact[i], -stacks[i], i))
    for i in lost_most[: left // unit]:
        amounts[i] += unit
    if left % unit:
        biggest = min(players, key=lambda i: (-exact[i], -stacks[i], i))
        amounts[biggest] += left % unit
    return amounts


def icm_equities(stacks: Sequence[int], payouts: Sequence[int]) -> list[Fraction]:
    """Each stack's exact Malmuth-Harville equity, as a fraction of minor units.

    The model: a player finishes first with probability ``chips / total chips``;
    given who has already been placed, each of the others takes the next place with
    probability ``chips / chips of those not yet placed``. A player's equity is the
    sum over places of P(that place) x that place's payout.

    It is computed exactly (``Fraction``) by walking every set of players already
    placed once (memoised over subsets): at most 2^n states, so it is limited to
    :data:`MAX_ICM_PLAYERS` (10) players: there it takes under a tenth of a second
    (about 0.01 s for stacks in round hundreds; figures in docs/engine.md).
    The equities add up to the pool exactly.

    >>> icm_equities([5000, 5000], [700, 300])
    [Fraction(500, 1), Fraction(500, 1)]
    >>> [str(e) for e in icm_equities([2000, 1000, 1000], [50, 30, 20])]
    ['115/3', '185/6', '185/6']
    """
    _check(stacks, payouts, 1)
    n = len(stacks)
    if n > MAX_ICM_PLAYERS:
        raise DomainError(
            f"an ICM deal is computed for at most {MAX_ICM_PLAYERS} players, not {n}",
            code=CODE,
            field="stacks",
        )
    places = len(payouts)
    # chips_left[k][placed]: the chips of those not yet placed, for every bit set
    # ``placed`` of k players that may hold the top k places.
    chips_left: list[dict[int, int]] = [{0: sum(stacks)}]
    for _ in range(1, places):
        extended_left: dict[int, int] = {}
        for placed, chips in chips_left[-1].items():
            for i in range(n):
                if not placed >> i & 1:
                    extended_left.setdefault(placed | 1 << i, chips - stacks[i])
        chips_left.append(extended_left)
    # Exact in integers: the probability of a finishing order of k players is
    # (their chips) / (the product of the k chip totals left along the way); those
    # totals fall strictly, so the product divides the product of every distinct
    # total, ``scale``. Every probability times ``scale`` is then a whole number and
    # the walk needs no fractions (a Fraction walk is 4-8 times slower).
    scale = 1
    for total in {chips for level in chips_left for chips in level.values()}:
        scale *= total
    # reach[placed] = scale x the probability that exactly the players of the bit
    # set ``placed`` hold the top places so far.
    reach: dict[int, int] = {0: scale}
    equity = [0] * n
    for place in range(places):
        left = chips_left[place]
        at_place = [0] * n
        extended: dict[int, int] = {}
        for placed, probability in reach.items():
            chips = left[placed]
            for i in range(n):
                if placed >> i & 1:
                    continue
                p = probability * stacks[i] // chips
                at_place[i] += p
                after = placed | 1 << i
                extended[after] = extended.get(after, 0) + p
        reach = extended
        prize = payouts[place]
        for i in range(n):
            equity[i] += at_place[i] * prize
    return [Fraction(value, scale) for value in equity]


def chip_chop_shares(stacks: Sequence[int], payouts: Sequence[int]) -> list[Fraction]:
    """The chip-count deal's exact shares.

    Every player still in is sure of at least the smallest payout left (the last
    place's, when payouts fall with the place; 0 when fewer places are paid than
    players remain), so each locks that in; the rest of the pool is split in
    proportion to chips::

        share_i = floor_payout + (pool - n * floor_payout) * chips_i / total_chips

    This is the common "chip chop". A straight proportional split of the whole
    pool (``pool * chips_i / total_chips``) is not used: it can give a short stack
    less than the prize they would win by simply being the next one out.

    The short stack below locks in 2,000 and adds a tenth of the other 4,000; split
    in proportion to chips alone it would get 1,000, half the third-place prize.

    >>> [str(s) for s in chip_chop_shares([6000, 3000, 1000], [5000, 3000, 2000])]
    ['4400', '3200', '2400']
    """
    _check(stacks, payouts, 1)
    n = len(stacks)
    pool = sum(payouts)
    locked = min(payouts) if len(payouts) == n else 0
    rest = pool - n * locked
    total_chips = sum(stacks)
    return [locked + Fraction(rest * chips, total_chips) for chips in stacks]


def icm_deal(stacks: Sequence[int], payouts: Sequence[int], *, unit: int = 1) -> list[int]:
    """The ICM deal: :func:`icm_equities` rounded to ``unit`` (see :func:`round_to_unit`).

    >>> icm_deal([2000, 1000, 1000], [5000, 3000, 2000], unit=100)
    [3800, 3100, 3100]
    """
    _check(stacks, payouts, unit)
    return round_to_unit(icm_equities(stacks, payouts), unit=unit, stacks=stacks)


def chip_chop_deal(stacks: Sequence[int], payouts: Sequence[int], *, unit: int = 1) -> list[int]:
    """The chip-count deal: :func:`chip_chop_shares` rounded to ``unit``.

    >>> chip_chop_deal([5000, 3000, 2000], [5000, 3000, 2000], unit=100)
    [4000, 3200, 2800]
    """
    _check(stacks, payouts, unit)
    return round_to_unit(chip_chop_shares(stacks, payouts), unit=unit, stacks=stacks)


def even_deal(stacks: Sequence[int], payouts: Sequence[int], *, unit: int = 1) -> list[int]:
    """The pool split evenly, rounded to ``unit``; the leftover units go to the bigger stacks.

    >>> even_deal([1000, 3000, 2000], [6000, 4000], unit=500)
    [3000, 3500, 3500]
    """
    _check(stacks, payouts, unit)
    share = Fraction(sum(payouts), len(stacks))
    return round_to_unit([share] * len(stacks), unit=unit, stacks=stacks)


def custom_deal(stacks: Sequence[int], payouts: Sequence[int], amounts: Sequence[int]) -> list[int]:
    """Amounts the players typed in, checked and returned as a list.

    One whole amount (minor units) per player still in, none negative, adding up to
    the remaining pool exactly; otherwise a :class:`DomainError` (``invalid_deal``)
    names every field at fault (``amounts``, ``amounts[i]``). No rounding: the
    players agreed on these amounts.

    >>> custom_deal([3000, 1000], [700, 300], [650, 350])
    [650, 350]
    >>> try:
    ...     custom_deal([3000, 1000], [700, 300], [700, 200])
    ... except DomainError as err:
    ...     print(err.fields)
    {'amounts': ['the amounts add up to 900, the remaining pool is 1000']}
    """
    _check(stacks, payouts, 1)
    fields: dict[str, list[str]] = {}
    if len(amounts) != len(stacks):
        fields["amounts"] = [
            f"{len(amounts)} amounts for {len(stacks)} players still in: give one each"
        ]
    bad = False
    for i, amount in enumerate(amounts):
        if not _is_int(amount) or amount < 0:
            bad = True
            fields[f"amounts[{i}]"] = [
                f"an amount is a whole number of minor units, at least 0, not {amount!r}"
            ]
    pool = sum(payouts)
    if not bad and "amounts" not in fields and sum(amounts) != pool:
        fields["amounts"] = [f"the amounts add up to {sum(amounts)}, the remaining pool is {pool}"]
    if fields:
        first = next(iter(fields.values()))[0]
        raise DomainError(first, code=CODE, fields=fields)
    return list(amounts)


def deal_options(
    stacks: Sequence[int], payouts: Sequence[int], *, unit: int = 1
) -> dict[str, list[int]]:
    """The ICM, chip-count and even deals side by side (ICM only up to 10 players).

    With more than :data:`MAX_ICM_PLAYERS` players the ``icm`` entry is left out.

    >>> deal_options([1500, 500], [600, 400], unit=50)
    {'icm': [550, 450], 'chip_chop': [550, 450], 'even': [500, 500]}
    """
    _check(stacks, payouts, unit)
    options: dict[str, list[int]] = {}
    if len(stacks) <= MAX_ICM_PLAYERS:
        options["icm"] = icm_deal(stacks, payouts, unit=unit)
    options["chip_chop"] = chip_chop_deal(stacks, payouts, unit=unit)
    options["even"] = even_deal(stacks, payouts, unit=unit)
    return options
