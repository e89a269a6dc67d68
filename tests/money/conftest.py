"""The money tests' fixtures: the worked examples of docs/money.md (tests/support/money.py)."""

from tests.support.money import example, night  # noqa: F401
