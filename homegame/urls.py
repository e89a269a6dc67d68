from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from web.views.auth import LoginView, PasswordResetView

urlpatterns = [
    path("api/v1/", include("api.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("admin/", admin.site.urls),
    path("accounts/login/", LoginView.as_view(), name="login"),  # with the sign-in limits
    # Only verified addresses, within the reset limits.
    path("accounts/password_reset/", PasswordResetView.as_view(), name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("", include("web.urls")),
]

# Django's own error answers (api/middleware.py gives those under /api/ the API's body).
handler400 = "homegame.errors.bad_request"
handler404 = "homegame.errors.page_not_found"
handler500 = "homegame.errors.server_error"
