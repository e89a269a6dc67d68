"""A small league played through the services: five players, three finished tournaments
and one running, full histories (with all-ins) and quick entries in every variant."""

from __future__ import annotations

import datetime as dt
import random
from contextlib import contextmanager
from dataclasses import dataclass

import pytest
from django.db import transaction

from tests.factories import add_member, make_league, make_user
from tests.stats.seed import play
from tracker.hands.selectors import facts as facts_module
from tracker.hands.services.settlement import tournament_settle
from tracker.leagues.services import player_create
from tracker.tournaments.services import tournament_create


@pytest.fixture(autouse=True)
def _few_equity_samples(monkeypatch):
    """Monte Carlo all-ins with 400 runouts in tests (settlement uses 10,000)."""
    monkeypatch.setattr(facts_module, "EQUITY_SAMPLES", 400)


@dataclass
class World:
    league: object
    admin: object
    players: list
    tournaments: list
    member: object = None
    outsider: object = None

    def player(self, name):
        return next(p for p in self.players if p.name == name)


def build_league(*, slug="friday", public=True, seed=1, nights=3, hands=30, chips=300):
    league, admin = make_league(slug=slug, public=public)
    # One season for all time: the tables below hold every night whatever today's date.
    league.season_length = "all"
    league.save(update_fields=["season_length"])
    names = ("Ann", "Bob", "Cat", "Dan", "Eve")
    players = [player_create(league=league, name=n, by=admin) for n in names]
    rng = random.Random(seed)
    tournaments = []
    for k in range(nights + 1):
        seated = rng.sample(players, 4)
        t = tournament_create(
            league=league,
            name=f"Night {k + 1}",
            player_ids=[p.id for p in seated],
            by=admin,
            date=dt.date(2026, 10, 1) + dt.timedelta(days=7 * k),
            starting_chips=chips if k < nights else 1000,
        )
        play(t, admin, rng, hands=hands if k < nights else 6)
        tournaments.append(t)
    return World(league, admin, players, tournaments)


@contextmanager
def _kept_for_the_module(django_db_blocker):
    """Data built once for a test module, inside a transaction rolled back at the end
    (each test still runs in its own savepoint). Settlement runs directly, not on commit."""
    saved = facts_module.EQUITY_SAMPLES
    facts_module.EQUITY_SAMPLES = 400
    with django_db_blocker.unblock():
        with transaction.atomic():
            try:
                yield
            finally:
                transaction.set_rollback(True)
                facts_module.EQUITY_SAMPLES = saved


def _settle_all(w: World) -> World:
    for t in w.tournaments:
        tournament_settle(tournament_id=t.pk)
        t.refresh_from_db()
    return w


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    with _kept_for_the_module(django_db_blocker):
        yield _settle_all(build_league())


@pytest.fixture(scope="module")
def private_world(django_db_setup, django_db_blocker):
    with _kept_for_the_module(django_db_blocker):
        w = _settle_all(build_league(slug="secret", public=False, seed=2, nights=1, hands=12))
        w.member = add_member(w.league, "secret-member", "member")
        w.outsider = make_user("outsider")
        yield w
