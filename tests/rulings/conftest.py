"""Fixtures for disputes, rulings and the audit log."""

from __future__ import annotations

import pytest
from django.core.cache import cache

from tests.rulings.helpers import disputed_hand, league_with_roles


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Rate-limit counters live in the cache: start every test with none."""
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def case(django_capture_on_commit_callbacks):
    """A disputed Kings and Little Ones pot in a league with every role (test_rulings.py has
    a natural stud case of its own)."""
    league, users = league_with_roles()
    tournament, hand, order = disputed_hand(
        league, users["admin"], django_capture_on_commit_callbacks, variant="kings_and_little_ones"
    )
    return {"league": league, "users": users, "hand": hand, "order": order, "t": tournament}
