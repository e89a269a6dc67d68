"""Hands of a league's house games recorded through ``POST /api/v1/hands/`` for the tests:
``world`` is a test's dict of its league's ``api`` client, ``tournament`` and ``capture``
(``django_capture_on_commit_callbacks``)."""

from __future__ import annotations

from tracker.hands.models import Hand, HandStatus
from tracker.tournaments.selectors import tournament_state


def post(world, body, *, settle=True):
    body = {"tournament": world["tournament"].pk, **body}
    if not settle:
        return world["api"].post("/api/v1/hands/", body, format="json")
    with world["capture"](execute=True):
        return world["api"].post("/api/v1/hands/", body, format="json")


def positions(world):
    return [s.player_id for s in tournament_state(world["tournament"]).next_positions()]


def stakes(world):
    return tournament_state(world["tournament"]).next_stakes


def recorded(world, game, mode, entry) -> Hand:
    """The hand of ``game`` (a slug) posted by ``mode`` with ``entry``: recorded (201),
    settled and verified."""
    r = post(world, {"game": game, "entry_mode": mode, "entry": entry})
    assert r.status_code == 201, r.json()
    hand = Hand.objects.get(pk=r.json()["id"])
    assert hand.status == HandStatus.VERIFIED, hand.status_reason
    return hand
