"""The sample hand histories in docs/examples import into the demo league, as README.md shows."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.core.management import call_command

from tracker.demo.services import DEMO_SLUG, demo_seed
from tracker.engine import phh
from tracker.hands.models import Hand, HandStatus
from tracker.leagues.models import League, Player
from tracker.tournaments.selectors import tournament_stacks
from tracker.tournaments.services import tournament_create

pytestmark = pytest.mark.django_db

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
NIGHT = EXAMPLES / "friday-night.phhs"
WILD = EXAMPLES / "low-hold-buy.phh"
README = Path(__file__).resolve().parents[2] / "README.md"


def test_the_examples_replay_on_their_own():
    for path in (NIGHT, WILD):
        lines = list(phh.replay_text(path.read_text(encoding="utf-8"), source=path.name))
        assert lines and all(line["ok"] for line in lines), lines


def test_the_examples_import_into_a_demo_league_tournament(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        demo_seed()
    league = League.objects.get(slug=DEMO_SLUG)
    players = {p.name: p for p in Player.objects.filter(league=league)}
    sam = league.memberships.get(user__username="sam").user  # the demo scorekeeper
    tournament = tournament_create(
        league=league,
        name="Friday night, imported",
        player_ids=[players[n].id for n in ("Rob", "Sam", "Jo")],
        by=sam,
    )
    out = io.StringIO()
    with django_capture_on_commit_callbacks(execute=True):
        call_command(
            "import_phh",
            tournament.pk,
            str(NIGHT),
            str(WILD),
            "--user",
            "sam",
            stdout=out,
            stderr=io.StringIO(),
        )
    assert "0 hands already imported, 4 new" in out.getvalue()
    hands = list(Hand.objects.filter(tournament=tournament).order_by("number"))
    assert [h.variant for h in hands] == ["seven_card_stud"] * 3 + ["low_hold"]
    assert all(h.status == HandStatus.VERIFIED for h in hands)
    stacks = tournament_stacks(tournament)
    (wild,) = phh.loads(WILD.read_text(encoding="utf-8"))
    by_name = dict(zip(wild["players"], wild["finishing_stacks"], strict=True))
    assert {name: stacks[players[name].id] for name in ("Rob", "Sam", "Jo")} == by_name
    winner = hands[3].pots.get().award
    assert winner == {str(players["Sam"].id): hands[3].pots.get().amount}


def test_the_readme_shows_both_ways_to_import():
    readme = README.read_text(encoding="utf-8")
    section = readme[readme.index("## Importing hand histories") :]
    assert "python manage.py import_phh" in section and "docs/examples/friday-night.phhs" in section
    assert "curl" in section and "/imports/" in section and "files=@" in section
