"""Named locks held until the end of the current transaction.

A row lock (``select_for_update``) serialises everything that locks that row. Some work needs
a lock of its own on a row's behalf, so as not to queue behind writers that lock the row for
another reason: settlement serialises per tournament with :func:`transaction_lock` and does not
take the tournament row lock that recording takes, so a hand is recorded while the hands before
it settle.

On PostgreSQL the lock is a transaction-level advisory lock (``pg_advisory_xact_lock``), released
at commit or rollback. SQLite lets one transaction write at a time, so there it is a no-op.
"""

from __future__ import annotations

from django.db import connection

# Namespaces, so that locks for different purposes on the same id never meet.
SETTLEMENT = 1


def transaction_lock(namespace: int, key: int) -> None:
    """Wait for, then hold until the transaction ends, the lock ``(namespace, key)``.

    Must be called inside ``transaction.atomic()``.
    """
    if not connection.in_atomic_block:
        raise RuntimeError("transaction_lock needs an open transaction")
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [(namespace << 48) | int(key)])
