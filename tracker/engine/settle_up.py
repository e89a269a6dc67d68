"""Settle-up: the fewest transfers that square everyone after a night.

Issue 22, step 6. Pure arithmetic (no Django): the money feature gives each player's
net money result for the night (winnings and bounties minus buy-in, rebuys and
add-ons, in minor units; the results add up to zero) and lists the transfers.

How the fewest transfers are found: any set of transfers links the players into
groups (connected by a transfer), each group's results add up to zero, and a group
of k players needs at least k - 1 transfers. So the fewest transfers is
``n - g``, where ``n`` is the number of players whose result is not zero and ``g``
the largest number of disjoint groups, each adding up to zero, the players can be
split into. Two players whose results cancel (+a, -a) are always one of those
groups in some best split (:func:`_cancelling_pairs`), so they are paired off
first; ``g`` for the others is found exactly by a walk over every subset of them
(2^n states, up to :data:`MAX_EXACT_PLAYERS` = 16 players: 65,536 states, 0.1-0.2
seconds). Within each group the largest debtor pays the largest creditor
until the group is square, which takes exactly k - 1 transfers (fewer would mean the
group splits into smaller zero groups, and ``g`` was the largest).

When more than 16 players with a result other than zero are left once the
cancelling pairs are paired off, those players are settled that greedy way as
one group and :attr:`SettleUp.minimal` is ``False``: at most n - 1 transfers, but
not proven the fewest.

Order: players are known by the keys of the mapping given, and ties (equal
amounts) go by its order; transfers are listed by payer, then payee, in that
order. The same input always gives the same list.

>>> plan = settle_up({"ann": -30, "bob": -20, "cat": 20, "dan": 30})
>>> plan.minimal, [(t.payer, t.payee, t.amount) for t in plan.transfers]
(True, [('ann', 'dan', 30), ('bob', 'cat', 20)])
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass

from .errors import Code, DomainError

__all__ = ["MAX_EXACT_PLAYERS", "SettleUp", "Transfer", "settle_up"]

MAX_EXACT_PLAYERS = 16
"""Up to this many players with a result other than zero, the transfers are the fewest."""


@dataclass(frozen=True)
class Transfer:
    """``payer`` pays ``payee`` ``amount`` minor units (a positive int)."""

    payer: Hashable
    payee: Hashable
    amount: int


@dataclass(frozen=True)
class SettleUp:
    """The transfers, and whether they are proven the fewest (always, up to 16 players)."""

    transfers: tuple[Transfer, ...]
    minimal: bool


def _check(balances: Mapping[Hashable, int]) -> None:
    fields: dict[str, list[str]] = {}
    for player, amount in balances.items():
        if not isinstance(amount, int) or isinstance(amount, bool):
            fields[f"balances[{player}]"] = [
                f"a result is a whole number of minor units, not {amount!r}"
            ]
    if not fields and sum(balances.values()) != 0:
        total = sum(balances.values())
        fields["balances"] = [
            f"the results add up to {total}, not 0: money paid in and out must match"
        ]
    if fields:
        first = next(iter(fields.values()))[0]
        raise DomainError(first, code=Code.INVALID_SETTLE_UP, fields=fields)


def _square(members: list[int], amounts: list[int]) -> list[tuple[int, int, int]]:
    """Largest debtor pays largest creditor until the members are square.

    ``members`` are indexes into ``amounts`` (which add up to zero over them); ties go
    to the earlier index. Returns (payer, payee, amount) triples.

    >>> _square([0, 1, 2], [-5, 3, 2])
    [(0, 1, 3), (0, 2, 2)]
    """
    left = {i: amounts[i] for i in members}
    transfers = []
    while True:
        debtors = [i for i in members if left[i] < 0]
        creditors = [i for i in members if left[i] > 0]
        if not debtors:
            return transfers
        payer = min(debtors, key=lambda i: (left[i], i))
        payee = max(creditors, key=lambda i: (left[i], -i))
        amount = min(-left[payer], left[payee])
        transfers.append((payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount


def _cancelling_pairs(amounts: list[int]) -> tuple[list[list[int]], list[int]]:
    """Pairs of players whose results cancel (+a, -a), each paired with the earliest one
    still free; and the others.

    Some fewest settle-up squares each such pair with one transfer between them: in a best
    split into zero groups, if a and -a sit in one group, the rest of it adds up to zero
    and splitting it off would give one group more, so that group is just the pair; if
    they sit in two groups, swapping them for {a, -a} and the rest of both keeps the
    count. So the pairs are taken out first, and the exact walk only sees the others.

    >>> _cancelling_pairs([500, -200, -500, 200, 500, -300])
    ([[0, 2], [1, 3]], [4, 5])
    """
    free: dict[int, list[int]] = {}
    pairs: list[list[int]] = []
    for i, amount in enumerate(amounts):
        waiting = free.get(-amount)
        if waiting:
            pairs.append([waiting.pop(0), i])
        else:
            free.setdefault(amount, []).append(i)
    paired = {i for pair in pairs for i in pair}
    return pairs, [i for i in range(len(amounts)) if i not in paired]


def _zero_groups(amounts: list[int]) -> list[list[int]]:
    """The largest number of disjoint groups adding up to zero that cover every index.

    dp[mask] is the largest number of zero groups among the players of ``mask`` when
    they are taken one by one in the best order (a group closes each time the sum
    of those taken so far comes back to zero): dp[mask] = max over i in mask of
    dp[mask without i], plus one if mask adds up to zero. 2^n states, n steps each.

    >>> _zero_groups([-5, 5, -3, 1, 2])
    [[0, 1], [2, 3, 4]]
    """
    n = len(amounts)
    full = (1 << n) - 1
    sums = [0] * (full + 1)
    best = [0] * (full + 1)
    for mask in range(1, full + 1):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + amounts[low.bit_length() - 1]
        top = 0
        rest = mask
        while rest:
            bit = rest & -rest
            value = best[mask ^ bit]
            if value > top:
                top = value
            rest ^= bit
        best[mask] = top + (sums[mask] == 0)
    # Walk back from everyone, taking off the earliest player who keeps the best
    # count; each time what is left adds up to zero, a group is complete.
    groups: list[list[int]] = []
    current: list[int] = []
    mask = full
    while mask:
        closes = sums[mask] == 0
        for i in range(n):
            bit = 1 << i
            if mask & bit and best[mask ^ bit] + closes == best[mask]:
                break
        if closes and current:
            groups.append(sorted(current))
            current = []
        current.append(i)
        mask ^= bit
    groups.append(sorted(current))
    return sorted(groups)


def settle_up(balances: Mapping[Hashable, int]) -> SettleUp:
    """The transfers that square every player's result, the fewest possible up to 16
    (not counting pairs that cancel).

    ``balances`` maps each player to their net result in minor units (negative: they
    owe, positive: they are owed); the results must add up to zero, otherwise a
    :class:`DomainError` (``invalid_settle_up``, field ``balances``). Players whose
    result is zero take no part.

    >>> plan = settle_up({"ann": -500, "bob": 300, "cat": -100, "dan": 300, "eve": 0})
    >>> [(t.payer, t.payee, t.amount) for t in plan.transfers]
    [('ann', 'bob', 300), ('ann', 'dan', 200), ('cat', 'dan', 100)]
    >>> settle_up({"ann": 10, "bob": -5})
    Traceback (most recent call last):
    ...
    tracker.engine.errors.DomainError: the results add up to 5, not 0: money paid in and out must match
    """
    _check(balances)
    players = list(balances)
    owing = [i for i, player in enumerate(players) if balances[player] != 0]
    amounts = [balances[players[i]] for i in owing]
    groups, rest = _cancelling_pairs(amounts)
    minimal = len(rest) <= MAX_EXACT_PLAYERS
    if not rest:
        pass
    elif minimal:
        groups += [[rest[i] for i in group] for group in _zero_groups([amounts[i] for i in rest])]
    else:
        groups.append(rest)
    triples = [t for group in groups for t in _square(group, amounts)]
    triples.sort(key=lambda t: (owing[t[0]], owing[t[1]]))
    transfers = tuple(
        Transfer(payer=players[owing[a]], payee=players[owing[b]], amount=amount)
        for a, b, amount in triples
    )
    return SettleUp(transfers=transfers, minimal=minimal)
