"""The money of a night as the tournament page and the table screen show it: its rules in
words, the entries per player, the pool and the payouts, every amount in the league's
locale (Babel, through tracker.money.formatting)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker.core.permissions import Capabilities
from tracker.engine.money import PAYOUT_TEMPLATES
from tracker.money.selectors import NightMoneySummary, night_money_summary
from tracker.tournaments.models import Tournament


@dataclass(frozen=True)
class PlayerMoneyRow:
    player_id: int
    name: str
    bought_in: bool
    rebuys: int
    addon: bool
    paid: str


@dataclass
class MoneyView:
    summary: NightMoneySummary
    rules: list[tuple[str, str]]  # (what, in words)
    pool: list[tuple[str, str]]
    players: list[PlayerMoneyRow] = field(default_factory=list)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def rules_in_words(summary: NightMoneySummary) -> list[tuple[str, str]]:
    r, fmt = summary.rules, summary.fmt
    buy_in = fmt(r.buy_in)
    extras = [f"fee {fmt(r.fee)}"] if r.fee else []
    if r.bounty:
        extras.append(f"bounty {fmt(r.bounty)}")
    if extras:
        buy_in += f" ({', '.join(extras)})"
    rows = [("Buy-in", buy_in)]
    if r.rebuys_on:
        when = "only when busted" if r.rebuy_when == "busted" else "at any time"
        rows.append(
            (
                "Rebuys",
                f"{fmt(r.rebuy_price)} for {r.rebuy_chips:,} chips, up to hand {r.rebuy_until_hand}, "
                f"at most {r.rebuy_max} a player, {when}",
            )
        )
    else:
        rows.append(("Rebuys", "none"))
    if r.addon_on:
        rows.append(
            (
                "Add-on",
                f"{fmt(r.addon_price)} for {r.addon_chips:,} chips, before hand {r.addon_at_hand}",
            )
        )
    else:
        rows.append(("Add-on", "none"))
    title = PAYOUT_TEMPLATES[r.payout_template][0]
    if r.payout_template == "custom_percent":
        title += ": " + " / ".join(f"{x}%" for x in r.payout_custom)
    elif r.payout_template == "custom_fixed":
        title += ": " + " / ".join(fmt(x) for x in r.payout_custom)
    rows.append(("Payouts", f"{title}, rounded to {fmt(summary.money.unit)}"))
    return rows


def money_view(
    tournament: Tournament, can: Capabilities, names: dict[int, str]
) -> MoneyView | None:
    """The night's money for a viewer who may see it (members of the league), else None."""
    if not can.view_money:
        return None
    summary = night_money_summary(tournament)
    fmt = summary.fmt
    pool = [
        ("Paid in", fmt(summary.pool.paid_in)),
        ("Fees", fmt(summary.pool.fees)),
        ("Bounties", fmt(summary.pool.bounties)),
        ("Prize pool", fmt(summary.pool.prize_pool)),
    ]
    players = [
        PlayerMoneyRow(
            player_id=pid,
            name=names.get(pid, str(pid)),
            bought_in=p.bought_in,
            rebuys=p.rebuys,
            addon=p.addon,
            paid=fmt(p.paid),
        )
        for pid, p in summary.players.items()
    ]
    return MoneyView(summary=summary, rules=rules_in_words(summary), pool=pool, players=players)
