"""Fuzz the REST API from its own OpenAPI schema with schemathesis (slow and ``fuzz``: CI runs it
on PostgreSQL, in the stream of the worker and outage tests, after them).

Every operation of the schema gets generated requests, valid (positive) and invalid
(negative), sent in-process through Django's WSGI application with the API token of a
user who is the admin of one league and the authority of another, both with a tournament and a disputed pot. Part of the generated requests are
steered to real slugs and ids, so that requests reach the services and not only the 404s.

Asserted: no response is a server error (5xx), and a 2xx response conforms to the schema
(body and content type). The number of requests per operation and any 5xx are written to
test-artifacts/fuzz-report.json. Budget: ``FUZZ_EXAMPLES`` examples per operation and mode
(default 75), well under five minutes on two cores.
"""

from __future__ import annotations

import json
import os
import time
from collections import Counter, defaultdict

import pytest
import schemathesis
from django.core.cache import cache
from django.core.signals import got_request_exception, request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections, connection, transaction
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode, checks
from schemathesis.core.failures import FailureGroup

from api.throttles import WriteThrottle
from tests.factories import add_member, make_league, make_tournament, make_user
from tests.rulings.helpers import ACES, KINGS, showdown
from tracker.accounts.models import ApiToken
from tracker.accounts.services import api_token_create
from tracker.hands.services.recording import hand_record
from tracker.leagues.services import invite_create

pytestmark = [pytest.mark.slow, pytest.mark.fuzz, pytest.mark.django_db]

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "75"))
SERVER_CHECKS = [checks.not_a_server_error]
SCHEMA_CHECKS = [checks.response_schema_conformance, checks.content_type_conformance]


@pytest.fixture
def fuzz_world(settings, django_capture_on_commit_callbacks, monkeypatch):
    """Leagues to fuzz against, a token, and a WSGI app sharing the test's database."""
    settings.ALLOWED_HOSTS = ["localhost", "testserver"]
    monkeypatch.setattr(WriteThrottle, "rate", "100000/min", raising=False)
    cache.clear()
    # The test's transaction must survive each request: no closing of connections.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    fuzzer = make_user("fuzzer")
    own, _ = make_league(slug="fuzz", admin=fuzzer)
    ruled, owner = make_league(slug="fuzz-rob")
    add_member(ruled, "fuzzer-keeper", "scorekeeper")
    from tracker.leagues.models import Membership

    Membership.objects.create(league=ruled, user=fuzzer, role="authority")
    secret, _ = make_league(slug="fuzz-secret", public=False)
    ids = {
        "league": ["fuzz", "fuzz-rob", "fuzz-secret"],
        "tournament": [],
        "hand": [],
        "player": [],
        "invite": [],
        "token": [],
    }
    for league, by in ((own, fuzzer), (ruled, owner), (secret, None)):
        by = by or league.memberships.get(role="admin").user
        tournament, players = make_tournament(
            league=league, by=by, default_variant="seven_card_stud"
        )
        order = [s.player_id for s in tournament.seats.order_by("number")]
        with django_capture_on_commit_callbacks(execute=True):
            entry = showdown(tournament, [ACES, KINGS], 24)
            hand = hand_record(
                tournament=tournament,
                by=by,
                entry_mode="quick",
                entry=entry,
                table_result={"winners": [entry["seats"][1]["player"]]},
            )
        invite, invite_token = invite_create(league=league, role="member", single_use=False, by=by)
        ids["invite"].append(invite.pk)
        ids["token"].append(invite_token)
        ids["tournament"].append(tournament.pk)
        ids["hand"].append(hand.pk)
        ids["player"].extend(order)
    token, key = api_token_create(user=fuzzer, label="fuzz")
    yield {
        "token": key,
        "token_id": token.pk,
        "user_id": fuzzer.pk,
        "ids": ids,
        "app": get_wsgi_application(),
    }
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


def steer(case, choice: int, ids: dict) -> None:
    """Point part of the generated requests at real leagues, tournaments, hands and players."""
    if choice == 0:
        return
    pick = (choice - 1) % 3
    params = case.path_parameters or {}
    if "slug" in params:
        params["slug"] = ids["league"][pick]
    if "id" in params:
        path = case.operation.path
        kinds = {"tournaments": "tournament", "hands": "hand", "invites": "invite"}
        kind = next((k for part, k in kinds.items() if f"/{part}/" in path), None)
        if kind:
            params["id"] = ids[kind][pick]
        elif "/players/" in path:
            params["id"] = ids["player"][pick * 3]
    if "pk" in params:
        params["pk"] = ids["hand"][pick]
    body = case.body
    if isinstance(body, dict):
        if "league" in body:
            body["league"] = ids["league"][pick]
        if "tournament" in body:
            body["tournament"] = ids["tournament"][pick]
        if "hand" in body:
            body["hand"] = ids["hand"][pick]
        if "token" in body:
            body["token"] = ids["token"][pick]
        if "pot" in body and choice % 2:
            body["pot"] = 0
        if "players" in body and isinstance(body["players"], list):
            body["players"] = ids["player"][pick * 3 : pick * 3 + 3]
    query = case.query
    if isinstance(query, dict):
        for key in ("league", "league__slug"):
            if key in query:
                query[key] = ids["league"][pick]


def test_fuzz_every_operation(fuzz_world, artifacts_dir):
    world = fuzz_world
    schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", world["app"])
    headers = {"Authorization": f"Token {world['token']}"}
    requests: Counter[str] = Counter()
    statuses: dict[str, Counter[int]] = defaultdict(Counter)
    server_errors: list[dict] = []
    nonconforming: list[dict] = []
    unsatisfiable: list[str] = []
    started = time.monotonic()
    operations = [op.ok() for op in schema.get_all_operations()]

    exceptions: list[str] = []

    def remember(sender, request=None, **kwargs):
        import sys

        exc = sys.exc_info()[1]
        exceptions.append(f"{type(exc).__name__}: {exc}"[:500])

    got_request_exception.connect(remember)

    def fuzz(operation, mode) -> None:
        label = f"{operation.method.upper()} {operation.path}"

        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            derandomize=True,
            database=None,
            phases=[Phase.explicit, Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(case=operation.as_strategy(generation_mode=mode), choice=st.integers(0, 3))
        def run(case, choice):
            steer(case, choice, world["ids"])
            savepoint = transaction.savepoint()
            exceptions.clear()
            response = case.call(headers=headers)
            if response.status_code >= 500:
                # A failed statement aborts the transaction on PostgreSQL: undo this
                # request only, so the next ones still run (and count).
                transaction.savepoint_rollback(savepoint)
                connection.needs_rollback = False
            else:
                transaction.savepoint_commit(savepoint)
            if operation.path == "/api/v1/auth/token/":
                # Keep the fuzzer's token working (a DELETE revokes it; a POST rotates only
                # the "API sign-in" token).
                ApiToken.objects.filter(pk=world["token_id"]).update(revoked_at=None)
            requests[label] += 1
            statuses[label][response.status_code] += 1
            if response.status_code >= 500:
                server_errors.append(
                    {
                        "operation": label,
                        "mode": mode.value,
                        "status": response.status_code,
                        "exception": exceptions[-1] if exceptions else "",
                        "request": case.as_curl_command(headers=headers)[:2000],
                    }
                )
                return
            if 200 <= response.status_code < 300 and mode == GenerationMode.POSITIVE:
                try:
                    case.validate_response(response, checks=SCHEMA_CHECKS)
                except FailureGroup as exc:
                    nonconforming.append(
                        {
                            "operation": label,
                            "status": response.status_code,
                            "failures": [
                                f"{f.title}: {str(getattr(f, 'message', f))[:400]}"
                                for f in exc.exceptions
                            ][:3],
                        }
                    )

        try:
            run()
        except Unsatisfiable:  # e.g. no invalid request exists for an operation without input
            unsatisfiable.append(f"{label} ({mode.value})")

    try:
        for operation in operations:
            for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
                fuzz(operation, mode)
    finally:
        got_request_exception.disconnect(remember)

    report = {
        "operations": len(operations),
        "examples_per_operation_and_mode": EXAMPLES,
        "requests": sum(requests.values()),
        "requests_per_operation": dict(sorted(requests.items())),
        "statuses_per_operation": {k: dict(sorted(v.items())) for k, v in sorted(statuses.items())},
        "not_generated": unsatisfiable,
        "server_errors": server_errors,
        "nonconforming_responses": nonconforming,
        "seconds": round(time.monotonic() - started, 1),
    }
    (artifacts_dir / "fuzz-report.json").write_text(json.dumps(report, indent=2) + "\n")
    assert all(requests[f"{op.method.upper()} {op.path}"] for op in operations)
    assert not server_errors, json.dumps(server_errors[:5], indent=2)
    assert not nonconforming, json.dumps(nonconforming[:5], indent=2)
