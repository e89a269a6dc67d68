"""The Celery application.

Configured from Django settings (``CELERY_*``): JSON serialisation only,
late acknowledgement, prefetch 1 and time limits, so a worker killed in the
middle of a task leaves it to be delivered again. Without
``CELERY_BROKER_URL`` tasks run eagerly in-process.

A worker process keeps its database connection between tasks (``CELERY_DB_REUSE_MAX``,
``WORKER_DATABASE_CONN_MAX_AGE`` in homegame/settings.py): before each task Django drops it
if it is broken or too old, as it does before each web request.
"""

import os

from celery import Celery
from celery.signals import task_prerun, worker_init, worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "homegame.settings")

app = Celery("homegame")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


_in_worker = False


@worker_init.connect
@worker_process_init.connect
def _worker_keeps_connections(**_kwargs) -> None:
    """In a worker (its main process, and each pool process), database connections live
    ``WORKER_DATABASE_CONN_MAX_AGE`` seconds instead of closing after every task."""
    global _in_worker
    from django.conf import settings

    _in_worker = True
    for database in settings.DATABASES.values():
        database["CONN_MAX_AGE"] = settings.WORKER_DATABASE_CONN_MAX_AGE


@task_prerun.connect
def _drop_unusable_connections(task=None, **_kwargs) -> None:
    """Before a task in a worker: close a connection that is broken (the database restarted)
    or older than its maximum age, as Django does before a web request; the task opens a new
    one. Not for a task run eagerly inside the caller's transaction."""
    if not _in_worker or getattr(getattr(task, "request", None), "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()
