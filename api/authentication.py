"""API token authentication: ``Authorization: Token <key>``.

A key is looked up among the users' API tokens only (tracker/accounts: several per user, with
labels, stored as a SHA-256 digest; revoked ones refused). Django REST framework's own
one-per-user token table is not read: migration 0012 moved its tokens over, and nothing
makes new ones (``rest_framework.authtoken`` stays installed for that migration).

A token's use is noted (``last_used_at``) at most once per ``LAST_USED_RESOLUTION`` (an
hour): a request whose token was noted within the hour writes nothing, so reads stay reads.
"""

from __future__ import annotations

from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from tracker.accounts.selectors import api_token_for_key
from tracker.accounts.services import api_token_used


class ApiTokenAuthentication(TokenAuthentication):
    """DRF's header parsing (``Token <key>``), our tokens."""

    def authenticate_credentials(self, key):
        token = api_token_for_key(key)
        if token is None:
            raise AuthenticationFailed("Invalid token.")
        if not token.user.is_active:
            raise AuthenticationFailed("User inactive or deleted.")
        api_token_used(token)
        return token.user, token
