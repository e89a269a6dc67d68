"""POST /api/v1/evaluate/: public, same JSON in and out as the engine, errors as 400 bodies."""

import pytest
from rest_framework.test import APIClient

from tests.factories import make_user

pytestmark = pytest.mark.django_db

URL = "/api/v1/evaluate/"
KINGS = {
    "variant": "kings_and_little_ones",
    "options": {"king_required": True},
    "players": [
        {"down": ["K♦", "4♣", "2♣"], "up": ["4♠", "7♥", "9♥", "J♦"]},
        {"down": ["3♦", "5♠", "5♥"], "up": ["7♣", "9♣", "10♣", "Q♦"]},
    ],
}


def test_anonymous_evaluation():
    r = APIClient().post(URL, KINGS, format="json")
    assert r.status_code == 200, r.content
    body = r.json()
    assert body["high_winners"] == [0] and body["low_winners"] == []
    hand = body["players"][0]["high"]
    assert hand["text"] == "four fours, jack kicker (K♦ as 4♥, 2♣ as 4♦)"
    assert hand["wild"] == [{"card": "Kd", "as": "4h"}, {"card": "2c", "as": "4d"}]
    assert body["players"][1]["high"]["category"] == "one_pair"


def test_logged_in_browser_session_needs_no_csrf_token():
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(make_user("ann"))
    r = client.post(URL, KINGS, format="json")
    assert r.status_code == 200, r.content


def test_bad_card_is_a_400_error_body():
    bad = {**KINGS, "players": [{"down": ["K♦", "Zz", "2♣"], "up": ["4♠", "7♥", "9♥", "J♦"]}]}
    r = APIClient().post(URL, bad, format="json")
    assert r.status_code == 400
    assert r.json() == {
        "error": {
            "code": "invalid_card",
            "message": "'Zz' is not a card",
            "fields": {"players[0].down[1]": ["'Zz' is not a card"]},
        }
    }


def test_duplicate_card_names_both_places():
    dup = {
        **KINGS,
        "players": [
            KINGS["players"][0],
            {"down": ["K♦", "5♠", "5♥"], "up": ["7♣", "9♣", "10♣", "Q♦"]},
        ],
    }
    r = APIClient().post(URL, dup, format="json")
    assert r.status_code == 400
    assert set(r.json()["error"]["fields"]) == {"players[0].down[0]", "players[1].down[0]"}


@pytest.mark.parametrize("body", [[1, 2], "text", {"variant": "razz", "players": []}])
def test_malformed_bodies(body):
    r = APIClient().post(URL, body, format="json")
    assert r.status_code == 400 and "error" in r.json()


def test_not_json():
    r = APIClient().post(URL, "{nope", content_type="application/json")
    assert r.status_code == 400 and "error" in r.json()


def test_get_is_not_allowed():
    assert APIClient().get(URL).status_code == 405


def test_schema_documents_the_endpoint():
    r = APIClient().get("/api/schema/", {"format": "json"})
    assert r.status_code == 200
    text = r.content.decode()
    assert "/api/v1/evaluate/" in text and "evaluate_showdown" in text
    # the example response is the engine's own answer to the example request
    assert "four fours, jack kicker" in text
