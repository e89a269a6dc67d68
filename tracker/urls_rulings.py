"""Pages of disputes, rulings and the audit log (included from tracker/urls.py)."""

from django.urls import path

from . import views_rulings as views

urlpatterns = [
    path("leagues/<slug:slug>/disputes/", views.disputes, name="disputes"),
    path("leagues/<slug:slug>/audit/", views.audit, name="audit"),
    path("hands/<int:pk>/pots/<int:index>/rule/", views.ruling_new, name="ruling-new"),
    path("hands/<int:pk>/pots/<int:index>/dispute/", views.dispute_new, name="dispute-new"),
]
