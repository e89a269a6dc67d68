"""API token authentication: ``Authorization: Token <key>``.

A key is looked up among the users' API tokens (tracker/accounts: several per user, with
labels, stored as a SHA-256 digest; revoked ones refused), and its use is noted (at most a
write a minute). A key of Django REST framework's own token table is accepted too: the
tokens made there before API tokens existed were moved over by migration 0012, and nothing
in the site makes new ones.
"""

from __future__ import annotations

from rest_framework.authentication import TokenAuthentication
from rest_framework.exceptions import AuthenticationFailed

from tracker.accounts.selectors import api_token_for_key
from tracker.accounts.services import api_token_used


class ApiTokenAuthentication(TokenAuthentication):
    def authenticate_credentials(self, key):
        token = api_token_for_key(key)
        if token is None:
            return super().authenticate_credentials(key)
        if not token.user.is_active:
            raise AuthenticationFailed("User inactive or deleted.")
        api_token_used(token)
        return token.user, token
