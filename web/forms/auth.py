"""The login form, with the sign-in limits of tracker/accounts/signin.py; the password reset
form, which asks the accounts service for the mail (verified addresses only, sent by a
task)."""

from __future__ import annotations

from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, PasswordResetForm
from django.core.exceptions import ValidationError

from tracker.accounts.names import canonical_username
from tracker.accounts.services import password_reset_ask
from tracker.accounts.signin import sign_in_failed, sign_in_succeeded, sign_in_wait
from tracker.core.ratelimit import too_many
from tracker.engine.errors import Code


class SignInLimits:
    """For a Django login form: a locked username or address is refused before any
    password is checked, and every wrong password is counted. A username is counted by its
    canonical form, as it signs in (``Bob``, ``bob`` and ``ＢＯＢ`` are one username)."""

    locked = False

    def clean(self):
        username = canonical_username(self.cleaned_data.get("username") or "")
        password = self.cleaned_data.get("password")
        wait = sign_in_wait(self.request, username)
        if wait:
            self.locked = True
            raise ValidationError(too_many("Too many failed sign-ins", wait), code=Code.LOCKED)
        try:
            cleaned = super().clean()
        except ValidationError:
            if username and password:
                sign_in_failed(self.request, username)
            raise
        if username and password:
            sign_in_succeeded(self.request, username)
        return cleaned


class LimitedAuthenticationForm(SignInLimits, AuthenticationForm):
    """The login page's form."""


class LimitedAdminAuthenticationForm(SignInLimits, AdminAuthenticationForm):
    """The admin site's login form: the same limits (the same counters)."""


class VerifiedPasswordResetForm(PasswordResetForm):
    """Django's reset form (its address field); saving asks ``password_reset_ask`` for the
    mail, which goes after commit from a task, and only to the accounts that verified the
    address: the request does the same work whether or not one did."""

    def save(self, *, base_url: str) -> None:  # type: ignore[override]
        password_reset_ask(address=self.cleaned_data["email"], base_url=base_url)
