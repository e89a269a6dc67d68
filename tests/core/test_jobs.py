"""Services send tasks by name through tracker/core/jobs.py: every name they send is a
registered task."""

from __future__ import annotations

import re
from pathlib import Path

from homegame.celery import app

ROOT = Path(__file__).resolve().parents[2] / "tracker"


def test_every_task_name_enqueued_by_a_service_is_registered():
    sent = set()
    for path in ROOT.rglob("*.py"):
        text = path.read_text()
        sent |= set(re.findall(r'enqueue_on_commit\(\s*"([a-z_.]+)"', text))
        sent |= set(re.findall(r'^[A-Z_]+_TASK = "([a-z_.]+)"', text, flags=re.M))
    assert sent >= {
        "tracker.tournament_settle",
        "tracker.reevaluation_run",
        "tracker.phh_import_run",
    }
    assert sent <= set(app.tasks)
