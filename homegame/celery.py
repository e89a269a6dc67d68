"""The Celery application.

Configured from Django settings (``CELERY_*``): JSON serialisation only,
late acknowledgement, prefetch 1 and time limits, so a worker killed in the
middle of a task leaves it to be delivered again. Without
``CELERY_BROKER_URL`` tasks run eagerly in-process.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "homegame.settings")

app = Celery("homegame")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
