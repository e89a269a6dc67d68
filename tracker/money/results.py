"""Reads of a finished night's money results: the bounties paid for the players who went
out, each player's result (payouts and bounties less what they paid) and the settle-up, the
fewest transfers that square everyone (docs/money.md, "Bounties" and "Who owes whom").

Nothing here is stored: everything is read from the entries, the final standings and the
pots of the settled hands (the award that stands, rulings included), so a ruling that
rewrites a pot or the final standings changes them on the next read.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from tracker.engine import money as engine
from tracker.engine.settle_up import Transfer, settle_up
from tracker.hands.models import Pot
from tracker.money.models import SettleTransfer
from tracker.money.selectors import NightMoneySummary, night_money_summary
from tracker.tournaments.models import FinalStanding, Tournament, TournamentStatus

#: The settle-up's key for the house, which keeps the fees.
HOUSE = "house"


@dataclass(frozen=True)
class BountyWon:
    """The bounty of ``busted``, who went out in hand ``hand_number`` (pot ``pot_index``),
    shared between the winners of that pot: ``shares`` (player id -> amount, seat order)."""

    busted: int
    amount: int
    hand_id: int
    hand_number: int
    pot_index: int
    shares: dict[int, int]


@dataclass(frozen=True)
class PlayerResult:
    """One player's money for the night (minor units): ``result`` = ``payout`` +
    ``bounties`` + ``bounty_back`` − ``paid`` (fees included in what they paid)."""

    player_id: int
    paid: int
    payout: int
    bounties: int  # the bounties won off the players they busted
    bounty_back: int  # their own bounty, when they never went out
    result: int


@dataclass
class NightResults:
    """A night's money results, once it is finished (``final``; empty before)."""

    summary: NightMoneySummary
    final: bool
    bounties: list[BountyWon] = field(default_factory=list)
    players: dict[int, PlayerResult] = field(default_factory=dict)  # seat order
    transfers: list[Transfer] = field(default_factory=list)  # payer, payee, amount
    minimal: bool = True
    # once the settle-up is stored (its first transfer marked paid): position -> when paid
    stored: bool = False
    paid_at: dict[int, datetime] = field(default_factory=dict)

    @property
    def fees(self) -> int:
        return self.summary.pool.fees


def _bounties_collected(summary: NightMoneySummary) -> dict[int, int]:
    out: dict[int, int] = {}
    for e in summary.entries:
        if e.bounty:
            out[e.player_id] = out.get(e.player_id, 0) + e.bounty
    return out


def night_bounties(
    tournament: Tournament, *, summary: NightMoneySummary | None = None
) -> list[BountyWon]:
    """The bounties of a finished night, one per player who went out for good and paid a
    bounty: the hand they went out in is their final standing's ``out_hand`` (a bust they
    rebought after pays nothing), the pot that took their last chips the highest pot of that
    hand they were in, and its winners share the bounty (:func:`engine.bounty_split`).
    Before the night is over: none (a busted player may still rebuy)."""
    if tournament.status != TournamentStatus.FINISHED:
        return []
    summary = summary or night_money_summary(tournament)
    collected = _bounties_collected(summary)
    out_hands = dict(
        FinalStanding.objects.filter(
            tournament=tournament, out_hand__isnull=False, player_id__in=list(collected)
        ).values_list("player_id", "out_hand")
    )
    if not out_hands:
        return []
    pots = list(
        Pot.objects.filter(
            hand__tournament=tournament, hand__number__in=set(out_hands.values())
        ).select_related("hand")
    )
    return bounties_of(
        summary,
        out_hands=out_hands,
        pots=[PotTaken(p.hand_id, p.hand.number, p.index, p.eligible, p.award_chips) for p in pots],
    )


@dataclass(frozen=True)
class PotTaken:
    """What of a pot decides a bounty: its hand (id, number), index, eligible players and
    the chips each winner was awarded (the award that stands)."""

    hand_id: int
    hand_number: int
    index: int
    eligible: list[int] | None
    award: dict[int, int] | None


def bounties_of(
    summary: NightMoneySummary, *, out_hands: dict[int, int], pots: list[PotTaken]
) -> list[BountyWon]:
    """:func:`night_bounties` of what was read already (no query): ``out_hands`` (player id
    -> the hand they went out in for good) and ``pots`` (at least those of these hands)."""
    collected = _bounties_collected(summary)
    seat_order = list(summary.players)
    found: list[BountyWon] = []
    for pid in seat_order:
        if pid not in out_hands or pid not in collected:
            continue
        mine = [p for p in pots if p.hand_number == out_hands[pid] and pid in (p.eligible or [])]
        if not mine:
            continue
        pot = max(mine, key=lambda p: p.index)
        award = pot.award
        awards = {k: award[k] for k in seat_order if award and k in award and k != pid}
        shares = engine.bounty_split(collected[pid], awards, unit=summary.money.unit)
        if shares:
            found.append(
                BountyWon(
                    busted=pid,
                    amount=collected[pid],
                    hand_id=pot.hand_id,
                    hand_number=pot.hand_number,
                    pot_index=pot.index,
                    shares=shares,
                )
            )
    return found


def player_results_of(
    summary: NightMoneySummary, bounties: list[BountyWon]
) -> dict[int, PlayerResult]:
    """Each player's result of a finished night (seat order) from its summary and bounties
    (no query): the payout, the bounties won, their own bounty back when they never went
    out, less what they paid."""
    won: dict[int, int] = {}
    for b in bounties:
        for pid, amount in b.shares.items():
            won[pid] = won.get(pid, 0) + amount
    paid_out = {b.busted for b in bounties}
    collected = _bounties_collected(summary)
    players: dict[int, PlayerResult] = {}
    for pid, money in summary.players.items():
        payout = summary.payouts.get(pid, 0)
        back = collected.get(pid, 0) if pid not in paid_out else 0
        players[pid] = PlayerResult(
            player_id=pid,
            paid=money.paid,
            payout=payout,
            bounties=won.get(pid, 0),
            bounty_back=back,
            result=payout + won.get(pid, 0) + back - money.paid,
        )
    return players


def night_balances(tournament: Tournament) -> tuple[NightMoneySummary, dict[int, int]] | None:
    """A finished night's result per player (:class:`PlayerResult` ``result``, seat order),
    with the summary it was read from (its fees are the house's); None before the night is
    over. What :func:`night_results` reads, without working out the settle-up."""
    if tournament.status != TournamentStatus.FINISHED:
        return None
    summary = night_money_summary(tournament)
    players = player_results_of(summary, night_bounties(tournament, summary=summary))
    return summary, {pid: r.result for pid, r in players.items()}


def night_results(
    tournament: Tournament, *, summary: NightMoneySummary | None = None
) -> NightResults:
    """A night's money results once it is finished: the bounties, each player's result and
    the settle-up (the house is one more party, owed the fees). The results add up to minus
    the fees; with the house they add up to zero, and the transfers square them all
    (exactly the fewest up to 16 parties, ``minimal`` False above: not proven).
    ``summary`` when the caller has read it already (the tournament page)."""
    summary = summary or night_money_summary(tournament)
    if tournament.status != TournamentStatus.FINISHED:
        return NightResults(summary=summary, final=False)
    bounties = night_bounties(tournament, summary=summary)
    players = player_results_of(summary, bounties)
    balances: dict[object, int] = {pid: r.result for pid, r in players.items()}
    if summary.pool.fees:
        balances[HOUSE] = summary.pool.fees
    plan = settle_up(balances)
    transfers = list(plan.transfers)
    # the settle-up as stored, once a transfer has been marked paid: those rows stand
    rows = list(SettleTransfer.objects.filter(tournament=tournament).order_by("position"))
    if rows:
        transfers = [
            Transfer(
                payer=HOUSE if r.payer_id is None else r.payer_id,
                payee=HOUSE if r.payee_id is None else r.payee_id,
                amount=r.amount,
            )
            for r in rows
        ]
    return NightResults(
        summary=summary,
        final=True,
        bounties=bounties,
        players=players,
        transfers=transfers,
        minimal=plan.minimal,
        stored=bool(rows),
        paid_at={r.position: r.paid_at for r in rows if r.paid_at is not None},
    )


def players_linked_to(tournament: Tournament, user) -> set[int]:
    """The players of ``tournament``'s league linked to ``user``'s account (none for an
    anonymous visitor): the transfers they may mark paid as payer or payee."""
    if not getattr(user, "is_authenticated", False):
        return set()
    return set(tournament.league.players.filter(user_id=user.pk).values_list("pk", flat=True))
