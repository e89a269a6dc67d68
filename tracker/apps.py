from django.apps import AppConfig


class TrackerConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tracker"
    verbose_name = "Home game tracker"

    def ready(self) -> None:
        # Register every Celery task, so services can send them by name (tracker/core/jobs.py).
        from tracker import tasks  # noqa: F401
