"""Writes of a league's money ledger (docs/money.md, "The league ledger"): a finished
night's results posted (and restated after a ruling), payments, and an admin's
corrections. Every write adds entries whose amounts add up to zero, is in the audit log,
and never changes nor deletes a row."""

from __future__ import annotations

from django.db import transaction

from tracker.audit.services import audit_record
from tracker.core.errors import PermissionDenied
from tracker.core.permissions import Capability, require
from tracker.engine.errors import Code, DomainError
from tracker.leagues.models import League, Player
from tracker.money.ledger_selectors import league_ledger, night_posted
from tracker.money.models import LedgerKind, MoneyLedgerEntry, SettleTransfer
from tracker.money.results import HOUSE, night_balances
from tracker.money.selectors import league_money
from tracker.tournaments.models import Tournament

MAX_REASON = 300
MAX_AMOUNT = 10**12  # minor units: far above any home game, well inside the column
MAX_ID = 2**63 - 1


def _user(by):
    return by if getattr(by, "is_authenticated", False) else None


def _write(
    *, league: League, currency: str, kind: str, amounts: dict[int | None, int], by, **extra
) -> list[MoneyLedgerEntry]:
    if sum(amounts.values()) != 0:  # the invariant every write keeps
        raise RuntimeError(f"ledger entries must add up to zero: {amounts}")
    return MoneyLedgerEntry.objects.bulk_create(
        [
            MoneyLedgerEntry(
                league=league,
                player_id=pid,
                kind=kind,
                amount=amount,
                currency=currency,
                created_by=_user(by),
                **extra,
            )
            for pid, amount in amounts.items()
            if amount
        ]
    )


def _as_json(amounts: dict[int | None, int]) -> dict[str, int]:
    return {HOUSE if p is None else str(p): a for p, a in amounts.items() if a}


@transaction.atomic
def ledger_night_post(*, tournament: Tournament, cause: str = "", by=None) -> list:
    """Post a finished night's results to its league's ledger: each player's result (and the
    house's fees) once, as ``night`` entries; called again after the results changed (a
    ruling that moved a pot or the final standings), the differences from what was posted,
    as ``restated`` entries (``cause`` says why). Nothing when nothing changed, or before
    the night is over: idempotent. Locks the night, so two posts never race."""
    tournament = (
        Tournament.objects.select_for_update().select_related("league").get(pk=tournament.pk)
    )
    read = night_balances(tournament)
    if read is None:
        return []
    summary, results = read
    target: dict[int | None, int] = dict(results)
    target[None] = summary.pool.fees
    posted = night_posted(tournament.pk)
    diff = {
        p: target.get(p, 0) - posted.get(p, 0)
        for p in [*target, *(p for p in posted if p not in target)]
    }
    diff = {p: d for p, d in diff.items() if d}
    if not diff:
        return []
    kind = LedgerKind.RESTATED if posted else LedgerKind.NIGHT
    if not posted:
        reason = f"{tournament.name}: the night's result"
    else:
        reason = f"{tournament.name}: restated" + (f" ({cause})" if cause else "")
    rows = _write(
        league=tournament.league,
        currency=summary.money.currency,
        kind=kind,
        amounts=diff,
        by=by,
        tournament=tournament,
        reason=reason[:MAX_REASON],
    )
    audit_record(
        action=f"money.ledger_{kind}",
        target=tournament,
        league=tournament.league,
        actor=by,
        data={
            "currency": summary.money.currency,
            "amounts": _as_json(diff),
            "cause": cause,
            "entries": [r.pk for r in rows],
        },
    )
    return rows


def ledger_transfer_post(*, transfer: SettleTransfer, currency: str, by) -> list:
    """A night's settle-up transfer marked paid, in the ledger: the payer's balance goes up
    by the amount, the payee's down (the house when null). Called by the marking, inside
    its transaction (tracker/money/settle.py), after the night's results are posted."""
    tournament = transfer.tournament
    amounts: dict[int | None, int] = {transfer.payer_id: transfer.amount}
    amounts[transfer.payee_id] = amounts.get(transfer.payee_id, 0) - transfer.amount
    return _write(
        league=tournament.league,
        currency=currency,
        kind=LedgerKind.PAYMENT,
        amounts=amounts,
        by=by,
        tournament=tournament,
        transfer=transfer,
        reason=f"{tournament.name}: settle-up transfer {transfer.position} paid",
    )


def _party(league: League, value: object, *, field: str) -> tuple[int | None, str]:
    """A party of the league's settle-up: ``"house"`` or one of its players' ids."""
    if value == HOUSE:
        return None, "the house"
    try:
        pid = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise DomainError(
            f"{value!r} is neither a player id nor {HOUSE!r}", code=Code.INVALID_PARTY, field=field
        ) from None
    if not 0 < pid <= MAX_ID:
        raise DomainError(f"no player {pid} in the league", code=Code.UNKNOWN_PLAYER, field=field)
    name = league.players.filter(pk=pid).values_list("name", flat=True).first()
    if name is None:
        raise DomainError(f"no player {pid} in the league", code=Code.UNKNOWN_PLAYER, field=field)
    return pid, name


@transaction.atomic
def ledger_payment_record(
    *, league: League, payer: object, payee: object, amount: int, by
) -> list[MoneyLedgerEntry]:
    """One transfer of the league's settle-up paid (``payer`` and ``payee``: a player id or
    ``"house"``): two entries, the payer's balance up by ``amount``, the payee's down. Its
    payer or payee (an account linked to that player) or an admin may; the transfer must be
    one of the settle-up as it stands (``not_in_settle_up`` otherwise: it changed since)."""
    can = require(by, league, Capability.VIEW_MONEY, "see the league's money")
    league = League.objects.select_for_update().get(pk=league.pk)  # one ledger write at a time
    payer_id, payer_name = _party(league, payer, field="payer")
    payee_id, payee_name = _party(league, payee, field="payee")
    user_id = getattr(by, "pk", None)
    linked = (
        set(
            Player.objects.filter(
                pk__in=[p for p in (payer_id, payee_id) if p is not None], user_id=user_id
            ).values_list("pk", flat=True)
        )
        if user_id is not None
        else set()
    )
    if not linked and Capability.MARK_PAID not in can:
        raise PermissionDenied(
            "Only the transfer's payer, its payee or a league admin may mark it paid; "
            f"your role is {can.role or 'none'}."
        )
    if isinstance(amount, bool) or not isinstance(amount, int) or not 0 < amount <= MAX_AMOUNT:
        raise DomainError(
            f"the amount must be a positive whole number of minor units up to {MAX_AMOUNT}, "
            f"not {amount!r}",
            code=Code.INVALID_AMOUNT,
            field="amount",
        )
    ledger = league_ledger(league)
    key = (HOUSE if payer_id is None else payer_id, HOUSE if payee_id is None else payee_id)
    if not any((t.payer, t.payee, t.amount) == (*key, amount) for t in ledger.transfers):
        raise DomainError(
            f"{payer_name} paying {payee_name} {ledger.fmt(amount)} "
            "is not a transfer of the league's settle-up as it stands (read it again)",
            code=Code.NOT_IN_SETTLE_UP,
        )
    amounts: dict[int | None, int] = {payer_id: amount, payee_id: -amount}
    rows = _write(
        league=league,
        currency=ledger.currency,
        kind=LedgerKind.PAYMENT,
        amounts=amounts,
        by=by,
        reason=f"{payer_name} paid {payee_name}"[:MAX_REASON],
    )
    audit_record(
        action="money.ledger_payment",
        target=league,
        league=league,
        actor=by,
        data={
            "payer": key[0],
            "payee": key[1],
            "amount": amount,
            "currency": ledger.currency,
            "entries": [r.pk for r in rows],
        },
    )
    return rows


@transaction.atomic
def ledger_correction_add(
    *, league: League, player_id: object, amount: object, reason: object, by
) -> list[MoneyLedgerEntry]:
    """An admin's correction: ``amount`` (minor units, not zero; negative lowers the
    balance) added to a player's balance, the house taking the other side, so the balances
    still add up to zero. ``reason`` is required. Two new entries; nothing is edited."""
    require(by, league, Capability.CORRECT_MONEY, "correct the league's money ledger")
    league = League.objects.select_for_update().get(pk=league.pk)
    pid, name = _party(league, player_id, field="player")
    if pid is None:
        raise DomainError(
            "a correction is to a player's balance (the house takes the other side)",
            code=Code.INVALID_PARTY,
            field="player",
        )
    if (
        isinstance(amount, bool)
        or not isinstance(amount, int)
        or amount == 0
        or abs(amount) > MAX_AMOUNT
    ):
        raise DomainError(
            f"the amount must be a whole number of minor units other than 0, at most "
            f"{MAX_AMOUNT} either way, not {amount!r}",
            code=Code.INVALID_AMOUNT,
            field="amount",
        )
    text = reason.strip() if isinstance(reason, str) else ""
    if not text:
        raise DomainError("a correction needs a reason", code=Code.REASON_REQUIRED, field="reason")
    if len(text) > MAX_REASON:
        raise DomainError(
            f"the reason is {len(text)} characters long, at most {MAX_REASON}",
            code=Code.REASON_TOO_LONG,
            field="reason",
        )
    currency = league_money(league).currency
    rows = _write(
        league=league,
        currency=currency,
        kind=LedgerKind.CORRECTION,
        amounts={pid: amount, None: -amount},
        by=by,
        reason=text,
    )
    audit_record(
        action="money.ledger_correction",
        target=league,
        league=league,
        actor=by,
        data={
            "player": pid,
            "name": name,
            "amount": amount,
            "currency": currency,
            "reason": text,
            "entries": [r.pk for r in rows],
        },
    )
    return rows
