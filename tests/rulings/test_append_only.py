"""Rulings, disputes, evaluations and audit entries are append-only (both databases)."""

from __future__ import annotations

import pytest
from django.db import DatabaseError, connection, transaction

from tests.rulings.helpers import disputed_hand, league_with_roles
from tracker.audit.models import AuditEntry
from tracker.core.models import AppendOnlyError
from tracker.hands.models import Dispute, Evaluation
from tracker.rulings.models import Ruling
from tracker.rulings.services import ruling_make

pytestmark = pytest.mark.django_db


@pytest.fixture
def rows(django_capture_on_commit_callbacks):
    league, users = league_with_roles()
    _, hand, _ = disputed_hand(league, users["admin"], django_capture_on_commit_callbacks)
    ruling = ruling_make(pot=hand.pots.get(), by=users["authority"], result="engine", reason="aces")
    return {
        Ruling: ruling,
        Dispute: Dispute.objects.filter(hand=hand).first(),
        Evaluation: Evaluation.objects.filter(hand=hand).first(),
        AuditEntry: AuditEntry.objects.filter(action="ruling.make").first(),
    }


MODELS = [Ruling, Dispute, Evaluation, AuditEntry]


@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_the_models_refuse_updates_and_deletes(rows, model):
    row = rows[model]
    assert row is not None
    field = {Ruling: "reason", Dispute: "reason", Evaluation: "error", AuditEntry: "actor"}[model]
    setattr(row, field, "quietly changed")
    with pytest.raises(AppendOnlyError):
        row.save()
    with pytest.raises(AppendOnlyError):
        row.save(update_fields=[field])
    with pytest.raises(AppendOnlyError):
        row.delete()
    with pytest.raises(AppendOnlyError):
        model.objects.filter(pk=row.pk).update(**{field: "quietly changed"})
    with pytest.raises(AppendOnlyError):
        model.objects.filter(pk=row.pk).delete()
    with pytest.raises(AppendOnlyError):
        model.objects.bulk_update([row], [field])
    fresh = model.objects.get(pk=row.pk)
    assert getattr(fresh, field) != "quietly changed"


def test_the_records_protect_what_they_name(rows):
    from django.db.models import ProtectedError

    hand = rows[Ruling].hand
    with pytest.raises(ProtectedError):
        hand.delete()


@pytest.mark.skipif(
    connection.vendor != "postgresql", reason="the database trigger exists on PostgreSQL only"
)
@pytest.mark.parametrize("model", MODELS, ids=lambda m: m.__name__)
def test_postgresql_refuses_updates_and_deletes_of_any_client(rows, model):
    row = rows[model]
    table = model._meta.db_table
    for sql in (
        f"UPDATE {table} SET created_at = created_at WHERE id = %s",
        f"DELETE FROM {table} WHERE id = %s",
    ):
        with pytest.raises(DatabaseError) as err, transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute(sql, [row.pk])
        assert "append-only" in str(err.value)
    assert model.objects.filter(pk=row.pk).exists()
