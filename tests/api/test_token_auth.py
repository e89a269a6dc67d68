"""API token authentication: our tokens only, and "last used" written at most once an hour."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.factories import make_user
from tracker.accounts.models import ApiToken
from tracker.accounts.services import LAST_USED_RESOLUTION, api_token_create

pytestmark = pytest.mark.django_db


def _get(key: str) -> tuple[int, list[str]]:
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    with CaptureQueriesContext(connection) as captured:
        status = api.get("/api/v1/memberships/").status_code
    writes = [q["sql"] for q in captured.captured_queries if q["sql"].startswith("UPDATE")]
    return status, writes


def test_last_used_is_written_once_an_hour_at_most():
    token, key = api_token_create(user=make_user("ann"), label="laptop")
    status, writes = _get(key)  # never used: noted
    assert status == 200 and len(writes) == 1 and "last_used_at" in writes[0]
    first = ApiToken.objects.get(pk=token.pk).last_used_at
    assert first is not None

    status, writes = _get(key)  # again within the hour: a read writes nothing
    assert status == 200 and writes == []
    assert ApiToken.objects.get(pk=token.pk).last_used_at == first

    earlier = timezone.now() - LAST_USED_RESOLUTION - timedelta(seconds=1)
    ApiToken.objects.filter(pk=token.pk).update(last_used_at=earlier)
    status, writes = _get(key)  # noted over an hour ago: noted again
    assert status == 200 and len(writes) == 1
    assert ApiToken.objects.get(pk=token.pk).last_used_at > earlier


def test_a_key_of_the_old_token_table_is_refused():
    user = make_user("bob")
    old = Token.objects.create(user=user)  # the table migration 0012 emptied
    status, _ = _get(old.key)
    assert status == 401
    _, key = api_token_create(user=user, label="laptop")
    assert _get(key)[0] == 200
