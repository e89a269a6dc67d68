"""The mail tests' fixtures: a Redis with workers of the test's own (tests/support/)."""

from tests.support.outage import stack  # noqa: F401
