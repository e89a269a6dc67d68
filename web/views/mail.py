"""The mail pages: one-click unsubscribe (RFC 8058) and the profile's mail choices."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods, require_POST

from tracker.engine.errors import DomainError
from tracker.mail.models import MailKind
from tracker.mail.services import mail_kinds_set, mail_unsubscribe, unsubscribe_read


# No CSRF token: the mail client's one-click POST (List-Unsubscribe-Post) carries none; the
# signed token in the address is the authority, and it can only turn one kind of mail off.
@csrf_exempt
@require_http_methods(["GET", "POST"])
def unsubscribe(request, token: str):
    """GET: a page with a button (a mail scanner following the link changes nothing);
    POST: the kind of mail the link names is turned off (from that page, or the mail
    client's one-click request)."""
    try:
        if request.method == "POST":
            _, kind = mail_unsubscribe(token=token)
            done = True
        else:
            _, kind = unsubscribe_read(token)
            done = False
    except DomainError as exc:
        return render(request, "mail/unsubscribe.html", {"error": exc.message}, status=400)
    return render(
        request,
        "mail/unsubscribe.html",
        {"kind_label": MailKind(kind).label, "done": done},
    )


@login_required
@require_POST
def mail_choices(request):
    """The profile's "Mail you receive" boxes: the ticked kinds stay on."""
    try:
        mail_kinds_set(user=request.user, kinds_on=request.POST.getlist("kinds"))
    except DomainError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Your mail choices are saved.")
    return redirect("profile")
