"""A house game's hand in PHH: the export writes its definition in ``_game``; an import
carrying an invalid or unknown definition is refused naming the part at fault, and a valid
one is refused as a whole (hands of house games cannot be recorded yet). Both databases."""

from __future__ import annotations

import pytest

from tests.factories import make_league, make_tournament
from tests.interchange.histories import FOLD, night
from tracker.engine import phh
from tracker.engine.game_presets import PRESETS
from tracker.engine.games import dump_game
from tracker.games.selectors import game_latest
from tracker.games.services import league_game_create
from tracker.hands.models import Hand
from tracker.interchange.selectors.export import export_hand, export_tournament
from tracker.interchange.services.imports import phh_import_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(django_capture_on_commit_callbacks):
    league, admin = make_league()
    tournament, _ = make_tournament(league=league, by=admin)
    return league, admin, tournament


def _import(tournament, admin, hands):
    return phh_import_start(
        tournament=tournament, by=admin, files=[("night.phhs", phh.dumps(hands))]
    )


def test_the_export_of_a_house_game_hand_carries_its_definition(
    table, django_capture_on_commit_callbacks
):
    league, admin, tournament = table
    with django_capture_on_commit_callbacks(execute=True):
        job = _import(tournament, admin, night([FOLD]))
    assert job.imported == 1, job.errors
    hand = Hand.objects.get(tournament=tournament)
    assert "_game" not in phh.loads(export_hand(hand).text)[0]  # a variant of today
    game = league_game_create(league=league, by=admin, name="Razz", preset="razz")
    version = game_latest(game)
    # the hand as it will be kept once the recording takes house games: with its version
    Hand.objects.filter(pk=hand.pk).update(game_version=version)
    (exported,) = phh.loads(export_hand(hand).text)
    assert exported["_game"] == version.definition
    assert phh.game_from_phh(exported["_game"]) == version.game_definition
    (in_night,) = phh.loads(export_tournament(tournament).text)
    assert in_night["_game"] == version.definition


@pytest.mark.parametrize(
    ("game", "field", "code"),
    [
        (
            {**dump_game(PRESETS["razz"]), "pot": {"kind": "high", "low": {}}},
            "_game.pot.low",
            "invalid_game",
        ),
        ({**dump_game(PRESETS["razz"]), "jokers": 2}, "_game.jokers", "invalid_game"),
        ("razz", "_game", "invalid_game"),
        (dump_game(PRESETS["follow_the_queen"]), "_game", "unsupported_game"),
    ],
)
def test_an_import_with_a_house_game_is_refused_naming_the_field(table, game, field, code):
    _, admin, tournament = table
    hands = night([FOLD])
    hands[0]["_game"] = game
    job = _import(tournament, admin, hands)
    assert job.imported == 0 and not Hand.objects.filter(tournament=tournament).exists()
    (error,) = job.errors
    assert error["field"] == field, error
    assert error["code"] == code, error
