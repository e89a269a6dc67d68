"""Settle-up (tracker/engine/settle_up.py): the fewest transfers, against two exhaustive
searches (every way of splitting up to 8 players into groups; every list of transfers among
up to 6); every transfer list squares everyone."""

import random
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tracker.engine.errors import DomainError
from tracker.engine.settle_up import MAX_EXACT_PLAYERS, settle_up


def set_partitions(items):
    """Every way of splitting ``items`` into non-empty blocks."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in set_partitions(rest):
        yield [[first], *partition]
        for k in range(len(partition)):
            yield [*partition[:k], [first, *partition[k]], *partition[k + 1 :]]


def fewest_transfers_by_exhaustive_search(balances):
    """Transfers among the players of a block that adds up to zero: at least its size - 1,
    and a chain of payments does it in exactly that. So the fewest transfers is the best,
    over every partition into zero blocks, of the sum of (size - 1)."""
    owing = [amount for amount in balances.values() if amount]
    best = None
    for partition in set_partitions(owing):
        if all(sum(block) == 0 for block in partition):
            count = sum(len(block) - 1 for block in partition)
            best = count if best is None else min(best, count)
    return best


def fewest_transfers_by_searching_transfer_lists(balances):
    """Try every set of k payer-payee pairs, k = 0, 1, 2, ..., and return the first k for
    which some amounts square everyone. A fewest set has no cycle (shifting money around a
    cycle empties one of its transfers), so only forests are tried, and on a forest the
    amounts are forced: a player with one transfer left must settle all of their balance
    through it."""
    owing = [amount for amount in balances.values() if amount]
    pairs = list(combinations(range(len(owing)), 2))
    for k in range(len(owing)):
        for chosen in combinations(pairs, k):
            left = list(owing)
            edges = set(chosen)
            while edges:
                leaf = next((v for v in range(len(owing)) if sum(v in e for e in edges) == 1), None)
                if leaf is None:
                    break  # a cycle
                (edge,) = (e for e in edges if leaf in e)
                if left[leaf] == 0:
                    break  # a transfer of nothing is no transfer
                other = edge[0] if edge[1] == leaf else edge[1]
                left[other] += left[leaf]
                left[leaf] = 0
                edges.remove(edge)
            if not edges and not any(left):
                return k
    return None if owing else 0


def assert_squares(balances, plan):
    left = dict(balances)
    for transfer in plan.transfers:
        assert isinstance(transfer.amount, int) and transfer.amount > 0
        assert balances[transfer.payer] < 0 < balances[transfer.payee]  # debtors pay creditors
        left[transfer.payer] += transfer.amount
        left[transfer.payee] -= transfer.amount
    assert all(amount == 0 for amount in left.values()), left


@st.composite
def nights(draw, max_players=8):
    """Net results of up to 8 players, adding up to zero, often equal or cancelling: either
    free, or made of small groups that each add up to zero (so that splitting the night
    into groups matters), shuffled."""
    n = draw(st.integers(1, max_players))
    amount = st.one_of(st.integers(-6, 6).map(lambda a: a * 500), st.integers(-20_000, 20_000))
    results = []
    if draw(st.booleans()):
        while len(results) < n:
            size = draw(st.integers(1, n - len(results)))
            group = draw(st.lists(amount, min_size=size - 1, max_size=size - 1))
            results += [*group, -sum(group)]
    else:
        results = draw(st.lists(amount, min_size=n - 1, max_size=n - 1))
        results.append(-sum(results))
    order = draw(st.permutations(range(n)))
    return {f"p{i}": results[i] for i in order}


@st.composite
def nights_of_groups(draw):
    """6 to 8 players in groups of mostly 3 or 4 that square themselves, shuffled: the
    nights where the largest debtor paying the largest creditor goes wrong most often."""
    n = draw(st.integers(6, 8))
    amount = st.one_of(st.integers(-6, 6).map(lambda a: a * 500), st.integers(-20_000, 20_000))
    results = []
    while len(results) < n:
        size = min(draw(st.sampled_from([2, 3, 3, 4])), n - len(results))
        group = draw(st.lists(amount, min_size=size - 1, max_size=size - 1))
        results += [*group, -sum(group)]
    order = draw(st.permutations(range(n)))
    return {f"p{i}": results[i] for i in order}


@settings(max_examples=400)
@given(st.one_of(nights(), nights_of_groups()))
def test_the_transfer_count_equals_the_exhaustive_search(balances):
    plan = settle_up(balances)
    assert plan.minimal
    assert len(plan.transfers) == fewest_transfers_by_exhaustive_search(balances)
    assert_squares(balances, plan)


@settings(max_examples=150)
@given(nights(max_players=6))
def test_the_transfer_count_equals_a_search_over_every_list_of_transfers(balances):
    plan = settle_up(balances)
    assert len(plan.transfers) == fewest_transfers_by_searching_transfer_lists(balances)


def test_the_exact_path_beats_largest_debtor_pays_largest_creditor():
    # Largest debtor pays largest creditor: eve 8 to fay, bob 6 to fay, ann 4 to cat,
    # dan 2 to cat and 1 to fay: 5 transfers. But {bob, cat} square themselves and
    # {ann, dan, eve, fay} take three: 4.
    balances = {"ann": -4, "bob": -6, "cat": 6, "dan": -3, "eve": -8, "fay": 15}
    plan = settle_up(balances)
    assert len(plan.transfers) == 4 == fewest_transfers_by_exhaustive_search(balances)
    assert [(t.payer, t.payee, t.amount) for t in plan.transfers] == [
        ("ann", "fay", 4),
        ("bob", "cat", 6),
        ("dan", "fay", 3),
        ("eve", "fay", 8),
    ]


def night_of(n, seed):
    rng = random.Random(seed)
    results = [rng.randint(-40, 40) * 250 for _ in range(n - 1)]
    results.append(-sum(results))
    return {f"player {i}": amount for i, amount in enumerate(results)}


def no_two_cancel(balances):
    amounts = [a for a in balances.values() if a]
    return len({abs(a) for a in amounts}) == len(amounts)


def test_sixteen_players_are_exact():
    # 16 players in groups of 3, 3, 3, 3 and 4 that each square themselves, no two of them
    # cancelling: a zero group then has at least 3 players, so 5 groups at most and 11
    # transfers at least -- and the five groups take exactly 11 (the largest debtor paying
    # the largest creditor across the night takes 13).
    groups = [[1100, 2300], [-1700, 4100], [2700, -6300], [-3700, -5900], [1300, 4700, -2500]]
    balances = {}
    for g, group in enumerate(groups):
        for k, amount in enumerate([*group, -sum(group)]):
            balances[f"group {g} player {k}"] = amount
    balances = dict(sorted(balances.items(), key=lambda item: item[1] % 7))  # mixed up
    assert len(balances) == MAX_EXACT_PLAYERS and no_two_cancel(balances)
    plan = settle_up(balances)
    assert plan.minimal
    assert len(plan.transfers) == 11
    assert_squares(balances, plan)


def test_cancelling_pairs_and_zero_results_do_not_count_towards_sixteen():
    # 6 pairs that cancel, 2 players who broke even and 10 others: 24 players, exact
    rng = random.Random(11)
    others = [rng.randint(1, 400) * 50 * rng.choice((-1, 1)) for _ in range(9)]
    others.append(-sum(others))
    pairs = [rng.randint(1, 400) * 50 for _ in range(6)]
    balances = {f"other {i}": a for i, a in enumerate(others)}
    for i, a in enumerate(pairs):
        balances[f"up {i}"] = a
        balances[f"down {i}"] = -a
    balances.update({"even 1": 0, "even 2": 0})
    balances = dict(sorted(balances.items(), key=lambda item: item[1] % 13))
    plan = settle_up(balances)
    assert plan.minimal
    others_alone = {f"other {i}": a for i, a in enumerate(others)}
    assert len(plan.transfers) == 6 + len(settle_up(others_alone).transfers)
    assert_squares(balances, plan)


def test_above_sixteen_players_the_greedy_result_flags_itself():
    # 17 players, no two cancelling (distinct sizes), so all 17 go to the greedy
    rng = random.Random(7)
    amounts = [(100 * (k + 1) + k * k) * rng.choice((-1, 1)) for k in range(16)]
    amounts.append(-sum(amounts))
    balances = {f"player {i}": a for i, a in enumerate(amounts)}
    assert sum(balances.values()) == 0 and no_two_cancel(balances)
    plan = settle_up(balances)
    assert plan.minimal is False
    assert_squares(balances, plan)
    assert len(plan.transfers) <= MAX_EXACT_PLAYERS  # at most n - 1


@pytest.mark.parametrize("n", [2, 5, 12, 16, 30])
def test_every_transfer_list_squares_every_balance(n):
    for seed in range(5):
        balances = night_of(n, seed)
        assert_squares(balances, settle_up(balances))


def test_the_order_is_by_payer_then_payee_as_given_and_always_the_same():
    balances = night_of(10, seed=3)
    plan = settle_up(balances)
    position = {player: i for i, player in enumerate(balances)}
    keys = [(position[t.payer], position[t.payee]) for t in plan.transfers]
    assert keys == sorted(keys) and len(set(keys)) == len(keys)
    assert settle_up(dict(balances)) == plan


def test_nobody_owes_anything():
    assert settle_up({}).transfers == ()
    assert settle_up({"ann": 0, "bob": 0}).transfers == ()


def test_results_that_do_not_add_up_to_zero_are_refused():
    with pytest.raises(DomainError) as err:
        settle_up({"ann": -500, "bob": 400})
    assert err.value.code == "invalid_settle_up"
    assert err.value.fields == {
        "balances": ["the results add up to -100, not 0: money paid in and out must match"]
    }
    with pytest.raises(DomainError) as err:
        settle_up({"ann": -500, "bob": 500.0, "cat": True})
    assert set(err.value.fields) == {"balances[bob]", "balances[cat]"}
