"""PHH uploads for the import tests: a file as the browser sends it, and where it goes."""

from __future__ import annotations

from django.core.files.uploadedfile import SimpleUploadedFile


def upload(name: str, text: str) -> SimpleUploadedFile:
    """``text`` as an uploaded PHH file called ``name``."""
    return SimpleUploadedFile(name, text.encode("utf-8"), content_type="application/x-phh")


def imports_url(tournament) -> str:
    """The imports endpoint of ``tournament``."""
    return f"/api/v1/tournaments/{tournament.pk}/imports/"
