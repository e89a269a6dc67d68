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


@pytest.fixture
def settle(django_capture_on_commit_callbacks):
    """Run the on-commit settlement of everything recorded inside the block."""
    return lambda: django_capture_on_commit_callbacks(execute=True)
