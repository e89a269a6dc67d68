"""A house game's hand in PHH: the export writes its definition in ``_game``; an import
carrying an invalid definition, or one no game of the league has, is refused naming the part
at fault, nothing stored; one the league has is recorded under that game version, and an
export -> import round trip gives the same rows. Both databases."""

from __future__ import annotations

import pytest

from tests.factories import make_league, make_tournament
from tests.interchange.histories import FOLD, night
from tests.support.house_hands import BASEBALL_ACTIONS, FTQ_ACTIONS
from tracker.engine import phh
from tracker.engine.game_presets import PRESETS
from tracker.engine.games import dump_game
from tracker.games.selectors import game_latest
from tracker.games.services import league_game_archive, league_game_create
from tracker.hands.models import Hand
from tracker.hands.services.recording import hand_record
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
    # (the version set on a hand of today's game: the export writes what the hand names)
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
        # the preset as it is: the league has no game of that name and rules
        (dump_game(PRESETS["follow_the_queen"]), "_game", "unknown_game"),
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


def test_a_definition_the_league_has_only_archived_is_refused(table):
    league, admin, tournament = table
    game = league_game_create(league=league, by=admin, name="Razz", preset="razz")
    version = game_latest(game)
    league_game_archive(game=game, by=admin)
    hands = night([FOLD])
    hands[0]["_game"] = version.definition
    job = _import(tournament, admin, hands)
    assert job.imported == 0 and not Hand.objects.filter(tournament=tournament).exists()
    assert [(e["field"], e["code"]) for e in job.errors] == [("_game", "unknown_game")]


def _house_night(league, admin, capture):
    """A heads-up tournament of ``league`` with a Follow the Queen and a Baseball hand."""
    for name, preset in (("Follow the Queen", "follow_the_queen"), ("Baseball", "baseball")):
        league_game_create(league=league, by=admin, name=name, preset=preset)
    tournament, _ = make_tournament(
        league=league, by=admin, names=("Ann", "Bob"), default_variant="seven_card_stud"
    )
    return tournament


def _rows(tournament):
    """What the hands of ``tournament`` hold, with players by name and games by slug."""
    out = []
    for hand in Hand.objects.filter(tournament=tournament).order_by("number"):
        seats = sorted(hand.hand_seats.all(), key=lambda s: s.position)
        reading = dict(hand.engine_reading)
        reading.pop("players")
        out.append(
            {
                "number": hand.number,
                "variant": hand.variant,
                "game": (hand.game_version.game.slug, hand.game_version.number),
                "definition": hand.game_version.definition,
                "status": hand.status,
                "entry": hand.entry,
                "starting_stacks": hand.starting_stacks,
                "seats": [
                    (s.player.name, s.starting_stack, s.contributed, s.won, s.down, s.up)
                    for s in seats
                ],
                "reading": reading,
            }
        )
    return out


def test_house_game_hands_round_trip_export_to_import(django_capture_on_commit_callbacks):
    league, admin = make_league(slug="home")
    source = _house_night(league, admin, django_capture_on_commit_callbacks)
    for slug, actions in (("follow-the-queen", FTQ_ACTIONS), ("baseball", BASEBALL_ACTIONS)):
        with django_capture_on_commit_callbacks(execute=True):
            hand_record(
                tournament=source,
                by=admin,
                entry_mode="full",
                entry={"actions": actions},
                game=slug,
            )
    text = export_tournament(source).text
    assert [h["_game"]["name"] for h in phh.loads(text)] == ["follow-the-queen", "baseball"]
    other, other_admin = make_league(slug="away")
    target = _house_night(other, other_admin, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        job = phh_import_start(tournament=target, by=other_admin, files=[("night.phhs", text)])
    assert job.imported == 2, job.errors
    assert _rows(target) == _rows(source)
    assert {h.game_version.game.league_id for h in Hand.objects.filter(tournament=target)} == {
        other.pk
    }
