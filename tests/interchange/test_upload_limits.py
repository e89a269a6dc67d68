"""Uploads are bounded: rejected files are not kept, one upload and each user's uploads a
minute are limited in size and number, on the API and the pages alike."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.factories import api_client as client_for
from tests.factories import make_league, make_tournament
from tests.interchange.histories import FOLD, night
from tests.support.imports import imports_url, upload
from tracker.engine import phh
from tracker.interchange.models import ImportFile, ImportFileStatus, ImportJob
from tracker.interchange.services.imports import phh_import_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    league, admin = make_league()
    tournament, _ = make_tournament(league=league, by=admin)
    return admin, tournament


def test_a_rejected_file_keeps_its_name_size_and_hash_only(table):
    admin, tournament = table
    junk = "x = [" * 1000  # not TOML
    bad_hand = phh.dumps(night([FOLD])[0]).replace("antes", "antez")
    job = phh_import_start(
        tournament=tournament, by=admin, files=[("junk.phh", junk), ("bad.phh", bad_hand)]
    )
    files = {f.name: f for f in ImportFile.objects.filter(job=job)}
    for name, text in (("junk.phh", junk), ("bad.phh", bad_hand)):
        f = files[name]
        assert f.status == ImportFileStatus.FAILED and f.error
        assert f.text == ""
        assert f.size == len(text.encode()) and len(f.sha256) == 64


def test_an_imported_file_failing_later_is_not_kept_either(table):
    admin, tournament = table
    hands = night([FOLD, FOLD])
    hands[1]["actions"] = hands[1]["actions"][:2] + ["p9 cc"]  # a hand that cannot be replayed
    job = phh_import_start(
        tournament=tournament, by=admin, files=[("night.phhs", phh.dumps(hands))], inline=True
    )
    f = ImportFile.objects.get(job=job)
    assert f.status == ImportFileStatus.FAILED and f.text == ""


def test_the_api_refuses_an_upload_larger_than_the_bound_unread(table, settings):
    settings.PHH_UPLOAD_MAX_BYTES = 64 * 1024
    admin, tournament = table
    big = "# padding\n" * 4000  # 40 KB each, 80 KB in all
    body = {"files": [upload("a.phh", big), upload("b.phh", big)]}
    r = client_for(admin).post(imports_url(tournament), body, format="multipart")
    assert r.status_code == 413
    assert r.json()["error"]["code"] == "upload_too_large"
    assert not ImportJob.objects.exists()


def test_the_api_limits_uploads_a_minute_per_user(table, settings):
    settings.PHH_UPLOADS_PER_MINUTE = 2
    admin, tournament = table
    api = client_for(admin)
    text = phh.dumps(night([FOLD])[0])
    for _ in range(2):
        r = api.post(
            imports_url(tournament), {"files": [upload("1.phh", text)]}, format="multipart"
        )
        assert r.status_code in (201, 400), r.content
    r = api.post(imports_url(tournament), {"files": [upload("1.phh", text)]}, format="multipart")
    assert r.status_code == 429
    assert r.json()["error"]["code"] == "throttled"
    assert int(r["Retry-After"]) >= 1
    assert re.fullmatch(
        r"At most 2 uploads and 128 MB a minute; try again in \d+ (seconds?|minutes?)\.",
        r.json()["error"]["message"],
    )
    assert ImportJob.objects.count() == 2


def test_the_api_limits_bytes_a_minute_per_user(table, settings):
    settings.PHH_UPLOAD_BYTES_PER_MINUTE = 100 * 1024
    admin, tournament = table
    api = client_for(admin)
    pad = "# padding\n" * 4000  # 40 KB
    for _ in range(2):
        r = api.post(imports_url(tournament), {"files": [upload("a.phh", pad)]}, format="multipart")
        assert r.status_code != 429, r.content
    r = api.post(imports_url(tournament), {"files": [upload("a.phh", pad)]}, format="multipart")
    assert r.status_code == 429
    assert ImportJob.objects.count() == 2


def test_the_page_form_has_the_same_bounds(table, settings):
    settings.PHH_UPLOADS_PER_MINUTE = 3
    settings.PHH_UPLOAD_MAX_BYTES = 64 * 1024
    admin, tournament = table
    page = Client()
    page.force_login(admin)
    url = f"/tournaments/{tournament.pk}/imports/"
    text = phh.dumps(night([FOLD])[0])
    big = "# padding\n" * 8000
    r = page.post(url, {"files": [upload("big.phh", big)]}, follow=True)
    assert r.status_code == 200
    assert "at most" in r.content.decode()
    assert not ImportJob.objects.exists()
    for _ in range(2):  # the oversized upload counted as none
        page.post(url, {"files": [upload("1.phh", text)]})
    assert ImportJob.objects.count() == 2
    for _ in range(5):
        page.post(url, {"files": [upload("1.phh", text)]})
    assert ImportJob.objects.count() == 3
    refused = page.post(url, {"files": [upload("1.phh", text)]}, follow=True).content.decode()
    assert "At most 3 uploads and 128 MB a minute; try again in " in refused


class Clock:
    """The time the upload allowance reads (tracker.interchange.services.imports.time)."""

    def __init__(self, monkeypatch, start: float):
        from tracker.interchange.services import imports

        self.now = start
        monkeypatch.setattr(imports.time, "time", lambda: self.now)


def test_the_allowance_is_a_sliding_minute_not_a_calendar_one(table, settings, monkeypatch):
    settings.PHH_UPLOADS_PER_MINUTE = 10
    admin, tournament = table
    api = client_for(admin)
    text = phh.dumps(night([FOLD])[0])
    clock = Clock(monkeypatch, start=60 * 1_000_000 + 57)  # 3 s before a minute turns

    def send():
        return api.post(
            imports_url(tournament), {"files": [upload("1.phh", text)]}, format="multipart"
        ).status_code

    codes = [send() for _ in range(10)]
    assert 429 not in codes
    clock.now += 4  # the calendar minute turned: a fresh minute would allow 10 more
    assert send() == 429
    refused = api.post(
        imports_url(tournament), {"files": [upload("1.phh", text)]}, format="multipart"
    )
    assert 1 <= int(refused["Retry-After"]) <= 57  # when the first upload leaves the minute
    clock.now += 56 + 1  # a minute after the first ten: room again
    assert send() != 429
    assert ImportJob.objects.count() == 11


def test_the_bytes_allowance_slides_too(table, settings, monkeypatch):
    settings.PHH_UPLOAD_BYTES_PER_MINUTE = 100 * 1024
    admin, tournament = table
    api = client_for(admin)
    pad = "# padding\n" * 4000  # 40 KB
    clock = Clock(monkeypatch, start=60 * 1_000_000 + 50)

    def send():
        return api.post(
            imports_url(tournament), {"files": [upload("a.phh", pad)]}, format="multipart"
        )

    assert send().status_code != 429
    clock.now += 5
    assert send().status_code != 429
    clock.now += 10  # across the minute: still 80 KB in the last 60 s
    refused = send()
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) == 60 - 15  # the first upload leaves then
    clock.now += 45
    assert send().status_code != 429


def test_the_allowance_holds_per_process_while_the_cache_is_down(table, settings):
    from tests.support.outage import free_port, redis_cache

    settings.CACHES = redis_cache(free_port())
    settings.PHH_UPLOADS_PER_MINUTE = 2
    admin, tournament = table
    api = client_for(admin)
    text = phh.dumps(night([FOLD])[0])
    codes = [
        api.post(
            imports_url(tournament), {"files": [upload("1.phh", text)]}, format="multipart"
        ).status_code
        for _ in range(4)
    ]
    assert 429 not in codes[:2] and codes[2:] == [429, 429]
    assert ImportJob.objects.count() == 2


def test_the_upload_allowance_doctests():
    import doctest

    from tracker.interchange.services import imports

    result = doctest.testmod(imports)
    assert result.attempted and not result.failed
