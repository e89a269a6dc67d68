"""One consistent read of a tournament: the detail's next hand and standings never disagree
about who is out, even when the worker settles a bust between two of the reads."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections
from rest_framework.test import APIClient

from tests.factories import ACES, KINGS, make_league, make_tournament, showdown_entry
from tracker.core import jobs, rows
from tracker.hands.models import Hand, HandStatus
from tracker.hands.services.recording import hand_record
from tracker.hands.services.settlement import tournament_settle
from tracker.tournaments import selectors

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_detail_is_one_snapshot_while_the_worker_settles_a_bust(monkeypatch):
    if connection.vendor != "postgresql":
        pytest.skip("a second connection settling meanwhile needs PostgreSQL")
    league, admin = make_league()
    tournament, _ = make_tournament(
        league=league, by=admin, default_variant="seven_card_stud", starting_chips=24
    )
    state = selectors.tournament_state(tournament)
    ann, bob, cat = (s.player_id for s in state.next_positions())
    monkeypatch.setattr(jobs, "send", lambda name, *args: None)  # the worker has not run yet
    # Ann and Bob go all in; Ann's aces beat Bob's kings: Bob is out.
    hand_record(
        tournament=tournament,
        by=admin,
        entry_mode="quick",
        entry=showdown_entry(tournament, [ACES, KINGS], 24),
    )
    assert Hand.objects.get(tournament=tournament).status == HandStatus.RECORDED

    # The worker settles the bust just after the detail has read the state of play (its one
    # read of the ledger), before the standings read the hands.
    original = rows.statements_read
    settled = []
    reader = threading.current_thread()

    def settle_in_another_connection():
        try:
            settled.append(tournament_settle(tournament_id=tournament.pk))
        finally:
            connections.close_all()

    def stacks_then_the_worker_settles(*args, **kwargs):
        stacks = original(*args, **kwargs)
        if threading.current_thread() is reader and not settled:
            worker = threading.Thread(target=settle_in_another_connection)
            worker.start()
            worker.join(timeout=60)
        return stacks

    monkeypatch.setattr(rows, "statements_read", stacks_then_the_worker_settles)
    api = APIClient()
    api.force_authenticate(admin)
    body = api.get(f"/api/v1/tournaments/{tournament.pk}/").json()
    assert settled == [1]  # the hand did settle in the middle of the read
    standings = {row["player"]: row for row in body["standings"]}
    dealt = body["next_hand"]["players"]
    marked_out = standings[bob]["out_hand"] is not None
    assert not (bob in dealt and marked_out), (dealt, standings[bob])
    assert bob not in dealt  # out for the next hand, whether or not settled yet
    assert sorted(dealt) == sorted([ann, cat])

    # Read again once settled: the same answer about the next hand, and now Bob is ranked out.
    monkeypatch.setattr(rows, "statements_read", original)
    body = api.get(f"/api/v1/tournaments/{tournament.pk}/").json()
    assert bob not in body["next_hand"]["players"]
    assert {row["player"]: row for row in body["standings"]}[bob]["out_hand"] == 1
