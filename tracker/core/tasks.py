"""The worker health ping (tracker/core/health.py sends it when a broker is configured)."""

from __future__ import annotations

import os
import socket

from celery import shared_task


@shared_task(name="tracker.health_ping")
def health_ping(token: str) -> dict:
    """Answer a ping from whichever process runs the task (the worker, or in-process when eager)."""
    return {"token": token, "host": socket.gethostname(), "pid": os.getpid()}
