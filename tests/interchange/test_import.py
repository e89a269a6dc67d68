"""Importing PHH files into a tournament through the services and the command (both databases)."""

from __future__ import annotations

import io

import pytest
from django.core.management import CommandError, call_command

from tests.factories import add_member, make_league, make_tournament
from tests.interchange.histories import FOLD, KINGS, LOW_HOLD, SHOWDOWN, night
from tests.support.imports import run_until_connection_lost
from tracker.core.errors import PermissionDenied
from tracker.engine import phh
from tracker.hands.models import Hand, HandStatus
from tracker.interchange.models import ImportJob, ImportStatus
from tracker.interchange.selectors.imports import tournament_imports
from tracker.interchange.services.hands import content_hash
from tracker.interchange.services.imports import phh_import_run, phh_import_start
from tracker.tournaments.selectors import tournament_stacks

pytestmark = pytest.mark.django_db


@pytest.fixture
def table():
    league, admin = make_league()
    tournament, players = make_tournament(league=league, by=admin)
    return league, admin, tournament, {p.name: p.id for p in players}


def text(hands) -> str:
    return phh.dumps(hands)


def run(tournament, by, *files, **kwargs) -> ImportJob:
    return phh_import_start(
        tournament=tournament, by=by, files=[(n, t) for n, t in files], **kwargs
    )


def stacks_by_name(tournament, ids):
    stacks = tournament_stacks(tournament)
    return {name: stacks[pid] for name, pid in ids.items()}


def test_a_night_is_imported_checked_settled_and_hashed(table, settle):
    _, admin, tournament, ids = table
    hands = night([FOLD, SHOWDOWN, LOW_HOLD, KINGS])
    with settle():
        job = run(tournament, admin, ("night.phhs", text(hands)))
    assert job.status == ImportStatus.DONE, job.errors
    assert (job.total, job.done, job.imported, job.skipped) == (4, 4, 4, 0)
    assert job.summary == "0 hands already imported, 4 new"
    recorded = list(Hand.objects.filter(tournament=tournament).order_by("number"))
    assert [h.number for h in recorded] == [1, 2, 3, 4]
    assert [h.variant for h in recorded] == [
        "seven_card_stud",
        "seven_card_stud",
        "low_hold",
        "kings_and_little_ones",
    ]
    assert all(h.status == HandStatus.VERIFIED and h.entry_mode == "full" for h in recorded)
    assert [h.content_hash for h in recorded] == [content_hash(h) for h in phh.loads(text(hands))]
    assert recorded[2].entry["buys"] == [True, False, False]
    assert recorded[2].options["buy_version"] == "contributed"
    assert recorded[3].entry["seventh_card"] == [None, "up", None]
    final = hands[-1]
    expected = dict(zip(final["players"], final["finishing_stacks"], strict=True))
    assert stacks_by_name(tournament, ids) == expected


def test_importing_the_same_file_again_adds_nothing_and_says_so(table, settle):
    _, admin, tournament, _ = table
    body = text(night([FOLD, SHOWDOWN, LOW_HOLD]))
    with settle():
        run(tournament, admin, ("night.phhs", body))
        again = run(tournament, admin, ("night.phhs", body))
    assert again.status == ImportStatus.DONE
    assert (again.imported, again.skipped) == (0, 3)
    assert again.summary == "3 hands already imported, 0 new"
    assert Hand.objects.filter(tournament=tournament).count() == 3


def test_a_longer_file_later_adds_only_its_new_hands(table, settle):
    _, admin, tournament, _ = table
    hands = night([FOLD, SHOWDOWN, LOW_HOLD, KINGS])
    with settle():
        run(tournament, admin, ("first.phhs", text(hands[:2])))
        job = run(tournament, admin, ("all.phhs", text(hands)))
    assert (job.imported, job.skipped) == (2, 2)
    assert job.summary == "2 hands already imported, 2 new"


def test_a_file_is_imported_whole_or_not_at_all(table, settle):
    _, admin, tournament, _ = table
    hands = night([FOLD, SHOWDOWN, LOW_HOLD])
    hands[2]["actions"][7] = "p3 cbr 60"  # not p3's turn
    with settle():
        job = run(tournament, admin, ("game.phhs", text(hands)))
    assert job.status == ImportStatus.FAILED
    assert not Hand.objects.filter(tournament=tournament).exists()
    (error,) = job.errors
    assert error["file"] == "game.phhs" and error["index"] == 0
    assert error["hand"] == 3 and error["action_index"] == 7 and error["action"] == "p3 cbr 60"
    assert error["field"] == "actions[7]"
    assert error["message"].startswith("game.phhs, hand 3, action 7 'p3 cbr 60': ")
    assert job.summary == "0 hands already imported, 0 new; 1 file failed"


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"antes": [5, 5, 5]}, "antes", "level 1: antes 4"),
        ({"antes": [4, 4]}, "antes", "one ante per player"),
        ({"bring_in": 5}, "bring_in", "bring-in 10"),
        ({"big_bet": 80}, "big_bet", "big bet 40"),
        ({"starting_stacks": [1000, 1000, 999]}, "starting_stacks", "p1 Bob 1000"),
        ({"players": ["Ann", "Bob", "Cat"]}, "players", "['Bob', 'Cat', 'Ann']"),
        ({"variant": "FT"}, "variant", "seven-card stud"),
        ({"seat_count": 3, "blinds_or_straddles": [1, 2, 0]}, "blinds_or_straddles", "not a PHH"),
        ({"finishing_stacks": [1000, 1000, 1000]}, "finishing_stacks", "[1008, 996, 996]"),
        ({"_variant": "omaha"}, "_variant", "not a variant"),
        ({"_options": {"wild": True}}, "_options.wild", "not an announcement"),
    ],
)
def test_a_hand_that_does_not_fit_the_tournament_is_refused_by_field(table, change, field, words):
    _, admin, tournament, _ = table
    (hand,) = night([FOLD])
    hand.update(change)
    job = run(tournament, admin, ("one.phh", phh.dumps(hand)))
    (error,) = job.errors
    assert error["field"] == field, error
    assert error["message"].startswith(f"one.phh, hand 1, {field}: "), error
    assert words in error["message"], error
    assert not Hand.objects.filter(tournament=tournament).exists()


def test_player_names_match_whatever_their_case(table, settle):
    _, admin, tournament, _ = table
    (hand,) = night([FOLD])
    hand["players"] = ["bob", " CAT", "Ann"]
    with settle():
        job = run(tournament, admin, ("one.phh", phh.dumps(hand)))
    assert job.imported == 1, job.errors


def test_a_file_that_is_not_phh_fails_alone(table, settle):
    _, admin, tournament, _ = table
    hands = night([FOLD, SHOWDOWN])
    with settle():
        job = run(
            tournament,
            admin,
            ("broken.phhs", "[1\nvariant = "),
            ("night.phhs", text(hands)),
            ("latin1.phh", b"\xff\xfe"),
        )
    assert job.status == ImportStatus.DONE and job.imported == 2
    files = job.file_list()
    assert [f.status for f in files] == ["failed", "done", "failed"]
    assert files[0].error["message"].startswith("broken.phhs: not valid TOML")
    assert files[2].error["message"] == "latin1.phh: not UTF-8 text"
    assert job.summary == "0 hands already imported, 2 new; 2 files failed"


def test_files_follow_each_other(table, settle):
    _, admin, tournament, _ = table
    hands = night([FOLD, SHOWDOWN, LOW_HOLD])
    with settle():
        job = run(
            tournament,
            admin,
            ("1.phh", phh.dumps(hands[0])),
            ("2-3.phhs", text(hands[1:])),
        )
    assert job.imported == 3 and not job.errors


def test_a_later_file_fails_on_its_own_when_an_earlier_one_did(table, settle):
    _, admin, tournament, _ = table
    hands = night([FOLD, SHOWDOWN])
    bad = dict(hands[0], actions=hands[0]["actions"][:-1])  # stops before the hand is over
    with settle():
        job = run(tournament, admin, ("1.phh", phh.dumps(bad)), ("2.phh", phh.dumps(hands[1])))
    first, second = job.errors
    assert "after the last action (5 actions)" in first["message"]
    assert second["field"] == "starting_stacks"
    assert job.status == ImportStatus.FAILED


def test_the_hand_limit_holds(settle):
    league, admin = make_league()
    tournament, _ = make_tournament(league=league, by=admin, hand_limit=2)
    with settle():
        job = run(tournament, admin, ("night.phhs", text(night([FOLD, SHOWDOWN, LOW_HOLD]))))
    (error,) = job.errors
    assert error["hand"] == 3 and error["code"] == "tournament_over"
    assert "2-hand limit" in error["message"]
    assert not Hand.objects.filter(tournament=tournament).exists()


def test_a_table_result_is_imported_by_position(table, settle):
    _, admin, tournament, ids = table
    hands = night([FOLD, SHOWDOWN])
    hands[1]["_table_result"] = {"winners": ["p2"]}  # the table gave the pot to Ann
    del hands[1]["finishing_stacks"]
    with settle():
        job = run(tournament, admin, ("night.phhs", text(hands)))
    assert job.imported == 2, job.errors
    hand = Hand.objects.get(tournament=tournament, number=2)
    assert hand.table_result == {"winners": [ids["Ann"]]}
    assert hand.status == HandStatus.DISPUTED
    other, _ = make_tournament(league=table[0], by=admin, names=("Dan", "Eve", "Fay"))
    hands = night([FOLD, SHOWDOWN], names=("Dan", "Eve", "Fay"))
    hands[1]["_table_result"] = {"winners": ["p4"]}
    job = run(other, admin, ("x.phhs", text(hands)))
    assert job.errors[0]["field"] == "_table_result.winners[0]"


def test_only_scorekeepers_and_admins_import(table):
    league, _, tournament, _ = table
    member = add_member(league, "mo", "member")
    with pytest.raises(PermissionDenied):
        run(tournament, member, ("night.phhs", text(night([FOLD]))))
    keeper = add_member(league, "kim", "scorekeeper")
    job = run(tournament, keeper, ("night.phhs", text(night([FOLD]))))
    assert job.imported == 1


def test_large_imports_run_as_a_job_with_progress(table, settings, settle):
    _, admin, tournament, _ = table
    settings.PHH_IMPORT_INLINE_MAX = 2
    body = text(night([FOLD, SHOWDOWN, LOW_HOLD]))
    with settle():
        job = run(tournament, admin, ("night.phhs", body))
        assert job.status == ImportStatus.QUEUED and job.total == 3 and job.done == 0
    job.refresh_from_db()
    assert job.status == ImportStatus.DONE and (job.done, job.imported) == (3, 3)
    # The task is idempotent: running the job again changes nothing.
    assert phh_import_run(job_id=job.pk)["imported"] == 3
    assert Hand.objects.filter(tournament=tournament).count() == 3
    assert tournament_imports(tournament)[0].pk == job.pk


def test_a_job_interrupted_mid_way_resumes_with_the_files_left(table, settle):
    _, admin, tournament, _ = table
    hands = night([FOLD, SHOWDOWN])
    job = run(
        tournament,
        admin,
        ("1.phh", phh.dumps(hands[0])),
        ("2.phh", phh.dumps(hands[1])),
        inline=False,  # queued; the task is not run here
    )
    run_until_connection_lost(job, at=2)  # inside the second file's transaction
    assert job.status == ImportStatus.RUNNING and (job.done, job.imported) == (1, 1)
    assert [f.status for f in job.file_list()] == ["done", "pending"]
    assert Hand.objects.filter(tournament=tournament).count() == 1
    with settle():
        phh_import_run(job_id=job.pk)  # the task again, as after a lost worker
    job.refresh_from_db()
    assert (job.status, job.done, job.imported) == (ImportStatus.DONE, 2, 2)
    assert Hand.objects.filter(tournament=tournament).count() == 2


def test_the_command_imports_with_a_progress_bar(table, settle, tmp_path):
    _, admin, tournament, _ = table
    path = tmp_path / "night.phhs"
    path.write_text(text(night([FOLD, SHOWDOWN, LOW_HOLD])), encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with settle():
        call_command("import_phh", tournament.pk, str(path), stdout=out, stderr=err)
    assert "\r[" in err.getvalue() and "] 3/3 hands" in err.getvalue()
    assert "[##############################] 3/3 hands" in err.getvalue()
    assert "night.phhs: 3 new, 0 already imported" in out.getvalue()
    assert "0 hands already imported, 3 new" in out.getvalue()
    out = io.StringIO()
    call_command("import_phh", tournament.pk, str(path), "--no-progress", stdout=out)
    assert "3 hands already imported, 0 new" in out.getvalue()
    assert ImportJob.objects.filter(tournament=tournament, source="command").count() == 2


def test_the_command_fails_loudly(table, tmp_path):
    _, _, tournament, _ = table
    (hand,) = night([FOLD])
    hand["bring_in"] = 5
    path = tmp_path / "bad.phh"
    path.write_text(phh.dumps(hand), encoding="utf-8")
    out = io.StringIO()
    with pytest.raises(CommandError, match="nothing imported"):
        call_command("import_phh", tournament.pk, str(path), "--no-progress", stdout=out)
    assert "bad.phh: not imported: bad.phh, hand 1, bring_in: " in out.getvalue()
    with pytest.raises(CommandError, match="no user"):
        call_command("import_phh", tournament.pk, str(path), "--user", "nobody")
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_phh", tournament.pk, str(tmp_path / "missing.phh"))


def test_more_than_twenty_hands_go_to_the_worker_by_default(settle):
    league, admin = make_league()
    tournament, _ = make_tournament(league=league, by=admin, hands_per_level=50)
    hands = night([FOLD, SHOWDOWN] * 12)
    with settle():
        job = run(tournament, admin, ("long.phhs", text(hands)))
        assert job.status == ImportStatus.QUEUED and job.total == 24
    job.refresh_from_db()
    assert (job.status, job.imported) == (ImportStatus.DONE, 24), job.errors
    # The command always runs at once, and reports each hand to its progress bar.
    other, _ = make_tournament(
        league=league, by=admin, names=("Dan", "Eve", "Fay"), hands_per_level=50
    )
    hands = night([FOLD, SHOWDOWN] * 12, names=("Dan", "Eve", "Fay"))
    seen = []
    with settle():
        job = run(
            other,
            admin,
            ("long.phhs", text(hands)),
            inline=True,
            progress=lambda done, total: seen.append((done, total)),
        )
    assert job.imported == 24
    assert [d for d, _ in seen][:3] == [1, 2, 3] and seen[-1] == (24, 24)
