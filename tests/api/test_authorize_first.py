"""Authorize before validating: a caller without the right to a write gets 403 whatever
their body holds, never a 400 that tells them about the body."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from tests.factories import add_member, make_league, make_tournament

pytestmark = pytest.mark.django_db

BAD = {"nonsense": [1, 2, 3], "entry": "not an entry", "reason": ""}


@pytest.fixture
def world():
    league, admin = make_league(slug="authz")
    tournament, players = make_tournament(league=league, by=admin)
    member = add_member(league, "plain-member", "member")
    client = APIClient()
    client.force_authenticate(member)
    return league, tournament, client, admin


def forbidden(response):
    assert response.status_code == 403, response.content[:300]
    assert response.json()["error"]["code"] == "permission_denied"


def test_points_formula_put_by_a_member_is_403_not_400(world):
    league, _, client, _ = world
    url = f"/api/v1/analytics/leagues/{league.slug}/points-formula/"
    forbidden(client.put(url, {"kind": "no-such-kind", "points": "x"}, format="json"))


def test_house_rules_put_by_a_member_is_403(world):
    league, _, client, _ = world
    forbidden(client.put(f"/api/v1/leagues/{league.slug}/house-rules/", BAD, format="json"))


def test_writes_naming_the_league_in_the_body(world):
    league, tournament, client, admin = world
    forbidden(client.post("/api/v1/hands/", {**BAD, "tournament": tournament.pk}, format="json"))
    forbidden(client.post("/api/v1/tournaments/", {**BAD, "league": league.slug}, format="json"))
    forbidden(client.post("/api/v1/players/", {**BAD, "league": league.slug}, format="json"))
    forbidden(client.post("/api/v1/memberships/", {**BAD, "league": league.slug}, format="json"))
    forbidden(client.post("/api/v1/reevaluations/", {**BAD, "league": league.slug}, format="json"))


def test_void_imports_disputes_and_rulings(world, django_capture_on_commit_callbacks):
    from tests.factories import fold_entry
    from tracker.hands.services.recording import hand_record

    league, tournament, client, admin = world
    with django_capture_on_commit_callbacks(execute=True):
        hand = hand_record(
            tournament=tournament,
            by=admin,
            entry_mode="quick",
            entry=fold_entry(tournament),
            variant="seven_card_stud",
        )
    forbidden(client.post(f"/api/v1/hands/{hand.pk}/void/", {}, format="json"))
    forbidden(client.post("/api/v1/rulings/", {**BAD, "hand": hand.pk}, format="json"))
    forbidden(client.post(f"/api/v1/tournaments/{tournament.pk}/imports/", {}, format="multipart"))
    forbidden(
        client.post(
            f"/api/v1/tournaments/{tournament.pk}/imports/",
            {"files": [SimpleUploadedFile("x.txt", b"\x00\x01")]},
            format="multipart",
        )
    )


def test_the_right_role_still_gets_the_400(world):
    league, tournament, _, admin = world
    client = APIClient()
    client.force_authenticate(admin)
    url = f"/api/v1/analytics/leagues/{league.slug}/points-formula/"
    assert client.put(url, {"kind": "no-such-kind"}, format="json").status_code == 400
    response = client.post("/api/v1/hands/", {"tournament": tournament.pk}, format="json")
    assert response.status_code == 400
