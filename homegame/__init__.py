"""The homegame Django project. The Celery app loads with Django so shared tasks bind to it."""

from .celery import app as celery_app

__all__ = ("celery_app",)
