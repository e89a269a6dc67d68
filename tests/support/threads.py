"""Calls made at the same moment, for the concurrency tests (PostgreSQL row locks)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection


def at_once(calls, *, barrier: bool = True, timeout: float | None = None) -> list:
    """Run each of ``calls`` in a thread of its own, released together by a barrier (unless
    ``barrier`` is false: the calls then meet where the test makes them wait); what each
    returned or raised (an ``Exception``), in the order they finished. Each thread closes
    its database connection."""
    gate = threading.Barrier(len(calls)) if barrier else None
    outcomes: list = []

    def run(call):
        if gate is not None:
            gate.wait()
        try:
            outcomes.append(call())
        except Exception as exc:  # noqa: BLE001 - the outcome is what is checked
            outcomes.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=timeout)
    return outcomes


def concurrent(what: str):
    """The marks of a test of concurrent writers (``what``, for the skip reason): a
    transaction of its own, and PostgreSQL only (SQLite serialises the whole database)."""

    def mark(test):
        test = pytest.mark.skipif(connection.vendor != "postgresql", reason=f"{what}: PostgreSQL")(
            test
        )
        return pytest.mark.django_db(transaction=True)(test)

    return mark
