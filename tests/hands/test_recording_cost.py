"""What recording and settling a hand costs in queries, and recording while hands settle.

The query counts are bounds, and they must not grow with the hands recorded before: a hand
POST reads the tournament's state in three queries however long the night has run, and
settlement writes a batch of hands in a fixed number of statements.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.factories import fold_entry, make_league, make_tournament
from tests.support.recording import record
from tracker.accounts.services import api_token_create, api_token_used
from tracker.core import jobs
from tracker.hands.models import Hand, HandStatus
from tracker.hands.services import settlement
from tracker.hands.services.settlement import tournament_settle
from tracker.tournaments.models import LedgerEntry
from tracker.tournaments.selectors import tournament_stacks, tournament_state

# The POST /api/v1/hands/ of a quick entry, its transaction's BEGIN and COMMIT included:
# the token, the tournament with its league and the roles (one statement, read once for
# authorizing and recording), then in the transaction the locked tournament with the state of
# play's reads (one text: the seats, the hands not settled with the latest and the ledger
# sums), the hand, its seats and the audit entry. The answer (the hand and the next one) is
# built from what was written and the state of play in memory: nothing is read back.
# When no settlement of the tournament is queued, one more: the flag that sends one.
# Elsewhere than PostgreSQL the locked read's three statements run one by one: two more.
RECORD_QUERIES = {"postgresql": 8}.get(connection.vendor, 10)


@pytest.fixture
def night(monkeypatch):
    monkeypatch.setattr(jobs, "send", lambda name, *args: None)  # hands stay recorded
    league, admin = make_league()
    tournament, players = make_tournament(
        league=league, by=admin, default_variant="seven_card_stud"
    )
    return admin, tournament, players


def _post_hand(client, tournament) -> CaptureQueriesContext:
    body = {"tournament": tournament.pk, "entry_mode": "quick", "entry": fold_entry(tournament)}
    with CaptureQueriesContext(connection) as queries:
        response = client.post("/api/v1/hands/", body, format="json")
    assert response.status_code == 201, response.content
    return queries


def _client(user) -> APIClient:
    client = APIClient()
    token, key = api_token_create(user=user, label="bench")
    api_token_used(token)  # its once-an-hour "last used" write is not the hand's cost
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


@pytest.mark.django_db
def test_a_hand_post_costs_the_same_queries_after_one_hand_or_thirty(night):
    admin, tournament, _ = night
    client = _client(admin)
    early = _post_hand(client, tournament)
    for _ in range(28):
        record(tournament, admin, fold_entry(tournament))
    late = _post_hand(client, tournament)  # hand 30, with 29 recorded and none settled
    assert Hand.objects.filter(tournament=tournament, status=HandStatus.RECORDED).count() == 30
    # The first hand sent settlement (turning the flag on); with that task still queued (no
    # worker runs it here) hand 30 sends none and costs exactly that statement less.
    flags = [
        [q["sql"] for q in queries.captured_queries if q["sql"].startswith("UPDATE")]
        for queries in (early, late)
    ]
    assert len(flags[0]) == 1 and "settle_queued" in flags[0][0], flags
    assert flags[1] == [], flags
    assert len(early) == len(late) + 1, [q["sql"][:80] for q in late.captured_queries]
    assert len(late) <= RECORD_QUERIES, [q["sql"][:80] for q in late.captured_queries]


@pytest.mark.django_db
def test_the_state_of_play_is_two_statements_however_many_hands(night):
    admin, tournament, players = night
    for number in range(12):
        record(tournament, admin, fold_entry(tournament))
        if number == 5:
            tournament_settle(tournament_id=tournament.pk)  # some settled, some waiting
    with CaptureQueriesContext(connection) as queries:
        state = tournament_state(tournament)
    reads = [q for q in queries.captured_queries if q["sql"].startswith(("SELECT", "WITH"))]
    # The seats, then the hands not settled with the ledger sums: one round trip on
    # PostgreSQL (tracker.core.rows.statements_read), two queries elsewhere.
    assert len(reads) == (1 if connection.vendor == "postgresql" else 2), reads
    assert state.hands_recorded == 12 and state.next_number == 13 and state.pending == 6
    # The projection is the ledger plus the hands not yet settled, as settling them gives.
    projected = dict(state.stacks)
    tournament_settle(tournament_id=tournament.pk)
    assert tournament_stacks(tournament) == projected
    assert sum(projected.values()) == 1000 * len(players)


@pytest.mark.django_db
def test_settlement_writes_a_batch_in_statements_not_per_hand(night):
    admin, tournament, _ = night

    def settle(hands: int) -> int:
        for _ in range(hands):
            record(tournament, admin, fold_entry(tournament))
        with CaptureQueriesContext(connection) as queries:
            assert tournament_settle(tournament_id=tournament.pk) == hands
        return len(queries)

    assert settle(3) == settle(20)
    assert not Hand.objects.filter(tournament=tournament, status=HandStatus.RECORDED).exists()


@pytest.mark.django_db
def test_a_batch_settles_the_hands_before_an_invalid_one_and_stops_there(night):
    admin, tournament, players = night
    for _ in range(4):
        record(tournament, admin, fold_entry(tournament))
    # Hand 3 now says its first player put in more chips than the ledger leaves them.
    third = Hand.objects.get(tournament=tournament, number=3)
    short = third.positions[0]
    chips = tournament_stacks(tournament)[short] + third.projected_net_chips.get(short, 0)
    entry = third.entry
    entry["seats"][0]["put_in"] = chips + 500
    Hand.objects.filter(pk=third.pk).update(entry=entry)
    assert tournament_settle(tournament_id=tournament.pk) == 2
    status = dict(Hand.objects.filter(tournament=tournament).values_list("number", "status"))
    assert status == {
        1: HandStatus.VERIFIED,
        2: HandStatus.VERIFIED,
        3: HandStatus.INVALID,
        4: HandStatus.RECORDED,
    }
    assert not LedgerEntry.objects.filter(hand__number__gte=3, hand__tournament=tournament).exists()
    assert tournament_settle(tournament_id=tournament.pk) == 0  # the queue waits


@pytest.mark.django_db(transaction=True)
def test_a_hand_post_answers_while_a_settlement_is_in_progress(night, monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("concurrent transactions need PostgreSQL (SQLite serialises writers)")
    admin, tournament, _ = night
    record(tournament, admin, fold_entry(tournament))
    inside, release = threading.Event(), threading.Event()

    def slow():  # settlement pauses inside its transaction, after its writes
        inside.set()
        release.wait(timeout=60)

    monkeypatch.setattr(settlement, "_fault_delay", slow)
    settled: list[int] = []

    def settle():
        try:
            settled.append(tournament_settle(tournament_id=tournament.pk))
        finally:
            connection.close()

    settler = threading.Thread(target=settle)
    settler.start()
    statuses: list[int] = []
    try:
        assert inside.wait(timeout=60), "settlement did not start"
        body = {"tournament": tournament.pk, "entry_mode": "quick", "entry": fold_entry(tournament)}
        client = _client(admin)

        def post():
            try:
                statuses.append(client.post("/api/v1/hands/", body, format="json").status_code)
            finally:
                connection.close()

        poster = threading.Thread(target=post)
        poster.start()
        poster.join(timeout=30)  # a guard against a hang, not a timing: see the next line
        answered_during_settlement = not poster.is_alive() and not release.is_set()
    finally:
        release.set()
        settler.join(timeout=60)
    poster.join(timeout=60)
    assert answered_during_settlement, "the hand POST waited for the settlement to finish"
    assert statuses == [201]
    # The settlement went on to the hand recorded meanwhile (checked against the stacks
    # projected while hand 1 was settling) and settled both.
    assert settled == [2]
    numbers = dict(Hand.objects.filter(tournament=tournament).values_list("number", "status"))
    assert numbers == {1: HandStatus.VERIFIED, 2: HandStatus.VERIFIED}
    assert sum(tournament_stacks(tournament).values()) == 3000
