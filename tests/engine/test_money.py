"""The money arithmetic (tracker/engine/money.py), property-tested: whatever the pool, the
template, the unit and the ties, the payouts add up to the pool, each is a whole number of
the unit, higher places are paid at least as much as lower ones, and players tied for places
share those places' payouts evenly (to the unit, the leftover units to the first of them)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tracker.engine.money import (
    NightRules,
    place_payouts,
    player_payouts,
    pool_of,
    template_shares,
)

UNITS = st.sampled_from([1, 5, 25, 100, 500, 1000])
TEMPLATES = st.sampled_from(["winner_takes_all", "65_35", "50_30_20", "top_third"])


@st.composite
def payout_case(draw):
    unit = draw(UNITS)
    entrants = draw(st.integers(1, 8))
    template = draw(
        st.sampled_from(
            ["winner_takes_all", "65_35", "50_30_20", "top_third", "custom_percent", "custom_fixed"]
        )
    )
    custom: list[int] = []
    if template == "custom_percent":
        cuts = sorted(draw(st.lists(st.integers(0, 100), min_size=0, max_size=4)))
        bounds = [0, *cuts, 100]
        custom = sorted((b - a for a, b in zip(bounds, bounds[1:], strict=False)), reverse=True)
    elif template == "custom_fixed":
        custom = draw(st.lists(st.integers(0, 50).map(lambda x: x * unit), min_size=1, max_size=5))
    pool = draw(st.integers(0, 400)) * unit
    # chips at the end: equal chips tie for a place (competition ranking: 1, 2, 2, 4)
    chips = draw(st.lists(st.integers(0, 3), min_size=entrants, max_size=entrants))
    places = {k: 1 + sum(c > mine for c in chips) for k, mine in enumerate(chips)}
    return unit, entrants, template, custom, pool, places


@given(payout_case())
def test_payouts_add_up_to_the_pool_in_whole_units_and_ties_share(case):
    unit, entrants, template, custom, pool, places = case
    by_place = place_payouts(pool, template, entrants=entrants, unit=unit, custom=custom)
    assert sum(by_place) == pool
    assert all(a % unit == 0 and a >= 0 for a in by_place)
    assert len(by_place) <= max(1, entrants)
    if template != "custom_fixed":
        assert by_place == sorted(by_place, reverse=True)
    paid = player_payouts(places, by_place, unit=unit)
    assert sum(paid.values()) == pool
    assert all(a % unit == 0 for a in paid.values())
    for place in set(places.values()):
        tied = [k for k in places if places[k] == place]  # in the order given
        amounts = [paid[k] for k in tied]
        assert sum(amounts) == sum(by_place[place - 1 : place - 1 + len(tied)])
        assert max(amounts) - min(amounts) <= unit
        assert amounts == sorted(amounts, reverse=True)  # leftover units to the first


@given(
    st.integers(0, 20),
    st.integers(0, 20),
    st.integers(0, 20),
    st.integers(1, 8),
    st.integers(0, 10),
    st.integers(0, 8),
)
def test_the_pool_is_what_was_paid_less_fees_and_bounties(
    buy_in, fee, bounty, entries, rebuys, addons
):
    unit = 100
    rules = NightRules(
        buy_in=buy_in * unit,
        fee=fee * unit,
        bounty=bounty * unit,
        rebuy_price=buy_in * unit,
        addon_price=buy_in * unit // 2 // unit * unit,
    )
    pool = pool_of(rules, entries=entries, rebuys=rebuys, addons=addons)
    assert pool.paid_in == pool.prize_pool + pool.fees + pool.bounties
    assert pool.prize_pool == (
        rules.buy_in * entries + rules.rebuy_price * rebuys + rules.addon_price * addons
    )
    assert pool.prize_pool % unit == 0


def test_top_third_pays_a_third_of_the_field_at_least_one():
    assert template_shares("top_third", entrants=2) == [1]
    assert template_shares("top_third", entrants=6) == [2, 1]
