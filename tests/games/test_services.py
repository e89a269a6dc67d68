"""A league's house games: create from a preset or from scratch, versions (append-only),
archive, the capability, and refusals naming the part at fault with nothing stored."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from tests.factories import add_member, make_league
from tracker.audit.models import AuditEntry
from tracker.core.errors import Conflict, PermissionDenied
from tracker.core.models import AppendOnlyError
from tracker.engine.errors import DomainError
from tracker.engine.game_presets import PRESETS
from tracker.engine.games import dump_game, load_game
from tracker.games.models import LeagueGame, LeagueGameVersion
from tracker.games.selectors import game_versions, league_game, league_games
from tracker.games.services import (
    definition_digest,
    league_game_archive,
    league_game_create,
    league_game_update,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def league():
    return make_league(slug="club")


def test_create_from_a_preset_stores_version_one_as_dumped(league):
    league, admin = league
    game = league_game_create(
        league=league, by=admin, name="Follow the Queen", preset="follow_the_queen"
    )
    assert (game.slug, game.preset, game.archived) == (
        "follow-the-queen",
        "follow_the_queen",
        False,
    )
    (version,) = game_versions(game)
    assert version.number == 1 and version.created_by == admin
    definition = load_game(version.definition)
    assert definition.wild == PRESETS["follow_the_queen"].wild
    assert (definition.name, definition.title) == ("follow-the-queen", "Follow the Queen")
    assert version.definition == dump_game(definition)  # every field explicit
    assert version.digest == definition_digest(version.definition) and len(version.digest) == 64
    assert AuditEntry.objects.filter(action="game.create", league_id=league.pk).count() == 1


def test_create_from_a_preset_with_a_house_choice_changed(league):
    league, admin = league
    data = dump_game(PRESETS["follow_the_queen"])
    data["wild"][0]["later_x"] = "ignored"
    game = league_game_create(
        league=league,
        by=admin,
        name="Follow the first Queen",
        preset="follow_the_queen",
        definition=data,
    )
    assert league_games(league)[0].definition.wild[0].later_x == "ignored"
    assert game.preset == "follow_the_queen"


def test_create_from_scratch_takes_defaults_for_what_is_left_out(league):
    league, admin = league
    game = league_game_create(
        league=league,
        by=admin,
        name="Sevens",
        definition={"wild": [{"kind": "fixed", "ranks": ["7"]}]},
    )
    stored = game_versions(game)[0].definition
    assert stored["pot"] == {"kind": "high"} and stored["bring_in"] == "lowest"
    assert stored["max_players"] is None and stored["wild"][0]["ranks"] == ["7"]
    assert len(stored["streets"]) == 5 and game.preset == ""


@pytest.mark.parametrize(
    ("definition", "field"),
    [
        ({"pot": {"kind": "high", "low": {}}}, "definition.pot.low"),
        ({"wild": [{"kind": "fixed", "ranks": ["Z"]}]}, "definition.wild[0].ranks[0]"),
        ({"wild": [{"kind": "wild_west"}]}, "definition.wild[0].kind"),
        ({"max_players": 12}, "definition.max_players"),
        ({"colour": "red"}, "definition.colour"),
        ("not an object", "definition"),
    ],
)
def test_an_invalid_definition_is_refused_naming_the_field_and_nothing_is_stored(
    league, definition, field
):
    league, admin = league
    with pytest.raises(DomainError) as caught:
        league_game_create(league=league, by=admin, name="Broken", definition=definition)
    assert field in caught.value.fields, caught.value.fields
    assert not LeagueGame.objects.exists() and not LeagueGameVersion.objects.exists()
    assert not AuditEntry.objects.filter(action__startswith="game.").exists()


def test_preset_name_and_duplicates_are_refused(league):
    league, admin = league
    with pytest.raises(DomainError) as caught:
        league_game_create(league=league, by=admin, name="X", preset="texas_holdem")
    assert "preset" in caught.value.fields
    with pytest.raises(DomainError) as caught:
        league_game_create(league=league, by=admin, name="  ", preset="razz")
    assert "name" in caught.value.fields
    with pytest.raises(DomainError) as caught:
        league_game_create(league=league, by=admin, name="Nothing")
    assert "definition" in caught.value.fields
    league_game_create(league=league, by=admin, name="Razz", preset="razz")
    with pytest.raises(Conflict):
        league_game_create(league=league, by=admin, name="razz", preset="razz")


def test_a_change_makes_a_new_version_and_keeps_the_old(league):
    league, admin = league
    game = league_game_create(league=league, by=admin, name="Baseball", preset="baseball")
    data = dump_game(PRESETS["baseball"])
    data["pays"][0]["price"] = 50
    v2 = league_game_update(game=game, by=admin, definition=data)
    assert v2.number == 2 and v2.definition["pays"] == [{"rank": "3", "price": 50}]
    (v1,) = [v for v in game_versions(game) if v.number == 1]
    assert v1.definition["pays"] == [{"rank": "3", "price": "pot"}] and v1.digest != v2.digest
    # the same definition again: no new version
    assert league_game_update(game=game, by=admin, definition=data).number == 2
    # a new name is a new version too (its title)
    v3 = league_game_update(game=game, by=admin, name="Night Baseball")
    assert v3.number == 3 and v3.definition["title"] == "Night Baseball"
    assert league_game(league, "baseball").name == "Night Baseball"
    with pytest.raises(AppendOnlyError):
        v1.save()
    with pytest.raises(DomainError) as caught:
        league_game_update(game=game, by=admin, definition={"pays": [{"rank": "3", "price": -1}]})
    assert "definition.pays[0].price" in caught.value.fields
    assert len(game_versions(game)) == 3


def test_archive_hides_the_game_and_stops_changes(league):
    league, admin = league
    game = league_game_create(league=league, by=admin, name="Razz", preset="razz")
    league_game_archive(game=game, by=admin)
    league_game_archive(game=game, by=admin)  # twice: nothing more
    assert league_games(league) == []
    assert [r.game.slug for r in league_games(league, archived=True)] == ["razz"]
    with pytest.raises(Conflict):
        league_game_update(game=league_game(league, "razz"), by=admin, name="Razz again")
    # its name is free again, under a new address
    assert league_game_create(league=league, by=admin, name="Razz", preset="razz").slug == "razz-2"
    assert AuditEntry.objects.filter(action="game.archive").count() == 1


@pytest.mark.parametrize("role", ["member", "scorekeeper", "authority"])
def test_only_an_admin_manages_games(league, role):
    league, admin = league
    user = add_member(league, f"club-{role}", role)
    with pytest.raises(PermissionDenied):
        league_game_create(league=league, by=user, name="Razz", preset="razz")
    game = league_game_create(league=league, by=admin, name="Razz", preset="razz")
    with pytest.raises(PermissionDenied):
        league_game_update(game=game, by=user, name="Razz 2")
    with pytest.raises(PermissionDenied):
        league_game_archive(game=game, by=user)
    assert len(game_versions(game)) == 1 and not league_game(league, "razz").archived


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the database trigger exists on PostgreSQL only"
)
def test_postgresql_refuses_changing_a_version_from_any_client(league):
    league, admin = league
    game = league_game_create(league=league, by=admin, name="Razz", preset="razz")
    version = game_versions(game)[0]
    for sql in (
        "UPDATE tracker_leaguegameversion SET digest = 'x' WHERE id = %s",
        "DELETE FROM tracker_leaguegameversion WHERE id = %s",
    ):
        with pytest.raises(DatabaseError) as err, transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(sql, [version.pk])
        assert "append-only" in str(err.value)
    assert LeagueGameVersion.objects.get(pk=version.pk).digest == version.digest
