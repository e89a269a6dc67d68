"""Migration 0012 moves the API tokens of the earlier one-per-user table over: same key,
stored as its digest, labelled "API sign-in"."""

from __future__ import annotations

import hashlib

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("tracker", "0011_membership_roles"), ("authtoken", "0004_alter_tokenproxy_options")]
AFTER = [("tracker", "0012_accounts_invites")]


def test_earlier_tokens_become_api_tokens_with_the_same_key():
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    user = old.get_model("auth", "User").objects.create(username="ann")
    key = "0123456789abcdef0123456789abcdef01234567"
    old.get_model("authtoken", "Token").objects.create(key=key, user_id=user.pk)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    (token,) = new.get_model("tracker", "ApiToken").objects.filter(user_id=user.pk)
    assert token.label == "API sign-in"
    assert token.digest == hashlib.sha256(key.encode()).hexdigest()
    assert not new.get_model("authtoken", "Token").objects.exists()

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # back to the latest
