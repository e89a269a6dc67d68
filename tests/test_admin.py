"""The Django admin: every model registered; the ledger, money, rulings, evaluations, disputes,
final standings and the audit log read-only; every list (with its search and filters) loads."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.test import Client, RequestFactory
from django.urls import reverse

from tests.factories import fold_entry, make_league, make_tournament
from tracker.audit.models import AuditEntry
from tracker.hands.services.recording import hand_record
from tracker.tournaments.models import LedgerEntry

pytestmark = pytest.mark.django_db

READ_ONLY = {
    "tracker.LedgerEntry",
    "tracker.Ruling",
    "tracker.Evaluation",
    "tracker.AuditEntry",
    "tracker.Dispute",
    "tracker.FinalStanding",
    "tracker.MonthTally",
    "tracker.TournamentTally",
    "tracker.StandingTally",
    "tracker.LeagueMoney",
    "tracker.NightMoney",
    "tracker.MoneyEntry",
    "tracker.SettleTransfer",
    "tracker.MoneyLedgerEntry",
    "tracker.OutboxMessage",
    "tracker.Rsvp",
    "tracker.Deal",
    "tracker.ReevaluationChunk",
    "tracker.ImportChunk",
    "tracker.LeagueGame",
    "tracker.LeagueGameVersion",
}


def our_models():
    return [m for name in ("tracker", "api") for m in apps.get_app_config(name).get_models()]


def test_every_model_is_registered():
    missing = [m._meta.label for m in our_models() if m not in admin.site._registry]
    assert not missing, f"models missing from the admin: {missing}"


@pytest.fixture
def operator():
    return get_user_model().objects.create_superuser("op", "op@example.org", "pw-for-tests-only")


@pytest.fixture
def world(operator, django_capture_on_commit_callbacks):
    league, admin_user = make_league()
    tournament, _ = make_tournament(league=league, by=admin_user)
    with django_capture_on_commit_callbacks(execute=True):
        hand_record(
            tournament=tournament,
            entry_mode="quick",
            entry=fold_entry(tournament),
            variant="seven_card_stud",
            by=admin_user,
        )
    return league, tournament


@pytest.mark.parametrize("label", sorted(READ_ONLY))
def test_the_read_only_models_refuse_add_change_and_delete(label, operator):
    model_admin = admin.site._registry[apps.get_model(label)]
    request = RequestFactory().get("/admin/")
    request.user = operator
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)
    assert model_admin.has_view_permission(request)


def test_a_ledger_row_is_shown_but_cannot_be_changed_over_http(operator, world):
    client = Client()
    client.force_login(operator)
    row = LedgerEntry.objects.first()
    url = reverse("admin:tracker_ledgerentry_change", args=[row.pk])
    page = client.get(url)
    assert page.status_code == 200 and b"Save" not in page.content
    amount = row.amount
    assert client.post(url, {"amount": amount + 500}).status_code == 403
    row.refresh_from_db()
    assert row.amount == amount
    assert client.get(reverse("admin:tracker_ledgerentry_add")).status_code == 403
    entry = AuditEntry.objects.first()
    delete = reverse("admin:tracker_auditentry_delete", args=[entry.pk])
    assert client.post(delete, {"post": "yes"}).status_code == 403
    assert AuditEntry.objects.filter(pk=entry.pk).exists()


def test_every_list_loads_with_its_search_and_filters(operator, world):
    client = Client()
    client.force_login(operator)
    for model in our_models():
        model_admin = admin.site._registry[model]
        url = reverse(f"admin:{model._meta.app_label}_{model._meta.model_name}_changelist")
        assert client.get(url).status_code == 200, url
        if model_admin.search_fields:
            assert client.get(url, {"q": "friday"}).status_code == 200, url
        # An operator finds rows by searching or filtering: every list has one or both.
        assert model_admin.search_fields or model_admin.list_filter, url
