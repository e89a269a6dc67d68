"""Running a league over the API: a league's season length and minimum players, invite links
(make, list, revoke, accept), linking a roster player to an account, and roles given only to
accounts of the league (both databases).

The rules are the services' (tracker/leagues/services.py); these tests check that the API
reaches them with the pages' permissions, and answers with the usual error body.
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from tests.factories import add_member, make_league, make_user
from tests.rulings.helpers import api_client, disputed_hand
from tracker.accounts.selectors import token_digest
from tracker.audit.models import AuditEntry
from tracker.core.permissions import Capability, capabilities
from tracker.leagues.models import Invite, League, Player
from tracker.leagues.services import invite_create, player_create

pytestmark = pytest.mark.django_db


def error(r) -> dict:
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message", "fields"}, body
    return body["error"]


# --------------------------------------------------------------------------
# POST /leagues/: season length and minimum players


def test_a_league_is_made_with_its_season_length_and_minimum_players():
    founder = make_user("founder")
    r = api_client(founder).post(
        "/api/v1/leagues/",
        {"name": "Monthly Stud", "season_length": "month", "min_players": 5},
        format="json",
    )
    assert r.status_code == 201, r.json()
    body = r.json()
    assert (body["slug"], body["season_length"], body["min_players"]) == (
        "monthly-stud",
        "month",
        5,
    )
    league = League.objects.get(slug="monthly-stud")
    assert (league.season_length, league.min_players) == ("month", 5)
    assert capabilities(founder, league).roles == ("admin",)
    logged = AuditEntry.objects.get(league_id=league.pk, action="league.create")
    assert (logged.data["season_length"], logged.data["min_players"]) == ("month", 5)
    # Read back, and the defaults when none are given.
    assert api_client().get("/api/v1/leagues/monthly-stud/").json()["min_players"] == 5
    r = api_client(founder).post("/api/v1/leagues/", {"name": "Plain"}, format="json")
    assert (r.json()["season_length"], r.json()["min_players"]) == ("year", 4)


def test_the_founder_is_the_authority_too_when_asked():
    founder = make_user("founder")
    api = api_client(founder)
    r = api.post("/api/v1/leagues/", {"name": "Ruled", "creator_is_authority": True}, format="json")
    assert r.status_code == 201, r.json()
    ruled = League.objects.get(slug="ruled")
    assert capabilities(founder, ruled).roles == ("admin", "authority")
    assert capabilities(founder, ruled)[Capability.RULE]
    listed = api.get("/api/v1/memberships/?league__slug=ruled").json()["results"]
    assert sorted(m["role"] for m in listed) == ["admin", "authority"]
    logged = AuditEntry.objects.get(league_id=ruled.pk, action="league.create")
    assert logged.data["creator_roles"] == ["admin", "authority"]
    # Absent or false: the founder is its admin only, and may not rule.
    for name, body in (("Plain", {}), ("Unruled", {"creator_is_authority": False})):
        r = api.post("/api/v1/leagues/", {"name": name, **body}, format="json")
        assert r.status_code == 201, r.json()
        league = League.objects.get(name=name)
        assert capabilities(founder, league).roles == ("admin",)
        assert not capabilities(founder, league)[Capability.RULE]
    r = api.post(
        "/api/v1/leagues/", {"name": "Odd", "creator_is_authority": "maybe"}, format="json"
    )
    assert r.status_code == 400 and "creator_is_authority" in error(r)["fields"]
    assert not League.objects.filter(name="Odd").exists()


@pytest.mark.parametrize("asked", [True, False])
def test_a_founder_made_authority_on_create_rules_on_a_disputed_pot(
    asked, django_capture_on_commit_callbacks
):
    founder = make_user("founder")
    api = api_client(founder)
    body = {"name": "Disputed", **({"creator_is_authority": True} if asked else {})}
    assert api.post("/api/v1/leagues/", body, format="json").status_code == 201
    league = League.objects.get(slug="disputed")
    _, hand, _ = disputed_hand(league, founder, django_capture_on_commit_callbacks)
    ruling = {"hand": hand.pk, "pot": 0, "result": "engine", "reason": "aces beat kings"}
    r = api.post("/api/v1/rulings/", ruling, format="json")
    if asked:
        assert r.status_code == 201, r.json()
    else:
        assert r.status_code == 403 and error(r)["code"] == "permission_denied"


@pytest.mark.parametrize(
    "body, field",
    [
        ({"season_length": "fortnight"}, "season_length"),
        ({"min_players": 1}, "min_players"),
        ({"min_players": 9}, "min_players"),
        ({"min_players": "many"}, "min_players"),
    ],
)
def test_a_bad_season_length_or_minimum_is_refused_and_stores_nothing(body, field):
    r = api_client(make_user("founder")).post(
        "/api/v1/leagues/", {"name": "Broken", **body}, format="json"
    )
    assert r.status_code == 400
    assert field in error(r)["fields"]
    assert not League.objects.filter(slug="broken").exists()


# --------------------------------------------------------------------------
# Invites


@pytest.fixture
def club():
    league, admin = make_league(slug="club")
    return {
        "league": league,
        "admin": admin,
        "keeper": add_member(league, "keeper", "scorekeeper"),
        "member": add_member(league, "member", "member"),
    }


def make_invite(api, **body):
    r = api.post("/api/v1/invites/", {"league": "club", **body}, format="json")
    assert r.status_code == 201, r.json()
    return r.json()


def test_an_admin_makes_lists_and_revokes_invites(club):
    api = api_client(club["admin"])
    before = timezone.now()
    made = make_invite(api, role="scorekeeper", single_use=False, days=3)
    invite = Invite.objects.get(pk=made["id"])
    assert (made["league"], made["role"], made["single_use"], made["uses"]) == (
        "club",
        "scorekeeper",
        False,
        0,
    )
    assert made["state"] == "open" and made["created_by"] == "club-admin"
    # The token and link are in this answer; only the token's SHA-256 is stored.
    assert len(made["token"]) >= 43  # 256 random bits
    assert made["url"] == f"http://testserver/invites/{made['token']}/"
    assert invite.digest == token_digest(made["token"]) != made["token"]
    assert made["fingerprint"] == invite.fingerprint == "inv_" + invite.digest[:12]
    expires = dt.datetime.fromisoformat(made["expires_at"])
    assert dt.timedelta(days=3) <= expires - before < dt.timedelta(days=3, minutes=1)
    # Defaults: single use, a week.
    plain = make_invite(api, role="member")
    assert plain["single_use"] is True
    assert Invite.objects.get(pk=plain["id"]).expires_at - before >= dt.timedelta(days=7)

    r = api.get("/api/v1/invites/")
    listed = r.json()
    assert [i["id"] for i in listed["results"]] == [plain["id"], made["id"]]
    # The list names each invite (id, fingerprint) and never carries its token or link.
    assert all("token" not in i and "url" not in i for i in listed["results"])
    assert made["token"] not in r.content.decode() and plain["token"] not in r.content.decode()
    assert api.get("/api/v1/invites/?role=member").json()["count"] == 1

    r = api.post(f"/api/v1/invites/{made['id']}/revoke/")
    assert r.status_code == 200, r.json()
    assert r.json()["state"] == "revoked" and made["token"] not in r.content.decode()
    assert "token" not in r.json() and "url" not in r.json()
    assert Invite.objects.get(pk=made["id"]).revoked
    # Revoking it again changes nothing (and logs nothing more).
    assert api.post(f"/api/v1/invites/{made['id']}/revoke/").status_code == 200
    actions = list(
        AuditEntry.objects.filter(league_id=club["league"].pk, action__startswith="invite.")
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == ["invite.create", "invite.create", "invite.revoke"]


def test_only_admins_see_and_make_invites(club):
    invite_create(league=club["league"], role="member", by=club["admin"])
    for who in ("keeper", "member"):
        api = api_client(club[who])
        assert api.get("/api/v1/invites/").json()["count"] == 0
        r = api.post("/api/v1/invites/", {"league": "club", "role": "admin"}, format="json")
        assert r.status_code == 403 and error(r)["code"] == "permission_denied"
    assert api_client().get("/api/v1/invites/").status_code == 401
    assert Invite.objects.count() == 1


def test_a_bad_invite_is_refused_with_the_field_at_fault(club):
    api = api_client(club["admin"])
    for body, field in (
        ({"role": "king"}, "role"),
        ({"role": "member", "days": 0}, "days"),
        ({"role": "member", "days": 91}, "days"),
        ({"role": "member", "single_use": "sometimes"}, "single_use"),
    ):
        r = api.post("/api/v1/invites/", {"league": "club", **body}, format="json")
        assert r.status_code == 400, (body, r.json())
        assert field in error(r)["fields"], body
    assert not Invite.objects.exists()


def test_accepting_an_invite_adds_its_role(club):
    made = make_invite(api_client(club["admin"]), role="authority")
    rob = make_user("rob")
    r = api_client(rob).post("/api/v1/invites/accept/", {"token": made["token"]}, format="json")
    assert r.status_code == 200, r.json()
    assert (r.json()["league"], r.json()["username"], r.json()["role"]) == (
        "club",
        "rob",
        "authority",
    )
    assert capabilities(rob, club["league"]).roles == ("authority",)
    # Single use: the next one is refused, and says why.
    r = api_client(make_user("late")).post(
        "/api/v1/invites/accept/", {"token": made["token"]}, format="json"
    )
    assert r.status_code == 409 and error(r)["code"] == "invite_used"
    assert "used already" in error(r)["message"]
    assert Invite.objects.get(pk=made["id"]).uses == 1


def test_a_member_adds_a_role_from_a_multi_use_invite_and_keeps_theirs(club):
    made = make_invite(api_client(club["admin"]), role="scorekeeper", single_use=False)
    for user in (club["member"], make_user("newcomer")):
        r = api_client(user).post(
            "/api/v1/invites/accept/", {"token": made["token"]}, format="json"
        )
        assert r.status_code == 200, r.json()
    assert capabilities(club["member"], club["league"]).roles == ("scorekeeper", "member")
    assert Invite.objects.get(pk=made["id"]).uses == 2


def test_an_invite_token_is_stored_only_as_its_digest(club):
    r = api_client(club["admin"]).post(
        "/api/v1/invites/", {"league": "club", "role": "member", "single_use": False}, format="json"
    )
    assert r.status_code == 201 and r["Cache-Control"] == "no-store"  # the answer holds a secret
    made = r.json()
    token, digest = made["token"], token_digest(made["token"])
    (row,) = Invite.objects.filter(pk=made["id"]).values()
    assert row["digest"] == digest
    assert not any(token in str(value) for value in row.values()), row
    assert not Invite.objects.filter(digest=token).exists()
    # Nor is it in the audit log.
    logged = AuditEntry.objects.filter(action="invite.create").values_list("data", flat=True)
    assert logged and all(token not in str(data) for data in logged)
    # The stored digest is no key: accepting with it is a 404; with the token, it works.
    guest = api_client(make_user("guest"))
    r = guest.post("/api/v1/invites/accept/", {"token": digest}, format="json")
    assert r.status_code == 404 and error(r)["code"] == "not_found"
    r = guest.post("/api/v1/invites/accept/", {"token": token}, format="json")
    assert r.status_code == 200 and r.json()["role"] == "member"


def test_a_revoked_expired_or_unknown_invite_is_refused(club):
    api = api_client(club["admin"])
    revoked = make_invite(api, role="member")
    api.post(f"/api/v1/invites/{revoked['id']}/revoke/")
    expired, expired_token = invite_create(league=club["league"], role="member", by=club["admin"])
    Invite.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - dt.timedelta(1))
    guest = api_client(make_user("guest"))
    for token, status, code in (
        (revoked["token"], 409, "invite_revoked"),
        (expired_token, 409, "invite_expired"),
        ("no-such-token", 404, "not_found"),
    ):
        r = guest.post("/api/v1/invites/accept/", {"token": token}, format="json")
        assert (r.status_code, error(r)["code"]) == (status, code)
    r = guest.post("/api/v1/invites/accept/", {}, format="json")
    assert r.status_code == 400 and "token" in error(r)["fields"]
    assert (
        api_client()
        .post("/api/v1/invites/accept/", {"token": expired_token}, format="json")
        .status_code
        == 401
    )
    assert not club["league"].memberships.filter(user__username="guest").exists()


def test_invites_of_a_private_league_do_not_exist_for_outsiders():
    league, admin = make_league(slug="hush", public=False)
    invite, _ = invite_create(league=league, role="member", by=admin)
    outsider = api_client(make_user("outsider"))
    r = outsider.post(f"/api/v1/invites/{invite.pk}/revoke/")
    assert r.status_code == 404 and "hush" not in r.content.decode().lower()
    r = outsider.post("/api/v1/invites/", {"league": "hush", "role": "admin"}, format="json")
    assert r.status_code == 404
    assert api_client(admin).post("/api/v1/invites/abc/revoke/").status_code == 404
    assert not Invite.objects.get(pk=invite.pk).revoked


def test_the_invite_list_reads_a_fixed_number_of_queries(club, django_assert_max_num_queries):
    for k in range(12):
        invite_create(league=club["league"], role="member", single_use=k % 2 == 0, by=club["admin"])
    api = api_client(club["admin"])
    # token, count, rows (with league and maker): the same for 12 invites as for one.
    with django_assert_max_num_queries(6):
        r = api.get("/api/v1/invites/")
    assert r.json()["count"] == 12 and all(
        i["created_by"] == "club-admin" for i in r.json()["results"]
    )


# --------------------------------------------------------------------------
# Linking a roster player to an account


def test_a_scorekeeper_links_and_unlinks_a_player(club):
    ann = player_create(league=club["league"], name="Ann", by=club["admin"])
    api = api_client(club["keeper"])
    r = api.post(f"/api/v1/players/{ann.pk}/link/", {"username": "MEMBER"}, format="json")
    assert r.status_code == 200, r.json()
    assert (r.json()["name"], r.json()["username"]) == ("Ann", "member")
    assert Player.objects.get(pk=ann.pk).user == club["member"]
    assert api_client().get(f"/api/v1/players/{ann.pk}/").json()["username"] == "member"
    # An account is at most one player of a league.
    bob = player_create(league=club["league"], name="Bob", by=club["admin"])
    r = api.post(f"/api/v1/players/{bob.pk}/link/", {"username": "member"}, format="json")
    assert r.status_code == 409
    assert (error(r)["code"], list(error(r)["fields"])) == ("duplicate", ["username"])
    r = api.post(f"/api/v1/players/{bob.pk}/link/", {"username": "nobody"}, format="json")
    assert r.status_code == 400 and list(error(r)["fields"]) == ["username"]
    assert Player.objects.get(pk=bob.pk).user is None
    # Empty or null unlinks.
    for empty in (None, ""):
        r = api.post(f"/api/v1/players/{ann.pk}/link/", {"username": empty}, format="json")
        assert r.status_code == 200 and r.json()["username"] is None
    logged = list(
        AuditEntry.objects.filter(action="player.link")
        .order_by("id")
        .values_list("data", flat=True)
    )
    assert logged[0] == {"user": "member", "previous_user": None}
    assert logged[1] == {"user": None, "previous_user": "member"}


def test_only_scorekeepers_and_admins_link_players(club):
    ann = player_create(league=club["league"], name="Ann", by=club["admin"])
    r = api_client(club["member"]).post(
        f"/api/v1/players/{ann.pk}/link/", {"username": "member"}, format="json"
    )
    assert r.status_code == 403 and error(r)["code"] == "permission_denied"
    # Refused before the body is read: a bad body from a member is still a 403.
    r = api_client(club["member"]).post(f"/api/v1/players/{ann.pk}/link/", {}, format="json")
    assert r.status_code == 403
    assert api_client().post(f"/api/v1/players/{ann.pk}/link/", {}).status_code == 401
    assert Player.objects.get(pk=ann.pk).user is None


def test_players_of_a_private_league_are_not_found_by_outsiders():
    league, admin = make_league(slug="hush", public=False)
    ann = player_create(league=league, name="Ann", by=admin)
    outsider = make_user("outsider")
    r = api_client(outsider).post(
        f"/api/v1/players/{ann.pk}/link/", {"username": "outsider"}, format="json"
    )
    assert r.status_code == 404
    assert api_client(admin).post("/api/v1/players/abc/link/", {}).status_code == 404
    assert Player.objects.get(pk=ann.pk).user is None


# --------------------------------------------------------------------------
# POST /memberships/: roles only for accounts of the league (everyone else by invite)


def grant(api, league: str, username: str, role: str = "admin"):
    return api.post(
        "/api/v1/memberships/",
        {"league": league, "username": username, "role": role},
        format="json",
    )


def test_a_role_goes_to_a_member_or_a_linked_player_and_to_no_one_else(club):
    api = api_client(club["admin"])
    # A member gets another role.
    r = grant(api, "club", "member", "scorekeeper")
    assert r.status_code == 201, r.json()
    assert capabilities(club["member"], club["league"]).roles == ("scorekeeper", "member")
    # The account linked to a roster player, with no role yet, gets one (any case).
    linked = make_user("linked")
    player_create(league=club["league"], name="Lin", user=linked, by=club["admin"])
    r = grant(api, "club", "LINKED", "member")
    assert r.status_code == 201, r.json()
    assert (r.json()["username"], r.json()["role"]) == ("linked", "member")
    # An account with nothing to do with the league: refused, and nothing changes.
    stranger = make_user("stranger")
    r = grant(api, "club", "stranger")
    assert r.status_code == 400
    assert error(r)["code"] == "not_in_league" and list(error(r)["fields"]) == ["username"]
    assert "invite" in error(r)["message"] and "stranger" not in r.content.decode()
    assert capabilities(stranger, club["league"]).roles == ()
    assert not AuditEntry.objects.filter(action="role.grant", data__user="stranger").exists()


def test_granting_reveals_nothing_of_accounts_outside_the_league():
    """An unknown account and one that exists outside the league get the same answer, which
    names no one: the usernames of the site cannot be collected by trying names."""
    accounts = [make_user(f"someone-{k}") for k in range(6)]
    prober = make_user("prober")
    league = api_client(prober).post("/api/v1/leagues/", {"name": "Probe"}, format="json")
    slug = league.json()["slug"]
    api = api_client(prober)
    answers = set()
    for name in [u.get_username() for u in accounts] + ["nobody-at-all", "SOMEONE-1"]:
        r = grant(api, slug, name)
        assert r.status_code == 400, (name, r.status_code)
        answers.add(r.content)
        for user in accounts:
            assert user.get_username().encode() not in r.content
    assert len(answers) == 1, answers
    assert League.objects.get(slug=slug).memberships.exclude(user=prober).count() == 0


def test_a_stranger_is_not_made_admin_of_a_private_league():
    victim = make_user("victim")
    league, owner = make_league(slug="lair", public=False)
    r = grant(api_client(owner), "lair", "victim")
    assert r.status_code == 400 and error(r)["code"] == "not_in_league"
    assert capabilities(victim, league).roles == ()
    listed = api_client(victim).get("/api/v1/leagues/").json()["results"]
    assert "lair" not in [row["slug"] for row in listed]
    assert api_client(victim).get("/api/v1/leagues/lair/").status_code == 404
    # The consent path: an invite the victim accepts (or not) themselves.
    made = api_client(owner).post(
        "/api/v1/invites/", {"league": "lair", "role": "member"}, format="json"
    )
    assert made.status_code == 201


def test_a_stranger_is_not_linked_to_a_player_then_made_admin():
    """The roster link is no way around consent: only a member's account is linked, and a
    stranger's name gets the answer an unknown name gets."""
    victim = make_user("victim")
    league, owner = make_league(slug="lair", public=False)
    lin = player_create(league=league, name="Lin", by=owner)
    api = api_client(owner)
    answers = set()
    for name in ("victim", "VICTIM", "nobody-at-all"):
        r = api.post(f"/api/v1/players/{lin.pk}/link/", {"username": name}, format="json")
        assert r.status_code == 400 and error(r)["code"] == "not_in_league"
        assert list(error(r)["fields"]) == ["username"]
        assert b"victim" not in r.content.lower()
        answers.add(r.content)
    assert len(answers) == 1
    assert Player.objects.get(pk=lin.pk).user is None
    r = grant(api, "lair", "victim")
    assert r.status_code == 400 and capabilities(victim, league).roles == ()


# --------------------------------------------------------------------------
# The OpenAPI schema says the same


def test_the_schema_shows_the_token_only_on_a_new_invite_and_the_founders_authority(client):
    schema = client.get("/api/schema/?format=json").json()
    paths, parts = schema["paths"], schema["components"]["schemas"]

    def body_of(answer) -> dict:
        props = parts[answer["content"]["application/json"]["schema"]["$ref"].split("/")[-1]]
        props = props["properties"]
        if "results" in props:  # a page of them
            return parts[props["results"]["items"]["$ref"].split("/")[-1]]["properties"]
        return props

    made = body_of(paths["/api/v1/invites/"]["post"]["responses"]["201"])
    listed = body_of(paths["/api/v1/invites/"]["get"]["responses"]["200"])
    revoked = body_of(paths["/api/v1/invites/{id}/revoke/"]["post"]["responses"]["200"])
    assert {"token", "url", "fingerprint"} <= set(made)
    for props in (listed, revoked):
        assert "fingerprint" in props and not {"token", "url"} & set(props)
    league = paths["/api/v1/leagues/"]["post"]["requestBody"]["content"]["application/json"]
    props = parts[league["schema"]["$ref"].rsplit("/", 1)[1]]["properties"]
    assert props["creator_is_authority"]["type"] == "boolean"
    assert props["creator_is_authority"]["default"] is False
