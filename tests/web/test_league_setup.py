"""Running a league in a real browser, at phone size, as its people would: sign up, start a
league, add the players and link one to an account, invite a scorekeeper who accepts in a
second browser after signing up, give the founder a second role, set the house rules, and
keep API tokens on the profile page. Screenshots: test-artifacts/web/setup-*.png."""

from __future__ import annotations

import re

from tests.factories import make_user
from tests.web.conftest import BROWSER_TESTS, CHROMIUM_ARGS, PHONE  # noqa: F401
from tracker.core.permissions import capabilities
from tracker.leagues.models import League, Player
from tracker.leagues.services import invite_accept, invite_create

pytestmark = BROWSER_TESTS

PASSWORD = "a-long-pass-phrase"


def new_phone(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True)
    context.set_default_timeout(10_000)
    return context.new_page()


def sign_up(page, username: str):
    page.fill("#id_username", username)
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("[data-testid=signup-submit]")
    page.wait_for_load_state()


def test_a_new_user_runs_a_league_from_the_site(site, browser, phone, shots):
    page = phone
    page.goto(f"{site}/")
    page.click("header >> text=Sign up")
    assert page.locator("h1").inner_text() == "Sign up"
    page.fill("#id_username", "ann")
    page.fill("#id_password1", "12345678")
    page.fill("#id_password2", "12345678")
    page.click("[data-testid=signup-submit]")
    page.wait_for_load_state()
    assert "entirely numeric" in page.inner_text(".has-error")
    shots(page, "setup-signup-errors")
    sign_up(page, "ann")
    assert "Logged in as ann" in page.inner_text("[data-testid=who]")

    # Start a league from the home page.
    page.click("[data-testid=league-new]")
    page.wait_for_url(re.compile(r".*/leagues/new/$"))
    page.fill("#id_name", "Thursday Stud")
    page.check("input[name=visibility][value=private]")
    page.select_option("#id_season_length", "quarter")
    page.fill("#id_min_players", "4")
    page.check("#id_authority")
    shots(page, "setup-league-new")
    page.click("[data-testid=league-create]")
    page.wait_for_url(re.compile(r".*/leagues/thursday-stud/players/$"))
    league = League.objects.get(slug="thursday-stud")
    assert not league.is_public and league.season_length == "quarter"

    # The roster: six players, one of them linked to an account: bob's, once he has joined
    # (an invite he accepted; a stranger's account is not linked).
    bob_account = make_user("bob")
    _, token = invite_create(
        league=league, role="member", by=league.memberships.get(role="admin").user
    )
    invite_accept(token=token, user=bob_account)
    for name in ("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"):
        page.fill("#id_add-name", name)
        page.click("[data-testid=player-add]")
        page.wait_for_load_state()
    assert page.locator("[data-testid=roster] li").count() == 6
    bob = Player.objects.get(league=league, name="Bob")
    page.fill(f"#link-{bob.pk}", "nobody")
    page.locator(f"#player-{bob.pk} button").click()
    page.wait_for_load_state()
    assert "no account" in page.inner_text(f"#player-{bob.pk} .errorlist")
    page.fill(f"#link-{bob.pk}", "bob")
    page.locator(f"#player-{bob.pk} button").click()
    page.wait_for_load_state()
    assert "account bob" in page.inner_text(f"#player-{bob.pk}")
    shots(page, "setup-roster")

    # Members and invites: a single-use scorekeeper invite.
    page.goto(f"{site}/leagues/thursday-stud/")
    page.click("text=Members and invites")
    page.check("input[name=invite-role][value=scorekeeper]")
    page.click("[data-testid=invite-create]")
    page.wait_for_load_state()
    link = page.locator("[data-testid=invite-link]").first.input_value()
    assert "/invites/" in link
    # The post was answered with a redirect: the link is on the members page, read with a GET.
    assert page.url == f"{site}/leagues/thursday-stud/members/"
    shots(page, "setup-members")
    # Shown once: the page reloaded lists the invite without its link, and makes no other.
    page.reload()
    assert page.locator("[data-testid=invite-link]").count() == 0
    assert link not in page.content() and "scorekeeper" in page.inner_text("[data-testid=invites]")
    assert league.invites.filter(role="scorekeeper").count() == 1  # (bob's was a member invite)
    page.goto(f"{site}/leagues/thursday-stud/members/")
    assert page.locator("[data-testid=invite-link]").count() == 0

    # A second browser: the invite, sign-up, back to the invite, accept.
    other = new_phone(browser)
    try:
        other.goto(link)
        assert "as scorekeeper" in other.inner_text("main")
        shots(other, "setup-invite")
        other.click("[data-testid=invite-signup]")
        sign_up(other, "sam")
        assert other.url == link
        other.click("[data-testid=invite-accept]")
        other.wait_for_url(re.compile(r".*/leagues/thursday-stud/$"))
        assert "scorekeeper" in other.inner_text("main")
        shots(other, "setup-invite-accepted")
        other.goto(link)
        assert "used already" in other.inner_text("main")
    finally:
        other.context.close()
    sam = league.memberships.get(user__username="sam").user
    assert capabilities(sam, league).roles == ("scorekeeper",)

    # The admin gives sam a second role; the page shows both.
    page.reload()
    member = page.locator(f"#member-{sam.pk}")
    member.locator("input[value=member]").check()
    member.locator("button").click()
    page.wait_for_load_state()
    assert capabilities(sam, league).roles == ("scorekeeper", "member")
    # The founder, the only admin, cannot drop the admin role.
    ann_row = page.locator("[data-testid=members] li", has_text="ann")
    ann_row.locator("input[value=admin]").uncheck()
    ann_row.locator("button").click()
    page.wait_for_load_state()
    assert "last admin" in page.inner_text("[role=alert]")
    shots(page, "setup-members-refused")

    # House rules with the entry form's widgets, and their history.
    page.goto(f"{site}/leagues/thursday-stud/house-rules/")
    page.select_option("#id_opt-kings_and_little_ones__king_required", "no")
    page.click("[data-testid=house-rules-save]")
    page.wait_for_load_state()
    assert "king_required False" in page.inner_text("[data-testid=house-rules-history]")
    shots(page, "setup-house-rules")
    league.refresh_from_db()
    assert league.house_rules == {"kings_and_little_ones": {"king_required": False}}

    # The profile: a token made with a label, shown once, then revoked.
    page.click("[data-testid=who] a")
    page.wait_for_url(re.compile(r".*/accounts/profile/$"))
    page.fill("#id_label", "scoring laptop")
    page.click("[data-testid=token-create]")
    page.wait_for_load_state()
    key = page.locator("#new-token-key").input_value()
    assert len(key) == 40
    assert page.url == f"{site}/accounts/profile/"
    shots(page, "setup-profile-token")
    # Shown once: a reload shows the token's fingerprint, not its key, and makes no other.
    page.reload()
    assert page.locator("#new-token-key").count() == 0 and key not in page.content()
    assert page.locator("[data-testid=tokens] tbody tr").count() == 1
    page.click("button:text-is('Revoke')")
    page.wait_for_load_state()
    assert "revoked" in page.inner_text("[data-testid=tokens]")
    shots(page, "setup-profile")


def test_password_reset_pages_look_like_the_site(site, phone, shots):
    page = phone
    page.goto(f"{site}/accounts/login/")
    page.click("text=Forgot your password?")
    page.wait_for_url(re.compile(r".*/accounts/password_reset/$"))
    assert page.locator(".auth-box h1").inner_text() == "Reset your password"
    shots(page, "setup-password-reset")
    page.fill("#id_email", "nobody@example.org")
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    assert page.locator(".auth-box h1").inner_text() == "Check your email"
    shots(page, "setup-password-reset-done")
