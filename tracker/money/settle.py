"""Writes of a finished night's settle-up: its transfers stored, and a transfer marked paid
by its payer, its payee (an account linked to that player) or an admin (docs/money.md)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from tracker.audit.services import audit_record
from tracker.core.errors import NotFound, PermissionDenied
from tracker.core.permissions import Capability, require
from tracker.engine.errors import Code, DomainError
from tracker.money.ledger_services import ledger_night_post, ledger_transfer_post
from tracker.money.models import SettleTransfer
from tracker.money.results import HOUSE, night_results
from tracker.money.selectors import night_money
from tracker.tournaments.models import Tournament, TournamentStatus


@transaction.atomic
def night_transfers_create(*, tournament: Tournament, by) -> list[SettleTransfer]:
    """Store the finished night's settle-up, one row per transfer, once: called again, it
    returns the rows stored (idempotent). Refused before the night is over."""
    tournament = (
        Tournament.objects.select_for_update().select_related("league").get(pk=tournament.pk)
    )
    rows = list(SettleTransfer.objects.filter(tournament=tournament).order_by("position"))
    if rows:
        return rows
    if tournament.status != TournamentStatus.FINISHED:
        raise DomainError(
            "the night is not over: its results are not final", code=Code.NIGHT_NOT_OVER
        )
    results = night_results(tournament)
    rows = SettleTransfer.objects.bulk_create(
        [
            SettleTransfer(
                tournament=tournament,
                position=k,
                payer_id=None if t.payer == HOUSE else t.payer,
                payee_id=None if t.payee == HOUSE else t.payee,
                amount=t.amount,
            )
            for k, t in enumerate(results.transfers)
        ]
    )
    audit_record(
        action="money.transfers_create",
        target=tournament,
        league=tournament.league,
        actor=by,
        data={
            "transfers": [[r.payer_id, r.payee_id, r.amount] for r in rows],
            "minimal": results.minimal,
        },
    )
    return rows


@transaction.atomic
def transfer_mark_paid(*, tournament: Tournament, position: int, by) -> SettleTransfer:
    """Mark the transfer at ``position`` of the night's settle-up paid (storing the
    settle-up first if it is not yet). Its payer or payee (a linked account of that player,
    holding a role in the league) or an admin may; marked twice, it stays as first marked."""
    can = require(by, tournament.league, Capability.VIEW_MONEY, "see the night's money")
    night_transfers_create(tournament=tournament, by=by)
    # the night's results in the league ledger first (idempotent: posted when it ended)
    ledger_night_post(tournament=tournament, by=by)
    row = (
        SettleTransfer.objects.select_for_update(of=("self",))
        .select_related("payer", "payee")
        .filter(tournament=tournament, position=position)
        .first()
    )
    if row is None:
        raise NotFound(f"The settle-up has no transfer {position}.")
    user_id = getattr(by, "pk", None)
    own = user_id is not None and any(
        p is not None and p.user_id == user_id for p in (row.payer, row.payee)
    )
    if not own and Capability.MARK_PAID not in can:
        raise PermissionDenied(
            "Only the transfer's payer, its payee or a league admin may mark it paid; "
            f"your role is {can.role or 'none'}."
        )
    if row.paid_at is not None:
        return row
    row.paid_at = timezone.now()
    row.paid_by = by if getattr(by, "is_authenticated", False) else None
    row.save(update_fields=["paid_at", "paid_by"])
    entries = ledger_transfer_post(transfer=row, currency=night_money(tournament).currency, by=by)
    audit_record(
        action="money.transfer_paid",
        target=row,
        league=tournament.league,
        actor=by,
        data={
            "tournament": tournament.pk,
            "position": row.position,
            "payer": row.payer_id,
            "payee": row.payee_id,
            "amount": row.amount,
            "ledger_entries": [e.pk for e in entries],
        },
    )
    return row
