"""The league table's running totals (StandingTally): kept in step by every write of final
standings (a night finishing, a ruling that moves chips after it), a night's date and its
"counts toward the standings" switch; equal to a rebuild from the
final standings after any sequence of them, and giving the standings night by night."""

from __future__ import annotations

import datetime as dt
import importlib
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db.models import Count

from tests.factories import ACES, KINGS, add_member, make_league, random_nights, showdown_entry
from tests.stats.seed import play
from tests.support.definitions import league_standings_from_results
from tests.support.nights import invalid_then_void, random_league
from tests.support.recording import record
from tracker.hands.models import Hand, Pot
from tracker.leagues.selectors import (
    league_results,
    league_season,
    league_standings,
    league_table,
    season_nights,
)
from tracker.leagues.services import player_create
from tracker.rulings.services import ruling_make
from tracker.tournaments.models import FinalStanding, StandingTally, Tournament
from tracker.tournaments.services import (
    standings_tallies_rebuild,
    tournament_counting_set,
    tournament_create,
)

pytestmark = pytest.mark.django_db

KEY = ("league_id", "month", "player_id", "place", "entrants", "sharing")


def snapshot() -> dict[tuple, tuple[int, int]]:
    return {
        tuple(r[k] for k in KEY): (r["nights"], r["net_chips"])
        for r in StandingTally.objects.values(*KEY, "nights", "net_chips")
    }


def entrants(league) -> dict[int, int]:
    """Each night's stored ``entrants`` (0: not finished)."""
    return dict(Tournament.objects.filter(league=league).values_list("id", "entrants"))


def standings_counts(league) -> dict[int, int]:
    """Each night's number of final standings, counted (0: none)."""
    counted = dict(
        FinalStanding.objects.filter(tournament__league=league)
        .values("tournament_id")
        .annotate(n=Count("id"))
        .values_list("tournament_id", "n")
    )
    return {tid: counted.get(tid, 0) for tid in entrants(league)}


def left_out_by_counting(league, season) -> list[tuple[int, int, bool]]:
    """The nights of ``season`` that do not count, from the final standings counted per
    night (the definition the stored ``entrants`` stands for): (id, players, switched on)."""
    counted = standings_counts(league)
    return [
        (t.pk, counted[t.pk], t.counts_toward_standings)
        for t in Tournament.objects.filter(league=league).order_by("date", "id")
        if counted[t.pk]
        and (season.start is None or season.start <= t.date <= season.end)
        and (not t.counts_toward_standings or counted[t.pk] < league.min_players)
    ]


def places(tournament) -> dict[int, int]:
    return dict(FinalStanding.objects.filter(tournament=tournament).values_list("player", "place"))


def night_by_night(league, key):
    season = league_season(league, key)
    return league_standings_from_results(league, league_results(league, season), season)


def rule_for_the_last(night, rob) -> bool:
    """The authority gives the biggest pot of the night's last hand to whoever of its
    contenders finished lowest (a new award there cannot leave a later hand short); whether
    the places changed."""
    settled = Hand.objects.filter(tournament=night, status__in=("verified", "disputed"))
    last = settled.order_by("-number").first()
    pot = max(Pot.objects.filter(hand=last), key=lambda p: (p.amount, -p.index))
    before = places(night)
    lowest = max((int(p) for p in pot.eligible), key=lambda p: (before.get(p, 0), p))
    ruling_make(pot=pot, by=rob, result="award", reason="seen again", award={lowest: pot.amount})
    return places(night) != before


DAYS = [dt.date(2026, 1, 9), dt.date(2026, 2, 13), dt.date(2026, 3, 27), dt.date(2026, 5, 1)]


@pytest.mark.parametrize("seed", [4, 11])
def test_rebuilding_equals_the_standings_totals_after_random_nights_rulings_and_switches(
    seed, monkeypatch, django_capture_on_commit_callbacks
):
    rng, league, admin, rob = random_league(monkeypatch, f"standings{seed}", seed, quarters=True)
    nights = random_nights(
        league=league,
        by=admin,
        rng=rng,
        names=("Ann", "Bob", "Cat", "Dan", "Eve"),
        size=[2, 3, 3, 4],
        dates=DAYS,
        count=7,
        hand_limits=[3, 4, 6],
        starting_chips=300,
    )
    done = dict.fromkeys(("play", "rule", "moved places", "void", "switch", "date"), 0)
    steps = ["play"] * 10 + ["rule"] * 5 + ["void"] * 2 + ["switch"] * 3 + ["date"] * 3
    rng.shuffle(steps)
    for step in ["play", *steps]:
        night = rng.choice(nights)
        night.refresh_from_db()
        if step == "play":
            with django_capture_on_commit_callbacks(execute=True):
                done["play"] += bool(play(night, admin, rng, hands=rng.randint(1, 4)))
        elif step == "rule":
            finished = list(Tournament.objects.filter(league=league, status="finished"))
            if finished:
                done["rule"] += 1
                done["moved places"] += rule_for_the_last(rng.choice(finished), rob)
        elif step == "void" and night.status == "running":
            with django_capture_on_commit_callbacks(execute=True):
                done["void"] += invalid_then_void(night, admin, rng)
        elif step == "switch":
            tournament_counting_set(
                tournament=night, counts_toward_standings=not night.counts_toward_standings
            )
            done["switch"] += 1
        elif step == "date":
            tournament_counting_set(tournament=night, date=rng.choice(DAYS))
            done["date"] += 1
    for night in nights:  # every night ends; then more rulings on finished nights
        with django_capture_on_commit_callbacks(execute=True):
            play(night, admin, rng)
    for night in rng.sample(nights, 4):
        done["rule"] += 1
        done["moved places"] += rule_for_the_last(night, rob)
    assert done["rule"] and done["moved places"] and done["switch"] and done["date"], done
    assert Tournament.objects.filter(league=league, counts_toward_standings=False).exists()
    incremental = snapshot()
    assert len({k[1] for k in incremental}) >= 2  # several months
    stored = entrants(league)
    assert stored == standings_counts(league)
    assert set(stored.values()) - {0}  # finished nights
    for key in ("all", "2026-Q1", "2026-Q2"):
        season = league_season(league, key)
        assert league_standings(league, season) == night_by_night(league, key)
        left_out = [
            (n.tournament_id, n.players, n.reason.startswith(f"{n.players} players"))
            for n in season_nights(league, season, left_out_only=True)
        ]
        assert left_out == left_out_by_counting(league, season), key
        assert [n for n in season_nights(league, season) if not n.counts] == list(
            season_nights(league, season, left_out_only=True)
        )
    Tournament.objects.filter(league=league).update(entrants=0)  # the rebuild restores them
    out = StringIO()
    call_command("rebuild_stats", "--league", league.slug, stdout=out)
    assert "standings rows" in out.getvalue()
    assert snapshot() == incremental
    assert entrants(league) == stored == standings_counts(league)


@pytest.fixture
def heads_up(django_capture_on_commit_callbacks):
    """A finished heads-up night of one hand: aces beat kings for 100."""
    league, admin = make_league(slug="headsup")
    league.min_players = 2
    league.save()
    rob = add_member(league, "rob-h", "authority")
    ann, bob = (player_create(league=league, name=n, by=admin) for n in ("Ann", "Bob"))
    t = tournament_create(
        league=league, name="N", player_ids=[ann.pk, bob.pk], by=admin, hand_limit=1
    )
    with django_capture_on_commit_callbacks(execute=True):
        record(t, admin, showdown_entry(t, [ACES, KINGS], 100), variant="seven_card_stud")
    t.refresh_from_db()
    assert t.status == "finished"
    return league, t, rob


def test_a_ruling_that_changes_the_places_moves_the_totals(heads_up):
    league, t, rob = heads_up
    first, second = [r.player_id for r in league_standings(league)]
    assert places(t) == {first: 1, second: 2}
    pot = Hand.objects.get(tournament=t).pots.get()
    ruling_make(pot=pot, by=rob, result="award", reason="misread", award={second: pot.amount})
    assert places(t) == {second: 1, first: 2}
    rows = league_standings(league)
    assert [r.player_id for r in rows] == [second, first]
    assert rows[0].wins == 1 and rows[0].net_chips > 0 and rows[1].wins == 0
    incremental = snapshot()
    standings_tallies_rebuild(league=league)
    assert snapshot() == incremental


def test_the_switch_and_the_date_move_the_totals(heads_up):
    league, t, _ = heads_up
    today = league_season(league)
    assert league_table(league, today).nights == 1
    tournament_counting_set(tournament=t, counts_toward_standings=False)
    assert league_standings(league) == [] and not StandingTally.objects.exists()
    tournament_counting_set(tournament=t, counts_toward_standings=True)
    moved = dt.date(t.date.year - 3, 6, 15)
    tournament_counting_set(tournament=t, date=moved)
    assert league_table(league, today).nights == 0
    assert league_table(league, league_season(league, str(moved.year))).nights == 1
    assert set(StandingTally.objects.values_list("month", flat=True)) == {dt.date(moved.year, 6, 1)}


def test_the_migration_counts_the_nights_finished_before_it(heads_up):
    league, t, _ = heads_up
    incremental = snapshot()
    assert incremental
    StandingTally.objects.all().delete()
    migration = importlib.import_module("tracker.migrations.0017_standing_tallies")
    migration.fill_tallies(apps, None)
    assert snapshot() == incremental


def test_the_migration_stores_the_entrants_of_the_nights_finished_before_it(heads_up):
    league, t, _ = heads_up
    unfinished = tournament_create(
        league=league,
        name="Later",
        player_ids=list(league.players.values_list("pk", flat=True)),
        by=league.memberships.get(role="admin").user,
    )
    assert entrants(league) == {t.pk: 2, unfinished.pk: 0}
    Tournament.objects.filter(league=league).update(entrants=0)
    migration = importlib.import_module("tracker.migrations.0018_tournament_entrants")
    migration.fill_entrants(apps, None)
    assert entrants(league) == {t.pk: 2, unfinished.pk: 0} == standings_counts(league)


def test_the_admin_saves_a_night_through_the_service_that_moves_the_totals(heads_up):
    from types import SimpleNamespace

    from django.contrib import admin

    league, t, _ = heads_up
    t.counts_toward_standings, t.name = False, "Renamed"
    form = SimpleNamespace(changed_data=["counts_toward_standings", "name"])
    admin.site._registry[Tournament].save_model(None, t, form, change=True)
    t.refresh_from_db()
    assert t.name == "Renamed" and not t.counts_toward_standings
    assert not StandingTally.objects.exists() and league_standings(league) == []
