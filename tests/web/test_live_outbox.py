"""The live logger's JSON outbox (/tournaments/<id>/live/outbox/): session and CSRF like the
page's forms, each change applied once, the state answered, a conflict answered 409 with
both versions and settled through /live/resolve/; faults named in the site's error body."""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.middleware.csrf import _get_new_csrf_string, _mask_cipher_secret
from django.test import Client
from django.urls import reverse

from tests.factories import add_member, make_league, make_tournament
from tracker.engine.events import EVENT_TYPES
from tracker.hands.models import DraftHand, Hand
from tracker.hands.services.live import draft_start, draft_step

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    league, admin = make_league()
    tournament, _ = make_tournament(
        league=league, by=admin, names=("Ann", "Bob", "Cat"), default_variant="seven_card_stud"
    )
    client = Client(enforce_csrf_checks=True)
    client.force_login(admin)
    draft = draft_start(tournament=tournament, by=admin)
    return tournament, admin, client, draft


def send(client, tournament, body, *, path="live-outbox", csrf=True):
    headers = {}
    if csrf:
        secret = _get_new_csrf_string()
        client.cookies["csrftoken"] = secret
        headers["HTTP_X_CSRFTOKEN"] = _mask_cipher_secret(secret)
    return client.post(
        reverse(path, kwargs={"pk": tournament.pk}),
        json.dumps(body),
        content_type="application/json",
        **headers,
    )


def change(draft, base, op, events=(), **extra):
    return {"id": str(uuid.uuid4()), "draft": draft.pk, "base": base, "op": op,
            "events": list(events), **extra}  # fmt: skip


def hand(draft):
    """A whole hand as taps: the street by its events, the bets as the page's forms."""
    deals = [{"event": "deal", "seat": s, "cards": [None, None, c]}
             for s, c in enumerate(("2c", "Kd", "Qh"))]  # fmt: skip
    return [
        change(draft, 0, "events", deals),
        change(draft, 1, "act", form={"op": "act", "seat": "0", "verb": "bring_in"}),
        change(draft, 2, "act", form={"op": "act", "seat": "1", "verb": "complete"}),
        change(draft, 3, "events", [{"event": "fold", "seat": 2}]),
        change(draft, 4, "events", [{"event": "fold", "seat": 0}]),
        change(draft, 5, "finish", form={"op": "finish"}),
    ]


def test_the_outbox_answers_the_state_and_a_resend_records_once(table):
    tournament, _, client, draft = table
    page = client.get(reverse("live-hand", kwargs={"pk": tournament.pk})).content.decode()
    assert 'rel="manifest"' in page and "js/logger.js" in page  # the app, with JavaScript
    assert f'data-outbox-url="{reverse("live-outbox", kwargs={"pk": tournament.pk})}"' in page
    first = send(client, tournament, {"changes": hand(draft)[:2]})
    assert first.status_code == 200, first.content
    body = first.json()
    assert [r["status"] for r in body["results"]] == ["applied", "applied"]
    state = body["state"]
    # Only what the phone redraws from: the page's draft section, its draft and version.
    assert set(state) == {"draft", "number", "version", "status", "html"}
    assert state["version"] == 2 and state["draft"] == draft.pk
    html = state["html"]
    assert 'data-testid="live-prompt"' in html and "Cat to act" in html
    verbs = re.findall(r'name="verb" value="(\w+)"', html)
    assert verbs == ["fold", "call", "complete"]
    assert re.search(r'<span class="bet">10</span>', html)  # Ann's bring-in on the table
    assert 'name="csrfmiddlewaretoken"' in html  # the forms post without JavaScript too


def test_a_whole_hand_sent_twice_and_reversed_makes_one_hand(table):
    tournament, _, client, draft = table
    outbox = hand(draft)
    answer = send(client, tournament, {"changes": outbox[::-1]})
    assert answer.status_code == 200, answer.content
    results = {r["id"]: r for r in answer.json()["results"]}
    finish = results[outbox[-1]["id"]]
    assert finish["status"] == "applied" and finish["hand_url"].endswith(f"/{finish['hand']}/")
    assert answer.json()["state"] is None  # no hand open now
    again = send(client, tournament, {"changes": outbox})
    assert [r["status"] for r in again.json()["results"]] == ["already"] * 6
    assert again.json()["results"][-1]["hand"] == finish["hand"]
    assert Hand.objects.filter(tournament=tournament).count() == 1


def test_a_conflict_is_409_with_both_versions_then_resolved(table):
    tournament, admin, client, draft = table
    outbox = hand(draft)
    send(client, tournament, {"changes": outbox[:2]})
    draft.refresh_from_db()
    draft_step(draft=draft, by=admin, version=2, events=[EVENT_TYPES["fold"](1)])  # other phone
    answer = send(client, tournament, {"changes": outbox[2:]})
    assert answer.status_code == 409
    body = answer.json()
    assert body["error"]["code"] == "draft_conflict" and "changes" in body["error"]["fields"]
    (conflict,) = body["conflicts"]
    assert conflict["base"] == 2 and conflict["server_version"] == 3
    assert conflict["yours"] == [c["id"] for c in outbox[2:]]
    assert conflict["server"]["version"] == 3 and "Cat folds" in conflict["server"]["log"][-1]
    resolve = {"draft": draft.pk, "keep": "mine", "server_version": 3, "changes": outbox[2:]}
    kept = send(client, tournament, resolve, path="live-resolve")
    assert kept.status_code == 200, kept.content
    assert [r["status"] for r in kept.json()["results"]] == ["applied"] * 4
    again = send(client, tournament, resolve, path="live-resolve")  # the choice re-sent
    assert again.status_code == 409 and again.json()["error"]["code"] == "stale_draft"
    assert Hand.objects.filter(tournament=tournament).count() == 1


def test_keep_theirs_drops_mine(table):
    tournament, admin, client, draft = table
    outbox = hand(draft)
    send(client, tournament, {"changes": outbox[:2]})
    draft_step(draft=draft, by=admin, version=2, events=[EVENT_TYPES["fold"](1)])
    resolve = {"draft": draft.pk, "keep": "theirs", "server_version": 3, "changes": outbox[2:]}
    answer = send(client, tournament, resolve, path="live-resolve")
    assert [r["status"] for r in answer.json()["results"]] == ["dropped"] * 4
    assert answer.json()["state"]["version"] == 3
    assert not Hand.objects.exists()


def test_without_the_csrf_token_nothing_is_applied(table):
    tournament, _, client, draft = table
    answer = send(client, tournament, {"changes": hand(draft)[:1]}, csrf=False)
    assert answer.status_code == 403
    assert DraftHand.objects.get(pk=draft.pk).version == 0


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"changes": "x"}, "changes"),
        ({"changes": [{"id": "nope", "draft": 1, "base": 0, "op": "undo"}]}, "changes[0].id"),
        ({"changes": [{"id": str(uuid.uuid4()), "draft": 1, "base": -1, "op": "undo"}]},
         "changes[0].base"),
        ({"changes": [{"id": str(uuid.uuid4()), "draft": 1, "base": 0, "op": "events",
                       "events": []}]}, "changes[0].events"),
    ],
)  # fmt: skip
def test_a_malformed_batch_is_refused_naming_the_field(table, body, field):
    tournament, _, client, draft = table
    answer = send(client, tournament, body)
    assert answer.status_code == 400
    assert field in answer.json()["error"]["fields"]
    assert DraftHand.objects.get(pk=draft.pk).version == 0


def test_an_event_the_machine_refuses_is_named_and_the_rest_kept(table):
    tournament, _, client, draft = table
    outbox = hand(draft)
    wrong = change(draft, 1, "events", [{"event": "call", "seat": 1}])
    answer = send(client, tournament, {"changes": [outbox[0], wrong]})
    assert answer.status_code == 200
    first, refused = answer.json()["results"]
    assert first["status"] == "applied"
    assert refused["status"] == "refused" and refused["error"]["code"] == "out_of_turn"
    assert answer.json()["state"]["version"] == 1


def test_a_member_is_refused_with_the_error_body(table):
    tournament, _, _, draft = table
    member = Client(enforce_csrf_checks=True)
    member.force_login(add_member(tournament.league, "jo", "member"))
    answer = send(member, tournament, {"changes": hand(draft)[:1]})
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "permission_denied"
    malformed = send(member, tournament, {"changes": "x"})  # authorized before it is read
    assert malformed.status_code == 403
    anonymous = send(Client(enforce_csrf_checks=True), tournament, {"changes": []})
    assert anonymous.status_code == 403
    assert DraftHand.objects.get(pk=draft.pk).version == 0


def test_a_change_costs_the_same_queries_early_and_late_in_a_hand(table):
    """One change of events sent alone: the roles read once (authorizing, then the
    services), the draft locked once (by the outbox, not again by the service), no
    savepoint of the outbox's own around the service's, the answer's draft the one the
    service returned (not read again); as many queries at the last change as at the
    first."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    tournament, _, client, draft = table
    counts, roles, locks = [], [], []
    taps = [("bring_in", 0), ("complete", 1), ("fold", 2), ("fold", 0)]
    outbox = hand(draft)[:1] + [
        change(draft, k + 1, "events", [{"event": verb, "seat": seat}])
        for k, (verb, seat) in enumerate(taps)
    ]
    for k, one in enumerate(outbox):
        with CaptureQueriesContext(connection) as queries:
            answer = send(client, tournament, {"changes": [one]})
        assert answer.status_code == 200, answer.content
        assert answer.json()["results"][0] == {
            "id": one["id"],
            "status": "applied",
            "version": k + 1,
        }
        counts.append(len(queries))
        locks.append(sum("FOR UPDATE" in q["sql"] for q in queries.captured_queries))
        roles.append(
            sum(
                q["sql"].startswith('SELECT "tracker_membership"."role"')
                for q in queries.captured_queries
            )
        )
    assert roles == [1] * 5
    if connection.features.has_select_for_update:  # PostgreSQL: SQLite locks the database
        assert locks == [1] * 5, locks
    assert counts == [counts[0]] * 5 and counts[0] <= 13, counts


def json_script(page: str, name: str):
    opening = f'id="{name}" type="application/json">'
    start = page.index(opening) + len(opening)
    return json.loads(page[start : page.index("</script>", start)])


def test_a_hand_started_on_the_phone_from_the_pages_night_is_answered_with_its_draft(table):
    from tracker.engine.screen import phone_next_hand, phone_replay

    tournament, _, client, draft = table
    page = client.get(reverse("live-hand", kwargs={"pk": tournament.pk})).content.decode()
    night, setup = json_script(page, "phone-night"), json_script(page, "phone-setup")
    assert [s["name"] for s in night["seats"]] == ["Ann", "Bob", "Cat"]
    assert night["schedule"][0] == [4, 10, 20, 40] and night["hand_limit"] == 50
    first = hand(draft)  # logged on the phone, as the engine replays it there
    steps = json.loads(phone_replay(json.dumps(setup), "[]", json.dumps(first)))["steps"]
    nxt = json.loads(phone_next_hand(json.dumps(night), json.dumps(setup), json.dumps(steps)))
    start = {"id": str(uuid.uuid4()), "draft": None, "base": 0, "op": "start",
             "hand": nxt["setup"]}  # fmt: skip
    bring_in = {"id": str(uuid.uuid4()), "draft": None, "start": start["id"], "base": 0,
                "op": "events", "events": [{"event": "deal", "seat": s, "cards": [None, None, c]}
                                           for s, c in enumerate(("3c", "Kd", "Qh"))]}  # fmt: skip
    answer = send(client, tournament, {"changes": [*first, start, bring_in]})
    assert answer.status_code == 200, answer.content
    body = answer.json()
    second = DraftHand.objects.get(number=2)
    assert body["results"][6] == {"id": start["id"], "status": "applied", "version": 0,
                                  "draft": second.pk}  # fmt: skip
    assert body["results"][7]["status"] == "applied"
    assert body["state"]["draft"] == second.pk and body["state"]["version"] == 1
    assert second.starting_stacks == nxt["setup"]["stacks"]


def test_a_start_without_its_hand_is_refused_naming_it(table):
    tournament, _, client, _ = table
    start = {"id": str(uuid.uuid4()), "draft": None, "base": 0, "op": "start"}
    answer = send(client, tournament, {"changes": [start]})
    assert answer.status_code == 400
    assert "changes[0].hand" in answer.json()["error"]["fields"]
    start["hand"] = {"number": 2, "level": 1, "variant": "seven_card_stud", "positions": 7,
                     "stacks": [], "stakes": {}}  # fmt: skip
    answer = send(client, tournament, {"changes": [start]})
    assert answer.status_code == 400
    assert "changes[0].hand.positions" in answer.json()["error"]["fields"]
    orphan = {"id": str(uuid.uuid4()), "draft": None, "base": 0, "op": "events",
              "events": [{"event": "fold", "seat": 0}]}  # fmt: skip
    answer = send(client, tournament, {"changes": [orphan]})
    assert answer.status_code == 400
    assert "changes[0].draft" in answer.json()["error"]["fields"]


def test_the_night_asked_again_is_the_servers_and_only_for_its_scorekeepers(table):
    tournament, admin, client, draft = table
    address = reverse("live-night", kwargs={"pk": tournament.pk})
    page = client.get(reverse("live-hand", kwargs={"pk": tournament.pk})).content.decode()
    answer = client.get(address, {"draft": draft.pk})
    assert answer.status_code == 200 and answer.json() == json_script(page, "phone-night")
    assert answer.json()["number"] == 1 and answer.json()["bought"] == {}
    missing = client.get(address, {"draft": "nine"})
    assert missing.status_code == 404 and missing.json()["error"]["fields"] == {
        "draft": [missing.json()["error"]["message"]]
    }
    keeper = Client()  # no CSRF check: a POST is refused as a POST
    keeper.force_login(admin)
    assert keeper.post(address, {"draft": draft.pk}).status_code == 405
    member = add_member(tournament.league, "night-member", "member")
    other = Client()
    other.force_login(member)
    assert other.get(address, {"draft": draft.pk}).status_code == 403
    assert Client().get(address, {"draft": draft.pk}).status_code == 403
