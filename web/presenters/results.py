"""A finished night's money results as the tournament page shows them: the bounties, each
player's result and the settle-up's transfers, in the league's locale."""

from __future__ import annotations

from dataclasses import dataclass

from tracker.core.permissions import Capabilities
from tracker.money.results import HOUSE, night_results, players_linked_to
from tracker.money.selectors import NightMoneySummary
from tracker.tournaments.models import Tournament


@dataclass(frozen=True)
class ResultRow:
    name: str
    paid: str
    payout: str
    bounties: str
    result: str
    positive: bool


@dataclass(frozen=True)
class ResultsView:
    bounties: list[tuple[str, int, str, str]]  # (busted, hand number, winners, amount)
    rows: list[ResultRow]
    # (position, payer, payee, amount, marked paid, whether the viewer may mark it paid)
    transfers: list[tuple[int, str, str, str, bool, bool]]
    minimal: bool
    fees: str


def results_view(
    tournament: Tournament,
    summary: NightMoneySummary,
    names: dict[int, str],
    *,
    can: Capabilities,
    user=None,
) -> ResultsView | None:
    """The results once the night is finished and has money (else None); ``summary`` is the
    money section's (already checked visible to the viewer, ``user`` with ``can``)."""
    if not summary.has_money:
        return None
    results = night_results(tournament, summary=summary)
    if not results.final:
        return None
    fmt = summary.fmt
    mine = players_linked_to(tournament, user)

    def who(key) -> str:
        return "the house" if key == HOUSE else names.get(key, str(key))

    return ResultsView(
        bounties=[
            (
                who(b.busted),
                b.hand_number,
                ", ".join(f"{who(p)} {fmt(a)}" for p, a in b.shares.items()),
                fmt(b.amount),
            )
            for b in results.bounties
        ],
        rows=[
            ResultRow(
                name=who(r.player_id),
                paid=fmt(r.paid),
                payout=fmt(r.payout),
                bounties=fmt(r.bounties + r.bounty_back),
                result=fmt(r.result),
                positive=r.result > 0,
            )
            for r in results.players.values()
        ],
        transfers=[
            (
                k,
                who(t.payer),
                who(t.payee),
                fmt(t.amount),
                k in results.paid_at,
                can.mark_paid or bool({t.payer, t.payee} & mine),
            )
            for k, t in enumerate(results.transfers)
        ],
        minimal=results.minimal,
        fees=fmt(results.fees),
    )
