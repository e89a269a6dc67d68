"""PHH downloads as HTTP answers (the pages' links and the API's endpoints)."""

from __future__ import annotations

from django.http import HttpResponse

from tracker.interchange.selectors.export import MEDIA_TYPE, PHHExport


def phh_response(export: PHHExport) -> HttpResponse:
    """A PHH text as an ``application/x-phh`` attachment."""
    response = HttpResponse(export.text, content_type=f"{MEDIA_TYPE}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{export.filename}"'
    response["X-PHH-Hands"] = str(export.hands)
    if export.left_out:
        response["X-PHH-Left-Out"] = str(len(export.left_out))
    return response
