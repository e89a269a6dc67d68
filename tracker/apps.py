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

        _running_totals_register()


def _running_totals_register() -> None:
    """The running totals every chip- or statistic-moving write keeps in step
    (tracker/core/totals.py), in the order they apply: the statistics', then the league
    table's."""
    from tracker.core.totals import totals_keeper_register
    from tracker.stats.services import StatisticsTotals
    from tracker.tournaments.services import StandingTotals

    totals_keeper_register(StatisticsTotals())
    totals_keeper_register(StandingTotals())
