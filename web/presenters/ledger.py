"""A league's money ledger as its page shows it: each balance, the league's settle-up (with
the transfers the viewer may mark paid) and the entries, in the league's locale."""

from __future__ import annotations

from dataclasses import dataclass

from tracker.core.permissions import Capabilities
from tracker.leagues.models import League
from tracker.money.ledger_selectors import LeagueLedger, league_ledger, ledger_entries
from tracker.money.results import HOUSE

HOUSE_NAME = "The house (fees)"
ENTRY_LIMIT = 100  # the page lists the latest entries; the API lists them all


@dataclass(frozen=True)
class BalanceRow:
    name: str
    balance: str
    positive: bool


@dataclass(frozen=True)
class TransferRow:
    payer: str  # a player id or "house", for the form
    payee: str
    amount: int
    payer_name: str
    payee_name: str
    amount_text: str
    may_mark: bool


@dataclass(frozen=True)
class EntryRow:
    when: object
    name: str
    kind: str
    amount: str
    positive: bool
    reason: str
    night_url: str | None


@dataclass(frozen=True)
class LedgerView:
    ledger: LeagueLedger
    balances: list[BalanceRow]
    transfers: list[TransferRow]
    entries: list[EntryRow]
    more_entries: int
    others: list[str]  # the other currencies' balances, in words
    players: list[tuple[int, str]]  # for the correction form


def _signed(ledger: LeagueLedger, amount: int) -> str:
    return ("+" if amount > 0 else "") + ledger.fmt(amount)


def ledger_view(league: League, *, can: Capabilities, user=None) -> LedgerView:
    ledger = league_ledger(league)
    names = dict(league.players.values_list("pk", "name"))

    def name(p) -> str:
        return HOUSE_NAME if p in (None, HOUSE) else names.get(p, f"player {p}")

    linked: set[int] = set()
    if getattr(user, "is_authenticated", False):
        linked = set(league.players.filter(user_id=user.pk).values_list("pk", flat=True))
    entries = ledger_entries(league)
    shown = entries[::-1][:ENTRY_LIMIT]
    return LedgerView(
        ledger=ledger,
        balances=[
            BalanceRow(name=name(p), balance=_signed(ledger, b), positive=b > 0)
            for p, b in ledger.balances.items()
        ],
        transfers=[
            TransferRow(
                payer=str(t.payer),
                payee=str(t.payee),
                amount=t.amount,
                payer_name=name(t.payer),
                payee_name=name(t.payee),
                amount_text=ledger.fmt(t.amount),
                may_mark=can.mark_paid or bool(linked & {t.payer, t.payee}),
            )
            for t in ledger.transfers
        ],
        entries=[
            EntryRow(
                when=e.created_at,
                name=name(e.player_id),
                kind=e.get_kind_display(),
                amount=_signed(ledger, e.amount)
                if e.currency == ledger.currency
                else f"{e.amount:+} ({e.currency} minor units)",
                positive=e.amount > 0,
                reason=e.reason,
                night_url=e.tournament.get_absolute_url() if e.tournament_id else None,
            )
            for e in shown
        ],
        more_entries=max(0, len(entries) - ENTRY_LIMIT),
        others=[
            f"{code}: " + ", ".join(f"{name(p)} {b:+}" for p, b in balances.items())
            for code, balances in ledger.others.items()
        ],
        players=sorted(names.items(), key=lambda kv: (kv[1].casefold(), kv[0])),
    )
