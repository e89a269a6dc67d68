"""The login page: Django's, with the sign-in limits (a locked attempt answers 429)."""

from __future__ import annotations

from django.contrib.auth import views as auth_views

from web.forms.auth import LimitedAuthenticationForm


class LoginView(auth_views.LoginView):
    form_class = LimitedAuthenticationForm

    def form_invalid(self, form):
        response = super().form_invalid(form)
        if form.locked:
            response.status_code = 429
        return response
