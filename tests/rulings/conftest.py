"""Fixtures for disputes, rulings and the audit log."""

from __future__ import annotations

import pytest
from django.core.cache import cache


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    """Rate-limit counters live in the cache: start every test with none."""
    cache.clear()
    yield
    cache.clear()
