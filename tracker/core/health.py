"""Health of the service's dependencies, for /healthz and the container health checks."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from kombu import Connection


def _check_database() -> dict:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception as exc:  # any driver error means "down"
        # The error's class only: its text may name hosts, ports or users.
        return {"status": "down", "error": type(exc).__name__}
    return {"status": "up", "vendor": connection.vendor}


def _check_broker() -> dict:
    if not settings.CELERY_BROKER_URL:
        return {"status": "not_configured", "mode": "eager"}
    try:
        # A fresh connection to the configured broker, not one from Celery's pool.
        with Connection(settings.CELERY_BROKER_URL, connect_timeout=2) as conn:
            conn.ensure_connection(max_retries=1, timeout=2)
    except Exception as exc:  # connection refused, DNS, auth: all "down"
        return {"status": "down", "error": type(exc).__name__}
    return {"status": "up"}


def system_health() -> dict:
    """Status of the database and, when configured, the broker.

    ``ok`` is true when every configured dependency is up. A check that failed names the
    error's class only, never its message (which may hold hosts, ports or users).
    """
    checks = {"database": _check_database(), "broker": _check_broker()}
    ok = all(c["status"] in ("up", "not_configured") for c in checks.values())
    return {"status": "ok" if ok else "degraded", "checks": checks}
