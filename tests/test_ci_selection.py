"""CI's PostgreSQL pass runs ``pytest --database-only`` (tests/conftest.py): the tests that
touch the database and every slow one; a test that touches no database ran in the SQLite pass."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def collected(*args: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return {line.split("::", 1)[1] for line in out.splitlines() if "::" in line}


def test_database_only_keeps_the_database_tests_and_the_slow_ones():
    files = ["tests/engine/test_oracle.py", "tests/test_migrations.py"]
    everything = collected(*files)
    kept = collected("--database-only", *files)
    # the pure engine's quick oracle run is left to the SQLite pass; its slow run stays
    assert "test_oracle_agrees_300" in everything
    assert "test_oracle_agrees_300" not in kept
    assert "test_oracle_agrees_10000" in kept
    # every migration test touches the database
    migrations = {name for name in everything if name.startswith("test_") and "oracle" not in name}
    assert migrations
    assert migrations <= kept
