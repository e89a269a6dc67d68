"""Celery workers of a test's own (never the machine's shared worker): started on the test
database, their output in a log file of the test's, stopped or killed by the test."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from django.db import connection

ROOT = Path(__file__).resolve().parents[1]


def database_url() -> str:
    """The URL of the test database this process works on (PostgreSQL), for a worker."""
    s = connection.settings_dict
    host, port = s["HOST"] or "127.0.0.1", s["PORT"] or 5432
    return f"postgres://{s['USER'] or 'postgres'}@{host}:{port}/{s['NAME']}"


def worker_spawn(
    name: str, log: Path, *, options: Sequence[str] = (), env: Mapping[str, str] | None = None
) -> subprocess.Popen:
    """Start ``celery -A homegame worker`` named ``name`` (made unique by this process id)
    on the test database, with ``options`` (a queue, a pool, beat) and ``env`` on top of this
    process's environment; its output goes to ``log``. It runs in a session of its own, so
    :func:`worker_stop` stops it with its pool processes."""
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "homegame",
            "worker",
            *options,
            "--without-gossip",
            "--without-mingle",
            "-n",
            f"{name}-{os.getpid()}@%h",
            "--loglevel=INFO",
        ],
        cwd=ROOT,
        env={**os.environ, "DATABASE_URL": database_url(), **(env or {})},
        stdout=log.open("w"),
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )


def worker_stop(process: subprocess.Popen, *, kill: bool = False) -> None:
    """Stop a worker (warm shutdown; killed if it takes over 20 s), or kill it at once."""
    if process.poll() is not None:
        return
    if not kill:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=20)
            return
        except subprocess.TimeoutExpired:
            pass
    os.killpg(process.pid, signal.SIGKILL)
    process.wait(timeout=30)
