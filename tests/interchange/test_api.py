"""PHH over REST and the pages' download links and upload form (both databases)."""

from __future__ import annotations

import pytest
from django.template.loader import render_to_string
from django.test import RequestFactory
from rest_framework.test import APIClient

from tests.factories import add_member, make_league, make_tournament, make_user
from tests.factories import api_client as client_for
from tests.interchange.histories import FOLD, LOW_HOLD, SHOWDOWN, night
from tests.support.imports import imports_url, upload
from tests.support.recording import record
from tracker.engine import phh
from tracker.hands.models import Hand
from tracker.interchange.models import ImportJob
from tracker.tournaments.selectors import tournament_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(django_capture_on_commit_callbacks):
    league, admin = make_league(slug="friday")
    tournament, players = make_tournament(league=league, by=admin)
    return {
        "league": league,
        "admin": admin,
        "api": client_for(admin),
        "tournament": tournament,
        "players": players,
        "capture": lambda: django_capture_on_commit_callbacks(execute=True),
    }


def test_a_small_upload_is_imported_at_once_with_the_report(setup):
    api, t = setup["api"], setup["tournament"]
    hands = night([FOLD, SHOWDOWN, LOW_HOLD])
    files = [upload("1.phh", phh.dumps(hands[0])), upload("2-3.phhs", phh.dumps(hands[1:]))]
    with setup["capture"]():
        r = api.post(imports_url(t), {"files": files}, format="multipart")
    assert r.status_code == 201, r.json()
    body = r.json()
    assert body["status"] == "done" and body["tournament"] == t.pk
    assert (body["total"], body["done"], body["imported"], body["skipped"]) == (3, 3, 3, 0)
    assert body["summary"] == "0 hands already imported, 3 new" and body["errors"] == []
    assert [f["name"] for f in body["files"]] == ["1.phh", "2-3.phhs"]
    assert body["progress"] == 1.0 and body["created_by"] == "friday-admin"
    # Again: nothing new, and it says so.
    files = [upload("1.phh", phh.dumps(hands[0])), upload("2-3.phhs", phh.dumps(hands[1:]))]
    r = api.post(imports_url(t), {"files": files}, format="multipart")
    assert r.status_code == 201
    assert r.json()["summary"] == "3 hands already imported, 0 new"
    listed = api.get(imports_url(t)).json()
    assert [j["summary"] for j in listed] == [
        "3 hands already imported, 0 new",
        "0 hands already imported, 3 new",
    ]


def test_a_failed_upload_answers_400_naming_the_file_hand_and_action(setup):
    api, t = setup["api"], setup["tournament"]
    hands = night([FOLD, SHOWDOWN])
    hands[1]["actions"][4] = "p2 cbr 60"  # a completion is to 20
    r = api.post(
        imports_url(t), {"files": [upload("game.phhs", phh.dumps(hands))]}, format="multipart"
    )
    assert r.status_code == 400
    error = r.json()["error"]
    assert error["code"] == "import_failed"
    assert error["message"].startswith("game.phhs, hand 2, action 4 'p2 cbr 60': ")
    assert list(error["fields"]) == ["files[0]"]
    assert error["fields"]["files[0]"][0] == error["message"]
    assert not Hand.objects.filter(tournament=t).exists()
    job = ImportJob.objects.get()
    assert job.status == "failed"


def test_upload_needs_files_and_the_role(setup):
    api, t, league = setup["api"], setup["tournament"], setup["league"]
    r = api.post(imports_url(t), {}, format="multipart")
    assert r.status_code == 400 and "files" in r.json()["error"]["fields"]
    member = add_member(league, "mo", "member")
    body = {"files": [upload("1.phh", phh.dumps(night([FOLD])[0]))]}
    r = client_for(member).post(imports_url(t), body, format="multipart")
    assert r.status_code == 403
    assert client_for().post(imports_url(t), body, format="multipart").status_code == 401


def test_a_large_upload_is_queued_and_its_progress_readable(setup, settings):
    settings.PHH_IMPORT_INLINE_MAX = 2
    api, t = setup["api"], setup["tournament"]
    body = {"files": [upload("night.phhs", phh.dumps(night([FOLD, SHOWDOWN, LOW_HOLD])))]}
    with setup["capture"]():
        r = api.post(imports_url(t), body, format="multipart")
        assert r.status_code == 202, r.json()
        queued = r.json()
        assert queued["status"] == "queued" and queued["total"] == 3 and queued["done"] == 0
    r = api.get(f"/api/v1/imports/{queued['id']}/")
    assert r.status_code == 200
    job = r.json()
    assert (job["status"], job["total"], job["done"], job["imported"], job["skipped"]) == (
        "done",
        3,
        3,
        3,
        0,
    )
    assert job["errors"] == [] and job["progress"] == 1.0
    assert api.get("/api/v1/imports/", {"tournament": t.pk}).json()["count"] == 1


def test_private_leagues_hide_imports_and_exports_from_outsiders(
    django_capture_on_commit_callbacks,
):
    league, admin = make_league(slug="secret", public=False)
    tournament, _ = make_tournament(league=league, by=admin)
    with django_capture_on_commit_callbacks(execute=True):
        hand = record(tournament, admin, {"actions": FOLD}, mode="full", variant="seven_card_stud")
    job_body = {"files": [upload("x.phh", phh.dumps(night([SHOWDOWN])[0]))]}
    client_for(admin).post(imports_url(tournament), job_body, format="multipart")
    job = ImportJob.objects.get()
    outsider = client_for(make_user("outsider"))
    for url in (
        f"/api/v1/hands/{hand.pk}/phh",
        f"/api/v1/tournaments/{tournament.pk}/phh",
        "/api/v1/leagues/secret/phh",
        f"/api/v1/imports/{job.pk}/",
        imports_url(tournament),
    ):
        r = outsider.get(url)
        assert r.status_code == 404, url
        assert r.json()["error"]["code"] == "not_found"
        assert client_for(admin).get(url).status_code == 200, url
    r = outsider.post(imports_url(tournament), job_body, format="multipart")
    assert r.status_code == 404
    member = client_for(add_member(league, "mo", "member"))
    assert member.get("/api/v1/leagues/secret/phh").status_code == 200


def test_exports_are_phh_attachments(setup):
    t, admin = setup["tournament"], setup["admin"]
    with setup["capture"]():
        hand = record(t, admin, {"actions": FOLD}, mode="full", variant="seven_card_stud")
        stakes = tournament_state(t).next_stakes
        seats = [
            {"player": s.player_id, "put_in": stakes.ante, "folded": "third"}
            for s in tournament_state(t).next_positions()
        ]
        seats[0] = {"player": seats[0]["player"], "put_in": stakes.ante + stakes.bring_in}
        quick = record(t, admin, {"seats": seats}, variant="seven_card_stud")
    anonymous = APIClient()
    r = anonymous.get(f"/api/v1/hands/{hand.pk}/phh")
    assert r.status_code == 200
    assert r["Content-Type"] == "application/x-phh; charset=utf-8"
    assert r["Content-Disposition"] == 'attachment; filename="' + (
        f'{t.date:%Y-%m-%d}-game-night-hand-1.phh"'
    )
    assert phh.loads(r.content.decode())[0]["actions"] == FOLD
    r = anonymous.get(f"/api/v1/hands/{quick.pk}/phh", HTTP_ACCEPT="application/x-phh")
    assert r.status_code == 409 and r.json()["error"]["code"] == "no_action_history"
    r = anonymous.get(f"/api/v1/tournaments/{t.pk}/phh/")
    assert r.status_code == 200 and r["X-PHH-Hands"] == "1" and r["X-PHH-Left-Out"] == "1"
    assert r["Content-Disposition"].endswith('-game-night.phhs"')
    assert "hand 2" in r.content.decode().split("\n\n")[0]
    r = anonymous.get("/api/v1/leagues/friday/phh")
    assert r.status_code == 200 and r["Content-Disposition"].endswith('filename="friday.phhs"')
    assert anonymous.get("/api/v1/hands/999999/phh").status_code == 404


def test_the_pages_download_links_and_upload_form(setup, client):
    t, admin = setup["tournament"], setup["admin"]
    with setup["capture"]():
        hand = record(t, admin, {"actions": FOLD}, mode="full", variant="seven_card_stud")
    r = client.get(f"/hands/{hand.pk}/download.phh")
    assert r.status_code == 200 and r["Content-Type"].startswith("application/x-phh")
    r = client.get(f"/tournaments/{t.pk}/download.phhs")
    assert r.status_code == 200 and b"[1]" in r.content
    assert client.get("/leagues/friday/download.phhs").status_code == 200
    # The upload form: anonymous users are sent to log in; scorekeepers import.
    second = night([FOLD, SHOWDOWN])[1]
    r = client.post(
        f"/tournaments/{t.pk}/imports/", {"files": [upload("2.phh", phh.dumps(second))]}
    )
    assert r.status_code == 302 and "/accounts/login/" in r["Location"]
    client.force_login(admin)
    with setup["capture"]():
        r = client.post(
            f"/tournaments/{t.pk}/imports/", {"files": [upload("2.phh", phh.dumps(second))]}
        )
    assert r.status_code == 302 and r["Location"] == t.get_absolute_url()
    assert Hand.objects.filter(tournament=t).count() == 2
    member = add_member(setup["league"], "mo", "member")
    client.force_login(member)
    r = client.post(f"/tournaments/{t.pk}/imports/", {"files": [upload("2.phh", "x")]})
    assert r.status_code == 403


def test_the_imports_include_lists_jobs_and_follows_running_ones(setup):
    t, admin = setup["tournament"], setup["admin"]
    request = RequestFactory().get("/")
    request.user = admin
    html = render_to_string(
        "tracker/_imports.html", {"tournament": t, "can_record": False}, request=request
    )
    assert html.strip() == ""  # nothing to show, nothing to do
    html = render_to_string(
        "tracker/_imports.html", {"tournament": t, "can_record": True}, request=request
    )
    assert 'name="files"' in html and "csrfmiddlewaretoken" in html
    hands = night([FOLD])
    hands[0]["bring_in"] = 5
    api = setup["api"]
    api.post(
        imports_url(t), {"files": [upload("bad.phh", phh.dumps(hands[0]))]}, format="multipart"
    )
    queued = ImportJob.objects.create(tournament=t, created_by=admin, total=40, done=12)
    html = render_to_string(
        "tracker/_imports.html", {"tournament": t, "can_record": False}, request=request
    )
    assert "bad.phh, hand 1, bring_in: the file has bring_in 5" in html
    assert f'data-import-poll="/api/v1/imports/{queued.pk}/"' in html
    assert "12 / 40 hands" in html
