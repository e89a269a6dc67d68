"""The login pages: the site's and the admin's, Django's with the sign-in limits (a locked
attempt answers 429 on both)."""

from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views

from web.forms.auth import LimitedAdminAuthenticationForm, LimitedAuthenticationForm


class LoginView(auth_views.LoginView):
    form_class = LimitedAuthenticationForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.locked:
            response.status_code = 429
        return response


class AdminSite(admin.AdminSite):
    """The admin site (``web.apps.AdminConfig`` makes it ``admin.site``): its login form has
    the sign-in limits, the same counters as the login page, and a locked attempt answers 429
    as there."""

    login_form = LimitedAdminAuthenticationForm

    def login(self, request, extra_context=None):
        response = super().login(request, extra_context)
        form = (getattr(response, "context_data", None) or {}).get("form")
        if getattr(form, "locked", False):
            response.status_code = 429
        return response
