"""A secret shown once, after a redirect (Post/Redirect/Get).

The page that makes an invite link or an API token answers its POST with a 303 back to
itself; the new secret waits in the session meanwhile, one per kind, with the id of the
invite or token it belongs to (and the league, for an invite). The GET that follows takes it
out of the session, so a reload shows it no more and makes nothing new. Sessions are kept
server side (Django's database sessions): the cookie holds only the session's key. A secret
not shown within ``KEEP_SECONDS`` (the redirect was never followed) is dropped unseen.
"""

from __future__ import annotations

import time

from django.shortcuts import redirect

INVITE = "shown_once.invite"
TOKEN = "shown_once.token"
KEEP_SECONDS = 300


def keep_and_redirect(request, kind: str, *, pk: int, secret: str, to: str, **where):
    """Keep ``secret`` (of the object ``pk``) for the next page, then redirect (303) to ``to``.

    ``where`` names the page that may show it (``league=<slug>`` for an invite); a newer
    secret of the same kind replaces an older one not yet shown."""
    request.session[kind] = {
        "pk": pk,
        "secret": secret,
        "until": time.time() + KEEP_SECONDS,
        **where,
    }
    response = redirect(to)
    response.status_code = 303  # See Other: the browser fetches the page with a GET
    return response


def take(request, kind: str, **where) -> tuple[int, str] | None:
    """The (object id, secret) kept for this page, taken out of the session: None if there is
    none, if it was kept for another page or if it waited longer than ``KEEP_SECONDS`` (then
    it is dropped all the same)."""
    kept = request.session.pop(kind, None)
    if not isinstance(kept, dict) or kept.get("until", 0) < time.time():
        return None
    if any(kept.get(name) != value for name, value in where.items()):
        return None
    return kept.get("pk"), kept.get("secret")


def no_store(response):
    """No cache (the browser's included) keeps this answer: it shows a secret."""
    response["Cache-Control"] = "no-store"
    return response
