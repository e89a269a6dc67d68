"""PHH uploads for the import tests: a file as the browser sends it, where it goes, and a
job's run cut short by a lost database connection."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import OperationalError

from tracker.interchange.services.imports import phh_import_run


def upload(name: str, text: str) -> SimpleUploadedFile:
    """``text`` as an uploaded PHH file called ``name``."""
    return SimpleUploadedFile(name, text.encode("utf-8"), content_type="application/x-phh")


def imports_url(tournament) -> str:
    """The imports endpoint of ``tournament``."""
    return f"/api/v1/tournaments/{tournament.pk}/imports/"


def run_until_connection_lost(job, *, at: int) -> None:
    """Run the import ``job`` until the database connection is lost as its progress reaches
    ``at`` hands (inside the transaction that imports the next); the error propagates, and
    ``job`` is read again as the crash left it."""

    def connection_lost(done, total):
        if done == at:
            raise OperationalError("server closed the connection unexpectedly")

    with pytest.raises(OperationalError):
        phh_import_run(job_id=job.pk, progress=connection_lost)
    job.refresh_from_db()
