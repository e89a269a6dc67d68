"""Logging helpers for the settings' ``LOGGING``.

Production logs are JSON lines on stdout. A development run (``DEBUG`` on, ``make run``) logs
plain text and only what a person at the console wants: runserver's own line per request,
warnings and errors. In both, an answer the client caused (4xx: a 403 refusing a role, a
404) is logged without a traceback: it is not an error of the site.
"""

from __future__ import annotations

import logging


class ClientErrorsWithoutTraceback(logging.Filter):
    """Drop the traceback of a log record about a 4xx answer; keep its message and status.

    Django logs a ``PermissionDenied`` (403) or ``Http404`` with the exception attached
    (``django.utils.log.log_response``), which a formatter prints as a full traceback.

    >>> record = logging.LogRecord("django.request", logging.WARNING, "", 0, "Forbidden", (), None)
    >>> record.status_code, record.exc_info = 403, (PermissionError, PermissionError(), None)
    >>> ClientErrorsWithoutTraceback().filter(record), record.exc_info
    (True, None)
    """

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if isinstance(status, int) and 400 <= status < 500:
            record.exc_info = None
            record.exc_text = None
        return True


def logging_config(*, level: str, fmt: str) -> dict:
    """The ``LOGGING`` dict: ``fmt`` is ``json`` (production) or ``text`` (a development run,
    which also quiets the per-task lines and the 4xx warnings runserver already shows as
    request lines)."""
    formatters = {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "fmt": "%(asctime)s %(levelname)s %(name)s %(message)s",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
        "text": {"format": "%(levelname)s %(name)s: %(message)s"},
        # runserver's own request lines: [date] "GET / HTTP/1.1" 200 2257
        "server": {
            "()": "django.utils.log.ServerFormatter",
            "format": "[{server_time}] {message}",
            "style": "{",
        },
    }
    loggers: dict[str, dict] = {
        "django.db.backends": {"level": "WARNING"},
        # Django's own console handler would print its records a second time (root has ours).
        "django": {"handlers": [], "level": "INFO", "propagate": True},
    }
    handlers = {
        "stdout": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": fmt,
            "filters": ["client_errors"],
        },
    }
    if fmt == "text":
        handlers["server"] = {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": "server",
        }
        loggers.update(
            {
                "django.server": {"handlers": ["server"], "level": "INFO", "propagate": False},
                "celery": {"level": "WARNING"},  # one line per task succeeded otherwise
                "django.request": {"level": "ERROR"},  # 4xx: runserver prints the request line
                "django.utils.autoreload": {"level": "WARNING"},
                # Eager tasks without a broker: kombu says it falls back to localhost, unused.
                "kombu.connection": {"level": "ERROR"},
            }
        )
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"client_errors": {"()": "homegame.logs.ClientErrorsWithoutTraceback"}},
        "formatters": {k: v for k, v in formatters.items() if k == fmt or fmt == "text"},
        "handlers": handlers,
        "root": {"handlers": ["stdout"], "level": level},
        "loggers": loggers,
    }
