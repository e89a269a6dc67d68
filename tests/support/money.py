"""Money nights for the tests: the hand player, random nights (hypothesis), the worked
examples of docs/money.md as fixtures, and the builders the money, mail and check-in tests
share."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from tests.factories import ACES, KINGS, add_member, fold_entry, make_league, showdown_entry
from tests.support.recording import record
from tracker.engine.errors import DomainError
from tracker.leagues.services import player_create
from tracker.money.services import entry_record, league_money_set, night_create
from tracker.tournaments.models import TournamentStatus
from tracker.tournaments.selectors import tournament_state

# The codes a refused buy-in, rebuy or add-on may carry: each names the rule it broke.
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
        record(t, by, entry, variant="seven_card_stud")


def finish(t, admin, capture) -> None:
    """Folded hands until the night is over; then it is finished."""
    while not tournament_state(t).over:
        play(t, admin, capture, "fold")
    t.refresh_from_db()
    assert t.status == TournamentStatus.FINISHED


def try_entry(t, player, kind: str, by) -> None:
    """Record ``kind`` for ``player`` if the rules allow it; a refusal must name a rule."""
    try:
        entry_record(tournament=t, player_id=player.pk, kind=kind, by=by)
    except DomainError as exc:
        assert exc.code in RULE_CODES | {"no_buy_in"}, exc.message


def roster_of(league, admin, names) -> dict:
    """Players of ``league`` by name, in the order given."""
    return {n: player_create(league=league, name=n, by=admin) for n in names}


def night_of(league, admin, players, *, name: str, money, limit=None, buy_in: bool = True):
    """A money night of ``players`` (seated in that order, a hand limit of ``limit`` or the
    tournament's own), each bought in unless ``buy_in`` is false."""
    night = {} if limit is None else {"hand_limit": limit}
    t = night_create(
        league=league,
        by=admin,
        name=name,
        player_ids=[p.pk for p in players],
        money=money,
        **night,
    )
    if buy_in:
        for p in players:
            entry_record(tournament=t, player_id=p.pk, kind="buy_in", by=admin)
    return t


def random_nights(examples: int):
    """Hypothesis settings for a test of ``examples`` random nights: no deadline, and the
    function-scoped fixtures (the on-commit capture) shared by the examples."""
    return settings(
        max_examples=examples,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        deadline=None,
    )


@st.composite
def nights(draw):
    """A random night: (unit, money rules, hand limit, players, hands, entries tried)."""
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


def play_drawn(t, admin, seated, capture, hands, tries) -> None:
    """The drawn hands of a random night, each after the entries drawn for it, until the
    night is over or the hands run out."""
    for (action, winner), attempts in zip(hands, tries, strict=True):
        if tournament_state(t).over:
            break
        for player, kinds in zip(seated, attempts, strict=True):
            for kind in sorted(kinds):
                try_entry(t, player, kind, admin)
        play(t, admin, capture, action, winner)


def random_night(night, capture, *, slug: str, buy_in: bool = False, stop=None):
    """A league of its own and the random ``night`` (from :func:`nights`) played in it, its
    first ``stop`` hands (all when None); every player bought in first if ``buy_in``."""
    unit, money, limit, players, hands, tries = night
    league, admin = make_league(slug=slug)
    league_money_set(league=league, by=admin, values={"unit": unit})
    roster = [player_create(league=league, name=f"P{k}", by=admin) for k in range(players)]
    t = night_of(league, admin, roster, name="Random", limit=limit, money=money, buy_in=buy_in)
    play_drawn(t, admin, roster, capture, hands[:stop], tries[:stop])
    return t, league, admin, roster


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
DEAL_RULES = {"buy_in": 2000, "fee": 500, "payout_template": "50_30_20"}
BOUNTY_NIGHT = {"buy_in": 2000, "fee": 500, "bounty": 500, "payout_template": "65_35"}


@pytest.fixture
def example(django_capture_on_commit_callbacks):
    """The worked example night of docs/money.md."""
    capture = django_capture_on_commit_callbacks
    league, admin = make_league(slug="friday")
    league.member = add_member(league, "jo", "member")
    league_money_set(league=league, by=admin, values={"currency": "USD", "unit": 500})
    roster = roster_of(league, admin, ("Ann", "Bob", "Cat", "Dan"))
    t = night_of(league, admin, roster.values(), name="Example night", limit=6, money=EXAMPLE)
    # hand 1: everyone folds to Cat; hand 2: the first two to act go all in, the smaller
    # stack (Dan's) loses it all to the aces, and Dan rebuys; hands 3 and 4 are folded to the
    # first to act; Ann and Cat take the add-on before hand 5; hands 5 and 6 are folded too
    positions = [s.player.name for s in tournament_state(t).next_positions()]
    assert positions == ["Bob", "Cat", "Dan", "Ann"]
    play(t, admin, capture, "fold", winner=1)  # Cat takes the antes
    positions = [s.player.name for s in tournament_state(t).next_positions()]
    busted = positions[1]
    play(t, admin, capture, "bust")
    entry_record(tournament=t, player_id=roster[busted].pk, kind="rebuy", by=admin)
    for _ in range(2):
        play(t, admin, capture, "fold", winner=0)
    for name in ("Ann", "Cat"):  # before hand 5
        entry_record(tournament=t, player_id=roster[name].pk, kind="addon", by=admin)
    for _ in range(2):
        play(t, admin, capture, "fold", winner=0)
    t.refresh_from_db()
    return t, league, roster, busted


@pytest.fixture
def night(django_capture_on_commit_callbacks):
    """The deal example of docs/money.md: four players buy in ($20 + $5 fee, payouts to the
    whole dollars, 50/30/20); one busts in hand 1, the three still in want to stop after hand 2."""
    league, admin = make_league(slug="deals")
    league.member = add_member(league, "jo", "member")
    league.scorekeeper = add_member(league, "sam", "scorekeeper")
    league_money_set(league=league, by=admin, values={"currency": "USD", "unit": 100})
    roster = roster_of(league, admin, ("Ann", "Bob", "Cat", "Dan"))
    t = night_of(league, admin, roster.values(), name="Deal night", limit=20, money=DEAL_RULES)
    play(t, admin, django_capture_on_commit_callbacks, "bust")
    play(t, admin, django_capture_on_commit_callbacks, "fold", winner=1)
    t.refresh_from_db()
    return t, league, admin, roster


def still_in(t) -> list[int]:
    """The players of ``t`` with chips."""
    state = tournament_state(t)
    return [s.player_id for s in state.seats if state.stacks[s.player_id] > 0]


def three_handed(capture, *, slug: str, money=BOUNTY_NIGHT, limit: int = 3):
    """Ann, Bob and Cat bought in to a bounty night (units of 500) of a league of its own."""
    league, admin = make_league(slug=slug)
    league_money_set(league=league, by=admin, values={"unit": 500})
    roster = roster_of(league, admin, ("Ann", "Bob", "Cat"))
    t = night_of(league, admin, roster.values(), name="Bounty night", limit=limit, money=money)
    return t, league, admin, roster
