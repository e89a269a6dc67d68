"""The hand page: the replayer's frames (tracker/hands/selectors/replay.py), the showdown as
the engine read it, the pots and what the table said, as one page object."""

from __future__ import annotations

from dataclasses import dataclass, field

from tracker.core.permissions import NOBODY, Capabilities, capabilities
from tracker.engine.announcements import ANNOUNCEMENTS, VARIANT_ANNOUNCEMENTS, VARIANT_TITLES
from tracker.engine.errors import DomainError
from tracker.engine.frames import END
from tracker.engine.game_showdown import share_text
from tracker.hands.models import EntryMode, Hand, HandStatus
from tracker.hands.selectors.live import hand_logged_live
from tracker.hands.selectors.replay import (
    FOLD_LABELS,
    CardView,
    HandView,
    StreetView,
    dealt_order,
    hand_view,
    mark_wild,
    replay_frames,
)
from tracker.hands.selectors.wording import announcement_text
from tracker.leagues.selectors.visibility import visible_hand
from tracker.money.results import night_bounties
from tracker.money.selectors import night_money_summary
from tracker.rulings.selectors import (
    RULING_BADGES,
    hand_ruling_state,
    status_words,
    with_open_disputes,
)
from tracker.tournaments.models import TournamentStatus
from tracker.tournaments.selectors import hand_neighbours


@dataclass
class ShowdownSeat:
    player_id: int
    name: str
    cards: list[CardView]
    high: HandView | None
    low: HandView | None
    declare: str | None
    high_winner: bool
    low_winner: bool
    contributed: int
    won: int | None

    @property
    def net(self) -> int | None:
        return None if self.won is None else self.won - self.contributed

    @property
    def engine_winner(self) -> bool:
        """The engine's reading gives this player a pot (high or low)."""
        return self.high_winner or self.low_winner

    @property
    def takes(self) -> bool:
        """The player takes chips in the result that stands."""
        return bool(self.won)


@dataclass
class PotView:
    index: int
    amount: int
    eligible: list[str]
    reason: str
    engine: list[tuple[str, int]]
    table: list[tuple[str, int]] | None
    stands: list[tuple[str, int]]
    disputed: bool

    @property
    def title(self) -> str:
        return "Main pot" if self.index == 0 else f"Side pot {self.index}"


@dataclass
class EntrySeat:
    """A quick-entry seat as entered."""

    name: str
    seat: int
    dealer: bool
    put_in: int | None
    folded: str | None
    cards: list[CardView]
    bought: bool
    declare: str | None
    seventh: str | None
    starting_stack: int

    @property
    def fold_label(self) -> str:
        return FOLD_LABELS.get(self.folded or "", "in to the end")


@dataclass
class HandReplay:
    hand: Hand
    variant_title: str
    announcements: list[tuple[str, str, str]]  # (name, value, help)
    status_label: str
    status_help: str
    streets: list[StreetView]
    current: int  # street number shown first (of the step, when a step is shown)
    entry_seats: list[EntrySeat]
    showdown: list[ShowdownSeat]
    community: str | None
    pots: list[PotView]
    table_text: str | None
    payouts_pending: bool
    walk_error: str = ""
    previous_id: int | None = None
    next_id: int | None = None
    raw_actions: list[str] = field(default_factory=list)
    can: Capabilities = NOBODY  # what the viewer may do in the hand's league
    steps: list[StreetView] = field(default_factory=list)  # the table after each action
    current_key: str = ""  # the frame shown first: "3" .. "8", or "step-K"
    logged_live: bool = False  # recorded with the live logger
    shares: list[str] = field(default_factory=list)  # a house game's shares, in words
    ruling_badge: tuple[str, str] | None = None  # (label, help): open or ruled, beside the status
    # Whether the engine's reading is the result that stands: "" (it is), "overruled" (a
    # ruling kept another result: "Rob is right"), or "held" (a disputed pot keeps the
    # table's result until the authority rules).
    engine_verdict: str = ""
    # The bounties of the players who went out in this hand, in words (members, once the
    # night is over): "Bob's bounty ($5.00): Ann $5.00"
    bounties: list[str] = field(default_factory=list)

    @property
    def stands_text(self) -> str:
        """Who takes what in the result that stands, pot by pot ("Bob 48")."""

        def one(pot: PotView) -> str:
            return ", ".join(f"{name} {chips}" for name, chips in pot.stands) or "nobody"

        if len(self.pots) == 1:
            return one(self.pots[0])
        return " · ".join(f"{pot.title.lower()}: {one(pot)}" for pot in self.pots)

    @property
    def can_void(self) -> bool:
        """The viewer may declare this (invalid) hand void."""
        return self.hand.status == HandStatus.INVALID and self.can.void_hand

    @property
    def is_full(self) -> bool:
        return self.hand.entry_mode == EntryMode.FULL

    @property
    def current_view(self) -> StreetView | None:
        for s in self.streets:
            if s.number == self.current:
                return s
        return self.streets[-1] if self.streets else None


def _named(award: dict | None, names: dict[int, str]) -> list[tuple[str, int]] | None:
    if award is None:
        return None
    return [(names.get(pid, pid), chips) for pid, chips in award.items() if chips]


def _paid(award: dict | None) -> dict:
    return {pid: chips for pid, chips in (award or {}).items() if chips}


def _table_text(table: dict | None, names: dict[int, str]) -> str | None:
    if not table:
        return None

    def who(ids) -> str:
        return ", ".join(names.get(x, str(x)) for x in ids or []) or "nobody"

    def one(entry: dict) -> str:
        if "winners" in entry:
            return who(entry["winners"])
        parts = []
        if entry.get("high"):
            parts.append(f"high: {who(entry['high'])}")
        if entry.get("low"):
            parts.append(f"low: {who(entry['low'])}")
        return "; ".join(parts) or "nobody"

    if "pots" in table:
        return " · ".join(
            f"{'main pot' if k == 0 else f'side pot {k}'}: {one(e)}"
            for k, e in enumerate(table["pots"])
        )
    return one(table)


def _announcements(hand: Hand) -> list[tuple[str, str, str]]:
    out = []
    for name in VARIANT_ANNOUNCEMENTS.get(hand.variant, ()):
        if name not in (hand.options or {}):
            continue
        text = announcement_text(name, hand.options[name])
        out.append((name.replace("_", " "), text, ANNOUNCEMENTS[name].help))
    return out


def _hand_bounties(hand: Hand, names: dict[int, str]) -> list[str]:
    """The bounties paid for the players who went out in ``hand``, in words (none before the
    night is over, or for a night without bounties)."""
    tournament = hand.tournament
    if tournament.status != TournamentStatus.FINISHED:
        return []
    summary = night_money_summary(tournament)
    if not summary.rules.bounty:
        return []
    fmt = summary.fmt
    return [
        f"{names.get(b.busted, b.busted)}'s bounty ({fmt(b.amount)}): "
        + ", ".join(f"{names.get(p, p)} {fmt(a)}" for p, a in b.shares.items())
        for b in night_bounties(tournament, summary=summary)
        if b.hand_id == hand.pk
    ]


def _game_title(hand: Hand) -> str:
    """The hand's game: the variant's title, or the house game's name and version."""
    if hand.game_version_id is not None:
        version = hand.game_version
        return f"{version.game.name} (version {version.number})"
    return VARIANT_TITLES.get(hand.variant, hand.variant)


def _shares_text(showdown: dict | None, positions: list[int], names: dict[int, str]) -> list[str]:
    """A house game's shares of the pot as the engine says them (``shares``, each with its
    ``winners`` by seat position), each winner named by its player."""
    named = [names.get(pid, f"seat {pos}") for pos, pid in enumerate(positions)]
    return [share_text(s, named) for s in (showdown or {}).get("shares") or []]


def hand_replay(user, pk: int, street: int | None = None, step: int | None = None) -> HandReplay:
    hand = visible_hand(user, pk, hands=with_open_disputes(Hand.objects.all()))
    tournament = hand.tournament
    seat_rows = {s.player_id: s for s in hand.hand_seats.select_related("player")}
    seats_by_player = {s.player_id: s for s in tournament.seats.select_related("player")}
    names = {pid: s.player.name for pid, s in seats_by_player.items()}
    seat_numbers = {pid: s.number for pid, s in seats_by_player.items()}
    reading = hand.engine_reading or None
    showdown = (reading or {}).get("showdown") or None

    streets: list[StreetView] = []
    steps: list[StreetView] = []
    walk_error = ""
    raw_actions: list[str] = []
    entry_seats: list[EntrySeat] = []
    n = len(hand.positions)
    pot_rows = list(hand.pots.all())
    if hand.entry_mode == EntryMode.FULL:
        raw_actions = [str(a) for a in (hand.entry or {}).get("actions") or []]
        try:
            frames = replay_frames(hand, names, seat_numbers, raw_actions, pots=pot_rows)
            streets, steps = frames.streets, frames.steps
        except DomainError as exc:  # a history the engine refuses (an invalid hand)
            walk_error = f"This history cannot be shown street by street ({exc})."
            streets = []
    else:
        by_player = {s.get("player"): s for s in (hand.entry or {}).get("seats", [])}
        for pos, pid in enumerate(hand.positions):
            e = by_player.get(pid, {})
            cards = dealt_order(e.get("down") or [], e.get("up") or [])
            entry_seats.append(
                EntrySeat(
                    name=names.get(pid, str(pid)),
                    seat=seat_numbers.get(pid, -1),
                    dealer=pos == n - 1,
                    put_in=e.get("put_in"),
                    folded=e.get("folded"),
                    cards=cards,
                    bought=bool(e.get("bought")),
                    declare=e.get("declare"),
                    seventh=e.get("seventh"),
                    starting_stack=hand.starting_stacks[pos]
                    if pos < len(hand.starting_stacks)
                    else 0,
                )
            )

    # The showdown, as the engine read it.
    show_seats: list[ShowdownSeat] = []
    if showdown:
        high_w = set(showdown.get("high_winners", []))
        low_w = set(showdown.get("low_winners", []))
        final = {s.player_id: s for s in streets[-1].seats} if streets else {}
        for pos, data in enumerate(showdown.get("players", [])):
            if not data:
                continue
            pid = hand.positions[pos]
            walked = final.get(pid)
            if walked is not None and all(c.code for c in walked.cards):
                cards = [CardView(c.code, c.up) for c in walked.cards]
            else:
                cards = dealt_order(data.get("down", []), data.get("up", []))
            mark_wild(cards, data.get("high"), data.get("low"))
            for c in cards:  # a house game's reading: every card wild for this player
                c.wild = c.wild or c.code in (data.get("wild") or ())
            row = seat_rows.get(pid)
            show_seats.append(
                ShowdownSeat(
                    player_id=pid,
                    name=names.get(pid, str(pid)),
                    cards=cards,
                    high=hand_view(data.get("high")),
                    low=hand_view(data.get("low")),
                    declare=data.get("declare"),
                    high_winner=pos in high_w,
                    low_winner=pos in low_w,
                    contributed=row.contributed if row else 0,
                    won=row.won if row else None,
                )
            )
        # Mark the wild cards in the replay's last view too.
        if streets:
            by_pid = {s.player_id: s for s in show_seats}
            for seat in streets[-1].seats:
                shown = by_pid.get(seat.player_id)
                if shown is not None:
                    for c, s in zip(seat.cards, shown.cards, strict=False):
                        if c.code == s.code:
                            c.wild_as, c.wild_low_as = s.wild_as, s.wild_low_as

    payouts = (reading or {}).get("payouts") or []
    pots = []
    verdict = ""
    for pot in pot_rows:
        if pot.overridden:
            verdict = "overruled"
        elif pot.disputed and _paid(pot.award_chips) != _paid(pot.engine_chips) and not verdict:
            verdict = "held"
        reason = payouts[pot.index]["reason"] if pot.index < len(payouts) else ""
        pots.append(
            PotView(
                index=pot.index,
                amount=pot.amount,
                eligible=[names.get(pid, str(pid)) for pid in pot.eligible],
                reason=reason,
                engine=_named(pot.engine_chips, names) or [],
                table=_named(pot.table_chips, names),
                stands=_named(pot.award_chips, names) or [],
                disputed=pot.disputed,
            )
        )

    numbers = [s.number for s in streets]
    for k, s in enumerate(streets):
        s.prev = numbers[k - 1] if k else None
        s.next = numbers[k + 1] if k + 1 < len(numbers) else None
    # The replayer opens at third street (or the street or step asked for).
    current = street if street in numbers else (numbers[0] if numbers else END)
    current_key = str(current)
    if step is not None and 0 <= step < len(steps):
        current, current_key = steps[step].number, steps[step].key
    sib = hand_neighbours(hand)
    can = capabilities(user, tournament.league)
    bounties = _hand_bounties(hand, names) if can.view_money else []
    ruling_state = hand_ruling_state(hand)
    status_label, status_help = status_words(hand.status, ruling_state)
    return HandReplay(
        hand=hand,
        variant_title=_game_title(hand),
        shares=_shares_text(showdown, hand.positions, names),
        announcements=_announcements(hand),
        status_label=status_label,
        status_help=status_help,
        ruling_badge=RULING_BADGES.get(ruling_state),
        engine_verdict=verdict if show_seats else "",
        streets=streets,
        current=current,
        entry_seats=entry_seats,
        showdown=show_seats,
        community=(showdown or {}).get("community") or (hand.entry or {}).get("community"),
        pots=pots,
        table_text=_table_text(hand.table_result, names),
        payouts_pending=hand.status == HandStatus.RECORDED,
        walk_error=walk_error,
        previous_id=sib.get(hand.number - 1),
        next_id=sib.get(hand.number + 1),
        raw_actions=raw_actions,
        can=can,
        steps=steps,
        bounties=bounties,
        current_key=current_key,
        logged_live=hand.entry_mode == EntryMode.FULL and hand_logged_live(hand.pk),
    )
