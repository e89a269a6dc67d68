"""API tokens: one per user, created (or rotated) with a password, revocable.

``POST /api/v1/auth/token/`` with ``username`` and ``password`` returns a new token and
revokes the previous one, if any. ``DELETE /api/v1/auth/token/`` revokes the token of the
caller: it stops working at once. Both are in the audit log, naming the token by its
fingerprint only. Token requests have the sign-in limits of the login page
(tracker/core/ratelimit.py: per username and address, per address, per username), apart from
the write allowance; a refused attempt answers 429 with ``Retry-After``. Revoking is a write.
"""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.db import transaction
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.authtoken.models import Token
from rest_framework.exceptions import AuthenticationFailed, Throttled
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from api.serializers.rulings import TokenRequestSerializer, TokenSerializer
from api.views.core import WriteThrottled
from tracker.audit.services import audit_record, token_fingerprint
from tracker.core.ratelimit import client_address, login_failed, login_succeeded, login_wait


@transaction.atomic
def token_issue(*, user) -> Token:
    """A new token for ``user`` (who gave their password); the previous one stops working."""
    old = Token.objects.select_for_update().filter(user=user).first()
    old_id = token_fingerprint(old.key) if old else ""
    if old is not None:
        old.delete()
    token = Token.objects.create(user=user)
    audit_record(
        action="token.create",
        target=user,
        actor=user,
        channel="password",
        data={"token_id": token_fingerprint(token.key), "revoked_token_id": old_id or None},
    )
    return token


@transaction.atomic
def token_revoke(*, user) -> bool:
    """Revoke ``user``'s token. Returns whether there was one."""
    old = Token.objects.select_for_update().filter(user=user).first()
    if old is None:
        return False
    old_id = token_fingerprint(old.key)
    old.delete()
    audit_record(action="token.revoke", target=user, actor=user, data={"token_id": old_id})
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
        address = client_address(request)
        wait = login_wait(username, address)
        if wait:
            raise Throttled(wait=wait, detail="too many failed sign-ins; try again later")
        user = authenticate(
            request._request, username=username, password=data.validated_data["password"]
        )
        if user is None or not user.is_active:
            login_failed(username, address)
            raise AuthenticationFailed("wrong username or password")
        login_succeeded(username, address)
        token = token_issue(user=user)
        body = {
            "token": token.key,
            "token_id": token_fingerprint(token.key),
            "username": user.get_username(),
            "created": token.created,
        }
        return Response(TokenSerializer(body).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request):
        token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)
