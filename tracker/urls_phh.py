"""PHH downloads and the page upload (included from tracker/urls.py)."""

from django.urls import path

from . import views_phh

urlpatterns = [
    path("hands/<int:pk>/download.phh", views_phh.hand_download, name="hand-phh-download"),
    path(
        "tournaments/<int:pk>/download.phhs",
        views_phh.tournament_download,
        name="tournament-phh-download",
    ),
    path(
        "leagues/<slug:slug>/download.phhs",
        views_phh.league_download,
        name="league-phh-download",
    ),
    path("tournaments/<int:pk>/imports/", views_phh.tournament_import, name="tournament-import"),
]
