"""A game night's settings are one frozen TournamentSettings: tournament_create takes it, or
its fields as keywords, never both (both databases)."""

from __future__ import annotations

import dataclasses

import pytest

from tests.factories import make_league
from tracker.engine.errors import DomainError
from tracker.leagues.services import player_create
from tracker.tournaments.services import TournamentSettings, tournament_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    league, admin = make_league(slug="friday")
    league.admin = admin
    league.roster = [player_create(league=league, name=n, by=admin) for n in ("Ann", "Bob")]
    return league


def test_settings_create_the_same_night_as_their_fields(league):
    ids = [p.id for p in league.roster]
    settings = TournamentSettings(name="N", player_ids=ids, hand_limit=20, first_dealer=ids[1])
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.name = "M"  # type: ignore[misc]
    by_settings = tournament_create(league=league, by=league.admin, settings=settings)
    by_fields = tournament_create(
        league=league, by=league.admin, name="N", player_ids=ids, hand_limit=20, first_dealer=ids[1]
    )
    for t in (by_settings, by_fields):
        assert (t.hand_limit, t.first_dealer_seat, t.name) == (20, 1, "N")


def test_settings_are_checked_naming_the_field(league):
    settings = TournamentSettings(name="N", player_ids=[p.id for p in league.roster], seating="x")
    with pytest.raises(DomainError) as err:
        tournament_create(league=league, by=league.admin, settings=settings)
    assert "seating" in err.value.fields


def test_settings_or_their_fields_not_both(league):
    settings = TournamentSettings(name="N", player_ids=[p.id for p in league.roster])
    with pytest.raises(TypeError):
        tournament_create(league=league, by=league.admin, settings=settings, name="M")
