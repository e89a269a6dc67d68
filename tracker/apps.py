from django.apps import AppConfig


class TrackerConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tracker"
    verbose_name = "Home game tracker"

    def ready(self) -> None:
        # Register every Celery task, so services can send them by name (tracker/core/jobs.py).
        from tracker import tasks  # noqa: F401

        # Every account's name claimed for the uniqueness rules (tracker/accounts/names.py).
        from tracker.accounts import signals  # noqa: F401

        # The league money ledger posts each finished night's results (tracker/money/receivers.py).
        from tracker.money import receivers  # noqa: F401
