"""A deal as the tournament page shows it: each option's amounts side by side for the players
still in (ICM, chip count, even split), the form an admin records the agreement with (and
amounts typed in), or the deal that ended the night (docs/money.md, "Deals")."""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker.core.permissions import Capabilities
from tracker.money.deal_selectors import OPTION_WORDS, deal_offer
from tracker.money.formatting import minor_digits
from tracker.money.selectors import NightMoneySummary
from tracker.tournaments.models import Tournament
from tracker.tournaments.selectors import TournamentState

COLUMNS = ("icm", "chip_chop", "even")


@dataclass(frozen=True)
class DealRowView:
    player_id: int
    name: str
    chips: int
    amounts: tuple[tuple[str, str], ...]  # (heading, amount) per column, the league's locale
    typed: str = ""  # the amount typed in for this player (the form's value after a refusal)
    agreed: bool = False


@dataclass
class DealView:
    columns: list[tuple[str, str]]  # (option, heading) side by side
    rows: list[DealRowView]
    pool: str
    places: list[tuple[str, str]]  # the places still open: (place, amount)
    can_set: bool
    currency: str
    step: str  # the amount input's step ("0.01" for cents)
    refusal: str = ""  # why no deal can be made now
    error: str = ""  # the refusal of the agreement just posted
    errors: dict[str, str] = field(default_factory=dict)  # per input name
    chosen: str = ""
    # the deal that ended the night: (name, amount) and its words
    done: list[tuple[str, str]] = field(default_factory=list)
    done_words: str = ""

    @property
    def options(self) -> list[tuple[str, str]]:
        return [*self.columns, ("custom", OPTION_WORDS["custom"])]


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def deal_view(
    tournament: Tournament,
    can: Capabilities,
    state: TournamentState,
    summary: NightMoneySummary | None,
    names: dict[int, str],
) -> DealView | None:
    """The deal section for a viewer who sees the money, when the night has prize money and
    either a deal can be made now or one ended it; else None."""
    if not can.view_money or summary is None or not summary.has_money:
        return None
    fmt = summary.fmt
    digits = minor_digits(summary.money.currency)
    step = "1" if digits == 0 else f"0.{'0' * (digits - 1)}1"
    if summary.deal is not None:
        deal = summary.deal
        who = ", ".join(names.get(pid, str(pid)) for pid in deal.agreed_by)
        return DealView(
            columns=[],
            rows=[],
            pool=fmt(sum(row["amount"] for row in deal.amounts)),
            places=[],
            can_set=False,
            currency=summary.money.currency,
            step=step,
            done=[
                (names.get(r["player"], str(r["player"])), fmt(r["amount"])) for r in deal.amounts
            ],
            done_words=(
                f"{OPTION_WORDS[deal.option]}, agreed by {who} after hand {deal.at_hand} "
                f"({deal.agreed_at:%Y-%m-%d %H:%M} UTC)"
            ),
        )
    offer = deal_offer(tournament, state=state, summary=summary)
    if offer.refusal is not None and offer.refusal[0] in ("night_over", "no_prize_money"):
        return None
    columns = [(o, OPTION_WORDS[o]) for o in COLUMNS if o in offer.options]
    rows = [
        DealRowView(
            player_id=p.player_id,
            name=p.name,
            chips=p.chips,
            amounts=tuple((words, fmt(offer.options[o][i])) for o, words in columns),
        )
        for i, p in enumerate(offer.players)
    ]
    return DealView(
        columns=columns,
        rows=rows,
        pool=fmt(offer.pool),
        places=[(_ordinal(k), fmt(a)) for k, a in enumerate(offer.payouts, start=1)],
        can_set=can.set_deal and offer.refusal is None,
        currency=summary.money.currency,
        step=step,
        refusal=offer.refusal[1] if offer.refusal else "",
    )
