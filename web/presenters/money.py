"""The money of a night as the tournament page and the table screen show it: its rules in
words, the entries per player, the pool and the payouts, every amount in the league's
locale (Babel, through tracker.money.formatting)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tracker.core.permissions import Capabilities
from tracker.engine.errors import DomainError
from tracker.engine.money import ENTRY_KINDS, PAYOUT_TEMPLATES, entry_check
from tracker.money.selectors import NightMoneySummary, night_money_summary
from tracker.tournaments.models import Tournament
from tracker.tournaments.selectors import StandingRow, TournamentState

KIND_WORDS = {"buy_in": "Buy-in", "rebuy": "Rebuy", "addon": "Add-on"}


@dataclass(frozen=True)
class PlayerMoneyRow:
    player_id: int
    name: str
    bought_in: bool
    rebuys: int
    addon: bool
    paid: str
    # the entries the rules allow this player before the next hand: (kind, button label)
    actions: tuple[tuple[str, str], ...] = ()
    # entries that may still be undone: (entry id, what it was)
    undoable: tuple[tuple[int, str], ...] = ()


@dataclass(frozen=True)
class PayoutRow:
    place: str  # "1st", or "2nd (shared)" for players tied for it
    name: str
    amount: str
    player_id: int | None = None


@dataclass
class MoneyView:
    summary: NightMoneySummary
    rules: list[tuple[str, str]]  # (what, in words)
    pool: list[tuple[str, str]]
    players: list[PlayerMoneyRow] = field(default_factory=list)
    place_payouts: list[tuple[str, str]] = field(default_factory=list)  # (place, amount)
    payouts: list[PayoutRow] = field(default_factory=list)  # once the night is finished
    # the viewer records entries now: the entries table has its "Record" column (not once
    # the night is over, when nothing can be recorded)
    recording: bool = False


def payouts_view(
    summary: NightMoneySummary, names: dict[int, str]
) -> tuple[list[tuple[str, str]], list[PayoutRow]]:
    """What each place pays, and, once the night is finished, who is paid what (first place
    first; players tied for a place say so)."""
    fmt = summary.fmt
    by_place = [(_ordinal(i), fmt(a)) for i, a in enumerate(summary.place_payouts, start=1)]
    sharing: dict[int, int] = {}
    for place in summary.places.values():
        sharing[place] = sharing.get(place, 0) + 1
    rows = [
        PayoutRow(
            place=_ordinal(summary.places[pid])
            + (" (shared)" if sharing[summary.places[pid]] > 1 else ""),
            name=names.get(pid, str(pid)),
            amount=fmt(amount),
            player_id=pid,
        )
        for pid, amount in sorted(summary.payouts.items(), key=lambda kv: summary.places[kv[0]])
        if amount
    ]
    return by_place, rows


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


def _allowed(summary: NightMoneySummary, state: TournamentState, pid: int) -> list[str]:
    """The entries the night's rules allow ``pid`` before the next hand (the rule's one
    home: ``tracker.engine.money.entry_check``, which the service runs too)."""
    if state.over:
        return []
    p = summary.players[pid]
    allowed = []
    for kind in ENTRY_KINDS:
        try:
            entry_check(
                summary.rules,
                kind=kind,
                next_hand=state.next_number,
                stack=state.stacks.get(pid, 0),
                bought_in=p.bought_in,
                rebuys=p.rebuys,
                addon=p.addon,
            )
        except DomainError:
            continue
        allowed.append(kind)
    return allowed


def money_view(
    tournament: Tournament,
    can: Capabilities,
    names: dict[int, str],
    state: TournamentState,
    standings: Sequence[StandingRow] = (),
) -> MoneyView | None:
    """The night's money for a viewer who may see it (members of the league), else None;
    with the one-tap entries and undos for those who record them. ``standings`` are the
    night's, read with ``state`` (a finished night's are its final standings)."""
    if not can.view_money:
        return None
    summary = night_money_summary(
        tournament,
        seat_ids=[s.player_id for s in state.seats],
        places={r.player_id: r.place for r in standings} if standings else None,
    )
    fmt = summary.fmt
    pool = [
        ("Paid in", fmt(summary.pool.paid_in)),
        ("Fees", fmt(summary.pool.fees)),
        ("Bounties", fmt(summary.pool.bounties)),
        ("Prize pool", fmt(summary.pool.prize_pool)),
    ]
    undoable: dict[int, list[tuple[int, str]]] = {}
    if can.record_money and not state.over:
        for e in summary.entries:
            if e.at_hand == state.next_number:
                undoable.setdefault(e.player_id, []).append((e.pk, KIND_WORDS[e.kind].lower()))
    players = []
    for pid, p in summary.players.items():
        actions = _allowed(summary, state, pid) if can.record_money else []
        players.append(
            PlayerMoneyRow(
                player_id=pid,
                name=names.get(pid, str(pid)),
                bought_in=p.bought_in,
                rebuys=p.rebuys,
                addon=p.addon,
                paid=fmt(p.paid),
                actions=tuple((k, KIND_WORDS[k]) for k in actions),
                undoable=tuple(undoable.get(pid, ())),
            )
        )
    by_place, payouts = payouts_view(summary, names)
    return MoneyView(
        summary=summary,
        rules=rules_in_words(summary),
        pool=pool,
        players=players,
        place_payouts=by_place,
        payouts=payouts,
        recording=can.record_money and not state.over,
    )
