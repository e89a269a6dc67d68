"""The pages that run a league: a new league, the roster, members and roles, invites (made,
accepted after sign-up, used up, revoked) and the house rules with their history."""

from __future__ import annotations

import re

import pytest
from django.core.cache import cache
from django.test import Client

from tests.factories import add_member, make_league, make_user
from tracker.accounts.selectors import token_digest
from tracker.audit.models import AuditEntry
from tracker.core.permissions import capabilities
from tracker.leagues.models import Invite, League, Player
from tracker.leagues.services import invite_revoke

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_limits():
    cache.clear()
    yield
    cache.clear()


def as_user(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def new_link(response) -> str:
    """The path of the invite link a members page shows once, right after making it."""
    found = re.findall(r'value="http://testserver(/invites/[^"]+/)"', response.content.decode())
    assert len(found) == 1, found
    return found[0]


INVITE = {"action": "invite", "invite-role": "member", "invite-uses": "multi", "invite-days": "7"}


def make_invite(client, league, **fields) -> str:
    """Make an invite on the members page and follow its redirect: the new link's path."""
    page = f"/leagues/{league.slug}/members/"
    r = client.post(page, {**INVITE, **fields})
    assert r.status_code == 303 and r["Location"] == page
    return new_link(client.get(page))


def test_new_league_page_creates_it_with_its_settings(client):
    ann = make_user("ann")
    r = client.get("/leagues/new/")
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]
    c = as_user(ann)
    assert c.get("/leagues/new/").status_code == 200
    r = c.post(
        "/leagues/new/",
        {
            "name": "Thursday Stud",
            "visibility": "private",
            "formula": "pokerstars_tlb",
            "season_length": "quarter",
            "min_players": "5",
            "authority": "on",
        },
    )
    assert r.status_code == 302 and r["Location"] == "/leagues/thursday-stud/players/"
    league = League.objects.get(slug="thursday-stud")
    assert not league.is_public and league.season_length == "quarter"
    assert league.min_players == 5 and league.points_formula["formula"] == "pokerstars_tlb"
    assert capabilities(ann, league).roles == ("admin", "authority")
    page = c.get("/leagues/thursday-stud/").content.decode()
    assert "Members and invites" in page and "House rules" in page


def test_new_league_errors_show_on_their_fields():
    c = as_user(make_user("ann"))
    make_league(slug="taken")
    taken = {
        "name": "Taken",
        "visibility": "public",
        "formula": "linear",
        "season_length": "year",
    }
    r = c.post("/leagues/new/", {**taken, "min_players": "1"})
    assert r.status_code == 400
    assert r.context["form"].errors["min_players"]
    r = c.post("/leagues/new/", {**taken, "min_players": "4"})
    assert r.status_code == 400 and "exists" in str(r.context["form"].errors["name"])


def test_the_roster_adds_players_and_links_accounts():
    league, admin = make_league()
    keeper = add_member(league, "keeper", "scorekeeper")
    member = add_member(league, "jo", "member")
    c = as_user(keeper)
    r = c.post(f"/leagues/{league.slug}/players/", {"action": "add", "add-name": "Jo"})
    assert r.status_code == 302
    jo = Player.objects.get(league=league, name="Jo")
    r = c.post(f"/leagues/{league.slug}/players/", {"action": "add", "add-name": "jo"})
    assert r.status_code == 400 and "already a player" in r.content.decode()
    r = c.post(
        f"/leagues/{league.slug}/players/", {"action": "link", "player": jo.pk, "username": "JO"}
    )
    assert r.status_code == 302
    jo.refresh_from_db()
    assert jo.user == member
    r = c.post(
        f"/leagues/{league.slug}/players/",
        {"action": "link", "player": jo.pk, "username": "nobody"},
    )
    assert r.status_code == 400 and "no account" in r.content.decode()
    # A member reads the roster but has no forms, and may not post.
    m = as_user(member)
    page = m.get(f"/leagues/{league.slug}/players/").content.decode()
    assert "Jo" in page and "Add a player" not in page
    assert (
        m.post(f"/leagues/{league.slug}/players/", {"action": "add", "add-name": "X"}).status_code
        == 403
    )
    assert AuditEntry.objects.filter(action="player.link", league_id=league.pk).count() == 1


def test_members_page_is_for_admins_and_changes_several_roles():
    league, admin = make_league()
    rob = add_member(league, "rob", "member")
    assert as_user(rob).get(f"/leagues/{league.slug}/members/").status_code == 403
    c = as_user(admin)
    assert c.get(f"/leagues/{league.slug}/members/").status_code == 200
    r = c.post(
        f"/leagues/{league.slug}/members/",
        {"action": "roles", "user": rob.pk, "roles": ["authority", "admin"]},
    )
    assert r.status_code == 302
    assert capabilities(rob, league).roles == ("admin", "authority")
    # The last admin cannot step down: with rob an admin, the founder may.
    r = c.post(f"/leagues/{league.slug}/members/", {"action": "roles", "user": admin.pk})
    assert r.status_code == 302 and capabilities(admin, league).roles == ()
    r = as_user(rob).post(
        f"/leagues/{league.slug}/members/", {"action": "roles", "user": rob.pk, "roles": ["member"]}
    )
    assert r.status_code == 400 and "last admin" in r.content.decode()
    assert capabilities(rob, league).roles == ("admin", "authority")


def roles_post(client, league, pk, roles=("admin",)):
    return client.post(
        f"/leagues/{league.slug}/members/", {"action": "roles", "user": pk, "roles": list(roles)}
    )


def page_body(response) -> str:
    """The page without its per-request CSRF tokens."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())


def test_roles_go_to_a_linked_player_with_no_role_yet():
    league, admin = make_league()
    linked = make_user("linked")
    Player.objects.create(league=league, name="Lin", user=linked)
    c = as_user(admin)
    page = c.get(f"/leagues/{league.slug}/members/").content.decode()
    listed = page.split('data-testid="linked-accounts"', 1)[1].split("</ul>", 1)[0]
    assert "linked" in listed and "(plays as Lin)" in listed
    assert f'name="user" value="{linked.pk}"' in listed
    r = roles_post(c, league, linked.pk, ["scorekeeper"])
    assert r.status_code == 302
    assert capabilities(linked, league).roles == ("scorekeeper",)
    page = c.get(f"/leagues/{league.slug}/members/").content.decode()
    assert 'data-testid="linked-accounts"' not in page  # now among the members
    members = page.split('data-testid="members"', 1)[1].split("</ul>", 1)[0]
    assert "(plays as Lin)" in members


def test_ids_outside_the_league_give_no_usernames_and_no_roles():
    """Trying account ids 1..N on one's own league's members page: every account outside it
    (and every id with no account) gets the same 400 page, naming no one; nothing granted."""
    others = [make_user(f"someone-{k}") for k in range(5)]
    league, prober = make_league(slug="probe", admin=make_user("prober"))
    c = as_user(prober)
    nobody = page_body(roles_post(c, league, 10**6))
    assert "invite" in nobody
    # The accounts around these ones, and ids with no account below and above them (on
    # PostgreSQL the ids go on from the earlier tests' accounts, so not every id from 1).
    ids = {1, *range(min(u.pk for u in others) - 3, max(u.pk for u in [*others, prober]) + 3)}
    for pk in sorted(ids - {prober.pk}):
        r = roles_post(c, league, pk)
        assert r.status_code == 400, pk
        assert page_body(r) == nobody, pk
        for user in others:
            assert user.get_username() not in page_body(r)
    r = roles_post(c, league, others[0].pk, [])  # "removing" an outsider names no one either
    assert r.status_code == 400 and page_body(r) == nobody
    assert list(league.memberships.values_list("user__username", flat=True)) == ["prober"]


def test_a_stranger_is_not_made_admin_of_a_private_league_from_the_page():
    victim = make_user("victim")
    league, owner = make_league(slug="lair", public=False)
    r = roles_post(as_user(owner), league, victim.pk, ["admin"])
    assert r.status_code == 400
    assert capabilities(victim, league).roles == ()
    mine = as_user(victim)
    assert "Lair" not in mine.get("/").content.decode()
    assert mine.get(f"/leagues/{league.slug}/").status_code == 404


def test_the_roster_links_no_strangers_account_and_names_no_one():
    victim = make_user("victim")
    league, owner = make_league(slug="lair", public=False)
    lin = Player.objects.create(league=league, name="Lin")
    c = as_user(owner)
    bodies = set()
    for name in ("victim", "nobody-at-all"):
        r = c.post(
            f"/leagues/{league.slug}/players/",
            {"action": "link", "player": lin.pk, "username": name},
        )
        assert r.status_code == 400
        bodies.add(page_body(r).replace(name, "NAME"))  # the form keeps what was typed
        assert "invite them first" in page_body(r)
    assert len(bodies) == 1
    lin.refresh_from_db()
    assert lin.user is None
    assert roles_post(c, league, victim.pk).status_code == 400
    assert capabilities(victim, league).roles == ()


def test_an_invite_is_accepted_after_sign_up_and_then_used_up(client):
    league, admin = make_league(public=False)
    c = as_user(admin)
    r = c.post(
        f"/leagues/{league.slug}/members/",
        {
            "action": "invite",
            "invite-role": "scorekeeper",
            "invite-uses": "single",
            "invite-days": "3",
        },
    )
    # The post answers with a redirect to the page, which shows the link this once.
    assert r.status_code == 303 and r["Location"] == f"/leagues/{league.slug}/members/"
    assert "/invites/" not in r.content.decode()
    r = c.get(r["Location"])
    assert r.status_code == 200 and r["Cache-Control"] == "no-store"
    url = new_link(r)
    invite = Invite.objects.get(league=league)
    assert invite.digest == token_digest(url.split("/")[2])
    # Later the list names it by its fingerprint, without the link.
    later = c.get(f"/leagues/{league.slug}/members/").content.decode()
    assert invite.fingerprint in later and url not in later and "/invites/" not in later
    # An anonymous visitor sees the league's name (private or not) and the way in.
    page = client.get(url).content.decode()
    assert "Join Friday" in page and f"/accounts/signup/?next={url}" in page
    r = client.post(url)
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]
    r = client.post(
        "/accounts/signup/",
        {
            "username": "newbie",
            "password1": "a-long-pass-phrase",
            "password2": "a-long-pass-phrase",
            "next": url,
        },
    )
    assert r.status_code == 302 and r["Location"] == url
    r = client.post(url)
    assert r.status_code == 302 and r["Location"] == f"/leagues/{league.slug}/"
    newbie = League.objects.get(pk=league.pk).memberships.get(user__username="newbie").user
    assert capabilities(newbie, league).roles == ("scorekeeper",)
    # Single use: the next person is refused.
    other = as_user(make_user("late"))
    r = other.post(url)
    assert r.status_code == 409 and "used already" in r.content.decode()
    assert capabilities(make_user("late2"), league).roles == ()
    actions = set(AuditEntry.objects.filter(league_id=league.pk).values_list("action", flat=True))
    assert {"invite.create", "invite.accept"} <= actions


def test_a_multi_use_invite_serves_many_until_revoked():
    league, admin = make_league()
    c = as_user(admin)
    url = make_invite(c, league)
    invite = Invite.objects.get(league=league)
    for name in ("a1", "a2"):
        assert as_user(make_user(name)).post(url).status_code == 302
    invite.refresh_from_db()
    assert invite.uses == 2
    r = c.post(f"/leagues/{league.slug}/members/", {"action": "revoke", "invite": invite.pk})
    assert r.status_code == 302
    r = as_user(make_user("a3")).post(url)
    assert r.status_code == 409 and "revoked" in r.content.decode()
    assert Client().get("/invites/not-a-token/").status_code == 404
    # The stored digest opens nothing: only the link's token does.
    assert Client().get(f"/invites/{invite.digest}/").status_code == 404
    assert as_user(make_user("a4")).post(f"/invites/{invite.digest}/").status_code == 404


def test_a_new_invite_link_is_shown_once_after_the_redirect_and_a_reload_makes_no_other():
    league, admin = make_league()
    c = as_user(admin)
    page = f"/leagues/{league.slug}/members/"
    r = c.post(page, INVITE)
    assert r.status_code == 303 and r["Location"] == page
    assert Invite.objects.filter(league=league).count() == 1
    assert "shown_once.invite" in c.session
    first = c.get(page)
    url = new_link(first)
    assert first["Cache-Control"] == "no-store"
    invite = Invite.objects.get(league=league)
    assert invite.digest == token_digest(url.split("/")[2])
    assert first.context["new_invite"] == invite
    # Taken out of the session: the reload (a GET, not the post again) shows it no more,
    # makes no second invite, and may be cached as usual.
    assert "shown_once.invite" not in c.session
    again = c.get(page)
    assert url not in again.content.decode() and "/invites/" not in again.content.decode()
    assert again.get("Cache-Control") != "no-store" and again.context["new_invite"] is None
    assert Invite.objects.filter(league=league).count() == 1
    # Nor does any other page show it.
    c.post(page, INVITE)
    for other in (f"/leagues/{league.slug}/", f"/leagues/{league.slug}/players/", "/"):
        assert "/invites/" not in c.get(other).content.decode()
    assert len(new_link(c.get(page))) > len("/invites/")


def test_an_invite_revoked_before_the_redirect_is_not_shown():
    league, admin = make_league()
    c = as_user(admin)
    page = f"/leagues/{league.slug}/members/"
    assert c.post(page, INVITE).status_code == 303
    invite = Invite.objects.get(league=league)
    invite_revoke(invite=invite, by=admin)
    r = c.get(page)
    assert r.status_code == 200 and "/invites/" not in r.content.decode()
    assert r.context["new_link"] is None and r.get("Cache-Control") != "no-store"
    assert "shown_once.invite" not in c.session


def test_an_invite_link_kept_for_one_league_is_not_shown_on_anothers_members_page():
    league, admin = make_league()
    other, _ = make_league(slug="sunday", admin=admin)
    c = as_user(admin)
    assert c.post(f"/leagues/{league.slug}/members/", INVITE).status_code == 303
    r = c.get(f"/leagues/{other.slug}/members/")
    assert r.status_code == 200 and "/invites/" not in r.content.decode()
    assert r.context["new_link"] is None and r.get("Cache-Control") != "no-store"
    # Dropped, not kept for later: its own page no longer shows it either.
    assert "shown_once.invite" not in c.session
    assert "/invites/" not in c.get(f"/leagues/{league.slug}/members/").content.decode()


def test_a_bad_invite_form_is_shown_again_with_its_errors_and_no_redirect():
    league, admin = make_league()
    c = as_user(admin)
    r = c.post(f"/leagues/{league.slug}/members/", {**INVITE, "invite-days": "0"})
    assert r.status_code == 400 and r.context["invite_form"].errors["days"]
    assert not Invite.objects.filter(league=league).exists()
    assert "shown_once.invite" not in c.session


def test_house_rules_page_uses_the_announcement_widgets_and_keeps_the_history():
    league, admin = make_league()
    rob = add_member(league, "rob", "authority")
    keeper = add_member(league, "keeper", "scorekeeper")
    assert as_user(keeper).get(f"/leagues/{league.slug}/house-rules/").status_code == 403
    c = as_user(rob)
    page = c.get(f"/leagues/{league.slug}/house-rules/").content.decode()
    assert 'name="opt-kings_and_little_ones__king_required"' in page
    r = c.post(
        f"/leagues/{league.slug}/house-rules/",
        {"opt-kings_and_little_ones__king_required": "no", "opt-low_hole__game": "high_low"},
    )
    assert r.status_code == 302
    league.refresh_from_db()
    assert league.house_rules == {
        "kings_and_little_ones": {"king_required": False},
        "low_hole": {"game": "high_low"},
    }
    # The admin edits them too; the page lists both changes, newest first.
    back = {"opt-kings_and_little_ones__king_required": "yes", "opt-low_hole__game": "high"}
    assert as_user(admin).post(f"/leagues/{league.slug}/house-rules/", back).status_code == 302
    league.refresh_from_db()
    assert league.house_rules == {}
    page = c.get(f"/leagues/{league.slug}/house-rules/").content.decode()
    history = page[page.index("house-rules-history") :]
    assert history.index(admin.username) < history.index("rob")
    assert "king_required False" in history
