"""A long file is stored in chunks, read a hand at a time and recorded in batches: each batch
whole or not at all, a fault located by hand and line, a resumed job records no hand twice
(both databases)."""

from __future__ import annotations

import pytest

from tests.factories import make_league, make_tournament
from tests.interchange.histories import FOLD, KINGS, LOW_HOLD, SHOWDOWN, night
from tests.support.imports import run_until_connection_lost
from tracker.engine import phh
from tracker.hands.models import Hand, HandSeat
from tracker.hands.services.settlement import tournament_settle
from tracker.interchange.models import ImportChunk, ImportFile, ImportStatus
from tracker.interchange.services import imports
from tracker.interchange.services.hands import content_hash, phh_hand_record
from tracker.interchange.services.imports import phh_import_run, phh_import_start
from tracker.tournaments.selectors import tournament_state

pytestmark = pytest.mark.django_db


@pytest.fixture
def night_table(settings, monkeypatch, django_capture_on_commit_callbacks):
    """A tournament at level 1 throughout, batches of 2 hands, chunks of 300 characters."""
    settings.PHH_IMPORT_BATCH = 2
    monkeypatch.setattr(imports, "CHUNK_CHARS", 300)
    league, admin = make_league()
    tournament, _ = make_tournament(league=league, by=admin, hands_per_level=50)
    return admin, tournament


def line_of(text: str, label: int) -> int:
    return text.splitlines().index(f"[{label}]") + 1


def test_a_file_in_several_batches_and_chunks_is_imported_in_order(night_table):
    admin, tournament = night_table
    hands = night([FOLD, SHOWDOWN, FOLD, SHOWDOWN, FOLD])
    text = phh.dumps(hands)
    job = phh_import_start(
        tournament=tournament, by=admin, files=[("long.phhs", text.encode())], inline=False
    )
    (f,) = job.file_list()
    assert (job.total, f.hands) == (5, 5)
    assert ImportChunk.objects.filter(file=f).count() == -(-len(text) // 300)  # stored in pieces
    assert f.text == text
    seen = []
    phh_import_run(job_id=job.pk, progress=lambda done, total: seen.append((done, total)))
    job.refresh_from_db()
    f.refresh_from_db()
    assert (job.status, job.done, job.imported, job.skipped) == (ImportStatus.DONE, 5, 5, 0)
    assert (f.status, f.position, f.imported) == ("done", 5, 5)
    assert [d for d, _ in seen] == [1, 2, 3, 4, 5, 5] and seen[-1] == (5, 5)
    assert not ImportChunk.objects.filter(file=f).exists()  # the text is not kept
    recorded = Hand.objects.filter(tournament=tournament).order_by("number")
    assert [h.starting_stacks for h in recorded] == [h["starting_stacks"] for h in hands]


def as_stored(tournament) -> tuple:
    """A tournament's hands and seats as stored, players by name; its stacks by name."""
    names = {s.player_id: s.player.name for s in tournament.seats.select_related("player")}
    hands = [
        (
            h.number,
            h.status,
            h.level,
            (h.ante, h.bring_in, h.small_bet, h.big_bet),
            h.dealer_seat,
            h.variant,
            h.options,
            h.entry_mode,
            h.entry,
            h.table_result,
            [names[p] for p in h.positions],
            h.starting_stacks,
            {names[p]: chips for p, chips in h.projected_net_chips.items()},
            h.content_hash,
        )
        for h in Hand.objects.filter(tournament=tournament).order_by("number")
    ]
    seats = list(
        HandSeat.objects.filter(hand__tournament=tournament)
        .order_by("hand__number", "position")
        .values_list(
            "hand__number",
            "player__name",
            "seat",
            "position",
            "starting_stack",
            "contributed",
            "won",
            "folded_street",
            "down",
            "up",
        )
    )
    stacks = {names[p]: chips for p, chips in tournament_state(tournament).stacks.items()}
    return hands, seats, stacks


def test_a_long_import_stores_the_hands_that_recording_them_one_by_one_stores(night_table):
    admin, tournament = night_table
    hands = night([FOLD, SHOWDOWN, KINGS, FOLD, LOW_HOLD, SHOWDOWN, FOLD, KINGS, SHOWDOWN])
    job = phh_import_start(
        tournament=tournament, by=admin, files=[("n.phhs", phh.dumps(hands))], inline=False
    )
    phh_import_run(job_id=job.pk)  # five batches, each going on from the one before
    other_league, other_admin = make_league(slug="other")
    one_by_one, _ = make_tournament(league=other_league, by=other_admin, hands_per_level=50)
    for k, hand in enumerate(phh.loads(phh.dumps(hands)), start=1):  # as the import reads them
        phh_hand_record(
            tournament=one_by_one, by=other_admin, hand=hand, digest=content_hash(hand), label=k
        )
    imported = as_stored(tournament)
    assert len(imported[0]) == len(hands)
    assert imported == as_stored(one_by_one)
    # And settled, they move the same chips.
    assert tournament_settle(tournament_id=tournament.pk) == len(hands)
    assert tournament_settle(tournament_id=one_by_one.pk) == len(hands)
    assert as_stored(tournament) == as_stored(one_by_one)


def test_a_toml_fault_mid_file_names_hand_and_line_and_keeps_no_hand_of_its_batch(night_table):
    admin, tournament = night_table
    text = phh.dumps(night([FOLD] * 5))
    lines = text.splitlines()
    bad = line_of(text, 4) + 2  # a line inside hand 4's table
    lines[bad - 1] = "bring_in = "
    job = phh_import_start(tournament=tournament, by=admin, files=[("n.phhs", "\n".join(lines))])
    (error,) = job.errors
    assert error["hand"] == 4 and error["line"] == bad, error
    assert error["message"].startswith("n.phhs, hand 4: not valid TOML")
    assert f"at line {bad}, column" in error["message"]
    # Batches of two: hands 1 and 2 stay, nothing of the batch of hands 3 and 4.
    assert list(Hand.objects.filter(tournament=tournament).values_list("number", flat=True)) == [
        1,
        2,
    ]
    assert (job.status, job.imported, job.done, job.total) == (ImportStatus.DONE, 2, 5, 5)
    f = ImportFile.objects.get(job=job)
    assert (f.status, f.position, f.imported) == ("failed", 2, 2)
    assert not ImportChunk.objects.filter(file=f).exists()


def test_a_hand_refused_mid_file_names_hand_line_and_action(night_table):
    admin, tournament = night_table
    hands = night([FOLD] * 5)
    hands[2]["actions"][4] = "p3 cbr 60"  # hand 3: not p3's turn
    text = phh.dumps(hands)
    job = phh_import_start(tournament=tournament, by=admin, files=[("n.phhs", text)])
    (error,) = job.errors
    assert (error["hand"], error["line"], error["action_index"]) == (3, line_of(text, 3), 4)
    assert error["message"].startswith("n.phhs, hand 3, action 4 'p3 cbr 60': ")
    assert Hand.objects.filter(tournament=tournament).count() == 2  # the first batch only


def test_a_job_resumed_after_a_crash_mid_batch_records_no_hand_twice(night_table):
    admin, tournament = night_table
    hands = night([FOLD, SHOWDOWN] * 3)
    job = phh_import_start(
        tournament=tournament, by=admin, files=[("n.phhs", phh.dumps(hands))], inline=False
    )
    run_until_connection_lost(job, at=5)  # a crash inside the third batch's transaction
    f = ImportFile.objects.get(job=job)
    assert (job.status, job.done, job.imported, f.position) == (ImportStatus.RUNNING, 4, 4, 4)
    assert Hand.objects.filter(tournament=tournament).count() == 4
    seen = []
    phh_import_run(job_id=job.pk, progress=lambda done, total: seen.append(done))
    assert seen[0] == 5  # it goes on after the last batch committed
    job.refresh_from_db()
    assert (job.status, job.done, job.imported, job.skipped) == (ImportStatus.DONE, 6, 6, 0)
    recorded = list(Hand.objects.filter(tournament=tournament).order_by("number"))
    assert [h.number for h in recorded] == [1, 2, 3, 4, 5, 6]
    assert len({h.content_hash for h in recorded}) == 6


def test_a_position_lost_with_its_hands_committed_skips_them_by_hash(night_table):
    admin, tournament = night_table
    hands = night([FOLD, SHOWDOWN, FOLD])
    job = phh_import_start(
        tournament=tournament, by=admin, files=[("n.phhs", phh.dumps(hands))], inline=False
    )
    phh_import_run(job_id=job.pk)
    # The same file again, as a new job: every hand is already in the tournament.
    again = phh_import_start(tournament=tournament, by=admin, files=[("n.phhs", phh.dumps(hands))])
    assert (again.imported, again.skipped) == (0, 3)
    assert Hand.objects.filter(tournament=tournament).count() == 3


def test_a_file_larger_than_the_bound_fails_alone(night_table, monkeypatch):
    admin, tournament = night_table
    monkeypatch.setattr(imports, "MAX_FILE_BYTES", 1000)
    big = phh.dumps(night([FOLD] * 5))
    job = phh_import_start(
        tournament=tournament,
        by=admin,
        files=[("big.phhs", big), ("one.phh", phh.dumps(night([FOLD])[0]))],
    )
    big_file, one = job.file_list()
    assert big_file.error["code"] == "file_too_large" and big_file.size == len(big.encode())
    assert not ImportChunk.objects.filter(file=big_file).exists()
    assert one.status == "done" and job.imported == 1


def test_the_collector_waits_while_a_batch_runs_and_runs_again_after(night_table):
    import gc

    admin, tournament = night_table
    job = phh_import_start(
        tournament=tournament,
        by=admin,
        files=[("n.phhs", phh.dumps(night([FOLD, SHOWDOWN, FOLD])).encode())],
        inline=False,
    )
    during = []
    phh_import_run(job_id=job.pk, progress=lambda done, total: during.append(gc.isenabled()))
    assert during[:3] == [False, False, False]  # each hand read inside its batch
    assert gc.isenabled()
    gc.disable()  # a caller that holds it off itself keeps it so
    try:
        with imports._collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
    with pytest.raises(RuntimeError), imports._collector_paused():
        raise RuntimeError("a batch that fails")
    assert gc.isenabled()  # back on after a batch that failed
