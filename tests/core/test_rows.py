"""tracker/core/rows.py: the names statements written out by hand give tables and columns."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import FieldDoesNotExist
from django.db import connection

from tests.factories import make_league, make_tournament
from tracker.core import rows
from tracker.tournaments.models import LedgerEntry, Seat


def test_a_table_and_its_columns_are_quoted_for_the_connection():
    assert rows.table(Seat) == '"tracker_seat"'
    assert rows.column(Seat, "number") == '"number"'
    # A foreign key by its name or its attname: one column, the one holding the id.
    assert rows.column(Seat, "player") == rows.column(Seat, "player_id") == '"player_id"'
    assert rows.column(LedgerEntry, "hand") == rows.column(LedgerEntry, "hand_id") == '"hand_id"'
    assert rows.column(LedgerEntry, "from_hand") == '"from_hand"'  # a number, not a key
    assert rows.column(Seat, "id") == '"id"'


@pytest.mark.parametrize(
    ("model", "name", "error"),
    [
        (Seat, "chips", FieldDoesNotExist),  # no such field
        (Seat._meta.get_field("tournament").related_model, "seats", ValueError),  # reverse
        (get_user_model(), "groups", ValueError),  # many-to-many: a table of its own
    ],
)
def test_a_name_that_is_no_column_of_the_table_is_refused(model, name, error):
    with pytest.raises(error):
        rows.column(model, name)


@pytest.mark.django_db
def test_a_statement_written_with_them_reads_what_the_queryset_reads():
    league, admin = make_league()
    tournament, _ = make_tournament(league=league, by=admin, default_variant="seven_card_stud")
    sql = (
        f"SELECT {rows.column(Seat, 'number')}, {rows.column(Seat, 'player')} "
        f"FROM {rows.table(Seat)} WHERE {rows.column(Seat, 'tournament')} = %s "
        f"ORDER BY {rows.column(Seat, 'number')}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [tournament.pk])
        found = [tuple(row) for row in cursor.fetchall()]
    expected = list(
        Seat.objects.filter(tournament=tournament)
        .order_by("number")
        .values_list("number", "player_id")
    )
    assert found == expected and len(found) >= 2
