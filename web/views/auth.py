"""The login pages: the site's and the admin's, Django's with the sign-in limits (a locked
attempt answers 429 on both); the password reset page: Django's, mailing only verified
addresses, within its limits."""

from __future__ import annotations

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.shortcuts import redirect

from tracker.core.ratelimit import allowance_take, client_address, email_key, too_many
from web.forms.auth import (
    LimitedAdminAuthenticationForm,
    LimitedAuthenticationForm,
    VerifiedPasswordResetForm,
)


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


class PasswordResetView(auth_views.PasswordResetView):
    """Every request counts against its client address (PASSWORD_RESET_ADDRESS_LIMIT: past it,
    429 and the form) and against the address asked for (PASSWORD_RESET_EMAIL_LIMIT: past
    it, the same "check your email" answer and no mail), whether or not an account verified
    that address, so the answers tell nothing of which addresses have accounts. Within the
    limits the mail is only asked for (a task sends it after commit), the same work whether
    or not an account verified the address, so neither does the time an answer takes."""

    form_class = VerifiedPasswordResetForm

    def form_valid(self, form):
        window = settings.PASSWORD_RESET_WINDOW_SECONDS
        address = client_address(self.request)
        if not allowance_take(
            "reset-client", address, limit=settings.PASSWORD_RESET_ADDRESS_LIMIT, window=window
        ):
            form.add_error(None, too_many("Too many password resets from your address", window))
            response = self.form_invalid(form)
            response.status_code = 429
            return response
        if not allowance_take(
            "reset-email",
            email_key(form.cleaned_data["email"]),
            limit=settings.PASSWORD_RESET_EMAIL_LIMIT,
            window=window,
        ):
            return redirect(self.get_success_url())  # as if sent: nothing is
        form.save(base_url=self.request.build_absolute_uri("/"))  # mailed by a task
        return redirect(self.get_success_url())
