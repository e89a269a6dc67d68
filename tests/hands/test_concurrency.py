"""Two clients recording the same hand number at the same moment (PostgreSQL row locks)."""

import pytest
from django.db import connection
from rest_framework.test import APIClient

from tests.factories import api_key, fold_entry, make_league, make_tournament
from tests.support.threads import at_once
from tracker.hands.models import Hand

pytestmark = pytest.mark.django_db(transaction=True)


def test_same_hand_number_at_once_one_201_one_409(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL (SQLite serialises the whole database)")
    from tracker.core import jobs

    monkeypatch.setattr(jobs, "send", lambda name, *args: None)  # no settlement
    league, admin = make_league()
    tournament, _ = make_tournament(league=league, by=admin, default_variant="seven_card_stud")
    token = api_key(admin)
    body = {
        "tournament": tournament.pk,
        "number": 1,
        "entry_mode": "quick",
        "entry": fold_entry(tournament),
    }
    # Two different hands for the same number (the same body twice with its key is a retry,
    # below).
    winner = body["entry"]["seats"][0]["player"]
    bodies = [body, {**body, "table_result": {"winners": [winner]}}]
    clients = []
    for _ in bodies:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {token}")
        clients.append(client)

    def posts(sent_bodies, **headers):
        calls = [
            lambda c=c, sent=sent: (
                c.post("/api/v1/hands/", sent, format="json", **headers).status_code
            )
            for c, sent in zip(clients, sent_bodies, strict=True)
        ]
        return at_once(calls, timeout=60)

    statuses = posts(bodies)
    assert sorted(statuses) == [201, 409]
    assert Hand.objects.filter(tournament=tournament).count() == 1
    # The same body sent twice at once with its Idempotency-Key: one records it, the other is
    # answered the first's response (the one replay mechanism); without a key the number
    # is taken: 409.
    body = {**body, "number": 2, "entry": fold_entry(tournament)}
    statuses = posts([body, body], HTTP_IDEMPOTENCY_KEY="hand-2")
    assert statuses == [201, 201]
    assert Hand.objects.filter(tournament=tournament).count() == 2
    body = {**body, "number": 3, "entry": fold_entry(tournament)}
    assert sorted(posts([body, body])) == [201, 409]
    assert Hand.objects.filter(tournament=tournament).count() == 3


def test_the_same_live_outbox_sent_twice_at_once_records_once(monkeypatch):
    """Two requests with the same outbox at the same moment: the draft's row lock makes the
    second see the first's client ids, so every change is applied once (no conflict)."""
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL (SQLite serialises the whole database)")
    import uuid

    from tracker.core import jobs
    from tracker.hands.models import DraftChange
    from tracker.hands.services.live import draft_start
    from tracker.hands.services.outbox import OutboxChange, outbox_apply

    monkeypatch.setattr(jobs, "send", lambda name, *args: None)  # no settlement
    league, admin = make_league()
    tournament, _ = make_tournament(league=league, by=admin, default_variant="seven_card_stud")
    draft = draft_start(tournament=tournament, by=admin)
    deals = tuple({"event": "deal", "seat": s, "cards": [None, None, c]}
                  for s, c in enumerate(("2c", "Kd", "Qh")))  # fmt: skip
    steps = [
        ("events", deals),
        ("events", ({"event": "bring_in", "seat": 0},)),
        ("events", ({"event": "fold", "seat": 1},)),
        ("events", ({"event": "fold", "seat": 2},)),
        ("finish", ()),
    ]
    outbox = [
        OutboxChange(client_id=uuid.uuid4(), draft=draft.pk, base=k, op=op, events=events)
        for k, (op, events) in enumerate(steps)
    ]

    def send():
        result = outbox_apply(tournament=tournament, by=admin, changes=outbox)
        return sorted(r.status for r in result.results)

    answers = at_once([send, send], timeout=60)
    assert sorted(answers) == [["already"] * 5, ["applied"] * 5]
    assert Hand.objects.filter(tournament=tournament).count() == 1
    assert DraftChange.objects.filter(draft=draft).count() == 5
