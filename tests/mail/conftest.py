"""The mail tests' fixtures: the deal example of docs/money.md and a Redis with workers of
the test's own (tests/support/)."""

from tests.support.money import night  # noqa: F401
from tests.support.outage import stack  # noqa: F401
