"""axe-core checks every page, at phone (375x740) and desktop (1280x800) size, in Debian's
Chromium; so do the tap-target and sideways-scrolling checks of tests/web/targets.py.

Each page is loaded as the role that sees it whole (anonymous for the public pages,
the scorekeeper for the entry forms and the live logger, the league's authority for the disputes queue and
the ruling form, its admin for the audit log, a member for a dispute and a refusal), checked against the WCAG 2.0/2.1 A and
AA rules (tests/web/axe.py), and photographed under test-artifacts/web/a11y-*.png.
The test fails listing every violation: rule, impact and target selectors; every tap target
under 24x24 px that no WCAG 2.5.8 exception covers; and any sideways scrolling that is not a
labelled, focusable table region with a visible hint.
"""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone

from tests.factories import make_tournament, make_user, showdown_entry
from tests.web.axe import axe_violations, describe
from tests.web.conftest import (
    ACES,
    BROWSER_TESTS,
    DESKTOP,
    KINGS,
    PHONE,
    add_member,
    live_act,
    live_prompt,
    live_tap,
    live_type_street,
    log_in,
    make_game,
    record_sample_hands,
)
from tests.web.targets import overflow_problems, small_targets
from tracker.accounts.services import email_address_set, verification_token
from tracker.games.services import league_game_create
from tracker.leagues.models import Player, invite_path
from tracker.leagues.services import invite_create
from tracker.rulings.services import house_rules_set
from tracker.schedule.services import night_schedule

pytestmark = BROWSER_TESTS

KLO_ROB = ("K♦", "4♣", "4♠", "7♥", "9♥", "J♦", "2♣")
KLO_OTHER = ("As", "Ah", "3d", "5c", "6c", "8s", "7c")
SLOTS = ("d1", "d2", "u1", "u2", "u3", "u4", "c7")


def fill_calculator(page):
    page.select_option("#id_variant", "kings_and_little_ones")
    page.fill("#id_pl0-name", "Rob")
    for slot, value in zip(SLOTS, KLO_ROB, strict=True):
        page.fill(f"#id_pl0-{slot}", value)
    for slot, value in zip(SLOTS, KLO_OTHER, strict=True):
        page.fill(f"#id_pl1-{slot}", value)
    page.keyboard.press("Escape")
    page.click("[data-testid=calc-submit]")
    page.wait_for_load_state()
    assert "Rob wins" in page.inner_text("[data-testid=calc-result] h2")


def calculate_with_a_bad_card(page):
    page.fill("#id_pl0-name", "Rob")
    page.fill("#id_pl0-d1", "Zz")
    page.keyboard.press("Escape")
    page.click("[data-testid=calc-submit]")
    page.wait_for_load_state()
    assert page.locator("[data-testid=form-error]").is_visible()


def log_in_wrongly(page):
    page.fill("#id_username", "nobody")
    page.fill("#id_password", "wrong")
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    assert page.locator("[role=alert]").is_visible()


def send_an_empty_hand(page):
    page.click("[data-testid=submit-hand]")
    page.wait_for_load_state()
    assert page.locator("[data-testid=form-error]").is_visible()


def open_the_card_picker(page):
    page.select_option("#id_variant", "seven_card_stud")
    page.locator("[data-testid=seat-0] [name$='-d1']").click()
    assert page.locator(".picker").is_visible()


def import_a_broken_file(page):
    page.set_input_files(
        "#import-files",
        files=[{"name": "broken.phh", "mimeType": "text/plain", "buffer": b"variant = 'X'\n"}],
    )
    page.click("[data-testid=imports] button[type=submit]")
    page.wait_for_load_state()
    assert page.locator("[data-testid=imports] .import").count() == 1


def sign_up_badly(page):
    page.fill("#id_username", "a b")
    page.fill("#id_password1", "123")
    page.fill("#id_password2", "123")
    page.click("[data-testid=signup-submit]")
    page.wait_for_load_state()
    assert page.locator(".has-error").count() == 2  # the username and the password


def make_a_token(page):
    page.fill("#id_label", "scoring laptop")
    page.click("[data-testid=token-create]")
    page.wait_for_load_state()
    assert page.locator("[data-testid=new-token]").is_visible()


def make_an_invite(page):
    assert page.locator("[data-testid=linked-accounts] .member-row").count() == 1
    page.click("[data-testid=invite-create]")
    page.wait_for_load_state()
    assert page.locator("[data-testid=invite-link]").count() >= 1


def start_a_live_hand(page):
    live_tap(page, "button:text-is('Start the hand')")
    assert "Deal third street" in live_prompt(page)


def deal_the_door_cards(page):
    live_type_street(page, "2c Kd Qh".split())
    assert "to act" in live_prompt(page)


def bet_to_check_around(page):
    """The door cards are in: bring in, two calls, fourth street dealt: "Check around"."""
    live_tap(page, "#next button:has-text('Bring in')")
    live_tap(page, "#next button:has-text('Call')")
    live_tap(page, "#next button:has-text('Call')")
    live_type_street(page, "3d 4d 5h".split())
    assert page.locator("#next button:text-is('Check around')").count() == 1


def check_down_to_the_showdown(page):
    """Check around on every street: the showdown asks for the cards, or a muck."""
    live_act(page, "Check around")
    for codes in ("6c 7c 8c", "9h Th Jh"):
        live_type_street(page, codes.split())
        live_act(page, "Check around")
    live_act(page, "Check around")  # seventh street, dealt face down
    assert page.locator(".live-mucks button").count() == 3


def muck_two(page):
    """Two concede: the last hand wins uncontested, its cards optional."""
    live_tap(page, ".live-mucks button")
    live_tap(page, ".live-mucks button")
    assert live_prompt(page) == "The hand is over: record it"


def rule_against_the_engine(game, authority):
    """One more disputed hand, ruled with the override (the table's result stands)."""
    from tracker.hands.services.recording import hand_record
    from tracker.rulings.services import ruling_make
    from tracker.tournaments.selectors import tournament_state

    t = game.tournament
    loser = tournament_state(t).next_positions()[1].player_id
    hand = hand_record(
        tournament=t,
        by=game.admin,
        entry_mode="quick",
        entry=showdown_entry(t, [ACES, KINGS], 24),
        variant="seven_card_stud",
        table_result={"winners": [loser]},
    )
    ruling_make(pot=hand.pots.get(), by=authority, result="table", reason="Rob is right")
    return hand


def finish_a_night(game):
    """A finished night, so the league page shows its standings."""
    from tracker.tournaments.models import TournamentStatus
    from tracker.tournaments.services import final_standings_write

    last_week, _ = make_tournament(
        league=game.league, by=game.admin, names=("Dee", "Eve", "Fay"), name="Last week"
    )
    last_week.status = TournamentStatus.FINISHED
    last_week.save(update_fields=["status"])
    final_standings_write(tournament=last_week)


def define_a_broken_game(page):
    page.fill("#id_name", "Broken")
    page.fill("#id_definition", '{"pot": {"kind": "high", "low": {}}, "max_players": 1}')
    page.click("[data-testid=game-save]")
    page.wait_for_load_state()
    assert page.locator("[data-testid=form-error]").is_visible()


def start_no_night(page):
    page.get_by_label("My own (the rows below)").check()
    page.fill("#id_stakes_rows", "4 10 20 40\n6 15 30 61")
    page.click("[data-testid=start-night]")
    page.wait_for_load_state()
    assert page.locator("[data-testid=form-error]").is_visible()


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_every_page_passes_axe(site, browser, shots, size):
    game = make_game()
    hands = record_sample_hands(game)
    authority = add_member(game.league, "friday-authority", "authority")
    t, league, player = game.tournament, game.league, game.players[0]
    slug = league.slug
    full = hands["full"].get_absolute_url()
    overridden = rule_against_the_engine(game, authority)
    finish_a_night(game)
    _, invite_token = invite_create(league=league, role="scorekeeper", by=game.admin)
    # The member's address waits for verification: the profile shows it, the link's page asks.
    waiting, _ = email_address_set(user=game.member, address="jo@example.org", base_url=site)
    verify_path = f"/accounts/email/verify/{verification_token(waiting)}/"
    # A player's account with no role: the members page lists it apart, to give it a role.
    linked = make_user("friday-player")
    Player.objects.filter(pk=game.players[-1].pk).update(user=linked)
    # A night scheduled ahead: its check-in at the door, and the linked player's nights.
    night = night_schedule(
        league=league,
        starts_at=timezone.now() + dt.timedelta(days=2),
        place="Alex's kitchen",
        seats=6,
        by=game.admin,
        base_url=site,
    )
    house_rules_set(
        league=league,
        house_rules={"kings_and_little_ones": {"king_required": False}},
        by=authority,
    )
    house_game = league_game_create(
        league=league, by=game.admin, name="Baseball", preset="baseball"
    ).slug

    # (role, name, address, expected status, what to do on the page before checking it)
    pages = [
        (None, "home", "/", 200, None),
        (None, "league", league.get_absolute_url(), 200, None),
        (None, "league-table", f"/leagues/{slug}/table/", 200, None),
        (None, "league-stats", f"/leagues/{slug}/stats/", 200, None),
        (None, "tournament", t.get_absolute_url(), 200, None),
        (None, "tournament-stats", f"/tournaments/{t.pk}/stats/", 200, None),
        (None, "player", f"/players/{player.pk}/", 200, None),
        (None, "player-stats", f"/players/{player.pk}/stats/", 200, None),
        (None, "hand-full-street", f"{full}?street=3", 200, None),
        (None, "hand-full-step", f"{full}?step=3", 200, None),
        (None, "hand-quick", hands["showdown"].get_absolute_url(), 200, None),
        (None, "hand-disputed", hands["disputed"].get_absolute_url(), 200, None),
        (None, "hand-overridden", overridden.get_absolute_url(), 200, None),
        (None, "calculator-result", "/calculator/", 200, fill_calculator),
        (None, "calculator-error", "/calculator/", 200, calculate_with_a_bad_card),
        (None, "login", "/accounts/login/", 200, None),
        (None, "login-error", "/accounts/login/", 200, log_in_wrongly),
        (None, "404", "/leagues/no-such-league/", 404, None),
        (game.keeper, "hand-form", f"/tournaments/{t.pk}/hands/new/", 200, None),
        (
            game.keeper,
            "hand-form-picker",
            f"/tournaments/{t.pk}/hands/new/",
            200,
            open_the_card_picker,
        ),
        (
            game.keeper,
            "hand-form-errors",
            f"/tournaments/{t.pk}/hands/new/",
            200,
            send_an_empty_hand,
        ),
        (game.keeper, "phh-import", t.get_absolute_url(), 200, import_a_broken_file),
        (game.keeper, "live-start", f"/tournaments/{t.pk}/live/", 200, None),
        (game.keeper, "live-deal", f"/tournaments/{t.pk}/live/", 200, start_a_live_hand),
        (game.keeper, "live-bet", f"/tournaments/{t.pk}/live/", 200, deal_the_door_cards),
        (game.keeper, "live-check-around", f"/tournaments/{t.pk}/live/", 200, bet_to_check_around),
        (
            game.keeper,
            "live-showdown",
            f"/tournaments/{t.pk}/live/",
            200,
            check_down_to_the_showdown,
        ),
        (game.keeper, "live-uncontested", f"/tournaments/{t.pk}/live/", 200, muck_two),
        (authority, "disputes", f"/leagues/{slug}/disputes/", 200, None),
        (game.admin, "audit", f"/leagues/{slug}/audit/", 200, None),
        (authority, "ruling-form", f"/hands/{hands['disputed'].pk}/pots/0/rule/", 200, None),
        (game.member, "dispute-form", f"/hands/{hands['showdown'].pk}/pots/0/dispute/", 200, None),
        (game.member, "403", f"/tournaments/{t.pk}/hands/new/", 403, None),
        # Accounts and running a league
        (None, "signup", "/accounts/signup/", 200, None),
        (None, "signup-errors", "/accounts/signup/", 200, sign_up_badly),
        (None, "password-reset", "/accounts/password_reset/", 200, None),
        (None, "invite", invite_path(invite_token), 200, None),
        (game.member, "profile", "/accounts/profile/", 200, make_a_token),
        (game.member, "password-change", "/accounts/password_change/", 200, None),
        (None, "email-verify", verify_path, 200, None),
        (game.member, "league-new", "/leagues/new/", 200, None),
        (game.member, "invite-accept", invite_path(invite_token), 200, None),
        (game.keeper, "roster", f"/leagues/{slug}/players/", 200, None),
        (game.admin, "members", f"/leagues/{slug}/members/", 200, make_an_invite),
        (authority, "house-rules", f"/leagues/{slug}/house-rules/", 200, None),
        (game.keeper, "night-form", f"/leagues/{slug}/nights/new/", 200, None),
        (game.keeper, "night-form-errors", f"/leagues/{slug}/nights/new/", 200, start_no_night),
        (game.admin, "night-form-admin", f"/leagues/{slug}/nights/new/", 200, None),
        (game.admin, "league-money", f"/leagues/{slug}/money/", 200, None),
        # A league's house games
        (None, "games", f"/leagues/{slug}/games/", 200, None),
        (None, "game", f"/leagues/{slug}/games/{house_game}/", 200, None),
        (None, "game-preview", f"/leagues/{slug}/games/{house_game}/preview/", 200, None),
        (game.admin, "game-new", f"/leagues/{slug}/games/new/", 200, None),
        (game.admin, "game-preset", f"/leagues/{slug}/games/new/?preset=low_chicago", 200, None),
        (
            game.admin,
            "game-scratch-errors",
            f"/leagues/{slug}/games/new/?preset=scratch",
            200,
            define_a_broken_game,
        ),
        (game.admin, "game-edit", f"/leagues/{slug}/games/{house_game}/edit/", 200, None),
        (None, "table-screen", f"/tournaments/{t.pk}/table/", 200, None),
        (game.keeper, "night-check-in", f"/nights/{night.pk}/check-in/", 200, None),
        (linked, "my-nights", "/me/nights/", 200, None),
    ]

    viewport = PHONE if size == "phone" else DESKTOP
    found: list[str] = []
    contexts = {}
    try:
        for role, name, url, status, act in pages:
            if role not in contexts:
                context = browser.new_context(viewport=viewport, is_mobile=size == "phone")
                context.set_default_timeout(10_000)
                contexts[role] = context.new_page()
                if role is not None:
                    log_in(contexts[role], site, role.username)
            page = contexts[role]
            response = page.goto(f"{site}{url}")
            assert response.status == status, (name, url, response.status)
            if act:
                act(page)
            where = f"{name} ({size}, {re.sub(r'^https?://[^/]+', '', page.url)})"
            found += describe(where, axe_violations(page))
            found += [f"{where}: target under 24x24 px: {t}" for t in small_targets(page)]
            found += [f"{where}: {problem}" for problem in overflow_problems(page)]
            shots(page, f"a11y-{size}-{name}")
    finally:
        for page in contexts.values():
            page.context.close()
    assert not found, f"{len(found)} accessibility problems:\n" + "\n".join(found)


def test_the_check_reports_what_it_finds(browser):
    """A page with known faults: the check is not silently passing everything."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_content(
        '<!doctype html><html lang="en"><head><title>faults</title></head><body><main>'
        '<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=">'
        '<p style="color:#aaa;background:#fff">faint text</p>'
        '<input id="x" type="text"></main></body></html>'
    )
    lines = describe("faults", axe_violations(page))
    context.close()
    rules = {line.split()[1] for line in lines}
    assert {"image-alt", "color-contrast", "label"} <= rules, lines
    assert any("[critical]" in line and "-> img" in line for line in lines), lines


def test_the_target_and_overflow_checks_report_what_they_find(browser):
    """Known faults and a known exception: small targets fail (also one standing alone), a
    link inside a sentence passes, and a table that scrolls without a hint is caught."""
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.set_content(
        '<!doctype html><html lang="en"><head><title>targets</title><style>'
        "body{margin:0;font:16px sans-serif} a.tiny{font-size:10px}"
        "button.small{width:12px;height:12px;padding:0}</style></head><body><main>"
        '<p style="margin:40px 0">A sentence with <a href="#a" class="tiny">an inline link</a> inside.</p>'
        '<p style="margin:40px 0"><a href="#b" class="tiny">1</a><a href="#c" class="tiny">2</a></p>'
        '<p style="margin:40px 0"><a href="#d" class="tiny">alone</a></p>'
        '<p style="margin:40px 0"><button class="small"></button><button class="small"></button></p>'
        '<div class="table-wrap" style="overflow-x:auto"><table><tr><td style="white-space:nowrap">'
        + "wide " * 60
        + "</td></tr></table></div></main></body></html>"
    )
    small = small_targets(page)
    overflow = overflow_problems(page)
    context.close()
    assert sorted(t.split()[0] for t in small) == ["a.tiny"] * 3 + ["button.small"] * 2
    assert not any("inline link" in t for t in small), small  # inside a sentence: exempt
    assert any("without a visible hint" in p for p in overflow), overflow
    assert any("not a focusable, labelled region" in p for p in overflow), overflow
