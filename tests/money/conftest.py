"""The money tests' fixtures: a league with its roles and roster, and the worked examples of
docs/money.md (tests/support/money.py)."""

import pytest

from tests.factories import add_member, make_league
from tests.support.money import example, night  # noqa: F401
from tracker.leagues.services import player_create


@pytest.fixture
def league():
    """A league with an admin, a scorekeeper (sam), a member (jo) and three players."""
    league, admin = make_league(slug="friday")
    league.admin = admin
    league.scorekeeper = add_member(league, "sam", "scorekeeper")
    league.member = add_member(league, "jo", "member")
    league.roster = [player_create(league=league, name=n, by=admin) for n in ("Ann", "Bob", "Cat")]
    return league
