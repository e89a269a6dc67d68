"""Reads that must agree with each other: one snapshot of the database.

A page or an answer built from several queries (a tournament's ledger, its hands, its
standings) can otherwise see the worker's settlement commit between two of them: the
ledger from before a hand settled and the hands from after it. Inside ``read_snapshot()``
every query reads the database as of one moment: on PostgreSQL the block is one
``REPEATABLE READ, READ ONLY`` transaction; on SQLite one transaction is a snapshot already.
Inside a transaction the caller opened, its own isolation (and its locks) hold.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction


@contextmanager
def read_snapshot() -> Iterator[None]:
    if connection.in_atomic_block:
        yield
        return
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield
