"""REST API routes under /api/v1/."""

from django.urls import path

from api.views.meta import ApiRoot

urlpatterns = [
    path("", ApiRoot.as_view(), name="api-root"),
]
