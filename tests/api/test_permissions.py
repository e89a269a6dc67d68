"""The permission matrix: every role against every write of the API and of the pages.

Roles: anonymous, member, scorekeeper, authority, admin of the league, and ``other``
(the admin of another league). Each write runs against a fresh league (public, then
private) with a tournament and a disputed hand. ``ALLOWED`` is the whole matrix, kept in
step with docs/rulings.md; a write operation in the OpenAPI schema that is not in it fails
the coverage test, so a new endpoint cannot ship without its row.

Outcomes: an allowed write succeeds (2xx; a page write redirects to its result); a
refused one is 401 (API, anonymous), a redirect to the login page or a 403 (page,
anonymous), or 403; in a private league, outsiders (anonymous and ``other``) get 404 wherever the league
is named, exactly as if it did not exist.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.utils import timezone

from tests.factories import add_member, make_league, make_user
from tests.rulings.helpers import ACES, KINGS, api_client, disputed_hand, showdown
from tracker.games.services import league_game_create
from tracker.hands.models import Hand, HandStatus
from tracker.leagues.models import League, Player
from tracker.leagues.services import invite_create
from tracker.money.models import MoneyLedgerEntry, NightMoney, SettleTransfer
from tracker.money.services import entry_record
from tracker.schedule.services import night_check_in, night_schedule
from tracker.tournaments.selectors import tournament_state

pytestmark = pytest.mark.django_db

ROLES = ["anonymous", "member", "scorekeeper", "authority", "admin", "other"]
PASSWORD = "pw-for-tests-only"

EVERYONE = set(ROLES) - {"anonymous"}
MEMBERS = {"member", "scorekeeper", "authority", "admin"}
RECORDERS = {"scorekeeper", "admin"}

# operation -> the roles allowed (for the league named in the request).
ALLOWED = {
    "league_create": EVERYONE,
    "player_create": RECORDERS,
    "role_grant": {"admin"},
    "role_revoke": {"admin"},
    "player_link": RECORDERS,
    "invite_create": {"admin"},
    "invite_revoke": {"admin"},
    "invite_accept": EVERYONE,
    "tournament_create": RECORDERS,
    "hand_record": RECORDERS,
    "import_upload": RECORDERS,
    "reevaluation_start": {"admin", "authority"},
    "hand_void": {"admin", "authority"},
    "dispute_raise": MEMBERS,
    "ruling_make": {"authority"},
    "house_rules_set": {"authority", "admin"},
    "points_formula_set": {"admin", "authority"},
    "token_create": EVERYONE,
    "token_revoke": EVERYONE,
    "league_money_set": {"admin"},
    "entry_record": RECORDERS,
    "entry_undo": RECORDERS,
    "night_schedule": RECORDERS,
    # For a roster player not linked to the caller (their own: any roster player's account).
    "night_answer": RECORDERS,
    "night_edit": RECORDERS,
    "night_cancel": RECORDERS,
    "night_check_in": RECORDERS,
    "night_check_out": RECORDERS,
    "night_start": RECORDERS,
    # (a transfer's payer and payee mark their own too: tests/money/test_results.py)
    "transfer_mark_paid": {"admin"},
    "deal_record": {"admin"},
    "ledger_correction": {"admin"},
    # (a transfer's payer and payee record their own too: tests/money/test_ledger.py)
    "ledger_payment": {"admin"},
    "league_game_create": {"admin"},
    "league_game_update": {"admin"},
    "league_game_archive": {"admin"},
}
# operations that do not name a league: being an outsider changes nothing
# (an invite's token is the key to its league, private or not)
NOT_LEAGUE_SCOPED = {"league_create", "token_create", "token_revoke", "invite_accept"}

PAGES_ALLOWED = {
    "page_hand_entry": RECORDERS,
    "page_ruling": {"authority"},
    "page_dispute": MEMBERS,
    "page_import": RECORDERS,
    "page_points_formula": {"admin", "authority"},
    "page_hand_void": {"admin", "authority"},
    "page_player_add": RECORDERS,
    "page_player_link": RECORDERS,
    "page_roles": {"admin"},
    "page_invite": {"admin"},
    "page_house_rules": {"authority", "admin"},
    "page_entry": RECORDERS,
    "page_league_money": {"admin"},
    "page_night_schedule": RECORDERS,
    "page_night_edit": RECORDERS,
    "page_night_cancel": RECORDERS,
    "page_night_check_in": RECORDERS,
    "page_transfer_paid": {"admin"},  # and the transfer's payer and payee
    "page_ledger_paid": {"admin"},  # and the transfer's payer and payee
    "page_ledger_correction": {"admin"},
    "page_game_new": {"admin"},
    "page_game_edit": {"admin"},
    "page_game_archive": {"admin"},
}

# (path, method) of every write in the schema, and the operation of the matrix covering it.
SCHEMA_WRITES = {
    ("/api/v1/leagues/", "post"): "league_create",
    ("/api/v1/players/", "post"): "player_create",
    ("/api/v1/memberships/", "post"): "role_grant",
    ("/api/v1/memberships/{id}/", "delete"): "role_revoke",
    ("/api/v1/players/{id}/link/", "post"): "player_link",
    ("/api/v1/invites/", "post"): "invite_create",
    ("/api/v1/invites/{id}/revoke/", "post"): "invite_revoke",
    ("/api/v1/invites/accept/", "post"): "invite_accept",
    ("/api/v1/tournaments/", "post"): "tournament_create",
    ("/api/v1/hands/", "post"): "hand_record",
    ("/api/v1/tournaments/{id}/imports/", "post"): "import_upload",
    ("/api/v1/reevaluations/", "post"): "reevaluation_start",
    ("/api/v1/hands/{id}/void/", "post"): "hand_void",
    ("/api/v1/disputes/", "post"): "dispute_raise",
    ("/api/v1/rulings/", "post"): "ruling_make",
    ("/api/v1/leagues/{slug}/house-rules/", "put"): "house_rules_set",
    ("/api/v1/analytics/leagues/{slug}/points-formula/", "put"): "points_formula_set",
    ("/api/v1/auth/token/", "post"): "token_create",
    ("/api/v1/auth/token/", "delete"): "token_revoke",
    ("/api/v1/leagues/{slug}/money/", "put"): "league_money_set",
    ("/api/v1/tournaments/{id}/entries/", "post"): "entry_record",
    ("/api/v1/tournaments/{id}/entries/{entry_id}/undo/", "post"): "entry_undo",
    ("/api/v1/nights/", "post"): "night_schedule",
    ("/api/v1/nights/{id}/answer/", "post"): "night_answer",
    ("/api/v1/nights/{id}/", "patch"): "night_edit",
    ("/api/v1/nights/{id}/cancel/", "post"): "night_cancel",
    ("/api/v1/nights/{id}/check-in/", "post"): "night_check_in",
    ("/api/v1/nights/{id}/check-out/", "post"): "night_check_out",
    ("/api/v1/nights/{id}/start/", "post"): "night_start",
    ("/api/v1/tournaments/{id}/transfers/{position}/paid/", "post"): "transfer_mark_paid",
    ("/api/v1/tournaments/{id}/deal/", "post"): "deal_record",
    ("/api/v1/leagues/{slug}/ledger/corrections/", "post"): "ledger_correction",
    ("/api/v1/leagues/{slug}/ledger/payments/", "post"): "ledger_payment",
    ("/api/v1/leagues/{slug}/games/", "post"): "league_game_create",
    ("/api/v1/leagues/{slug}/games/{game}/", "put"): "league_game_update",
    ("/api/v1/leagues/{slug}/games/{game}/archive/", "post"): "league_game_archive",
}
# POSTs that store nothing (a stateless calculator): open to everyone, not in the matrix.
NOT_WRITES = {
    ("/api/v1/evaluate/", "post"),
    # sample hands of a house game (stores nothing; anyone who can see the league)
    ("/api/v1/leagues/{slug}/games/{game}/preview/", "post"),
}


@pytest.fixture(autouse=True)
def _fresh_rate_limits():
    cache.clear()
    yield
    cache.clear()


def build_world(capture, public: bool):
    league, admin = make_league(slug="club", public=public)
    users = {
        "admin": admin,
        "member": add_member(league, "club-member", "member"),
        "scorekeeper": add_member(league, "club-keeper", "scorekeeper"),
        "authority": add_member(league, "club-rob", "authority"),
    }
    _, other = make_league(slug="elsewhere")
    users["other"] = other
    tournament, hand, order = disputed_hand(league, admin, capture)
    newcomer = make_user("newcomer")
    # An account linked to a roster player, with no role: one a role may be given to (an
    # account outside the league may not: tests/api/test_league_admin_api.py).
    Player.objects.create(league=league, name="Lin", user=make_user("club-linked"))
    return {
        "league": league,
        "users": users,
        "tournament": tournament,
        "hand": hand,
        "order": order,
        "newcomer": newcomer,
    }


def next_hand_body(world) -> dict:
    t = world["tournament"]
    return {
        "tournament": t.pk,
        "entry_mode": "quick",
        "entry": showdown(t, [ACES, KINGS], 24),
    }


PHH = b"""variant = 'F7S'
antes = [4, 4, 4]
bring_in = 10
small_bet = 20
big_bet = 40
starting_stacks = [1000, 1000, 1000]
actions = []
"""


def api_write(op: str, world, role: str):
    """Send the write ``op`` as ``role``; returns the response."""
    user = world["users"].get(role)
    client = api_client(user) if role != "anonymous" else api_client()
    league, hand, t = world["league"], world["hand"], world["tournament"]
    if op == "league_create":
        return client.post("/api/v1/leagues/", {"name": f"League of {role}"}, format="json")
    if op == "player_create":
        return client.post(
            "/api/v1/players/", {"league": league.slug, "name": "Zed"}, format="json"
        )
    if op == "role_revoke":
        target = league.memberships.get(user__username="club-member")
        return client.delete(f"/api/v1/memberships/{target.pk}/")
    if op == "role_grant":
        return client.post(
            "/api/v1/memberships/",
            {"league": league.slug, "username": "club-linked", "role": "member"},
            format="json",
        )
    if op == "player_link":
        player = league.players.first()
        return client.post(
            f"/api/v1/players/{player.pk}/link/", {"username": "club-member"}, format="json"
        )
    if op == "invite_create":
        return client.post(
            "/api/v1/invites/", {"league": league.slug, "role": "scorekeeper"}, format="json"
        )
    if op == "invite_revoke":
        invite, _ = invite_create(league=league, role="member", by=world["users"]["admin"])
        return client.post(f"/api/v1/invites/{invite.pk}/revoke/")
    if op == "invite_accept":
        _, token = invite_create(
            league=league, role="member", single_use=False, by=world["users"]["admin"]
        )
        return client.post("/api/v1/invites/accept/", {"token": token}, format="json")
    if op == "tournament_create":
        return client.post(
            "/api/v1/tournaments/",
            {"league": league.slug, "name": "Second night", "players": world["order"][:2]},
            format="json",
        )
    if op == "hand_record":
        return client.post("/api/v1/hands/", next_hand_body(world), format="json")
    if op == "import_upload":
        upload = SimpleUploadedFile("night.phh", PHH, content_type="application/x-phh")
        return client.post(f"/api/v1/tournaments/{t.pk}/imports/", {"files": [upload]})
    if op == "reevaluation_start":
        return client.post("/api/v1/reevaluations/", {"league": league.slug}, format="json")
    if op == "hand_void":
        Hand.objects.filter(pk=hand.pk).update(status=HandStatus.INVALID)  # only invalid hands
        return client.post(f"/api/v1/hands/{hand.pk}/void/", {"reason": "misdeal"}, format="json")
    if op == "dispute_raise":
        return client.post(
            "/api/v1/disputes/",
            {"hand": hand.pk, "pot": 0, "reason": "the deuce was face up"},
            format="json",
        )
    if op == "ruling_make":
        return client.post(
            "/api/v1/rulings/",
            {"hand": hand.pk, "pot": 0, "result": "engine", "reason": "aces win"},
            format="json",
        )
    if op == "house_rules_set":
        return client.put(
            f"/api/v1/leagues/{league.slug}/house-rules/",
            {"house_rules": {"low_hole": {"game": "high_low"}}},
            format="json",
        )
    if op == "points_formula_set":
        return client.put(
            f"/api/v1/analytics/leagues/{league.slug}/points-formula/",
            {"formula": "linear"},
            format="json",
        )
    if op == "league_money_set":
        return client.put(
            f"/api/v1/leagues/{league.slug}/money/", {"currency": "EUR"}, format="json"
        )
    if op in ("entry_record", "entry_undo"):
        NightMoney.objects.get_or_create(tournament=t, defaults={"buy_in": 1000})
        player = world["order"][0]
        if op == "entry_record":
            return client.post(
                f"/api/v1/tournaments/{t.pk}/entries/",
                {"player": player, "kind": "buy_in"},
                format="json",
            )
        entry = entry_record(
            tournament=t, player_id=player, kind="buy_in", by=world["users"]["admin"]
        )
        return client.post(f"/api/v1/tournaments/{t.pk}/entries/{entry.pk}/undo/")
    if op == "transfer_mark_paid":
        # a stored settle-up transfer between two players none of the users is linked to
        a, b = (Player.objects.get(pk=pid) for pid in world["order"][:2])
        Player.objects.filter(pk__in=[a.pk, b.pk]).update(user=None)
        SettleTransfer.objects.get_or_create(
            tournament=t, position=0, defaults={"payer": a, "payee": b, "amount": 500}
        )
        return client.post(f"/api/v1/tournaments/{t.pk}/transfers/0/paid/")
    if op == "ledger_correction":
        return client.post(
            f"/api/v1/leagues/{league.slug}/ledger/corrections/",
            {"player": world["order"][0], "amount": 500, "reason": "paid in cash"},
            format="json",
        )
    if op == "ledger_payment":
        # a balance owed between two players none of the users is linked to
        a, b = world["order"][:2]
        Player.objects.filter(pk__in=[a, b]).update(user=None)
        for pid, amount in ((a, -500), (b, 500)):
            MoneyLedgerEntry.objects.create(
                league=league, player_id=pid, kind="correction", amount=amount, currency="USD"
            )
        return client.post(
            f"/api/v1/leagues/{league.slug}/ledger/payments/",
            {"payer": str(a), "payee": str(b), "amount": 500},
            format="json",
        )
    if op == "deal_record":
        NightMoney.objects.get_or_create(tournament=t, defaults={"buy_in": 1000})
        for player in world["order"]:
            entry_record(tournament=t, player_id=player, kind="buy_in", by=world["users"]["admin"])
        state = tournament_state(t)
        still_in = [s.player_id for s in state.seats if state.stacks[s.player_id] > 0]
        return client.post(
            f"/api/v1/tournaments/{t.pk}/deal/",
            {"option": "even", "agreed_by": still_in},
            format="json",
        )
    if op.startswith("league_game_"):
        return _league_game_write(op, client, world)
    if op == "token_create":
        username = user.get_username() if user else "nobody"
        return client.post(
            "/api/v1/auth/token/", {"username": username, "password": PASSWORD}, format="json"
        )
    if op == "token_revoke":
        return client.delete("/api/v1/auth/token/")
    if op == "night_schedule":
        return client.post(
            "/api/v1/nights/",
            {"league": league.slug, "starts_at": _tomorrow(), "place": "Here", "seats": 4},
            format="json",
        )
    if op in ("night_edit", "night_cancel"):
        night = _night(world)
        if op == "night_edit":
            return client.patch(f"/api/v1/nights/{night.pk}/", {"seats": 5}, format="json")
        return client.post(f"/api/v1/nights/{night.pk}/cancel/", {}, format="json")
    if op == "night_answer":
        night = night_schedule(
            league=league,
            starts_at=timezone.now() + timedelta(days=1),
            place="Here",
            seats=4,
            by=world["users"]["admin"],
            base_url="http://testserver/",
        )
        player = league.players.filter(user__isnull=True).first()
        return client.post(
            f"/api/v1/nights/{night.pk}/answer/",
            {"player": player.pk, "answer": "yes"},
            format="json",
        )
    if op in ("night_check_in", "night_check_out", "night_start"):
        night = _night(world)
        admin = world["users"]["admin"]
        roster = list(league.players.order_by("pk").values_list("pk", flat=True))
        for pid in roster[:2] if op != "night_check_in" else []:
            night_check_in(night=night, player_id=pid, by=admin)
        if op == "night_start":
            return client.post(f"/api/v1/nights/{night.pk}/start/", format="json")
        return client.post(
            f"/api/v1/nights/{night.pk}/{op.removeprefix('night_').replace('_', '-')}/",
            {"player": roster[0]},
            format="json",
        )
    raise AssertionError(op)


def _league_game_write(op: str, client, world):
    base = f"/api/v1/leagues/{world['league'].slug}/games/"
    if op == "league_game_create":
        return client.post(base, {"name": "Razz", "preset": "razz"}, format="json")
    game = league_game_create(
        league=world["league"], by=world["users"]["admin"], name="Deuces", preset="deuces_wild"
    )
    if op == "league_game_update":
        return client.put(f"{base}{game.slug}/", {"name": "Deuces Wild"}, format="json")
    return client.post(f"{base}{game.slug}/archive/")


def _night(world):
    return night_schedule(
        league=world["league"],
        starts_at=timezone.now() + timedelta(days=1),
        place="Here",
        seats=4,
        by=world["users"]["admin"],
        base_url="http://testserver/",
    )


def _tomorrow() -> str:
    return (timezone.now() + timedelta(days=1)).isoformat()


def expected_api(op: str, role: str, public: bool) -> str:
    if role in ALLOWED[op]:
        if role == "other" and not public and op not in NOT_LEAGUE_SCOPED:
            return "not_found"
        return "ok"
    if role == "anonymous":
        return "unauthenticated"
    if role == "other" and not public:
        return "not_found"
    return "forbidden"


def every_write(ops):
    """Parametrise a matrix test over every write of ``ops``, every role and both kinds of
    league (public, private)."""

    def mark(test):
        test = pytest.mark.parametrize("op", list(ops))(test)
        test = pytest.mark.parametrize("role", ROLES)(test)
        return pytest.mark.parametrize("public", [True, False], ids=["public", "private"])(test)

    return mark


@every_write(ALLOWED)
def test_api_write_matrix(op, role, public, django_capture_on_commit_callbacks):
    world = build_world(django_capture_on_commit_callbacks, public)
    with django_capture_on_commit_callbacks(execute=True):
        r = api_write(op, world, role)
    want = expected_api(op, role, public)
    body = r.content.decode()[:300]
    if want == "ok":
        if op == "import_upload":  # permission passed: the file itself is judged next
            assert r.status_code not in (401, 403, 404) and r.status_code < 500, body
        else:
            assert 200 <= r.status_code < 300, (r.status_code, body)
    elif want == "unauthenticated":
        assert r.status_code == 401, (r.status_code, body)
    elif want == "forbidden":
        assert r.status_code == 403, (r.status_code, body)
        assert r.json()["error"]["code"] in ("permission_denied", "not_authenticated")
    else:
        assert r.status_code == 404, (r.status_code, body)
        assert "club" not in body.lower() or op == "token_create"


def test_every_write_of_the_schema_is_in_the_matrix(client):
    schema = client.get("/api/schema/?format=json").json()
    writes = {
        (path, method)
        for path, ops in schema["paths"].items()
        for method in ops
        if method in ("post", "put", "patch", "delete")
    }
    missing = writes - set(SCHEMA_WRITES) - NOT_WRITES
    assert not missing, f"write operations without a row in the permission matrix: {missing}"
    assert set(SCHEMA_WRITES.values()) == set(ALLOWED)


def page_client(world, role: str) -> Client:
    client = Client()
    if role != "anonymous":
        client.force_login(world["users"][role])
    return client


def page_write(op: str, world, role: str):
    client = page_client(world, role)
    hand, t = world["hand"], world["tournament"]
    if op == "page_hand_entry":
        return client.post(f"/tournaments/{t.pk}/hands/new/", {}), client.get(
            f"/tournaments/{t.pk}/hands/new/"
        )
    if op == "page_ruling":
        url = f"/hands/{hand.pk}/pots/0/rule/"
        return client.post(url, {"result": "engine", "reason": "aces win"}), client.get(url)
    if op == "page_dispute":
        url = f"/hands/{hand.pk}/pots/0/dispute/"
        return client.post(url, {"reason": "the deuce was face up"}), client.get(url)
    if op == "page_import":
        upload = SimpleUploadedFile("night.phh", PHH, content_type="application/x-phh")
        return client.post(f"/tournaments/{t.pk}/imports/", {"files": [upload]}), None
    if op == "page_entry":
        NightMoney.objects.get_or_create(tournament=t, defaults={"buy_in": 1000})
        body = {"player": world["order"][0], "kind": "buy_in"}
        return client.post(f"/tournaments/{t.pk}/entries/", body), None
    if op == "page_hand_void":
        Hand.objects.filter(pk=hand.pk).update(status=HandStatus.INVALID)  # only invalid hands
        return client.post(f"/hands/{hand.pk}/void/", {"reason": "misdeal"}), None
    if op == "page_transfer_paid":
        a, b = (Player.objects.get(pk=pid) for pid in world["order"][:2])
        Player.objects.filter(pk__in=[a.pk, b.pk]).update(user=None)
        SettleTransfer.objects.get_or_create(
            tournament=t, position=0, defaults={"payer": a, "payee": b, "amount": 500}
        )
        return client.post(f"/tournaments/{t.pk}/transfers/0/paid/"), None
    slug = world["league"].slug
    if op == "page_player_add":
        return client.post(f"/leagues/{slug}/players/", {"action": "add", "add-name": "Zed"}), None
    if op == "page_player_link":
        player = world["league"].players.first()
        body = {"action": "link", "player": player.pk, "username": "club-member"}
        return client.post(f"/leagues/{slug}/players/", body), None
    if op == "page_roles":
        url = f"/leagues/{slug}/members/"
        member = world["users"]["member"]
        body = {"action": "roles", "user": member.pk, "roles": ["scorekeeper"]}
        return client.post(url, body), client.get(url)
    if op == "page_invite":
        body = {"action": "invite", "invite-role": "member", "invite-uses": "single"}
        return client.post(f"/leagues/{slug}/members/", {**body, "invite-days": "2"}), None
    if op == "page_house_rules":
        url = f"/leagues/{slug}/house-rules/"
        return client.post(url, {"opt-low_hole__game": "high_low"}), client.get(url)
    if op == "page_ledger_paid":
        a, b = world["order"][:2]
        Player.objects.filter(pk__in=[a, b]).update(user=None)
        for pid, amount in ((a, -500), (b, 500)):
            MoneyLedgerEntry.objects.create(
                league=world["league"],
                player_id=pid,
                kind="correction",
                amount=amount,
                currency="USD",
            )
        body = {"payer": str(a), "payee": str(b), "amount": "500"}
        return client.post(f"/leagues/{slug}/ledger/paid/", body), None
    if op == "page_ledger_correction":
        body = {
            "correction-player": world["order"][0],
            "correction-amount": "5",
            "correction-reason": "paid in cash",
        }
        return client.post(f"/leagues/{slug}/ledger/corrections/", body), None
    if op == "page_league_money":
        url = f"/leagues/{slug}/money/"
        body = {"currency": "EUR", "locale": "de_DE", "unit": "1", "rebuy_when": "busted"}
        return client.post(url, {**body, "payout_template": "65_35"}), client.get(url)
    if op == "page_night_schedule":
        url = f"/leagues/{slug}/schedule/new/"
        when = (timezone.localtime() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
        return client.post(url, {"starts_at": when, "place": "Here", "seats": "4"}), client.get(url)
    if op == "page_night_edit":
        url = f"/nights/{_night(world).pk}/edit/"
        when = (timezone.localtime() + timedelta(days=2)).strftime("%Y-%m-%dT%H:%M")
        body = {"starts_at": when, "place": "There", "seats": "4"}
        return client.post(url, body), client.get(url)
    if op == "page_night_cancel":
        return client.post(f"/nights/{_night(world).pk}/cancel/", {"reason": "Rain"}), None
    if op == "page_night_check_in":
        night = _night(world)
        url = f"/nights/{night.pk}/check-in/"
        player = world["league"].players.order_by("pk").first()
        return client.post(url, {"action": "in", "player": player.pk}), client.get(url)
    if op.startswith("page_game_"):
        return _page_game_write(op, client, world)
    if op == "page_points_formula":
        url = f"/leagues/{world['league'].slug}/table/"
        # Everyone may read the table; only the form's post is a write.
        return client.post(url, {"formula": "linear"}), None
    raise AssertionError(op)


@every_write(PAGES_ALLOWED)
def test_page_write_matrix(op, role, public, django_capture_on_commit_callbacks):
    world = build_world(django_capture_on_commit_callbacks, public)
    with django_capture_on_commit_callbacks(execute=True):
        posted, got = page_write(op, world, role)
    outsider = role in ("anonymous", "other") and not public
    for r in (posted, got):
        if r is None:
            continue
        if outsider:
            assert r.status_code == 404, (op, r.status_code)
        elif role in PAGES_ALLOWED[op]:
            # A write that went through redirects to its result (302; 303 for a new invite,
            # back to the page that shows its link once); the form itself is a 200 (the hand
            # entry form re-renders with its errors: the post here is empty).
            assert r.status_code in (200, 302, 303), (op, r.status_code)
            if r.status_code in (302, 303):
                assert "/accounts/login/" not in r["Location"]
        elif role == "anonymous":  # sent to the login page, or refused outright
            assert r.status_code == 403 or (
                r.status_code == 302 and "/accounts/login/" in r["Location"]
            ), r.status_code
        else:
            assert r.status_code == 403, (op, role, r.status_code)


def _page_game_write(op: str, client, world):
    base = f"/leagues/{world['league'].slug}/games/"
    if op == "page_game_new":
        body = {"preset": "razz", "name": "Razz", "c-pot-low-ranking": "ace_to_five"}
        body |= {"c-pot-low-qualifier": "none", "c-max_players": "7"}
        return client.post(f"{base}new/", body), client.get(f"{base}new/?preset=razz")
    game = league_game_create(
        league=world["league"], by=world["users"]["admin"], name="Deuces", preset="deuces_wild"
    )
    if op == "page_game_edit":
        url = f"{base}{game.slug}/edit/"
        return client.post(url, {"name": "Deuces", "definition": "{}"}), client.get(url)
    return client.post(f"{base}{game.slug}/archive/"), None


SECRET_WORDS = ("Whisperers", "Zanzibar", "Quillon", "Vespertine")  # not the slug: URLs echo it


def test_private_leagues_leak_nothing_to_outsiders(django_capture_on_commit_callbacks):
    """Lists, details, filters, standings, exports, the audit log and the disputes of a private
    league: outsiders see nothing, and no name of it appears in any answer."""
    league, admin = make_league(slug="hushclub", public=False)
    League.objects.filter(pk=league.pk).update(name="Whisperers")
    from tests.factories import make_tournament
    from tracker.hands.services.recording import hand_record
    from tracker.rulings.services import ruling_make

    rob = add_member(league, "hush-rob", "authority")
    t, players = make_tournament(
        league=league,
        by=admin,
        names=("Zanzibar", "Quillon", "Vespertine"),
        default_variant="seven_card_stud",
    )
    order = [p for p in players]
    with django_capture_on_commit_callbacks(execute=True):
        hand = hand_record(
            tournament=t,
            by=admin,
            entry_mode="quick",
            entry=showdown(t, [ACES, KINGS], 24),
            table_result={"winners": [showdown(t, [ACES, KINGS], 24)["seats"][1]["player"]]},
        )
    hand.refresh_from_db()
    ruling_make(pot=hand.pots.get(), by=rob, result="engine", reason="Zanzibar's aces")
    player = order[0]
    other = make_user("outsider")
    make_league(slug="open-club")
    api_reads = [
        "/api/v1/leagues/",
        "/api/v1/leagues/hushclub/",
        "/api/v1/leagues/hushclub/standings/",
        "/api/v1/leagues/hushclub/house-rules/",
        "/api/v1/leagues/hushclub/phh",
        "/api/v1/players/",
        "/api/v1/players/?league__slug=hushclub",
        "/api/v1/players/?name__icontains=zanz",
        f"/api/v1/players/{player.pk}/",
        "/api/v1/memberships/?league__slug=hushclub",
        "/api/v1/tournaments/",
        "/api/v1/tournaments/?league__slug=hushclub",
        f"/api/v1/tournaments/{t.pk}/",
        f"/api/v1/tournaments/{t.pk}/phh",
        f"/api/v1/tournaments/{t.pk}/imports/",
        "/api/v1/hands/",
        f"/api/v1/hands/?tournament={t.pk}",
        f"/api/v1/hands/?hand_seats__player={player.pk}",
        f"/api/v1/hands/{hand.pk}/",
        f"/api/v1/hands/{hand.pk}/phh",
        "/api/v1/reevaluations/",
        "/api/v1/imports/",
        "/api/v1/disputes/?state=all",
        "/api/v1/disputes/?league=hushclub&state=all",
        f"/api/v1/disputes/{hand.pots.get().pk}/",
        "/api/v1/rulings/",
        "/api/v1/rulings/?league=hushclub",
        f"/api/v1/rulings/{hand.rulings.get().pk}/",
        "/api/v1/evaluations/",
        f"/api/v1/evaluations/?hand={hand.pk}",
        "/api/v1/audit/",
        "/api/v1/audit/?league=hushclub",
    ]
    pages = [
        "/",
        "/leagues/hushclub/",
        f"/players/{player.pk}/",
        f"/tournaments/{t.pk}/",
        f"/hands/{hand.pk}/",
        f"/hands/{hand.pk}/download.phh",
        f"/tournaments/{t.pk}/download.phhs",
        "/leagues/hushclub/download.phhs",
        "/leagues/hushclub/disputes/",
        "/leagues/hushclub/audit/",
        f"/hands/{hand.pk}/pots/0/rule/",
        f"/hands/{hand.pk}/pots/0/dispute/",
    ]
    for who, client, page in (
        ("anonymous", api_client(), Client()),
        ("outsider", api_client(other), Client()),
    ):
        if who == "outsider":
            page.force_login(other)
        for reader, urls, answers in (
            (client, api_reads, (200, 401, 404)),
            (page, pages, (200, 302, 404)),
        ):
            for url in urls:
                r = reader.get(url)
                assert r.status_code in answers, (who, url, r.status_code)
                text = r.content.decode()
                for word in SECRET_WORDS:
                    assert word.lower() not in text.lower(), (who, url, word)
    # The same reads as a member do show it (the test would be vacuous otherwise).
    insider = api_client(rob)
    assert "Zanzibar" in insider.get("/api/v1/players/?league__slug=hushclub").content.decode()
    assert insider.get(f"/api/v1/hands/{hand.pk}/").status_code == 200
