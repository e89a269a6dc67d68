"""Routes of the statistics pages and their CSV exports (included by tracker/urls.py)."""

from django.urls import path

from . import views_analytics as views

urlpatterns = [
    path("leagues/<slug:slug>/table/", views.league_table, name="league-table"),
    path("leagues/<slug:slug>/table.csv", views.league_table_csv, name="league-table-csv"),
    path("leagues/<slug:slug>/stats/", views.league_stats, name="league-stats"),
    path("leagues/<slug:slug>/stats.csv", views.league_stats_csv, name="league-stats-csv"),
    path("players/<int:pk>/stats/", views.player_stats, name="player-stats"),
    path("players/<int:pk>/stats.csv", views.player_stats_csv, name="player-stats-csv"),
    path("players/<int:pk>/hands.csv", views.player_hands_csv, name="player-hands-csv"),
    path("tournaments/<int:pk>/stats/", views.tournament_stats, name="tournament-stats"),
    path("tournaments/<int:pk>/stats.csv", views.tournament_stats_csv, name="tournament-stats-csv"),
    path("tournaments/<int:pk>/hands.csv", views.tournament_hands_csv, name="tournament-hands-csv"),
]
