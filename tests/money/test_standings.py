"""Money over many nights (docs/money.md, "Standings and statistics"): the league table's
money columns per season and a player's money night by night equal the sums of each
night's own results (night_results, the definition), in a fixed number of statements."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
from django.db import connection
from django.db.models import Sum
from django.test import Client
from django.test.utils import CaptureQueriesContext
from hypothesis import given
from hypothesis import strategies as st

from tests.factories import add_member, api_client, make_league, make_user
from tests.support.definitions import league_standings_from_results
from tests.support.money import EXAMPLE, finish, night_of, play, random_nights, try_entry
from tracker.leagues.models import League, Player
from tracker.leagues.selectors import (
    league_results,
    league_season,
    league_standings,
)
from tracker.leagues.services import player_create
from tracker.money.results import night_results
from tracker.money.services import entry_record, league_money_set
from tracker.money.standings import league_money_table, player_money
from tracker.tournaments.models import FinalStanding, LedgerEntry, Tournament
from tracker.tournaments.selectors import tournament_state
from tracker.tournaments.services import tournament_counting_set
from web.presenters.pages import player_page

pytestmark = pytest.mark.django_db
_slugs = itertools.count()

# The worked example's rules with two rebuys a player, the add-on before hand 3 and 65/35.
MONEY = {**EXAMPLE, "rebuy_max": 2, "addon_at_hand": 3, "payout_template": "65_35"}


def play_night(league, admin, roster, capture, *, date, plan, money=MONEY, limit=5):
    """A night of ``roster`` played by ``plan`` (one (action, winner, entries) per hand,
    entries a list of (roster index, kind) tried before the hand; refusals are the rules')."""
    t = night_of(
        league, admin, roster, name=f"Night of {date}", limit=limit, money=money, buy_in=False
    )
    Tournament.objects.filter(pk=t.pk).update(date=date)
    t.refresh_from_db()
    if money:
        for p in roster:
            entry_record(tournament=t, player_id=p.pk, kind="buy_in", by=admin)
    for action, winner, tries in plan:
        if tournament_state(t).over:
            break
        for k, kind in tries:
            try_entry(t, roster[k % len(roster)], kind, admin)
        play(t, admin, capture, action, winner)
    finish(t, admin, capture)
    return t


def chips_bought(t) -> dict[int, int]:
    """The chips each player of ``t`` bought (rebuys and add-ons), from the chip ledger."""
    return dict(
        LedgerEntry.objects.filter(tournament=t, kind__in=["rebuy", "addon"])
        .values("player_id")
        .annotate(s=Sum("amount"))
        .values_list("player_id", "s")
    )


def oracle(nights) -> dict[int, dict]:
    """Each player's sums over ``nights``, night by night through night_results."""
    out: dict[int, dict] = {}
    for t in nights:
        results = night_results(t)
        if not results.summary.has_money:
            continue
        for pid, r in results.players.items():
            row = out.setdefault(
                pid, {"nights": 0, "paid": 0, "net": 0, "bounties": 0, "itm": 0, "payouts": 0}
            )
            row["nights"] += 1
            row["paid"] += r.paid
            row["net"] += r.result
            row["bounties"] += r.bounties
            row["itm"] += r.payout > 0
            row["payouts"] += r.payout
    return out


def as_dict(table) -> dict[int, dict]:
    return {
        pid: {
            "nights": r.nights,
            "paid": r.paid,
            "net": r.net,
            "bounties": r.bounties,
            "itm": r.in_the_money,
            "payouts": r.payouts,
        }
        for pid, r in table.rows.items()
    }


@pytest.fixture
def season_league(django_capture_on_commit_callbacks):
    """Three nights with money in 2026 (rebuys, an add-on, bounties), one friendly night
    with money and one night without money, and one night in 2025."""
    capture = django_capture_on_commit_callbacks
    league, admin = make_league(slug=f"money-season-{next(_slugs)}")
    League.objects.filter(pk=league.pk).update(season_length="year")
    league.refresh_from_db()
    league_money_set(league=league, by=admin, values={"currency": "USD", "unit": 500})
    roster = [player_create(league=league, name=n, by=admin) for n in ("Ann", "Bob", "Cat", "Dan")]
    plans = [
        [("bust", 0, []), ("fold", 1, [(1, "rebuy"), (2, "rebuy")]), ("fold", 2, [(0, "addon")])],
        [("fold", 0, []), ("bust", 0, []), ("bust", 0, [(3, "rebuy")]), ("fold", 3, [])],
        [("bust", 0, []), ("bust", 0, []), ("fold", 0, [(1, "addon"), (2, "addon")])],
    ]
    nights = [
        play_night(league, admin, roster, capture, date=dt.date(2026, m, 6), plan=plan)
        for m, plan in zip((2, 3, 4), plans, strict=True)
    ]
    friendly = play_night(league, admin, roster, capture, date=dt.date(2026, 5, 1), plan=[])
    tournament_counting_set(tournament=friendly, counts_toward_standings=False)
    free = play_night(
        league, admin, roster[:3], capture, date=dt.date(2026, 5, 8), plan=[], money={}
    )
    old = play_night(
        league, admin, roster, capture, date=dt.date(2025, 6, 6), plan=[("bust", 1, [])]
    )
    return league, admin, roster, nights, friendly, free, old


def test_the_money_columns_are_the_sums_of_each_nights_results(season_league):
    league, admin, roster, nights, friendly, free, old = season_league
    season = league_season(league, "2026")
    table = league_money_table(league, season)
    assert table.nights == 3  # neither the friendly night nor the night without money
    assert as_dict(table) == oracle(nights)
    everything = league_money_table(league, league_season(league, "all"))
    assert everything.nights == 4
    assert as_dict(everything) == oracle([*nights, old])
    # the money adds up: what the players won back less what they paid is minus the fees
    fees = sum(night_results(t).fees for t in nights)
    assert sum(r.net for r in table.rows.values()) == -fees
    assert any(r.bounties for r in table.rows.values())
    for r in table.rows.values():
        assert r.itm_pct == round(100 * r.in_the_money / r.nights, 1)
        assert r.roi_pct == round(100 * r.net / r.paid, 1)
        assert r.net_text.startswith(("+$", "-$", "$0"))


def test_a_players_money_counts_every_night_they_played_in_order(season_league):
    league, admin, roster, nights, friendly, free, old = season_league
    ann = roster[0]
    mine = player_money(ann)
    dates = [n.date for n in mine.by_night[ann.pk]]
    assert dates == sorted(dates) and len(dates) == 5  # friendly too, not the free night
    expected = oracle([old, *nights, friendly])[ann.pk]
    assert as_dict(mine) == {ann.pk: expected}
    assert [n.result for n in mine.by_night[ann.pk]] == [
        night_results(t).players[ann.pk].result for t in (old, *nights, friendly)
    ]


def test_the_statements_do_not_grow_with_the_nights(
    season_league, django_capture_on_commit_callbacks
):
    league, admin, roster, nights, friendly, free, old = season_league
    season = league_season(league, "all")
    with CaptureQueriesContext(connection) as few:
        league_money_table(league, season)
    more_roster = list(Player.objects.filter(league=league).order_by("pk"))
    for m in (7, 8, 9):
        play_night(
            league,
            admin,
            more_roster,
            django_capture_on_commit_callbacks,
            date=dt.date(2026, m, 4),
            plan=[("bust", 0, []), ("bust", 1, [(2, "rebuy")])],
        )
    with CaptureQueriesContext(connection) as many:
        table = league_money_table(league, season)
    assert table.nights == 7
    assert len(many.captured_queries) == len(few.captured_queries) <= 5


def test_a_night_in_another_currency_is_left_out_and_counted(season_league):
    league, admin, roster, nights, friendly, free, old = season_league
    league_money_set(league=league, by=admin, values={"currency": "EUR", "locale": "de_DE"})
    table = league_money_table(league, league_season(league, "2026"))
    assert (table.nights, table.other_currency, table.rows) == (0, 3, {})


@random_nights(6)
@given(
    plans=st.lists(
        st.lists(
            st.tuples(
                st.sampled_from(["fold", "bust"]),
                st.integers(0, 3),
                st.lists(
                    st.tuples(st.integers(0, 3), st.sampled_from(["rebuy", "addon"])), max_size=2
                ),
            ),
            max_size=5,
        ),
        min_size=1,
        max_size=3,
    )
)
def test_random_seasons_match_the_nights_results(plans, django_capture_on_commit_callbacks):
    league, admin = make_league(slug=f"money-random-{next(_slugs)}")
    league_money_set(league=league, by=admin, values={"unit": 500})
    roster = [player_create(league=league, name=f"P{k}", by=admin) for k in range(4)]
    nights = [
        play_night(
            league,
            admin,
            roster,
            django_capture_on_commit_callbacks,
            date=dt.date(2026, 1, k + 1),
            plan=plan,
        )
        for k, plan in enumerate(plans)
    ]
    table = league_money_table(league, None)
    assert as_dict(table) == oracle(nights)
    assert sum(r.net for r in table.rows.values()) == -sum(night_results(t).fees for t in nights)


# --------------------------------------------------------------------------- pages and API


def test_members_see_the_money_columns_on_the_table_and_in_its_csv(season_league):
    league, admin, roster, nights, friendly, free, old = season_league
    member = add_member(league, f"{league.slug}-jo", "member")
    table = league_money_table(league, league_season(league, "2026"))
    ann = table.rows[roster[0].pk]
    client = Client()
    client.force_login(member)
    page = client.get(f"/leagues/{league.slug}/table/?season=2026").content.decode()
    assert "In the money" in page and "ROI" in page and 'data-testid="money-net"' in page
    assert ann.net_text in page and ann.roi_text in page
    csv = client.get(f"/leagues/{league.slug}/table.csv?season=2026").content.decode()
    header, *lines = csv.strip().splitlines()
    assert header.endswith(
        "net_chips,currency,money_nights,money_net,in_the_money,in_the_money_pct,paid,roi_pct,"
        "bounties"
    )
    cells = dict(
        zip(header.split(","), next(x for x in lines if ",Ann," in x).split(","), strict=True)
    )
    assert cells["currency"] == "USD" and cells["money_nights"] == "3"
    assert cells["money_net"] == f"{ann.net / 100:.2f}"
    assert cells["bounties"] == f"{ann.bounties / 100:.2f}"
    # a visitor of the public league sees the standings, not the money
    anonymous = Client()
    page = anonymous.get(f"/leagues/{league.slug}/table/?season=2026").content.decode()
    assert "Ann" in page and "In the money" not in page and ann.net_text not in page
    csv = anonymous.get(f"/leagues/{league.slug}/table.csv?season=2026").content.decode()
    assert "money_net" not in csv and "currency" not in csv


def test_the_standings_endpoints_carry_the_money_for_members(season_league):
    league, admin, roster, nights, friendly, free, old = season_league
    member = add_member(league, f"{league.slug}-kim", "member")
    table = league_money_table(league, league_season(league, "2026"))
    for url in (
        f"/api/v1/leagues/{league.slug}/standings/?season=2026",
        f"/api/v1/analytics/leagues/{league.slug}/standings/?season=2026",
    ):
        rows = api_client(member).get(url).json()
        assert len(rows) == 4
        for row in rows:
            mine = table.rows[row["player"]]
            assert row["money"] == {
                "currency": "USD",
                "nights": mine.nights,
                "net": mine.net,
                "net_text": mine.net_text,
                "paid": mine.paid,
                "payouts": mine.payouts,
                "bounties": mine.bounties,
                "in_the_money": mine.in_the_money,
                "in_the_money_pct": mine.itm_pct,
                "roi_pct": mine.roi_pct,
            }
        anonymous = api_client().get(url).json()
        assert [r["money"] for r in anonymous] == [None] * 4
    csv = api_client(member).get(
        f"/api/v1/analytics/leagues/{league.slug}/standings/?season=2026&format=csv"
    )
    assert "money.net" in csv.content.decode().splitlines()[0]


def test_the_player_page_and_endpoint_show_their_money(season_league):
    league, admin, roster, nights, friendly, free, old = season_league
    ann = roster[0]
    mine = player_money(ann)
    total = mine.rows[ann.pk]
    client = Client()
    client.force_login(admin)
    page = client.get(f"/players/{ann.pk}/").content.decode()
    assert 'data-testid="player-money"' in page and 'data-testid="money-chart"' in page
    assert total.net_text in page and "<svg" in page
    body = api_client(admin).get(f"/api/v1/players/{ann.pk}/money/").json()
    assert body["totals"]["net"] == total.net and body["currency"] == "USD"
    assert [n["result"] for n in body["nights"]] == [n.result for n in mine.by_night[ann.pk]]
    assert body["nights"][-1]["cumulative"] == total.net
    # outside the league's members: no money on the page, a 403 from the endpoint
    anonymous = Client().get(f"/players/{ann.pk}/").content.decode()
    assert "Ann" in anonymous and 'data-testid="player-money"' not in anonymous
    assert api_client().get(f"/api/v1/players/{ann.pk}/money/").status_code in (401, 403)


def test_a_private_leagues_money_is_a_404_to_outsiders(django_capture_on_commit_callbacks):
    league, admin = make_league(slug=f"money-private-{next(_slugs)}", public=False)
    league_money_set(league=league, by=admin, values={"unit": 500})
    roster = [player_create(league=league, name=n, by=admin) for n in ("Ann", "Bob", "Cat")]
    play_night(
        league, admin, roster, django_capture_on_commit_callbacks, date=dt.date(2026, 3, 3), plan=[]
    )
    outsider = make_user(f"{league.slug}-out")
    client = Client()
    client.force_login(outsider)
    assert client.get(f"/leagues/{league.slug}/table/").status_code == 404
    assert client.get(f"/leagues/{league.slug}/table.csv").status_code == 404
    assert client.get(f"/players/{roster[0].pk}/").status_code == 404
    api = api_client(outsider)
    assert api.get(f"/api/v1/leagues/{league.slug}/standings/").status_code == 404
    assert api.get(f"/api/v1/players/{roster[0].pk}/money/").status_code == 404
    member = add_member(league, f"{league.slug}-in", "member")
    assert api_client(member).get(f"/api/v1/players/{roster[0].pk}/money/").status_code == 200


def test_the_schema_documents_the_money_fields(client):
    schema = client.get("/api/schema/?format=json").json()
    assert "/api/v1/players/{id}/money/" in schema["paths"]
    totals = schema["components"]["schemas"]["MoneyTotals"]["properties"]
    assert {"net", "in_the_money_pct", "roi_pct", "bounties"} <= set(totals)
    standing = schema["components"]["schemas"]["LeagueStanding"]["properties"]
    assert "money" in standing


def test_net_chips_leave_out_the_chips_bought(season_league):
    """A rebuy or an add-on is chips bought, not won: net chips are the final chips less the
    starting chips and the chips bought, on the table, its definition and the player page."""
    league, admin, roster, nights, friendly, free, old = season_league
    season = league_season(league, "2026")
    expected: dict[int, int] = {}
    for t in nights:
        bought = chips_bought(t)
        assert any(bought.values())
        for s in FinalStanding.objects.filter(tournament=t):
            net = s.chips - t.starting_chips - bought.get(s.player_id, 0)
            expected[s.player_id] = expected.get(s.player_id, 0) + net
    assert sum(expected.values()) == 0  # chips only change hands
    table = {r.player_id: r.net_chips for r in league_standings(league, season)}
    definition = league_standings_from_results(league, league_results(league, season), season)
    assert table == {r.player_id: r.net_chips for r in definition} == expected
    client = Client()
    ann = roster[0]
    page = player_page(None, ann.pk)
    for row in page.tournaments:
        t = row.tournament
        bought = (
            LedgerEntry.objects.filter(
                tournament=t, player=ann, kind__in=["rebuy", "addon"]
            ).aggregate(s=Sum("amount"))["s"]
            or 0
        )
        assert row.net == row.chips - t.starting_chips - bought
    assert client.get(f"/players/{ann.pk}/").status_code == 200


def test_the_worked_example_of_the_docs(example):
    """docs/money.md, "Standings and statistics": the example night's money columns and net
    chips."""
    t, league, roster, busted = example
    table = league_money_table(league, league_season(league, "all"))
    names = {p.pk: n for n, p in roster.items()}
    got = {
        names[pid]: (r.net_text, r.paid_text, r.itm_text, r.roi_text, r.bounties_text)
        for pid, r in table.rows.items()
    }
    assert got == {
        "Ann": ("-$5.00", "$45.00", "100%", "-11.1%", "$0.00"),
        "Bob": ("-$25.00", "$30.00", "0%", "-83.3%", "$0.00"),
        "Cat": ("+$25.00", "$45.00", "100%", "+55.6%", "$0.00"),
        "Dan": ("-$30.00", "$55.00", "100%", "-54.5%", "$0.00"),
    }
    net = {names[r.player_id]: r.net_chips for r in league_standings(league, None)}
    assert net == {"Cat": 1022, "Ann": -10, "Bob": -10, "Dan": -1002}


def test_a_finished_nights_entry_cards_have_no_record_row(example):
    t, league, roster, busted = example
    client = Client()
    client.force_login(league.memberships.get(role="admin").user)
    page = client.get(t.get_absolute_url()).content.decode()
    assert 'data-testid="money-entries"' in page
    assert 'data-label="Record"' not in page and "<th>Record</th>" not in page


def test_the_table_screens_doctests():
    import doctest

    import web.presenters.table

    result = doctest.testmod(web.presenters.table)
    assert result.attempted >= 2 and result.failed == 0


@pytest.mark.django_db(transaction=True)
def test_the_migration_takes_the_chips_bought_out_of_the_stored_net_chips(
    django_capture_on_commit_callbacks,
):
    from django.db.migrations.executor import MigrationExecutor

    league, admin = make_league(slug=f"money-migration-{next(_slugs)}")
    roster = [player_create(league=league, name=n, by=admin) for n in ("Ann", "Bob", "Cat")]
    t = play_night(
        league,
        admin,
        roster,
        django_capture_on_commit_callbacks,
        date=dt.date(2026, 2, 2),
        plan=[("bust", 0, []), ("fold", 1, [(1, "rebuy"), (2, "rebuy")]), ("fold", 0, [])],
    )
    bought = chips_bought(t)
    assert any(bought.values())
    now = {r.player_id: r.net_chips for r in league_standings(league, None)}
    executor = MigrationExecutor(connection)
    executor.migrate([("tracker", "0031_deals")])  # back: the net chips as they were stored
    before = {r.player_id: r.net_chips for r in league_standings(league, None)}
    assert before == {pid: net + bought.get(pid, 0) for pid, net in now.items()}
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())
    assert {r.player_id: r.net_chips for r in league_standings(league, None)} == now
