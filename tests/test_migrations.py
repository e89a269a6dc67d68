"""Migration 0012 moves the API tokens of the earlier one-per-user table over: same key,
stored as its digest, labelled "API sign-in". Migration 0018 stores each invite's token as
its digest: the links sent before keep working. Migration 0021 claims every existing
username (AccountName), the later of two colliding names left without a claim; 0022 makes every
typed address wait for verification."""

from __future__ import annotations

import datetime as dt
import hashlib

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

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


def test_invites_made_before_0018_keep_their_links_and_lose_their_plain_tokens():
    from django.test import Client

    before, after = (
        [("tracker", "0018_tournament_entrants")],
        [("tracker", "0019_invite_token_hash")],
    )
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    admin = old.get_model("auth", "User").objects.create(username="ann")
    league = old.get_model("tracker", "League").objects.create(name="Old", slug="old")
    tokens = ["oLd-LiNk-0123456789abcdefghijklmnopqrstu", "another-old-link-token"]
    for token in tokens:
        old.get_model("tracker", "Invite").objects.create(
            league_id=league.pk,
            role="member",
            token=token,
            single_use=False,
            expires_at=timezone.now() + dt.timedelta(days=3),
            created_by_id=admin.pk,
        )

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    rows = list(new.get_model("tracker", "Invite").objects.order_by("pk").values())
    assert [r["digest"] for r in rows] == [hashlib.sha256(t.encode()).hexdigest() for t in tokens]
    assert all("token" not in r for r in rows)
    for row in rows:
        assert not any(t in str(value) for t in tokens for value in row.values()), row

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # the latest
    # The old link still opens its invite, and is accepted.
    guest = get_user_model().objects.create_user(username="guest", password="x-long-pass")
    client = Client()
    client.force_login(guest)
    assert client.get(f"/invites/{tokens[0]}/").status_code == 200
    r = client.post(f"/invites/{tokens[0]}/")
    assert r.status_code == 302 and r["Location"] == "/leagues/old/"

    # Going back cannot bring the tokens back: each invite gets its digest, which no link
    # holds, so after going back and forth again the earlier links no longer open anything.
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    back = list(old.get_model("tracker", "Invite").objects.order_by("pk").values_list("token"))
    assert back == [(r["digest"],) for r in rows]
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # back to the latest
    assert client.get(f"/invites/{tokens[1]}/").status_code == 404


def test_0021_claims_every_existing_name_in_order_and_reports_a_collision(capsys):
    before, after = [("tracker", "0019_invite_token_hash")], [("tracker", "0021_account_names")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    User = old.get_model("auth", "User")
    rob, bill = User.objects.create(username="rob"), User.objects.create(username="bill")
    # Made before the rule: the same as rob ignoring case, and a look-alike of bill.
    big, bi11 = User.objects.create(username="ROB"), User.objects.create(username="bi11")

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    claims = dict(new.get_model("tracker", "AccountName").objects.values_list("pk", "canonical"))
    assert claims == {rob.pk: "rob", bill.pk: "bill", big.pk: None, bi11.pk: None}
    printed = capsys.readouterr().out
    assert "'ROB' collides with the earlier 'rob'" in printed
    assert "'bi11' collides with the earlier 'bill'" in printed

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # the latest
    from tracker.accounts.services import user_signup
    from tracker.core.errors import Conflict

    with pytest.raises(Conflict):  # ROB keeps no claim, and rob's still holds
        user_signup(username="Rob", password="a-long-pass-phrase")


def test_0022_makes_every_typed_address_wait_for_verification_and_back_restores_them():
    before, after = [("tracker", "0021_account_names")], [("tracker", "0022_email_addresses")]
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    User = old.get_model("auth", "User")
    ann = User.objects.create(username="ann", email="shared@example.org")
    bob = User.objects.create(username="bob", email="Shared@Example.org")  # the same one
    cy = User.objects.create(username="cy", email="")

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    new = executor.loader.project_state(after).apps
    rows = new.get_model("tracker", "EmailAddress").objects.order_by("user_id")
    assert [(r.user_id, r.address, r.canonical, r.verified_at) for r in rows] == [
        (ann.pk, "shared@example.org", "shared@example.org", None),
        (bob.pk, "Shared@Example.org", "shared@example.org", None),
    ]
    users = new.get_model("auth", "User").objects
    assert set(users.values_list("email", flat=True)) == {""}  # no mail until verified

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    emails = dict(old.get_model("auth", "User").objects.values_list("pk", "email"))
    assert emails == {ann.pk: "shared@example.org", bob.pk: "Shared@Example.org", cy.pk: ""}

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # the latest


OLD_STEPS = [  # a draft as the logger stored it before 0025: its steps
    {"kind": "deal", "seat": 0, "cards": [None, None, "2c"]},
    {"kind": "deal", "seat": 1, "cards": [None, None, "Kd"], "joined": True},
    {"kind": "deal", "seat": 2, "cards": [None, None, "Qh"], "joined": True},
    {"kind": "act", "seat": 0, "verb": "bring_in"},
    {"kind": "act", "seat": 1, "verb": "complete", "to": 20},
    {"kind": "act", "seat": 2, "verb": "fold"},
]
EVERY_KIND = [
    {"kind": "community", "cards": ["As"]},
    {"kind": "seventh", "seat": 1, "choice": "up"},
    {"kind": "seventh", "seat": 2, "choice": "down", "joined": True},
    {"kind": "buy", "seat": 0},
    {"kind": "show", "seat": 0, "cards": ["Ah", "Kc", "2c", "3d", "4h", "5s", "6c"]},
    {"kind": "muck", "seat": 1, "auto": True},
    {"kind": "declare", "seat": 2, "choice": "both"},
    {"kind": "act", "seat": 1, "verb": "raise", "to": 40},
]


def test_0025_turns_every_kind_of_step_into_its_event_and_back():
    import importlib

    from tracker.engine.events import event_from_json, event_to_json

    migration = importlib.import_module("tracker.migrations.0025_draft_events")
    for step in OLD_STEPS + EVERY_KIND:
        data = migration.event_of_step(step)
        marks = {k: data.pop(k) for k in ("auto", "joined") if k in data}
        assert event_to_json(event_from_json(data, n=3)) == data  # a well-formed event
        assert migration.step_of_event({**data, **marks}) == step


def test_drafts_logged_before_0026_go_on_as_events_and_back():
    from tests.factories import make_league, make_tournament
    from tracker.engine.phh import history_entry
    from tracker.hands.models import DraftHand
    from tracker.hands.selectors.live import draft_events, draft_state
    from tracker.hands.services.live import draft_start

    before, after = [("tracker", "0024_league_calendar")], [("tracker", "0025_draft_events")]
    league, admin = make_league()
    tournament, _ = make_tournament(
        league=league, by=admin, names=("Ann", "Bob", "Cat"), default_variant="seven_card_stud"
    )
    pk = draft_start(tournament=tournament, by=admin).pk
    executor = MigrationExecutor(connection)
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    old.get_model("tracker", "DraftHand").objects.filter(pk=pk).update(steps=OLD_STEPS)

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(after)
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # the latest
    draft = DraftHand.objects.get(pk=pk)
    assert draft.steps[4] == {"event": "complete", "seat": 1, "to": 20}
    assert draft.steps[1]["joined"] is True
    state = draft_state(draft)  # the machine replays the events
    assert state.next.seat == 0 and [o.verb.value for o in state.next.options][:2] == [
        "fold",
        "call",
    ]
    assert history_entry(draft_events(draft), n=3)["actions"] == [
        "d dh p1 ????2c", "d dh p2 ????Kd", "d dh p3 ????Qh", "p1 pb", "p2 cbr 20", "p3 f"
    ]  # fmt: skip

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    assert old.get_model("tracker", "DraftHand").objects.get(pk=pk).steps == OLD_STEPS
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())  # back to the latest
