"""The hands tests' fixtures: a night to record hands in, and a Redis with workers of the
test's own (tests/support/outage.py)."""

import pytest

from tests.factories import make_league, make_tournament
from tests.support.outage import stack  # noqa: F401


@pytest.fixture
def night():
    """A seven-card stud night of three (tests/factories.py) and its league and admin."""
    league, admin = make_league()
    tournament, players = make_tournament(
        league=league, by=admin, default_variant="seven_card_stud"
    )
    return league, admin, tournament, players
