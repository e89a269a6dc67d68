"""Prize pool and payouts: random nights played through the services (entries, rebuys,
add-ons, busts, a hand limit) keep money and chips conserved and pay whole units, tied
players sharing; the worked example of docs/money.md; payouts on the tournament page, the
table screen and in the API once the night is over."""

from __future__ import annotations

import itertools

import pytest
from django.db.models import Sum
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.factories import (
    ACES,
    KINGS,
    add_member,
    api_client,
    fold_entry,
    make_league,
    showdown_entry,
)
from tracker.engine.errors import DomainError
from tracker.hands.services.recording import hand_record
from tracker.leagues.services import player_create
from tracker.money.models import MoneyEntry
from tracker.money.selectors import night_money_summary
from tracker.money.services import entry_record, league_money_set, night_create
from tracker.tournaments.models import FinalStanding, LedgerEntry, TournamentStatus
from tracker.tournaments.selectors import tournament_state

pytestmark = pytest.mark.django_db

RULE_CODES = {
    "buy_in_recorded",
    "no_rebuys",
    "rebuy_window",
    "rebuy_limit",
    "rebuy_only_when_busted",
    "no_addon",
    "addon_window",
    "addon_taken",
    "addon_busted",
}
_slugs = itertools.count()


def play(t, by, capture, action: str, winner: int = 0) -> None:
    """One hand: everyone folds to position ``winner``, or ("bust") the first two positions
    go all in and the smaller stack (the second on equal stacks) loses everything."""
    state = tournament_state(t)
    positions = state.next_positions()
    if action == "bust" and len(positions) >= 2:
        a, b = (state.stacks[s.player_id] for s in positions[:2])
        hands = [ACES, KINGS] if a >= b else [KINGS, ACES]
        entry = showdown_entry(t, hands, min(a, b))
    else:
        entry = fold_entry(t, winner=winner % len(positions))
    with capture(execute=True):
        hand_record(tournament=t, entry_mode="quick", entry=entry, variant="seven_card_stud", by=by)


@st.composite
def nights(draw):
    unit = draw(st.sampled_from([100, 500]))
    amount = st.integers(0, 6).map(lambda x: x * unit)
    rebuys = draw(st.booleans())
    addon = draw(st.booleans())
    limit = draw(st.integers(2, 7))
    money = {
        "buy_in": draw(amount),
        "fee": draw(amount),
        "bounty": draw(amount),
        "payout_template": draw(
            st.sampled_from(["winner_takes_all", "65_35", "50_30_20", "top_third"])
        ),
    }
    if rebuys:
        money.update(
            rebuy_price=draw(st.integers(1, 6)) * unit,
            rebuy_chips=draw(st.sampled_from([500, 1000])),
            rebuy_until_hand=draw(st.integers(1, limit)),
            rebuy_max=draw(st.integers(1, 2)),
            rebuy_when=draw(st.sampled_from(["busted", "any"])),
        )
    if addon:
        money.update(
            addon_price=draw(st.integers(1, 6)) * unit,
            addon_chips=draw(st.sampled_from([500, 1500])),
            addon_at_hand=draw(st.integers(1, limit)),
        )
    players = draw(st.integers(3, 5))
    hands = draw(
        st.lists(
            st.tuples(st.sampled_from(["fold", "fold", "bust"]), st.integers(0, 4)),
            min_size=limit,
            max_size=limit,
        )
    )
    # before each hand, per player, which entries are tried (the rules decide)
    tries = draw(
        st.lists(
            st.lists(
                st.sets(st.sampled_from(["buy_in", "rebuy", "addon"])),
                min_size=players,
                max_size=players,
            ),
            min_size=limit,
            max_size=limit,
        )
    )
    return unit, money, limit, players, hands, tries


@settings(
    max_examples=12,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    deadline=None,
)
@given(night=nights())
def test_random_nights_conserve_money_and_chips_and_pay_whole_units(
    night, django_capture_on_commit_callbacks
):
    unit, money, limit, players, hands, tries = night
    league, admin = make_league(slug=f"night-{next(_slugs)}")
    league_money_set(league=league, by=admin, values={"unit": unit})
    roster = [player_create(league=league, name=f"P{k}", by=admin) for k in range(players)]
    t = night_create(
        league=league,
        by=admin,
        name="Random",
        player_ids=[p.pk for p in roster],
        hand_limit=limit,
        money=money,
    )
    for (action, winner), attempts in zip(hands, tries, strict=True):
        if tournament_state(t).over:
            break
        for player, kinds in zip(roster, attempts, strict=True):
            for kind in sorted(kinds):
                try:
                    entry_record(tournament=t, player_id=player.pk, kind=kind, by=admin)
                except DomainError as exc:
                    assert exc.code in RULE_CODES | {"no_buy_in"}, exc.message
        play(t, admin, django_capture_on_commit_callbacks, action, winner)
    while not tournament_state(t).over:
        play(t, admin, django_capture_on_commit_callbacks, "fold")
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED

    entries = MoneyEntry.objects.filter(tournament=t, undone_at__isnull=True)
    chips_bought = entries.aggregate(s=Sum("chips"))["s"] or 0
    ledger = LedgerEntry.objects.filter(tournament=t).aggregate(s=Sum("amount"))["s"]
    assert ledger == t.starting_chips * players + chips_bought  # chips conserved
    assert sum(s.chips for s in FinalStanding.objects.filter(tournament=t)) == ledger

    summary = night_money_summary(t)
    paid_in = entries.aggregate(s=Sum("paid"))["s"] or 0
    assert summary.pool.paid_in == paid_in
    assert summary.paid_out + summary.pool.fees + summary.pool.bounties == paid_in  # money
    assert all(a % unit == 0 for a in summary.payouts.values())
    assert set(summary.payouts) == {p.pk for p in roster}
    # ties: players sharing a place share those places' payouts, to the unit
    places = summary.places
    for place in set(places.values()):
        tied = [pid for pid in summary.payouts if places[pid] == place]
        amounts = [summary.payouts[pid] for pid in tied]
        assert sum(amounts) == sum(summary.place_payouts[place - 1 : place - 1 + len(tied)])
        assert max(amounts) - min(amounts) <= unit
    # the rules held for every entry
    rules = summary.rules
    for pid in {e.player_id for e in entries}:
        mine = [e for e in entries if e.player_id == pid]
        rebuys = [e for e in mine if e.kind == "rebuy"]
        assert len(rebuys) <= rules.rebuy_max
        assert all(e.at_hand <= rules.rebuy_until_hand for e in rebuys)
        assert all(e.at_hand == rules.addon_at_hand for e in mine if e.kind == "addon")
        assert sum(e.kind == "addon" for e in mine) <= 1


# --------------------------------------------------------------------------- docs/money.md

EXAMPLE = {
    "buy_in": 2000,
    "fee": 500,
    "bounty": 500,
    "rebuy_price": 2000,
    "rebuy_chips": 1000,
    "rebuy_until_hand": 4,
    "rebuy_max": 1,
    "rebuy_when": "busted",
    "addon_price": 1000,
    "addon_chips": 1500,
    "addon_at_hand": 5,
    "payout_template": "50_30_20",
}


@pytest.fixture
def example(django_capture_on_commit_callbacks):
    """The worked example night of docs/money.md."""
    league, admin = make_league(slug="friday")
    league.member = add_member(league, "jo", "member")
    league_money_set(league=league, by=admin, values={"currency": "USD", "unit": 500})
    roster = {
        n: player_create(league=league, name=n, by=admin) for n in ("Ann", "Bob", "Cat", "Dan")
    }
    t = night_create(
        league=league,
        by=admin,
        name="Example night",
        player_ids=[p.pk for p in roster.values()],
        hand_limit=6,
        money=EXAMPLE,
    )
    for p in roster.values():
        entry_record(tournament=t, player_id=p.pk, kind="buy_in", by=admin)
    # hand 1: everyone folds to Cat; hand 2: the first two to act go all in, the smaller
    # stack (Dan's) loses it all to the aces, and Dan rebuys; hands 3 and 4 are folded to the
    # first to act; Ann and Cat take the add-on before hand 5; hands 5 and 6 are folded too
    positions = [s.player.name for s in tournament_state(t).next_positions()]
    assert positions == ["Bob", "Cat", "Dan", "Ann"]
    play(t, admin, django_capture_on_commit_callbacks, "fold", winner=1)  # Cat takes the antes
    positions = [s.player.name for s in tournament_state(t).next_positions()]
    busted = positions[1]
    play(t, admin, django_capture_on_commit_callbacks, "bust")
    entry_record(tournament=t, player_id=roster[busted].pk, kind="rebuy", by=admin)
    for _ in range(2):
        play(t, admin, django_capture_on_commit_callbacks, "fold", winner=0)
    for name in ("Ann", "Cat"):  # before hand 5
        entry_record(tournament=t, player_id=roster[name].pk, kind="addon", by=admin)
    for _ in range(2):
        play(t, admin, django_capture_on_commit_callbacks, "fold", winner=0)
    t.refresh_from_db()
    return t, league, roster, busted


def test_the_worked_example_of_the_docs(example):
    t, league, roster, busted = example
    assert t.status == TournamentStatus.FINISHED and busted == "Dan"
    summary = night_money_summary(t)
    pool = summary.pool
    assert (pool.paid_in, pool.fees, pool.bounties, pool.prize_pool) == (17500, 3500, 2000, 12000)
    assert summary.place_payouts == [6500, 3500, 2000]
    names = {p.pk: n for n, p in roster.items()}
    standings = {
        names[s.player_id]: (s.place, s.chips) for s in FinalStanding.objects.filter(tournament=t)
    }
    paid = {names[pid]: a for pid, a in summary.payouts.items()}
    assert standings == {"Cat": (1, 3522), "Ann": (2, 2490), "Dan": (3, 998), "Bob": (4, 990)}
    assert paid == {"Cat": 6500, "Ann": 3500, "Dan": 2000, "Bob": 0}
    first, second, third = sorted(standings, key=lambda n: standings[n][0])[:3]
    assert (paid[first], paid[second], paid[third]) == (6500, 3500, 2000)
    assert sum(paid.values()) + pool.fees + pool.bounties == pool.paid_in
    assert sum(s[1] for s in standings.values()) == 4 * 1000 + 1000 + 2 * 1500


def test_payouts_show_on_the_page_the_table_screen_and_the_api(example):
    t, league, roster, _ = example
    client = Client()
    client.force_login(league.member)
    html = client.get(t.get_absolute_url()).content.decode()
    assert 'data-testid="money-payouts"' in html and "$65.00" in html and "$120.00" in html
    screen = client.get(f"/tournaments/{t.pk}/table/live/").content.decode()
    assert "Prize pool $120.00" in screen and "$65.00" in screen
    body = api_client(league.member).get(f"/api/v1/tournaments/{t.pk}/money/").json()
    assert body["place_payouts"] == [6500, 3500, 2000]
    assert [p["amount"] for p in body["payouts"]] == [6500, 3500, 2000, 0]
    assert [p["place"] for p in body["payouts"]] == [1, 2, 3, 4]
    # a visitor of the public league sees the night, not its money
    anonymous = Client()
    assert "Prize pool" not in anonymous.get(f"/tournaments/{t.pk}/table/live/").content.decode()
    assert 'data-testid="money"' not in anonymous.get(t.get_absolute_url()).content.decode()


def test_before_the_end_each_place_shows_what_it_pays(django_capture_on_commit_callbacks):
    league, admin = make_league(slug="early")
    roster = [player_create(league=league, name=n, by=admin) for n in ("Ann", "Bob", "Cat")]
    t = night_create(
        league=league,
        by=admin,
        name="N",
        player_ids=[p.pk for p in roster],
        money={"buy_in": 1000, "payout_template": "65_35"},
    )
    for p in roster:
        entry_record(tournament=t, player_id=p.pk, kind="buy_in", by=admin)
    summary = night_money_summary(t)
    assert summary.place_payouts == [2000, 1000] and summary.payouts == {}
    client = Client()
    client.force_login(admin)
    html = client.get(t.get_absolute_url()).content.decode()
    assert 'data-testid="money-places"' in html and "$20.00" in html and "$10.00" in html
