"""Account pages: sign-up (with the sign-up limits), the profile with the e-mail address and
the API tokens, and the e-mail verification link."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_http_methods, require_POST

from tracker.accounts.selectors import api_tokens_of, email_addresses_of
from tracker.accounts.services import (
    api_token_create,
    api_token_revoke,
    email_address_set,
    email_for_token,
    email_verification_resend,
    email_verify,
    user_signup,
)
from tracker.core.ratelimit import client_address, signup_attempted, signup_wait, too_many
from tracker.engine.errors import DomainError
from tracker.mail.models import MailKind
from tracker.mail.selectors import mail_kinds_on
from web.forms.accounts import EmailForm, SignupForm, TokenForm
from web.views import shown_once


def safe_next(request, fallback: str = "home") -> str:
    """The ``next`` address of the request if it is on this site, else ``fallback``."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if target and url_has_allowed_host_and_scheme(
        target, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return target
    return fallback


@require_http_methods(["GET", "POST"])
def signup(request):
    """Create an account (username, password twice, email optional) and log in with it."""
    next_url = safe_next(request)
    if request.user.is_authenticated:
        return redirect(next_url)
    form = SignupForm(request.POST or None)
    status = 200
    if request.method == "POST":
        address = client_address(request)
        wait = signup_wait(address)
        if wait:
            form.is_valid()
            form.add_error(None, too_many("Too many sign-ups from your address", wait))
            status = 429
        else:
            signup_attempted(address)
            if form.is_valid():
                try:
                    user = user_signup(
                        username=form.cleaned_data["username"],
                        password=form.cleaned_data["password1"],
                        email=form.cleaned_data["email"],
                        base_url=request.build_absolute_uri("/"),
                    )
                except DomainError as exc:
                    form.add_domain_error(exc)
                else:
                    login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
                    welcome = f"Welcome, {user.get_username()}."
                    if form.cleaned_data["email"]:
                        welcome += " To use your email address, open the link we mailed it."
                    messages.success(request, welcome)
                    return redirect(next_url)
            status = 400
    return render(
        request,
        "registration/signup.html",
        {"form": form, "next": request.POST.get("next") or request.GET.get("next", "")},
        status=status,
    )


def _profile(request, *, form=None, email_form=None, email_error="", status=200):
    tokens = list(api_tokens_of(request.user))
    addresses = email_addresses_of(request.user)
    kinds_on = mail_kinds_on(request.user)
    new_token, new_key = None, None
    if request.method == "GET":
        kept = shown_once.take(request, shown_once.TOKEN)
        if kept is not None:
            # Not if it was revoked meanwhile.
            new_token = next((t for t in tokens if t.pk == kept[0] and t.is_live), None)
            new_key = kept[1] if new_token is not None else None
    response = render(
        request,
        "registration/profile.html",
        {
            "tokens": tokens,
            "form": form or TokenForm(),
            "new_key": new_key,
            "new_token": new_token,
            "email_form": email_form or EmailForm(),
            "email_error": email_error,
            "verified_email": next((a for a in addresses if a.is_verified), None),
            "waiting_email": next((a for a in addresses if not a.is_verified), None),
            "mail_kinds": [(kind, label, kind in kinds_on) for kind, label in MailKind.choices],
        },
        status=status,
    )
    if new_key:
        shown_once.no_store(response)  # the key is the token's secret
    return response


@login_required
@require_http_methods(["GET"])
def profile(request):
    """The user's account: their e-mail address and its state (verified, or waiting with a
    "send the link again"), and their API tokens (label, created, last used, revoke); a token
    just made is shown once, here, right after the redirect from ``token_create``."""
    return _profile(request)


@login_required
@require_POST
def token_create(request):
    """A new token: a 303 to the profile, which shows its key once (it is not stored)."""
    form = TokenForm(request.POST)
    if form.is_valid():
        try:
            token, key = api_token_create(user=request.user, label=form.cleaned_data["label"])
        except DomainError as exc:
            form.add_domain_error(exc)
        else:
            return shown_once.keep_and_redirect(
                request, shown_once.TOKEN, pk=token.pk, secret=key, to=reverse("profile")
            )
    return _profile(request, form=form, status=400)


@login_required
@require_POST
def token_revoke(request, pk: int):
    token = api_token_revoke(user=request.user, token_id=pk)
    messages.success(request, f"The token “{token.label}” is revoked: it no longer works.")
    return redirect("profile")


@login_required
@require_POST
def email_set(request):
    """A new address, waiting for verification: its link is mailed; a 303 to the profile."""
    form = EmailForm(request.POST)
    if form.is_valid():
        try:
            email, sent = email_address_set(
                user=request.user,
                address=form.cleaned_data["email"],
                base_url=request.build_absolute_uri("/"),
            )
        except DomainError as exc:
            form.add_domain_error(exc)
        else:
            if sent:
                messages.success(
                    request, f"We mailed a link to {email.address}: open it to verify the address."
                )
            else:
                messages.warning(
                    request, f"{email.address} is kept, but no link could be sent to it now."
                )
            return redirect(reverse("profile"), permanent=False)
    return _profile(request, email_form=form, status=400)


@login_required
@require_POST
def email_resend(request):
    """The verification link again (within the allowance); a 303 to the profile."""
    try:
        email = email_verification_resend(
            user=request.user, base_url=request.build_absolute_uri("/")
        )
    except DomainError as exc:
        if exc.code == "not_found":
            raise
        status = 429 if exc.code == "throttled" else 400
        return _profile(request, email_error=exc.message, status=status)
    messages.success(request, f"We mailed the link to {email.address} again.")
    return redirect(reverse("profile"))


@require_http_methods(["GET", "POST"])
def email_verify_page(request, token: str):
    """The link from the verification mail: GET shows what it verifies, POST verifies (a mail
    scanner that opens links verifies nothing). No login needed: the link is the proof."""
    try:
        email = email_verify(token=token) if request.method == "POST" else email_for_token(token)
    except DomainError as exc:
        return render(request, "registration/email_verify.html", {"error": exc.message}, status=400)
    if request.method == "POST":
        messages.success(request, f"{email.address} is verified.")
    return render(request, "registration/email_verify.html", {"email": email})
