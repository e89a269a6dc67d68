"""Reads about deals: what each option would pay the players still in (docs/money.md, "Deals").

The arithmetic is :mod:`tracker.engine.deals`; this reads its inputs: the stacks of the
players still in (seat order) and the payouts of the places still open (the first as many
places as there are players still in), and the night's unit.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker.engine import deals as engine
from tracker.money.models import Deal, DealOption
from tracker.money.selectors import NightMoneySummary, night_money_summary
from tracker.tournaments.models import Tournament, TournamentStatus
from tracker.tournaments.selectors import TournamentState, tournament_state


@dataclass(frozen=True)
class DealPlayer:
    player_id: int
    name: str
    chips: int


@dataclass
class DealOffer:
    """What a deal would split now, and the options side by side.

    ``refusal`` says why no deal can be recorded now (the night is over, hands wait to be
    settled, fewer than two players are still in, no prize money is left); the options are
    then empty."""

    players: list[DealPlayer]
    payouts: list[int]  # the places still open, first place first
    unit: int
    options: dict[str, list[int]] = field(default_factory=dict)  # option -> amounts, seat order
    refusal: tuple[str, str] | None = None  # (code, message)
    summary: NightMoneySummary | None = None

    @property
    def pool(self) -> int:
        return sum(self.payouts)

    def rows(self) -> list[dict]:
        """One row per player still in: their chips and each option's amount."""
        return [
            {
                "player": p.player_id,
                "name": p.name,
                "chips": p.chips,
                **{option: amounts[i] for option, amounts in self.options.items()},
            }
            for i, p in enumerate(self.players)
        ]


def night_deal(tournament: Tournament) -> Deal | None:
    """The deal that ended the night, if it ended with one."""
    return Deal.objects.filter(tournament=tournament).first()


def deal_offer(
    tournament: Tournament,
    *,
    state: TournamentState | None = None,
    summary: NightMoneySummary | None = None,
) -> DealOffer:
    """The players still in, the prize money of the places still open and what the ICM, the
    chip-count and the even deal would pay each of them now (``tracker.engine.deals``).
    ``state`` and ``summary`` (the night's money) when the caller has read them already."""
    if state is None:
        state = tournament_state(tournament)
    seats = state.seats
    if summary is None:
        summary = night_money_summary(tournament, seat_ids=[s.player_id for s in seats])
    players = [
        DealPlayer(player_id=s.player_id, name=s.player.name, chips=state.stacks[s.player_id])
        for s in seats
        if state.stacks.get(s.player_id, 0) > 0
    ]
    payouts = list(summary.place_payouts[: len(players)])
    offer = DealOffer(players=players, payouts=payouts, unit=summary.money.unit, summary=summary)
    if tournament.status == TournamentStatus.FINISHED or state.over:
        offer.refusal = ("night_over", "the night is over: a deal is made before it ends")
    elif state.pending or state.blocked_by is not None:
        offer.refusal = (
            "hands_pending",
            "hands recorded are still waiting to be settled: a deal splits settled stacks",
        )
    elif len(players) < 2:
        offer.refusal = ("too_few_players", "a deal needs at least two players still in")
    elif offer.pool == 0:
        offer.refusal = ("no_prize_money", "the places still open pay nothing: no money to deal")
    else:
        stacks = [p.chips for p in players]
        offer.options = engine.deal_options(stacks, payouts, unit=offer.unit)
    return offer


OPTION_WORDS = {o.value: o.label for o in DealOption}
