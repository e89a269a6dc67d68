"""A house game's hand in PHH: the export writes its definition in ``_game``; an import
carrying an invalid definition, or one no game of the league has, is refused naming the part
at fault, nothing stored; one the league has is recorded under that game version, and an
export -> import round trip gives the same rows, a hand logged live too. Both databases."""

from __future__ import annotations

import pytest

from tests.factories import make_league, make_tournament
from tests.interchange.histories import FOLD, night
from tests.support.house_hands import BASEBALL_ACTIONS, FTQ_ACTIONS
from tests.support.live_house import cards, play_out, step
from tracker.engine import phh
from tracker.engine.events import DealHole, event_for, event_from_json
from tracker.engine.game_presets import PRESETS
from tracker.engine.games import dump_game
from tracker.engine.stud import Verb
from tracker.games.selectors import game_latest
from tracker.games.services import league_game_archive, league_game_create
from tracker.hands.models import DraftHand, Hand, HandStatus
from tracker.hands.selectors.evaluation import HandSpec, hand_evaluate
from tracker.hands.selectors.live import draft_state
from tracker.hands.services.live import draft_finish, draft_start
from tracker.hands.services.recording import hand_record
from tracker.interchange.selectors.export import export_hand, export_tournament
from tracker.interchange.services.imports import phh_import_start
from tracker.tournaments.services import tournament_create

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


def _live_baseball_hand(tournament, admin, capture):
    """A heads-up Baseball hand logged live: a three up paid, a four up's extra card."""
    draft = draft_start(tournament=tournament, by=admin, game="baseball")
    draft = step(draft, admin, DealHole(0, cards("As Ks 2c")), DealHole(1, cards("Qh Qd 3c")))
    draft = step(draft, admin, event_from_json({"event": "pay", "seat": 1}, n=2))
    draft = step(draft, admin, event_for(draft_state(draft).next.options[0]))
    call = next(o for o in draft_state(draft).next.options if o.verb is Verb.CALL)
    draft = step(draft, admin, event_for(call))
    draft = step(draft, admin, DealHole(0, cards("4h")), DealHole(0, cards("Td")))
    draft = play_out(draft, admin, {0: "Ah 7d 8d".split(), 1: "5d 6d 7s 8s".split()})
    draft.refresh_from_db()
    with capture(execute=True):
        return draft_finish(draft=draft, by=admin, version=draft.version)


def test_a_house_hand_logged_live_round_trips_export_to_import(django_capture_on_commit_callbacks):
    league, admin = make_league(slug="home")
    league_game_create(league=league, by=admin, name="Baseball", preset="baseball")
    source, players = make_tournament(
        league=league, by=admin, names=("Ann", "Bob"), default_variant=""
    )
    hand = _live_baseball_hand(source, admin, django_capture_on_commit_callbacks)
    hand.refresh_from_db()
    assert hand.status == HandStatus.VERIFIED, hand.status_reason
    (exported,) = phh.loads(export_hand(hand).text)
    assert "p2 _pay" in exported["actions"] and exported["_game"]["name"] == "baseball"
    text = export_tournament(source).text
    assert "Left out" not in text and len(phh.loads(text)) == 1
    target = tournament_create(
        league=league,
        by=admin,
        player_ids=[p.pk for p in players],
        name="Next night",
        default_variant="",
    )
    with django_capture_on_commit_callbacks(execute=True):
        job = phh_import_start(tournament=target, by=admin, files=[("night.phhs", text)])
    assert job.imported == 1, job.errors
    assert _rows(target) == _rows(source)
    (imported,) = Hand.objects.filter(tournament=target)
    assert imported.game_version == hand.game_version
    assert imported.engine_reading["showdown"]["shares"][0]["winners"] == [1]
    won = {s.player.name: s.won for s in imported.hand_seats.all()}
    assert won == {s.player.name: s.won for s in hand.hand_seats.all()}
    assert sorted(won.values()) == [0, 36]  # the whole pot, the three's pay of 8 in it


def test_a_house_hand_kept_as_its_events_exports_its_actions(django_capture_on_commit_callbacks):
    """A hand recorded as the table's events (the logger's form before the actions) exports
    the same PHH as the one recorded as actions, and is settled the same."""
    league, admin = make_league()
    league_game_create(league=league, by=admin, name="Baseball", preset="baseball")
    tournament, _ = make_tournament(
        league=league, by=admin, names=("Ann", "Bob"), default_variant=""
    )
    hand = _live_baseball_hand(tournament, admin, django_capture_on_commit_callbacks)
    as_actions = export_hand(hand).text
    draft = DraftHand.objects.get(hand=hand)
    Hand.objects.filter(pk=hand.pk).update(entry={"events": draft.steps})
    hand.refresh_from_db()
    assert export_hand(hand).text == as_actions
    reading = hand_evaluate(HandSpec.of(hand), hand.starting_stacks).result
    assert reading.finishing_stacks == phh.loads(as_actions)[0]["finishing_stacks"]
