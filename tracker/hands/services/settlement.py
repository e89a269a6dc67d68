"""Settling hands (run by the worker).

``tournament_settle`` settles a tournament's recorded hands in hand order, each
exactly once: under a lock on the tournament row it takes the first recorded
hand, re-evaluates it with the engine against the stacks in the ledger, writes
its pots and ledger entries and marks it verified, disputed or invalid. An
invalid hand stops the queue: later hands wait for it.
"""

from __future__ import annotations

import logging
import os
import time

from django.db import transaction
from django.utils import timezone

from tracker.audit.services import system_actor
from tracker.engine.errors import DomainError
from tracker.engine.version import ENGINE_VERSION
from tracker.hands.models import (
    DisputeSource,
    EvaluationSource,
    Hand,
    HandStatus,
    Pot,
)
from tracker.hands.selectors.evaluation import HandSpec, hand_evaluate
from tracker.hands.services.evaluations import disputes_flag, evaluation_record
from tracker.stats.services import facts_for_hand, stats_tallies_apply
from tracker.tournaments.models import (
    LedgerEntry,
    LedgerKind,
    Tournament,
)
from tracker.tournaments.selectors import tournament_stacks
from tracker.tournaments.services import tournament_finish_if_over

log = logging.getLogger(__name__)

FULL_KEYS = {"actions", "seventh_card", "buys", "declarations"}
QUICK_SEAT_KEYS = {"player", "put_in", "folded", "down", "up", "bought", "declare", "seventh"}


# --------------------------------------------------------------------------
# Settlement


def _fault_delay() -> None:
    """Test hook: a pause inside the settlement transaction, so a test can kill the worker there."""
    delay = float(os.environ.get("HOMEGAME_SETTLE_FAULT_DELAY", "0") or 0)
    if delay:
        time.sleep(delay)


@system_actor()
def tournament_settle(*, tournament_id: int) -> int:
    """Settle the recorded hands of a tournament in hand order; returns how many were settled.

    Safe to run any number of times, concurrently too: each hand is settled in its own
    transaction under a lock on the tournament row, and only while still ``recorded``.
    """
    settled = 0
    while True:
        with transaction.atomic():
            tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
            if tournament is None:
                return settled
            hands = (
                Hand.objects.filter(tournament=tournament)
                .exclude(status__in=(HandStatus.VERIFIED, HandStatus.DISPUTED, HandStatus.VOID))
                .order_by("number")
            )
            hand = hands.first()
            if hand is None or hand.status != HandStatus.RECORDED:
                tournament_finish_if_over(tournament=tournament)
                return settled  # nothing to do, or the first unsettled hand is invalid: wait
            if _settle_hand(tournament, hand):
                settled += 1
                # The running totals of the statistics, in the same transaction.
                stats_tallies_apply(hand_ids=[hand.pk])


def _settle_hand(tournament: Tournament, hand: Hand) -> bool:
    """Settle one hand; False when the stacks do not allow it (the hand is marked invalid)."""
    spec = HandSpec.of(hand)
    ledger = tournament_stacks(tournament)
    stacks = [ledger[pid] for pid in spec.players]
    try:
        outcome = hand_evaluate(spec, stacks)
    except DomainError as exc:
        evaluation_record(hand=hand, source=EvaluationSource.SETTLEMENT, error=exc.message)
        hand.status = HandStatus.INVALID
        hand.status_reason = f"with the stacks {stacks}: {exc.message}"
        hand.engine_version = ENGINE_VERSION
        hand.settled_at = timezone.now()
        hand.save(update_fields=["status", "status_reason", "engine_version", "settled_at"])
        log.warning("hand invalid", extra={"hand": hand.pk, "reason": hand.status_reason})
        return False
    entries = []
    for pid, chips in outcome.contributed().items():
        if chips:
            entries.append(
                LedgerEntry(
                    tournament=tournament,
                    player_id=pid,
                    hand=hand,
                    kind=LedgerKind.CONTRIBUTION,
                    amount=-chips,
                )
            )
    LedgerEntry.objects.bulk_create(entries)
    disputed_rows = []
    for k, pot in enumerate(outcome.pots):
        row = Pot.objects.create(
            hand=hand,
            index=k,
            amount=pot.amount,
            eligible=pot.eligible,
            engine_chips=pot.engine_award,
            table_chips=pot.table_award,
            award_chips=pot.award,
            disputed=pot.disputed,
        )
        if row.disputed:
            disputed_rows.append(row)
        LedgerEntry.objects.bulk_create(
            [
                LedgerEntry(
                    tournament=tournament,
                    player_id=pid,
                    hand=hand,
                    pot=row,
                    kind=LedgerKind.AWARD,
                    amount=chips,
                )
                for pid, chips in pot.award.items()
                if chips
            ]
        )
    won = outcome.won()
    facts = facts_for_hand(hand, outcome.result.to_dict())
    for seat in hand.hand_seats.all():
        pos = seat.position
        seat.starting_stack = stacks[pos]
        seat.contributed = outcome.result.contributions[pos]
        seat.won = won[seat.player_id]
        seat.facts = facts[pos]
        seat.save(update_fields=["starting_stack", "contributed", "won", "facts"])
    hand.status = HandStatus.DISPUTED if outcome.disputed else HandStatus.VERIFIED
    hand.status_reason = "the table's award differs from the engine's" if outcome.disputed else ""
    hand.engine_reading = outcome.reading()
    hand.engine_version = ENGINE_VERSION
    hand.settled_at = timezone.now()
    hand.projected_net_chips = outcome.net()
    hand.save(
        update_fields=[
            "status",
            "status_reason",
            "engine_reading",
            "engine_version",
            "settled_at",
            "projected_net",
        ]
    )
    evaluation_record(hand=hand, source=EvaluationSource.SETTLEMENT, outcome=outcome)
    disputes_flag(
        hand=hand,
        pots=disputed_rows,
        source=DisputeSource.SETTLEMENT,
        reason="the table's award differs from the engine's",
    )
    _fault_delay()
    return True
