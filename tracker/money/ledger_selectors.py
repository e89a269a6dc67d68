"""Reads of a league's money ledger (docs/money.md, "The league ledger"): its entries, each
player's balance (the sum of their entries) and the league's settle-up, the fewest
transfers that square every open balance (the house's included)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.db.models import Sum

from tracker.core.errors import NotFound
from tracker.engine.settle_up import Transfer, settle_up
from tracker.leagues.models import League, Player
from tracker.money.formatting import amount_format
from tracker.money.models import MoneyLedgerEntry
from tracker.money.results import HOUSE
from tracker.money.selectors import league_money


@dataclass
class LeagueLedger:
    """A league's open balances in its currency (minor units; positive: the league owes
    them, negative: they owe), by player id and ``HOUSE``; they add up to zero. The
    settle-up squares them; ``others`` lists the currencies of entries in another currency
    (a night played before the league changed its currency), kept apart."""

    currency: str
    locale: str
    balances: dict[object, int]
    transfers: list[Transfer] = field(default_factory=list)
    minimal: bool = True
    others: dict[str, dict[object, int]] = field(default_factory=dict)

    def fmt(self, amount: int) -> str:
        return amount_format(amount, currency=self.currency, locale=self.locale)

    @property
    def formatter(self) -> Callable[[int], str]:
        return self.fmt


def ledger_balances(league: League, *, currency: str) -> dict[object, int]:
    """Each party's balance in ``currency``: the sum of its entries, the house as ``HOUSE``;
    parties whose entries add up to zero are left out. Players in name order, the house last.

    The balances always add up to zero: every write adds entries that do."""
    rows = (
        MoneyLedgerEntry.objects.filter(league=league, currency=currency)
        .values("player_id")
        .annotate(total=Sum("amount"))
    )
    totals = {r["player_id"]: r["total"] for r in rows if r["total"]}
    names = dict(
        Player.objects.filter(pk__in=[p for p in totals if p is not None]).values_list("pk", "name")
    )
    out: dict[object, int] = {
        pid: totals[pid] for pid in sorted(names, key=lambda p: (names[p].casefold(), p))
    }
    if totals.get(None):
        out[HOUSE] = totals[None]
    return out


def league_ledger(league: League) -> LeagueLedger:
    """The league's open balances in its currency and the settle-up that squares them
    (exactly the fewest transfers up to 16 parties with a balance, ``minimal`` False above)."""
    money = league_money(league)
    balances = ledger_balances(league, currency=money.currency)
    plan = settle_up(balances)
    others = {
        code: ledger_balances(league, currency=code)
        for code in MoneyLedgerEntry.objects.filter(league=league)
        .exclude(currency=money.currency)
        .values_list("currency", flat=True)
        .distinct()
        .order_by("currency")
    }
    return LeagueLedger(
        currency=money.currency,
        locale=money.locale,
        balances=balances,
        transfers=list(plan.transfers),
        minimal=plan.minimal,
        others={code: b for code, b in others.items() if b},
    )


def ledger_entries(
    league: League, *, player_id: int | None = None, house: bool = False
) -> list[MoneyLedgerEntry]:
    """The league's ledger entries, oldest first: all of them, one player's, or the
    house's (``house``)."""
    rows = MoneyLedgerEntry.objects.filter(league=league).select_related("player", "tournament")
    if house:
        rows = rows.filter(player__isnull=True)
    elif player_id is not None:
        rows = rows.filter(player_id=player_id)
    return list(rows.order_by("id"))


def night_posted(tournament_id: int) -> dict[int | None, int]:
    """What the ledger holds of a night's results so far (its ``night`` and ``restated``
    entries), by player id (None: the house)."""
    rows = (
        MoneyLedgerEntry.objects.filter(tournament_id=tournament_id, kind__in=("night", "restated"))
        .values("player_id")
        .annotate(total=Sum("amount"))
    )
    return {r["player_id"]: r["total"] for r in rows}


def visible_party(league: League, value: object) -> int | None:
    """A player id of the league, for filters (NotFound for another league's player)."""
    try:
        pid = int(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        raise NotFound(f"No player {value!r} in the league.") from None
    if not 0 < pid < 2**63 or not league.players.filter(pk=pid).exists():
        raise NotFound(f"No player {pid} in the league.")
    return pid
