"""Forms of the account pages: sign-up, a new e-mail address and a new API token."""

from __future__ import annotations

from django import forms

from tracker.engine.errors import DomainError
from web.errors import add_form_errors, field_route


class SignupForm(forms.Form):
    username = forms.CharField(
        max_length=150,
        widget=forms.TextInput(attrs={"autocomplete": "username", "autocapitalize": "off"}),
        help_text="Letters, digits and @ . + - _ only; not one that reads like another account’s.",
    )
    # Checked by the service (user_signup), with the username and password, all at once.
    email = forms.CharField(
        max_length=254,
        required=False,
        label="Email (optional)",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
        help_text="Only to reset a forgotten password, once verified: we mail you a link.",
    )
    password1 = forms.CharField(
        label="Password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
        help_text="At least 8 characters, not all digits, not a common password.",
    )
    password2 = forms.CharField(
        label="Password again",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self):
        cleaned = super().clean()
        one, two = cleaned.get("password1"), cleaned.get("password2")
        if one and two and one != two:
            self.add_error("password2", "The two passwords differ.")
        return cleaned

    def add_domain_error(self, exc: DomainError) -> None:
        add_form_errors(
            self,
            exc,
            [
                field_route(self, "username"),
                field_route(self, "email"),
                field_route(self, "password", "password1"),
            ],
        )


class TokenForm(forms.Form):
    label = forms.CharField(
        max_length=80,
        label="Label",
        help_text="What the token is for, e.g. “scoring laptop” or “league script”.",
    )

    def add_domain_error(self, exc: DomainError) -> None:
        add_form_errors(self, exc, [field_route(self, "label")])


class EmailForm(forms.Form):
    # Checked by the service (email_address_set).
    email = forms.CharField(
        max_length=254,
        label="New email address",
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
        help_text="We mail it a link; it is used once you have opened that link.",
    )

    def add_domain_error(self, exc: DomainError) -> None:
        add_form_errors(self, exc, [field_route(self, "email")])
