"""The table screen: what a TV or tablet at the table shows, over the selectors.

One page object, read at one moment (the tournament, its state of play, its standings and its
latest hand with its pots, from :func:`~tracker.tournaments.selectors.tournament_live`): the level
and stakes of the hand being dealt, "hand N of 50", the hands to the next level, the dealer,
who is in with their chips, and the last hand's result. The page polls a fragment of it.

The read-only live view (``/live/<token>/``) shows the same fragment to whoever holds a
night's live view link; the table screen shows that link as a QR code (:func:`table_share`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import segno
from django.db.models import QuerySet
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from tracker.core.permissions import Capabilities, capabilities
from tracker.engine import tournament as rules
from tracker.engine.announcements import VARIANT_TITLES
from tracker.engine.stakes import Stakes
from tracker.hands.models import HandStatus
from tracker.hands.selectors.wording import STATUS_LABELS
from tracker.leagues.models import League
from tracker.leagues.selectors.visibility import tournaments_visible_to
from tracker.money.selectors import night_money_summary, night_money_version
from tracker.tournaments.models import TableLink, Tournament, TournamentStatus
from tracker.tournaments.selectors import (
    table_link_current,
    table_link_token,
    table_screen_version,
    tournament_live,
)
from web.presenters.money import PayoutRow, payouts_view


@dataclass(frozen=True)
class TableSeat:
    seat: int  # 1-based, clockwise
    name: str
    chips: int
    is_out: bool
    is_dealer: bool
    place: int | None  # the live place (settled hands)


@dataclass(frozen=True)
class LastHand:
    number: int
    game: str
    status: str  # "verified", "recorded", ...
    winners: list[tuple[str, int]]  # (name, chips taken)
    settled: bool  # False while the engine has not settled it (winners are then projected)
    url: str


@dataclass(frozen=True)
class TableScreen:
    tournament: Tournament
    league: League
    over: bool
    finished: bool
    hand_number: int | None  # the hand being dealt; None once the game is over
    hand_limit: int
    hands_played: int
    stakes: Stakes | None
    hands_to_next_level: int | None  # None on the last level or when over
    next_stakes: Stakes | None
    dealer: str | None
    game: str  # the night's game, or "Dealer's choice"
    seats: list[TableSeat]
    players_in: int
    pending: int
    last: LastHand | None
    # the money, for the league's members only: the prize pool, what each place pays, and
    # who is paid what once the night is over
    prize_pool: str | None = None
    place_payouts: list[tuple[str, str]] = field(default_factory=list)
    payouts: list[PayoutRow] = field(default_factory=list)
    entries: str = ""  # the entries so far in words: "4 buy-ins · 2 rebuys · 1 add-on"


def table_screen(user, pk: int, *, among: QuerySet[Tournament] | None = None) -> TableScreen:
    """The screen of tournament ``pk`` as ``user`` may see it (or one of ``among``)."""
    rows = tournaments_visible_to(user) if among is None else among
    live = tournament_live(pk, among=rows, last_pots=True)
    t, state = live.tournament, live.state
    places = {r.player_id: r.place for r in live.standings}
    dealer_seat = state.next_dealer
    out = state.out_seats
    seats = [
        TableSeat(
            seat=s.number + 1,
            name=s.player.name,
            chips=state.stacks.get(s.player_id, 0),
            is_out=s.number in out,
            is_dealer=s.number == dealer_seat,
            place=places.get(s.player_id),
        )
        for s in state.seats
    ]
    names = {s.player_id: s.player.name for s in state.seats}
    # a night a deal ended is over before its hand limit
    over = state.over or t.status == TournamentStatus.FINISHED
    stakes = next_stakes = None
    to_next = None
    number = None
    if not over:
        number = state.next_number
        stakes = state.next_stakes
        per = t.hands_per_level
        to_next = per - (number - 1) % per
        if number + to_next > t.hand_limit:
            to_next = None
        else:
            next_stakes = rules.stakes_for_hand(t.stakes_schedule, number + to_next, per)
            if next_stakes.small_bet == stakes.small_bet and next_stakes.ante == stakes.ante:
                next_stakes = None  # past the schedule's last level the stakes stay
    hand = state.latest
    last = None
    if hand is not None:
        settled = hand.status != HandStatus.RECORDED
        won: dict[int, int] = {}
        if settled:
            for pot in hand.pots.all():
                for pid, chips in (pot.award_chips or {}).items():
                    won[pid] = won.get(pid, 0) + chips
        else:
            # Not settled yet: what the table recorded (net chips of those who came out ahead).
            won = {pid: net for pid, net in (hand.projected_net_chips or {}).items() if net > 0}
        last = LastHand(
            number=hand.number,
            game=VARIANT_TITLES.get(hand.variant, hand.variant),
            status=STATUS_LABELS.get(hand.status, hand.status),
            winners=[(names.get(pid, str(pid)), c) for pid, c in won.items() if c > 0],
            settled=settled,
            url=hand.get_absolute_url(),
        )
    money = {}
    if capabilities(user, t.league).view_money:
        summary = night_money_summary(t, seat_ids=[s.player_id for s in state.seats], places=places)
        if summary.has_money:
            place_payouts, payouts = payouts_view(summary, names)
            money = {
                "prize_pool": summary.fmt(summary.pool.prize_pool),
                "place_payouts": place_payouts,
                "payouts": payouts,
                "entries": entries_in_words(summary),
            }
    return TableScreen(
        tournament=t,
        league=t.league,
        over=over,
        finished=t.status == TournamentStatus.FINISHED,
        hand_number=number,
        hand_limit=t.hand_limit,
        hands_played=state.hands_recorded,
        stakes=stakes,
        hands_to_next_level=to_next,
        next_stakes=next_stakes,
        dealer=next((s.name for s in seats if s.is_dealer), None),
        game=VARIANT_TITLES.get(t.default_variant, "Dealer's choice"),
        seats=seats,
        players_in=sum(1 for s in seats if not s.is_out),
        pending=state.pending,
        last=last,
        **money,
    )


def entries_in_words(summary) -> str:
    """The night's entries counted, for the table screen.

    >>> from types import SimpleNamespace as N
    >>> entries_in_words(N(players={1: N(bought_in=True, rebuys=2, addon=False),
    ...                             2: N(bought_in=True, rebuys=0, addon=True)}))
    '2 buy-ins · 2 rebuys · 1 add-on'
    >>> entries_in_words(N(players={1: N(bought_in=False, rebuys=0, addon=False)}))
    ''
    """
    players = summary.players.values()
    counts = (
        (sum(p.bought_in for p in players), "buy-in"),
        (sum(p.rebuys for p in players), "rebuy"),
        (sum(p.addon for p in players), "add-on"),
    )
    return " · ".join(f"{n} {word}{'s' if n != 1 else ''}" for n, word in counts if n)


def table_screen_etag(user, pk: int, *, among: QuerySet[Tournament] | None = None) -> str:
    """The poll's ETag: the night's cheap version (NotFound when ``user`` may not see it)."""
    rows = tournaments_visible_to(user) if among is None else among
    return table_screen_version(pk, among=rows, extra=night_money_version(pk))


def link_tournaments(link: TableLink) -> QuerySet[Tournament]:
    """What a live view link opens: its own night, nothing else."""
    return Tournament.objects.filter(pk=link.tournament_id)


def live_view_path(link: TableLink) -> str:
    return reverse("live-view", kwargs={"token": table_link_token(link)})


def qr_svg(text: str) -> SafeString:
    """``text`` as a QR code in inline SVG (no script, no style: the page's CSP holds), black
    on white whatever the page's colours, with the quiet zone the standard asks for."""
    code = segno.make(text, error="m")
    svg = code.svg_inline(
        scale=4, border=4, svgclass="qr-code", dark="#000", light="#fff", omitsize=True
    )
    return mark_safe(svg)  # segno writes the markup; the text is only in the path data


@dataclass(frozen=True)
class TableShare:
    """The table screen's live view box: the link as a QR code, and what the viewer may do."""

    link: TableLink | None
    url: str  # absolute, for phones; "" without a link
    qr: SafeString | None
    may_create: bool
    may_revoke: bool


def table_share(request, tournament: Tournament, can: Capabilities) -> TableShare | None:
    """What the table screen shows of the night's live view link: to the league's members
    only (a public league's visitors read the screen itself); None for anyone else."""
    if not can.roles:
        return None
    link = table_link_current(tournament)
    url = request.build_absolute_uri(live_view_path(link)) if link else ""
    return TableShare(
        link=link,
        url=url,
        qr=qr_svg(url) if link else None,
        may_create=can.share_table,
        may_revoke=can.revoke_table_link,
    )
