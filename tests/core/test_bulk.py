"""tracker/core/bulk.py: many rows in few statements, on SQLite and PostgreSQL alike."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.factories import fold_entry, make_league, make_tournament
from tracker.core.bulk import (
    rows_accumulate,
    rows_copy,
    rows_copy_values,
    rows_create,
    rows_insert,
    rows_update,
    statements_pipelined,
)
from tracker.hands.models import Evaluation, EvaluationSource, Pot
from tracker.hands.services.recording import hand_record
from tracker.stats.models import MonthTally

pytestmark = pytest.mark.django_db


@pytest.fixture
def hands():
    league, admin = make_league(min_players=3)
    tournament, players = make_tournament(
        league=league, by=admin, default_variant="seven_card_stud"
    )
    made = [
        hand_record(
            tournament=tournament,
            by=admin,
            entry_mode="quick",
            entry=fold_entry(tournament, winner=k),
        )
        for k in range(3)
    ]
    return league, players, made


def _statements(queries) -> list[str]:
    return [
        q["sql"]
        for q in queries.captured_queries
        if not q["sql"].startswith(("SAVEPOINT", "RELEASE"))
    ]


def test_rows_insert_writes_every_kind_of_value_and_the_defaults(hands):
    _, _, made = hands
    when = timezone.now() - dt.timedelta(days=3)
    rows = [
        {
            "hand_id": made[0].pk,
            "engine_version": "v-test",
            "source": EvaluationSource.REEVALUATION,  # an enum member, prepared by its field
            "reading": {"winner": "Ann", "cards": ["As", "Kd"], "n": 3},
            "awards": [[1, 20]],
            "error": "",
            "job_id": 991,
            "created_at": when,
        },
        # no "awards" and no "created_at": the fields' defaults; a None JSON value stays NULL
        {
            "hand_id": made[1].pk,
            "engine_version": "v-test",
            "source": "settlement",
            "job_id": 991,
            "reading": None,
        },
        {
            "hand_id": made[2].pk,
            "engine_version": "v-test",
            "source": "settlement",
            "job_id": 991,
            "error": "é ✓",
        },
    ]
    with CaptureQueriesContext(connection) as queries:
        rows_insert(Evaluation, rows)
    if connection.vendor == "postgresql":
        assert len(_statements(queries)) == 1  # one statement, whatever the number of rows
    stored = {e.hand_id: e for e in Evaluation.objects.filter(job_id=991)}
    assert len(stored) == 3
    first, second, third = (stored[h.pk] for h in made)
    assert first.reading == {"winner": "Ann", "cards": ["As", "Kd"], "n": 3}
    assert first.awards == [[1, 20]] and first.source == "reevaluation"
    assert abs((first.created_at - when).total_seconds()) < 0.001
    assert second.awards == [] and second.reading is None and second.error == ""
    assert abs((second.created_at - timezone.now()).total_seconds()) < 60
    assert third.error == "é ✓"


def test_rows_insert_of_one_row_and_of_none(hands):
    _, _, made = hands
    rows_insert(Evaluation, [])
    rows_insert(
        Evaluation, [{"hand_id": made[0].pk, "engine_version": "one", "source": "settlement"}]
    )
    assert Evaluation.objects.filter(engine_version="one").count() == 1


def test_rows_update_writes_the_fields_named_and_no_other(hands):
    _, _, made = hands
    for k, hand in enumerate(made):
        Pot.objects.create(
            hand=hand, index=9, amount=10 + k, eligible=[1, 2], engine_award={}, award={}
        )
    pots = list(Pot.objects.filter(hand__in=made, index=9).order_by("pk"))
    before = {p.pk: (p.amount, p.eligible) for p in pots}
    for k, pot in enumerate(pots):
        pot.award = {str(900 + k): k + 1}
        pot.disputed = k == 1
        pot.amount = 123456  # changed in memory, not named: not written
    with CaptureQueriesContext(connection) as queries:
        rows_update(pots, ["award", "disputed"])
    if connection.vendor == "postgresql":
        assert len(_statements(queries)) == 1
    for k, pot in enumerate(Pot.objects.filter(pk__in=before).order_by("pk")):
        assert pot.award == {str(900 + k): k + 1}
        assert pot.disputed is (k == 1)
        assert (pot.amount, pot.eligible) == before[pot.pk]


def test_rows_accumulate_adds_to_existing_rows_and_inserts_new_ones(hands):
    league, players, _ = hands
    MonthTally.objects.filter(league=league).delete()
    june, july = dt.date(2026, 6, 1), dt.date(2026, 7, 1)
    MonthTally.objects.create(
        player=players[0],
        league=league,
        variant="seven_card_stud",
        month=june,
        hands=5,
        net=-40,
        ev=1.5,
        biggest=90,
    )
    keys = ("player_id", "league_id", "variant", "month")
    rows_accumulate(
        MonthTally,
        keys=keys,
        rows=[
            (players[0].pk, league.pk, "seven_card_stud", june, 2, 25, 0.25, 60),  # exists
            (players[1].pk, league.pk, "seven_card_stud", july, 1, -10, 0.0, 30),  # new
        ],
        sums=["hands", "net", "ev"],
        maxima=["biggest"],
    )
    old = MonthTally.objects.get(player=players[0], month=june)
    assert (old.hands, old.net, old.ev, old.biggest) == (7, -15, 1.75, 90)  # 90 > 60 stays
    new = MonthTally.objects.get(player=players[1], month=july)
    assert (new.hands, new.net, new.biggest, new.wild, new.vpip) == (1, -10, 30, 0, 0)
    rows_accumulate(
        MonthTally,
        keys=keys,
        rows=[(players[1].pk, league.pk, "seven_card_stud", july, 0, 0, 0.0, 75)],
        sums=["hands", "net", "ev"],
        maxima=["biggest"],
    )
    assert MonthTally.objects.get(player=players[1], month=july).biggest == 75


def test_rows_accumulate_with_keys_only_locks_or_creates_rows_and_changes_nothing(hands):
    league, players, _ = hands
    MonthTally.objects.filter(league=league).delete()
    june = dt.date(2026, 6, 1)
    MonthTally.objects.create(
        player=players[0], league=league, variant="seven_card_stud", month=june, hands=5, net=-40
    )
    rows_accumulate(
        MonthTally,
        keys=("player_id", "league_id", "variant", "month"),
        rows=[
            (players[0].pk, league.pk, "seven_card_stud", june),
            (players[2].pk, league.pk, "seven_card_stud", june),
        ],
    )
    assert MonthTally.objects.get(player=players[0]).hands == 5
    assert MonthTally.objects.get(player=players[0]).net == -40
    created = MonthTally.objects.get(player=players[2])
    assert (created.hands, created.net, created.biggest) == (0, 0, 0)


def test_rows_copy_sets_the_ids_and_writes_what_save_would(hands):
    _, _, made = hands
    pots = [
        Pot(hand=hand, index=7, amount=5 + k, eligible=[k], engine_award={"1": k}, award={})
        for k, hand in enumerate(made)
    ]
    with CaptureQueriesContext(connection) as queries:
        rows_copy(pots)
    if connection.vendor == "postgresql":
        # The ids drawn in one query; the COPY itself goes through psycopg's cursor, which
        # Django's query log does not see.
        assert len(_statements(queries)) == 1
    assert all(p.pk for p in pots) and len({p.pk for p in pots}) == 3
    for pot in pots:
        stored = Pot.objects.get(pk=pot.pk)
        assert (stored.hand_id, stored.amount, stored.eligible, stored.engine_award) == (
            pot.hand_id,
            pot.amount,
            pot.eligible,
            pot.engine_award,
        )
    # Saved rows afterwards: a later save() updates them, it does not insert again.
    pots[0].amount = 99
    pots[0].save(update_fields=["amount"])
    assert Pot.objects.get(pk=pots[0].pk).amount == 99
    # JSON text that needs quoting anywhere (quotes, backslashes, braces) comes back as given.
    tricky = {'a "quoted" \\ key': ['{"x": 1}', "back\\slash", None, 1.5, True]}
    for pot in pots:
        pot.award = tricky
    rows_update(pots, ["award"])
    assert all(p.award == tricky for p in Pot.objects.filter(pk__in=[p.pk for p in pots]))


@pytest.mark.django_db
def test_rows_copy_writes_times_and_nulls_as_save_would():
    from tracker.audit.models import AuditEntry

    zone = dt.timezone(dt.timedelta(hours=-5))
    times = [
        dt.datetime(2026, 12, 2, 15, 0, 1, 123456, tzinfo=dt.UTC),
        dt.datetime(2026, 12, 2, 10, 0, 1, 7, tzinfo=zone),
    ]
    rows = [AuditEntry(created_at=t, action="x.copy", actor="a", channel="system") for t in times]
    saved = AuditEntry(created_at=times[1], action="x.save", actor="a", channel="system")
    saved.save()
    rows_copy(rows)
    stored = {e.pk: e for e in AuditEntry.objects.filter(action__startswith="x.")}
    assert [stored[r.pk].created_at for r in rows] == times
    assert stored[rows[1].pk].created_at == stored[saved.pk].created_at
    assert stored[rows[0].pk].ip is None and stored[rows[0].pk].data == {}


def test_rows_copy_values_writes_field_values_as_rows_copy_writes_instances(hands):
    _, _, made = hands
    given = [
        {
            "hand_id": hand.pk,
            "index": 7,
            "amount": 5 + k,
            "eligible": [k],
            "engine_award": {"1": k},
            "award": {"1": k},
        }
        for k, hand in enumerate(made)
    ]
    ids = rows_copy_values(Pot, given)
    assert len(set(ids)) == 3
    stored = Pot.objects.in_bulk(ids)
    for pk, values in zip(ids, given, strict=True):
        pot = stored[pk]
        assert (pot.hand_id, pot.index, pot.amount, pot.eligible, pot.award) == (
            values["hand_id"],
            values["index"],
            values["amount"],
            values["eligible"],
            values["award"],
        )
        # The fields not given take their defaults, as an instance saved would have them.
        assert (pot.table_award, pot.disputed, pot.overridden) == (None, False, False)
    assert rows_copy_values(Pot, []) == []


def test_rows_create_in_a_pipeline_writes_what_rows_copy_does(hands):
    _, _, made = hands
    tricky = {'a "quoted" \\ key': ['{"x": 1}', "back\\slash", None, 1.5, True]}

    def pots(index: int) -> list[Pot]:
        return [
            Pot(
                hand=hand,
                index=index,
                amount=5 + k,
                eligible=[k],
                engine_award={"1": k},
                table_award=None if k else tricky,
                award={},
                disputed=bool(k),
            )
            for k, hand in enumerate(made)
        ]

    copied, created = pots(7), pots(8)
    rows_copy(copied)
    with statements_pipelined():  # the ids are drawn (one wait), the rows sent with the rest
        rows_create(created)
        rows_update(created, ["amount"])  # sent after the insert, run after it
    assert all(p.pk for p in created) and len({p.pk for p in created}) == 3
    fields = ["hand_id", "amount", "eligible", "engine_award", "table_award", "award", "disputed"]
    for a, b in zip(copied, created, strict=True):
        one, other = Pot.objects.get(pk=a.pk), Pot.objects.get(pk=b.pk)
        assert [getattr(one, f) for f in fields] == [getattr(other, f) for f in fields]
    # Saved rows afterwards: a later save() updates them, it does not insert again.
    created[0].amount = 99
    created[0].save(update_fields=["amount"])
    assert Pot.objects.get(pk=created[0].pk).amount == 99


def test_an_error_in_a_pipeline_is_djangos_and_rolls_back(hands):
    from django.db import IntegrityError, transaction

    _, _, made = hands
    before = Pot.objects.count()
    with pytest.raises(IntegrityError), transaction.atomic(), statements_pipelined():
        rows_create([Pot(hand=made[0], index=9, amount=1, eligible=[], engine_award={}, award={})])
        rows_create([Pot(hand=made[0], index=9, amount=2, eligible=[], engine_award={}, award={})])
    assert Pot.objects.count() == before
