"""API tokens from a password: the "API sign-in" token, rotated at each sign-in, revocable.

``POST /api/v1/auth/token/`` with ``username`` and ``password`` returns a new token
labelled "API sign-in" and revokes the previous sign-in token, if any (tokens the user made
on their profile page, each with its own label, are not touched). ``DELETE
/api/v1/auth/token/`` revokes the token of the caller: it stops working at once. Both are in the audit log, naming the token by its
fingerprint only. Token requests have the sign-in limits of the login page
(tracker/accounts/signin.py: per username and address, per address, per username; a username
counted by its canonical form, as it signs in: ``bob`` is ``Bob``), apart from
the write allowance; a refused attempt answers 429 with ``Retry-After``. Revoking is a write.
"""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.db import transaction
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import TooMany
from api.serializers.rulings import TokenRequestSerializer, TokenSerializer
from api.views.core import WriteThrottled
from tracker.accounts.models import ApiToken
from tracker.accounts.names import canonical_username
from tracker.accounts.services import api_token_revoke, api_token_sign_in
from tracker.accounts.signin import sign_in_failed, sign_in_succeeded, sign_in_wait
from tracker.audit.services import audit_record


@transaction.atomic
def token_issue(*, user) -> tuple[ApiToken, str]:
    """A new "API sign-in" token for ``user`` (who gave their password); the previous
    sign-in token stops working (tokens made on the profile page are not touched)."""
    token, key, revoked = api_token_sign_in(user=user)
    audit_record(
        action="token.create",
        target=user,
        actor=user,
        channel="password",
        data={
            "token_id": token.fingerprint,
            "label": token.label,
            "revoked_token_id": revoked[0] if revoked else None,
        },
    )
    return token, key


def token_revoke(*, user, auth) -> bool:
    """Revoke the token this request was made with. Returns whether there was one (a
    request signed in with a session has none)."""
    if not isinstance(auth, ApiToken):
        return False
    api_token_revoke(user=user, token_id=auth.pk)
    return True


class TokenView(WriteThrottled, APIView):
    """Create, rotate or revoke your API token."""

    def get_permissions(self):
        if self.request.method == "POST":
            return [AllowAny()]
        return [IsAuthenticated()]

    def get_throttles(self):
        # Sign-in has its own limits (below), not the write allowance.
        return [] if self.request.method == "POST" else super().get_throttles()

    @extend_schema(request=TokenRequestSerializer, responses={201: TokenSerializer}, auth=[])
    def post(self, request):
        data = TokenRequestSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        username = data.validated_data["username"]
        counted = canonical_username(username)  # the limits' name for it
        wait = sign_in_wait(request._request, counted)
        if wait:
            raise TooMany("Too many failed sign-ins", wait)
        user = authenticate(
            request._request, username=username, password=data.validated_data["password"]
        )
        if user is None or not user.is_active:
            sign_in_failed(request._request, counted)
            raise AuthenticationFailed("wrong username or password")
        sign_in_succeeded(request._request, counted)
        token, key = token_issue(user=user)
        body = {
            "token": key,
            "token_id": token.fingerprint,
            "username": user.get_username(),
            "created": token.created_at,
        }
        return Response(TokenSerializer(body).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request):
        token_revoke(user=request.user, auth=request.auth)
        return Response(status=status.HTTP_204_NO_CONTENT)
