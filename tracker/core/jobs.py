"""The one way services hand work to the worker: by task name, after the transaction commits.

Services never import tasks (tasks import services): they call
``enqueue_on_commit("tracker.tournament_settle", tournament_id)`` and the task registered
under that name (tracker/<feature>/tasks.py) is sent once the surrounding transaction
commits, or at once outside a transaction. With no broker configured Celery runs it eagerly
in-process.

``TRANSIENT`` is the tuple of errors a task retries (the database or the broker going away);
services that must tell a transient failure from a real one import it from here too.
"""

from __future__ import annotations

from celery import current_app
from django.db import InterfaceError, OperationalError, transaction

TRANSIENT = (OperationalError, InterfaceError, ConnectionError)


def enqueue_on_commit(task_name: str, *args) -> None:
    """Send the task ``task_name`` with ``args`` when the current transaction commits."""
    transaction.on_commit(lambda: send(task_name, *args))


def send(task_name: str, *args):
    """Send a registered task by name now (``delay``, so eager mode runs it in-process)."""
    return current_app.tasks[task_name].delay(*args)
