from django.urls import include, path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("leagues/<slug:slug>/", views.league, name="league"),
    path("players/<int:pk>/", views.player, name="player"),
    path("tournaments/<int:pk>/", views.tournament, name="tournament"),
    path("tournaments/<int:pk>/hands/new/", views.hand_new, name="hand-new"),
    path("hands/<int:pk>/", views.hand, name="hand"),
    path("hands/<int:pk>/void/", views.hand_void_page, name="hand-void"),
    path("calculator/", views.calculator, name="calculator"),
    path("", include("tracker.urls_phh")),
    path("", include("tracker.urls_rulings")),
    path("", include("tracker.urls_analytics")),
]
