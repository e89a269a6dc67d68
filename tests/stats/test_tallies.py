"""The statistics' running totals (tracker/stats/models.py): kept in step by settlement,
rulings, voids, re-evaluation and the backfill; equal to a rebuild from the seats after
any sequence of them; the same statistics as the sums over the seats."""

from __future__ import annotations

import datetime as dt
import math
import random
from io import StringIO

import pytest
from django.core.management import call_command

from tests.factories import add_member, make_league, random_nights
from tests.stats.seed import play
from tests.support.definitions import stats_table
from tests.support.nights import invalid_then_void, night_played, random_league
from tests.support.recording import record
from tracker.engine.hands import CATEGORIES
from tracker.hands.models import Hand, HandSeat, Pot
from tracker.hands.selectors import facts as facts_module
from tracker.hands.services.reevaluation import hand_reevaluate
from tracker.leagues.selectors import league_season
from tracker.leagues.services import player_create
from tracker.rulings.services import ruling_make
from tracker.stats import selectors as sel
from tracker.stats.models import MonthTally, TournamentTally
from tracker.stats.services import stats_refresh, stats_tallies_rebuild
from tracker.stats.tally import FLOAT_COUNTERS, INT_COUNTERS, MAX_COUNTER, seat_tally
from tracker.tournaments.services import tournament_create

pytestmark = pytest.mark.django_db

KEYS = {
    MonthTally: ("player_id", "league_id", "variant", "month"),
    TournamentTally: ("player_id", "tournament_id", "variant"),
}


def snapshot(model) -> dict[tuple, dict]:
    """Every row of a running-total table, by its key."""
    names = KEYS[model]
    fields = (*INT_COUNTERS, *FLOAT_COUNTERS, MAX_COUNTER)
    return {
        tuple(r[n] for n in names): {f: r[f] for f in fields}
        for r in model.objects.values(*names, *fields)
    }


def assert_same(incremental: dict, rebuilt: dict) -> None:
    assert set(incremental) == set(rebuilt)
    for key, row in rebuilt.items():
        mine = incremental[key]
        for name, value in row.items():
            if name in FLOAT_COUNTERS:
                assert math.isclose(mine[name], value, abs_tol=1e-6), (key, name)
            else:
                assert mine[name] == value, (key, name, mine[name], value)


def stats_rows(rows: list[sel.Stats]) -> list[dict]:
    out = []
    for s in rows:
        row = s.as_row()
        row["key"] = s.key
        out.append(row)
    return out


def test_a_seat_tally_counts_what_the_sums_count():
    facts = {"full": 1, "vpip": 1, "sd": 1, "wild": 2, "cat": "five_of_a_kind", "ai": 1}
    facts.update(ev=30.5, ai_se=2.0)
    t = seat_tally(facts=facts, won=0, put_in=40, live=True)
    assert (t["hands"], t["live"], t["sd_won"], t["wild_hands"], t["wild"]) == (1, 1, 0, 1, 2)
    assert (t["net"], t["chips_won"], t["chips_lost"], t["ai_won"]) == (-40, 0, 40, 0)
    assert (t["ev"], t["ev_var"], t["cat_five_of_a_kind"], t["biggest"]) == (30.5, 4.0, 1, 0)
    assert set(t) == {*INT_COUNTERS, *FLOAT_COUNTERS, MAX_COUNTER}
    assert {f"cat_{c}" for c in CATEGORIES} <= {f.name for f in MonthTally._meta.fields}


def _rule(pot: Pot, rob, rng) -> None:
    eligible = [int(p) for p in pot.eligible]
    winner = rng.choice(eligible)
    ruling_make(pot=pot, by=rob, result="award", reason="seen again", award={winner: pot.amount})


@pytest.mark.parametrize("seed", [3, 17])
def test_rebuilding_equals_the_running_totals_after_random_hands_rulings_and_voids(
    seed, monkeypatch, django_capture_on_commit_callbacks
):
    rng, league, admin, rob = random_league(monkeypatch, f"tally{seed}", seed)
    nights = random_nights(
        league=league,
        by=admin,
        rng=rng,
        names=("Ann", "Bob", "Cat", "Dan"),
        size=3,
        dates=[
            dt.date(2026, 1, 30),
            dt.date(2026, 2, 2),
            dt.date(2026, 2, 27),
            dt.date(2026, 4, 1),
        ],
        starting_chips=400,
    )
    done = {"play": 0, "rule": 0, "void": 0, "refresh": 0, "reevaluate": 0}
    steps = ["play"] * 5 + ["rule"] * 3 + ["void"] * 2 + ["refresh", "reevaluate"]
    rng.shuffle(steps)
    for step in ["play", *steps, "play"]:
        night = rng.choice(nights)
        settled = Hand.objects.filter(tournament__league=league, status__in=sel.SETTLED).order_by(
            "id"
        )
        if step == "play":
            with django_capture_on_commit_callbacks(execute=True):
                if play(night, admin, rng, hands=rng.randint(1, 4)):
                    done["play"] += 1
        elif step == "rule" and settled.filter(tournament=night).exists():
            # The last settled hand of a night: a new award cannot leave a later hand short.
            last = settled.filter(tournament=night).order_by("-number").first()
            pots = list(Pot.objects.filter(hand=last).order_by("index"))
            _rule(rng.choice(pots), rob, rng)
            done["rule"] += 1
        elif step == "void":
            night.refresh_from_db()
            if night.status == "running":
                with django_capture_on_commit_callbacks(execute=True):
                    done["void"] += invalid_then_void(night, admin, rng)
        elif step == "refresh" and settled.exists():
            # New facts for the hands of one night (as after a change of the facts code):
            # the running totals lose the old facts and gain the new.
            real = facts_module.hand_facts

            def changed(real=real, **kwargs):
                rows = real(**kwargs)
                for f in rows:
                    f["vpip"] = 1 - f.get("vpip", 0)
                    f.pop("cat", None)
                return rows

            monkeypatch.setattr(facts_module, "hand_facts", changed)
            stats_refresh(tournament_id=settled.first().tournament_id, everything=True)
            monkeypatch.setattr(facts_module, "hand_facts", real)
            done["refresh"] += 1
        elif step == "reevaluate" and settled.exists():
            hand = settled.last()
            hand.engine_reading = {**hand.engine_reading, "stale": True}
            hand.save(update_fields=["engine_reading"])
            HandSeat.objects.filter(hand=hand).update(facts={"v": 0})  # facts made stale too
            stats_tallies_rebuild(league=league)  # ... and counted so
            assert hand_reevaluate(hand=hand)
            done["reevaluate"] += 1
    assert done["play"] and done["rule"] and done["void"], done
    months, tournaments = snapshot(MonthTally), snapshot(TournamentTally)
    assert len({k[3] for k in months}) >= 2  # the nights fall in several months
    # the running totals give the statistics the seats give
    by_seats = stats_table(sel.settled_seats(league=league))
    by_rows = sel.tally_table(sel.month_tallies(league=league))
    assert stats_rows(by_rows) == stats_rows(by_seats)
    for night in nights:
        assert stats_rows(sel.tally_table(sel.tournament_tallies(tournament=night))) == stats_rows(
            stats_table(sel.settled_seats(tournament=night))
        )
    out = StringIO()
    call_command("rebuild_stats", "--league", league.slug, stdout=out)
    assert "rebuilt" in out.getvalue()
    assert_same(months, snapshot(MonthTally))
    assert_same(tournaments, snapshot(TournamentTally))


def test_a_ruling_that_takes_the_biggest_pot_away_reads_the_biggest_again(
    django_capture_on_commit_callbacks,
):
    from tests.factories import ACES, KINGS, showdown_entry

    league, admin = make_league(slug="biggest")
    rob = add_member(league, "rob-b", "authority")
    players = [player_create(league=league, name=n, by=admin) for n in ("Ann", "Bob")]
    t = tournament_create(league=league, name="N", player_ids=[p.pk for p in players], by=admin)
    with django_capture_on_commit_callbacks(execute=True):
        record(t, admin, showdown_entry(t, [ACES, KINGS], 100), variant="seven_card_stud")
        record(t, admin, showdown_entry(t, [ACES, KINGS], 20), variant="seven_card_stud")
    first = Hand.objects.get(tournament=t, number=1)
    pot = first.pots.get()
    winner = next(int(p) for p, c in pot.award.items() if c)
    row = MonthTally.objects.get(player_id=winner, league=league)
    assert row.biggest == pot.amount
    loser = next(int(p) for p in pot.eligible if int(p) != winner)
    ruling_make(pot=pot, by=rob, result="award", reason="misread", award={loser: pot.amount})
    row.refresh_from_db()
    expected = HandSeat.objects.filter(player_id=winner, hand__tournament=t).order_by("-won")
    assert row.biggest == expected.first().won < pot.amount
    assert MonthTally.objects.get(player_id=loser, league=league).biggest == pot.amount


def test_the_migrated_tables_start_empty_and_settlement_fills_them(
    django_capture_on_commit_callbacks,
):
    league, admin = make_league(slug="fill")
    players = [player_create(league=league, name=n, by=admin) for n in ("Ann", "Bob", "Cat")]
    t = tournament_create(league=league, name="N", player_ids=[p.pk for p in players], by=admin)
    assert not MonthTally.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        play(t, admin, random.Random(5), hands=3)
    assert sum(MonthTally.objects.values_list("hands", flat=True)) == HandSeat.objects.count()
    assert sum(TournamentTally.objects.values_list("hands", flat=True)) == HandSeat.objects.count()


def test_the_migration_sums_the_hands_settled_before_it():
    import importlib

    from django.apps import apps

    league, admin = make_league(slug="before")
    players = [player_create(league=league, name=n, by=admin) for n in ("Ann", "Bob", "Cat")]
    for month in (1, 2):
        date, rng = dt.date(2025, month, 3), random.Random(month)
        night_played(league, admin, players, name=f"N{month}", date=date, rng=rng, hands=4)
    months, tournaments = snapshot(MonthTally), snapshot(TournamentTally)
    MonthTally.objects.all().delete()
    TournamentTally.objects.all().delete()
    migration = importlib.import_module("tracker.migrations.0013_statistics_tallies")
    migration.fill_tallies(apps, None)
    assert_same(months, snapshot(MonthTally))
    assert_same(tournaments, snapshot(TournamentTally))


def test_league_statistics_by_season(client):
    from tracker.leagues.models import League

    league, admin = make_league(slug="seasons")
    League.objects.filter(pk=league.pk).update(season_length="quarter")
    players = [player_create(league=league, name=n, by=admin) for n in ("Ann", "Bob")]
    for k, day in enumerate((dt.date(2026, 1, 9), dt.date(2026, 3, 31), dt.date(2026, 4, 1))):
        night_played(league, admin, players, name=f"N{k}", date=day, rng=random.Random(k), hands=3)
    html = client.get("/leagues/seasons/stats/").content.decode()
    assert 'data-testid="seasons"' in html and "Jan–Mar 2026" in html and "Apr–Jun 2026" in html
    first = sel.settled_seats(league=league).filter(
        hand__tournament__date__gte=dt.date(2026, 1, 1),
        hand__tournament__date__lte=dt.date(2026, 3, 31),
    )
    api = client.get("/api/v1/analytics/leagues/seasons/stats/?season=2026-Q1").json()
    expected = {s.key: s.as_row() for s in stats_table(first)}
    assert {r["player"]: r["hands"] for r in api} == {k: r["hands"] for k, r in expected.items()}
    assert sum(r["hands"] for r in api) == first.count() < sel.settled_seats(league=league).count()
    page = client.get("/leagues/seasons/stats/?season=2026-Q1&variant=low_hole")
    assert page.status_code == 200 and 'aria-current="page">Jan–Mar 2026' in page.content.decode()
    assert client.get("/leagues/seasons/stats/?season=2026-13").status_code == 404
    csv = client.get("/leagues/seasons/stats.csv?season=2026-Q2")
    assert "seasons-stats-2026-Q2.csv" in csv["Content-Disposition"]
    # No season: the current one, as the league table; all time is ?season=all.
    current = league_season(League.objects.get(pk=league.pk))
    page = client.get("/leagues/seasons/stats/").context["page"]
    assert page.season == current and f'aria-current="page">{current.label}' in html
    everything = client.get("/api/v1/analytics/leagues/seasons/stats/?season=all").json()
    assert sum(r["hands"] for r in everything) == sel.settled_seats(league=league).count()
    bad = client.get("/api/v1/analytics/leagues/seasons/stats/?season=2026-13")
    assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_season"
