"""Reads about hand-history imports (for the tournament page and the API)."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from tracker.interchange.models import ImportFile, ImportJob
from tracker.leagues.selectors.visibility import tournaments_visible_to
from tracker.tournaments.models import Tournament


def _with_files(jobs: QuerySet[ImportJob]) -> QuerySet[ImportJob]:
    files = ImportFile.objects.order_by("index")
    return jobs.select_related("created_by").prefetch_related(Prefetch("files", queryset=files))


def tournament_imports(tournament: Tournament, limit: int = 10) -> list[ImportJob]:
    """The latest imports into a tournament, newest first, with their files (not their text)."""
    return list(
        _with_files(ImportJob.objects.filter(tournament=tournament)).order_by("-id")[:limit]
    )


def imports_visible_to(user) -> QuerySet[ImportJob]:
    """Imports into the tournaments the user can see."""
    return _with_files(
        ImportJob.objects.filter(tournament__in=tournaments_visible_to(user))
    ).order_by("-id")
