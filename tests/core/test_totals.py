"""The one way into the running totals (tracker/core/totals.py): a block that reads the
before, runs the write and applies the difference to every registered keeper; nested blocks
keep each row once; and, after a random mix of every chip- and statistic-moving write, both
systems of running totals equal the definitions, with every write to them made inside a
block."""

from __future__ import annotations

import datetime as dt
import math
import re
from contextlib import contextmanager

import pytest
from django.db import connection
from django.db.models import Max

from tests.factories import random_nights
from tests.stats.seed import play, quick_entry
from tests.support.definitions import league_standings_definition, stats_table
from tests.support.nights import random_league
from tracker.core import totals
from tracker.core.totals import Changed, totals_active, totals_keepers, totals_kept
from tracker.hands.models import SETTLED, Hand, HandSeat, HandStatus, Pot
from tracker.hands.selectors import facts as facts_module
from tracker.hands.services.recording import hand_record, hand_void
from tracker.hands.services.reevaluation import hand_reevaluate
from tracker.hands.services.settlement import tournament_settle
from tracker.leagues.selectors import league_season, league_standings
from tracker.rulings.services import ruling_make
from tracker.stats import selectors as sel
from tracker.stats.models import MonthTally, TournamentTally
from tracker.stats.services import stats_refresh, stats_tallies_rebuild
from tracker.stats.tally import FLOAT_COUNTERS, INT_COUNTERS, MAX_COUNTER
from tracker.tournaments.models import StandingTally, Tournament
from tracker.tournaments.selectors import tournament_state
from tracker.tournaments.services import standings_tallies_rebuild, tournament_counting_set

TALLY_WRITE = re.compile(
    r"\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+\"?"
    r"(tracker_(?:monthtally|tournamenttally|standingtally))\b",
    re.IGNORECASE,
)


class Recorder:
    """A keeper that notes what it is asked to read and apply."""

    def __init__(self, name: str, calls: list):
        self.name = name
        self.calls = calls

    def read(self, changed: Changed) -> object:
        self.calls.append((self.name, "read", changed))
        return f"before {self.name}"

    def apply(self, before: object, changed: Changed) -> None:
        self.calls.append((self.name, "apply", before, changed))


@pytest.fixture
def recorders(monkeypatch):
    calls: list = []
    monkeypatch.setattr(totals, "_keepers", {})
    for name in ("first", "second"):
        totals.totals_keeper_register(Recorder(name, calls))
    return calls


def test_the_app_registers_the_statistics_then_the_standings():
    assert [k.name for k in totals_keepers()] == ["statistics", "standings"]


@pytest.mark.django_db
def test_a_block_reads_before_and_applies_after_in_the_keepers_order(recorders):
    with totals_kept(hands=[3, 1, 3], tournaments=[7], new_hands=[9]) as changed:
        assert totals_active()
        assert recorders == [("first", "read", changed), ("second", "read", changed)]
    assert changed == Changed(hands=(1, 3), tournaments=(7,), new_hands=(9,))
    assert recorders[2:] == [
        ("first", "apply", "before first", changed),
        ("second", "apply", "before second", changed),
    ]
    assert not totals_active()


@pytest.mark.django_db
def test_an_inner_block_leaves_to_the_outer_what_it_keeps(recorders):
    with totals_kept(hands=[1], tournaments=[7]):
        with totals_kept(hands=[1, 2], tournaments=[7]) as inner:
            pass
        with totals_kept(tournaments=[7]) as nothing:
            pass
    assert inner == Changed(hands=(2,))
    assert nothing == Changed()
    kept = [(name, what, call[-1]) for name, what, *call in recorders]
    outer = Changed(hands=(1,), tournaments=(7,))
    assert kept == [
        ("first", "read", outer),
        ("second", "read", outer),
        ("first", "read", inner),
        ("second", "read", inner),
        ("first", "apply", inner),
        ("second", "apply", inner),
        ("first", "apply", outer),
        ("second", "apply", outer),
    ]


@pytest.mark.django_db
def test_what_a_write_gives_a_keeper_reaches_it_only_for_the_block_s_new_hands(recorders):
    with totals_kept(new_hands=[9, 8]):
        totals.totals_given(keeper="first", new_hands=[8, 9], value="seats in memory")
    with totals_kept(new_hands=[9, 8]):
        totals.totals_given(keeper="first", new_hands=[9], value="some of them")
    with totals_kept(hands=[1], new_hands=[9]):
        totals.totals_given(keeper="first", new_hands=[9], value="with other hands")
    applied = [(name, call[-1].given) for name, what, *call in recorders if what == "apply"]
    assert applied == [
        ("first", "seats in memory"),
        ("second", None),
        ("first", None),
        ("second", None),
        ("first", None),
        ("second", None),
    ]
    with pytest.raises(RuntimeError, match="outside"):
        totals.totals_given(keeper="first", new_hands=[9], value=None)


@pytest.mark.django_db
def test_a_block_that_raises_applies_nothing(recorders):
    with pytest.raises(ZeroDivisionError), totals_kept(hands=[1]):
        raise ZeroDivisionError
    assert [what for _, what, *_ in recorders] == ["read", "read"]
    assert not totals_active()


def test_a_block_refuses_to_run_with_no_keeper(monkeypatch):
    monkeypatch.setattr(totals, "_keepers", {})
    with pytest.raises(RuntimeError, match="registered"), totals_kept(hands=[1]):
        pass


# --------------------------------------------------------------------------
# Every write goes through it


@contextmanager
def tally_writes():
    """Every statement that writes a running-total table, with whether a block was open."""
    seen: list[tuple[str, bool]] = []

    def watch(execute, sql, params, many, context):
        found = TALLY_WRITE.search(sql)
        if found:
            seen.append((found.group(1).lower(), totals_active()))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(watch):
        yield seen


def rows(model, names: tuple[str, ...]) -> dict[tuple, dict]:
    fields = (*INT_COUNTERS, *FLOAT_COUNTERS, MAX_COUNTER)
    return {
        tuple(r[n] for n in names): {f: r[f] for f in fields}
        for r in model.objects.values(*names, *fields)
    }


def snapshot(league) -> tuple:
    """Both systems' running totals of ``league``, every row by its key."""
    months = rows(MonthTally, ("player_id", "league_id", "variant", "month"))
    nights = rows(TournamentTally, ("player_id", "tournament_id", "variant"))
    standing_key = ("month", "player_id", "place", "entrants", "sharing")
    standings = {
        tuple(r[k] for k in standing_key): (r["nights"], r["net_chips"])
        for r in StandingTally.objects.filter(league=league).values(
            *standing_key, "nights", "net_chips"
        )
    }
    return months, nights, standings


def same(kept: tuple, rebuilt: tuple) -> bool:
    """Both snapshots hold the same rows, the sums of floats equal to a millionth."""
    for mine, theirs in zip(kept, rebuilt, strict=True):
        if mine.keys() != theirs.keys():
            return False
        for key, row in theirs.items():
            if isinstance(row, tuple):
                if mine[key] != row:
                    return False
            elif any(not math.isclose(mine[key][f], v, abs_tol=1e-6) for f, v in row.items()):
                return False
    return True


def as_rows(stats) -> list[dict]:
    return [{**s.as_row(), "key": s.key} for s in stats]


def void_an_invalid_hand(night, admin, rng) -> bool:
    """A hand recorded on ``night`` is made to claim more chips than its first player holds,
    so settlement finds it invalid; it is voided, and the night goes on."""
    state = tournament_state(night)
    if state.over:
        return False
    order = [s.player_id for s in state.next_positions()]
    entry = quick_entry(rng, state, [state.stacks[pid] for pid in order], order)
    hand = hand_record(
        tournament=night, by=admin, entry_mode="quick", variant="seven_card_stud", entry=entry
    )
    entry["seats"][0]["put_in"] = 10**6
    Hand.objects.filter(pk=hand.pk).update(entry=entry)
    tournament_settle(tournament_id=night.pk)
    hand.refresh_from_db()
    assert hand.status == HandStatus.INVALID
    hand_void(hand=hand, reason="logged wrong", by=admin)
    return True


def rule_on_the_last_hand(night, rob, rng) -> bool:
    """A new award for a pot of the night's last settled hand (it leaves no later hand
    short): chips move, and the places of a finished night may too."""
    last = Hand.objects.filter(tournament=night, status__in=SETTLED).order_by("-number").first()
    if last is None:
        return False
    pot = rng.choice(list(Pot.objects.filter(hand=last)))
    winner = rng.choice([int(p) for p in pot.eligible])
    ruling_make(pot=pot, by=rob, result="award", reason="seen again", award={winner: pot.amount})
    return True


@pytest.mark.django_db
@pytest.mark.parametrize("seed", [5, 23])
def test_after_any_mix_of_writes_the_totals_are_the_definitions(
    seed, monkeypatch, django_capture_on_commit_callbacks
):
    rng, league, admin, rob = random_league(monkeypatch, f"totals{seed}", seed, quarters=True)
    days = [dt.date(2026, 1, 16), dt.date(2026, 2, 20), dt.date(2026, 4, 3)]
    nights = random_nights(
        league=league,
        by=admin,
        rng=rng,
        names=("Ann", "Bob", "Cat", "Dan"),
        size=[3, 4],
        dates=days,
        count=5,
        hand_limits=[4, 6],
        starting_chips=300,
    )
    steps = ["play"] * 8 + ["rule"] * 4 + ["void", "refresh", "reevaluate"]
    steps += ["switch", "date", "date"]
    rng.shuffle(steps)
    done = dict.fromkeys(set(steps), 0)
    real_facts = facts_module.hand_facts

    def other_facts(**kwargs):  # as after a change of the facts code
        out = real_facts(**kwargs)
        for f in out:
            f["vpip"] = 1 - f.get("vpip", 0)
            f.pop("cat", None)
        return out

    with tally_writes() as writes:
        for step in ["play", *steps, "finish", "rule", "rule", "date"]:
            night = rng.choice(nights)
            night.refresh_from_db()
            settled = Hand.objects.filter(tournament__league=league, status__in=SETTLED)
            with django_capture_on_commit_callbacks(execute=True):
                if step == "play":
                    done[step] += bool(play(night, admin, rng, hands=rng.randint(1, 4)))
                elif step == "finish":
                    for each in nights:
                        play(each, admin, rng)
                elif step == "rule":
                    done[step] += rule_on_the_last_hand(night, rob, rng)
                elif step == "void":
                    running = [n for n in nights if tournament_state(n).over is False]
                    done[step] += bool(running) and void_an_invalid_hand(running[0], admin, rng)
                elif step == "refresh" and settled.exists():
                    monkeypatch.setattr(facts_module, "hand_facts", other_facts)
                    stats_refresh(tournament_id=settled.first().tournament_id, everything=True)
                    monkeypatch.setattr(facts_module, "hand_facts", real_facts)
                    done[step] += 1
                elif step == "reevaluate" and settled.exists():
                    hand = settled.order_by("-id").first()
                    Hand.objects.filter(pk=hand.pk).update(
                        engine_reading={**hand.engine_reading, "stale": True}
                    )
                    with totals_kept(hands=[hand.pk]):  # facts made stale, and counted so
                        HandSeat.objects.filter(hand=hand).update(facts={"v": 0})
                    hand.refresh_from_db()
                    done[step] += hand_reevaluate(hand=hand)
                elif step == "switch":
                    tournament_counting_set(
                        tournament=night,
                        counts_toward_standings=not night.counts_toward_standings,
                    )
                    done[step] += 1
                elif step == "date":
                    moved = rng.choice([d for d in days if d != night.date])
                    tournament_counting_set(tournament=night, date=moved)
                    done[step] += 1
    assert all(done.values()), done
    assert Tournament.objects.filter(league=league, status="finished").exists()
    # Every write to a running total ran inside a block, and there were writes to each.
    assert {table for table, _ in writes} == {
        "tracker_monthtally",
        "tracker_tournamenttally",
        "tracker_standingtally",
    }
    assert [w for w in writes if not w[1]] == []
    # The statistics: the running totals give what the seats give.
    assert as_rows(sel.tally_table(sel.month_tallies(league=league))) == as_rows(
        stats_table(sel.settled_seats(league=league))
    )
    for night in nights:
        assert as_rows(sel.tally_table(sel.tournament_tallies(tournament=night))) == as_rows(
            stats_table(sel.settled_seats(tournament=night))
        )
    # The league table: the running totals give the standings night by night.
    for key in ("all", "2026-Q1", "2026-Q2"):
        season = league_season(league, key)
        assert league_standings(league, season) == league_standings_definition(league, season)
    # And row by row, both equal a rebuild from the seats and the final standings.
    kept = snapshot(league)
    assert kept[0] and kept[2]
    assert MonthTally.objects.aggregate(Max("month"))["month__max"] >= dt.date(2026, 2, 1)
    stats_tallies_rebuild(league=league)
    standings_tallies_rebuild(league=league)
    assert same(kept, snapshot(league))
