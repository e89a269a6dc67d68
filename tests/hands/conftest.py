"""The hands tests' fixtures: a Redis with workers of the test's own (tests/support/outage.py)."""

from tests.support.outage import stack  # noqa: F401
