"""The dispute queue, the ruling and dispute forms, the audit page and the _rulings include."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.test import Client, RequestFactory

from tests.factories import make_user
from tests.rulings.helpers import disputed_hand, league_with_roles
from tracker.audit.models import AuditEntry
from tracker.hands.models import Dispute, HandStatus
from tracker.rulings.models import Ruling

pytestmark = pytest.mark.django_db


def logged_in(user, csrf=False) -> Client:
    client = Client(enforce_csrf_checks=csrf)
    client.force_login(user)
    return client


def test_the_queue_page_shows_both_readings(client, case):
    r = client.get("/leagues/friday/disputes/")
    assert r.status_code == 200
    html = r.content.decode()
    assert 'data-testid="pot-case"' in html and "open" in html
    assert "K♦ as 4♥" in html and "2♣ as 4♦" in html  # the wild cards and what they stood for
    assert "four fours" in html
    assert "Rule on this pot" not in html  # anonymous
    r = logged_in(case["users"]["authority"]).get("/leagues/friday/disputes/")
    assert "Rule on this pot" in r.content.decode()
    assert client.get("/leagues/friday/disputes/?state=ruled").status_code == 200
    assert client.get("/leagues/nowhere/disputes/").status_code == 404


def test_the_authority_rules_with_the_form(case):
    hand = case["hand"]
    url = f"/hands/{hand.pk}/pots/0/rule/"
    rob = logged_in(case["users"]["authority"])
    r = rob.get(url)
    assert r.status_code == 200 and "Record the ruling" in r.content.decode()
    r = rob.post(url, {"result": "engine", "reason": ""})
    assert r.status_code == 200 and "This field is required" in r.content.decode()
    r = rob.post(url, {"result": "award", f"award_{case['order'][0]}": 100, "reason": "chop"})
    assert r.status_code == 200 and "add up to" in r.content.decode()
    assert not Ruling.objects.exists()
    r = rob.post(url, {"result": "engine", "reason": "the kings and the deuce make four fours"})
    assert r.status_code == 302 and r["Location"] == "/leagues/friday/disputes/"
    ruling = Ruling.objects.get()
    assert ruling.correction and ruling.ruled_by == case["users"]["authority"]
    hand.refresh_from_db()
    assert hand.status == HandStatus.VERIFIED
    page = rob.get("/leagues/friday/disputes/?state=ruled").content.decode()
    assert "the kings and the deuce make four fours" in page and "Rule again" in page
    assert AuditEntry.objects.get(action="ruling.make").channel == "session"


def test_only_the_authority_reaches_the_ruling_form(client, case):
    url = f"/hands/{case['hand'].pk}/pots/0/rule/"
    r = client.get(url)
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]
    for role in ("admin", "scorekeeper", "member"):
        r = logged_in(case["users"][role]).post(url, {"result": "engine", "reason": "x"})
        assert r.status_code == 403, role
    assert logged_in(make_user("passer-by")).get(url).status_code == 403
    assert not Ruling.objects.exists()


def test_forms_refuse_a_post_without_the_csrf_token(case):
    rob = logged_in(case["users"]["authority"], csrf=True)
    url = f"/hands/{case['hand'].pk}/pots/0/rule/"
    r = rob.post(url, {"result": "engine", "reason": "no token"})
    assert r.status_code == 403
    member = logged_in(case["users"]["member"], csrf=True)
    r = member.post(f"/hands/{case['hand'].pk}/pots/0/dispute/", {"reason": "no token"})
    assert r.status_code == 403
    assert not Ruling.objects.exists()
    assert Dispute.objects.filter(source="member").count() == 0
    # With the token from the form, the same post goes through.
    page = rob.get(url)
    token = page.context["csrf_token"]
    r = rob.post(url, {"result": "engine", "reason": "with token", "csrfmiddlewaretoken": token})
    assert r.status_code == 302


def test_members_dispute_with_the_form(case):
    hand = case["hand"]
    url = f"/hands/{hand.pk}/pots/0/dispute/"
    member = logged_in(case["users"]["member"])
    assert member.get(url).status_code == 200
    r = member.post(url, {"reason": ""})
    assert r.status_code == 200 and "This field is required" in r.content.decode()
    r = member.post(url, {"reason": "the 2c was face up"})
    assert r.status_code == 302 and r["Location"] == hand.get_absolute_url()
    assert Dispute.objects.filter(source="member", reason="the 2c was face up").exists()
    r = member.post(url, {"reason": "again"})
    assert r.status_code == 200 and "already disputed" in r.content.decode()
    assert logged_in(make_user("passer-by")).post(url, {"reason": "x"}).status_code == 403


def test_the_audit_page_is_for_admins_and_the_authority(client, case):
    url = "/leagues/friday/audit/"
    assert client.get(url).status_code == 302
    for role in ("member", "scorekeeper"):
        assert logged_in(case["users"][role]).get(url).status_code == 403
    r = logged_in(case["users"]["authority"]).get(url)
    assert r.status_code == 200 and "dispute.flag" in r.content.decode()
    league = logged_in(case["users"]["authority"]).get("/leagues/friday/").content.decode()
    assert 'href="/leagues/friday/audit/"' in league
    member = logged_in(case["users"]["member"]).get("/leagues/friday/").content.decode()
    assert 'href="/leagues/friday/audit/"' not in member
    r = logged_in(case["users"]["admin"]).get(url)
    assert r.status_code == 200
    html = r.content.decode()
    assert "hand.record" in html and "dispute.flag" in html
    r = logged_in(case["users"]["admin"]).get(url + "?action=dispute.&actor=system")
    assert r.content.decode().count('data-testid="audit-entry"') == 1


def test_private_league_pages_are_404_to_outsiders(django_capture_on_commit_callbacks):
    league, users = league_with_roles(slug="secret", public=False)
    _, hand, _ = disputed_hand(league, users["admin"], django_capture_on_commit_callbacks)
    for client in (Client(), logged_in(make_user("outsider"))):
        assert client.get("/leagues/secret/disputes/").status_code == 404
        assert client.get("/leagues/secret/audit/").status_code in (302, 404)
        assert client.get(f"/hands/{hand.pk}/pots/0/rule/").status_code == 404
        assert client.get(f"/hands/{hand.pk}/pots/0/dispute/").status_code == 404
    outsider = logged_in(make_user("outsider2"))
    assert outsider.get("/leagues/secret/audit/").status_code == 404


def test_the_rulings_include_renders_a_hands_disputes_and_rulings(case):
    from tracker.rulings.services import ruling_make

    hand = case["hand"]
    ruling_make(pot=hand.pots.get(), by=case["users"]["authority"], result="table", reason="Rob")
    request = RequestFactory().get("/")
    request.user = case["users"]["member"]
    html = render_to_string("tracker/_rulings.html", {"hand": hand}, request=request)
    assert "Disputes and rulings" in html and "Rob is right" in html
    assert "The table&#x27;s result stands" in html or "The table's result stands" in html
    assert "Dispute the main pot" in html and "Rule again" not in html
    request.user = case["users"]["authority"]
    html = render_to_string("tracker/_rulings.html", {"hand": hand}, request=request)
    assert "Rule again" in html
    from django.template import Context, Template

    badge = Template("{% load rulings_tags %}{% ruling_state hand %}").render(
        Context({"hand": hand})
    )
    assert badge == "override"  # the table's result stands against the engine's


def _badges(html: str, testid: str) -> list[str]:
    import re

    return re.findall(rf'<span class="badge ([a-z]+)"[^>]*data-testid="{testid}"', html)


def test_rulings_show_where_people_look(client, case):
    """The disputes link counts open pots; the hand and the tournament's hand list say open,
    then ruled; after an override the status reads override, never verified."""
    from tracker.rulings.services import ruling_make

    hand, league_url = case["hand"], "/leagues/friday/"
    tournament_url = hand.tournament.get_absolute_url()
    assert "1 open" in client.get(league_url).content.decode()
    html = client.get(hand.get_absolute_url()).content.decode()
    assert _badges(html, "hand-status") == ["disputed"] and _badges(html, "hand-ruling") == ["open"]
    assert "1 open" in html  # the disputes link under the hand's rulings
    html = client.get(tournament_url).content.decode()
    assert _badges(html, "hand-ruling") == ["open"]

    # The engine's result stands: verified, and ruled.
    pot = hand.pots.get()
    ruling_make(pot=pot, by=case["users"]["authority"], result="engine", reason="four fours")
    assert "open</span>" not in client.get(league_url).content.decode()
    html = client.get(hand.get_absolute_url()).content.decode()
    assert _badges(html, "hand-status") == ["verified"] and _badges(html, "hand-ruling") == [
        "ruled"
    ]

    # Rob is right: the table's result stands against the engine's.
    pot.refresh_from_db()
    ruling_make(pot=pot, by=case["users"]["authority"], result="table", reason="Rob is right")
    for url in (hand.get_absolute_url(), tournament_url):
        html = client.get(url).content.decode()
        assert _badges(html, "hand-ruling") == ["ruled"], url
    html = client.get(hand.get_absolute_url()).content.decode()
    assert _badges(html, "hand-status") == ["override"]
    html = client.get(tournament_url).content.decode()
    row = html[
        html.index('data-testid="hands"') : html.index(
            "</table>", html.index('data-testid="hands"')
        )
    ]
    assert '<span class="badge override"' in row and '<span class="badge verified"' not in row


def _showdown(html: str) -> str:
    return html[html.index('id="showdown"') : html.index("</section>", html.index('id="showdown"'))]


def _seats(html: str) -> dict[str, str]:
    """Each showdown seat's markup, by player name."""
    import re

    section = _showdown(html)
    seats = {}
    for chunk in section.split('<li class="sd-seat')[1:]:
        name = re.search(r'<span class="seat-name">([^<]+)</span>', chunk).group(1)
        seats[name] = chunk[: chunk.index("</li>")]
    return seats


def test_the_showdown_shows_the_result_that_stands_beside_the_engines_reading(
    django_capture_on_commit_callbacks,
):
    """The engine gives the pot to the aces, the table to the kings. Disputed, then "Rob is
    right": the showdown says what stands (the table's payout) and marks the engine's pick
    disputed, then overruled, never plain "wins"; when the engine's result stands it wins."""
    from tracker.rulings.services import ruling_make

    league, users = league_with_roles()
    tournament, hand, order = disputed_hand(
        league, users["admin"], django_capture_on_commit_callbacks
    )
    names = {s.player_id: s.player.name for s in tournament.seats.select_related("player")}
    aces, kings = names[order[0]], names[order[1]]
    pot = hand.pots.get()
    client = Client()
    plain_win = '<span class="badge win">wins</span>'

    # Disputed: the table's result stands until the authority rules.
    html = client.get(hand.get_absolute_url()).content.decode()
    seats = _seats(html)
    assert f"Result that stands: <strong>{kings} {pot.amount}</strong>" in _showdown(html)
    assert "the table's result stands until" in _showdown(html)
    assert "engine: wins · disputed" in seats[aces] and plain_win not in _showdown(html)
    assert f"takes {pot.amount}" in seats[kings] and seats[kings].startswith(' winner"')
    assert seats[aces].startswith(' overruled"')

    # The engine's result stands: no note, the aces win as the engine reads it.
    ruling_make(pot=pot, by=users["authority"], result="engine", reason="aces beat kings")
    html = client.get(hand.get_absolute_url()).content.decode()
    seats = _seats(html)
    assert 'data-testid="result-stands"' not in html and "engine:" not in _showdown(html)
    assert plain_win in seats[aces] and seats[aces].startswith(' winner"')
    assert plain_win not in seats[kings]

    # Rob is right: the table's payout stands, the engine's pick is overruled.
    pot.refresh_from_db()
    ruling_make(pot=pot, by=users["authority"], result="table", reason="Rob is right")
    html = client.get(hand.get_absolute_url()).content.decode()
    seats = _seats(html)
    section = _showdown(html)
    assert "the engine's reading, overruled" in section
    assert f"Result that stands: <strong>{kings} {pot.amount}</strong>" in section
    assert "overruled the engine" in section
    assert "engine: wins · overruled" in seats[aces] and plain_win not in section
    assert seats[aces].startswith(' overruled"') and "takes" not in seats[aces]
    assert seats[kings].startswith(' winner"') and f"takes {pot.amount}" in seats[kings]
    # The engine's reading of the cards is still there, for the record.
    assert "Three Aces" in seats[aces] or "three aces" in seats[aces].lower()


def test_the_hand_page_counts_the_open_disputes_with_its_hand(client, case):
    """The "N open" of the disputes link comes with the hand's own read, not a query of its
    own."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    hand = case["hand"]
    with CaptureQueriesContext(connection) as captured:
        html = client.get(hand.get_absolute_url()).content.decode()
    assert "1 open" in html
    sql = [q["sql"] for q in captured.captured_queries]
    assert not [q for q in sql if q.startswith("SELECT COUNT(*)") and '"tracker_pot"' in q]
    hand_reads = [q for q in sql if q.startswith('SELECT "tracker_hand"."id"') and "LIMIT 1" in q]
    assert len(hand_reads) == 1 and '"open_disputes"' in hand_reads[0]
