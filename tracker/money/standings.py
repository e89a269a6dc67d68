"""Money over many nights: the league table's money columns per season and a player's money
night by night (docs/money.md, "Standings and statistics").

Nothing here is stored: a night's results are read exactly as its results page reads them
(:func:`tracker.money.results.night_results`: payouts from the final standings or the deal,
bounties from the pots that stand), for every night at once in a fixed number of statements,
whatever the number of nights or players:

1. the nights' money rules, with their deal (one row per night),
2. their entries not undone,
3. their seats,
4. their final standings,
5. the pots of the hands in which somebody went out for good (only when a bounty was paid),

the league's money settings (its currency and locale) read with the first.

Which nights: the finished nights of the season that count toward the standings (the same
nights as the league table's points), with money (a buy-in, a fee, a bounty, rebuys or an
add-on), in the league's currency. A night priced in another currency (the league changed
currency since) is left out of the sums and counted in ``other_currency``.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field

from django.db.models import Q

from tracker.hands.models import Pot
from tracker.leagues.models import League, Player
from tracker.leagues.seasons import Season
from tracker.leagues.selectors.seasons import counted_night_ids
from tracker.money.formatting import amount_format
from tracker.money.models import Deal, LeagueMoney, MoneyEntry, NightMoney
from tracker.money.results import PotTaken, bounties_of, player_results_of
from tracker.money.selectors import money_summary_of
from tracker.tournaments.models import FinalStanding, Seat, Tournament, TournamentStatus

DASH = "\u2014"


@dataclass(frozen=True)
class NightMoneyResult:
    """One player's money of one finished night (minor units)."""

    tournament_id: int
    name: str
    date: dt.date
    paid: int  # buy-in, rebuys and add-on, fees and bounty included
    payout: int
    bounties: int  # the bounties won off the players they busted
    bounty_back: int  # their own bounty, when they never went out
    result: int  # payout + bounties + bounty_back - paid


@dataclass
class MoneyRow:
    """One player's money over a season's nights (minor units of ``currency``)."""

    player_id: int
    currency: str
    locale: str
    nights: int = 0  # nights with money they played
    paid: int = 0
    payouts: int = 0
    bounties: int = 0
    bounty_back: int = 0
    net: int = 0  # the sum of their results
    in_the_money: int = 0  # nights with a payout (a deal's amount counts)

    @property
    def itm_pct(self) -> float | None:
        """The share of their nights with a payout, in percent (one decimal); None without
        a night."""
        return round(100 * self.in_the_money / self.nights, 1) if self.nights else None

    @property
    def roi_pct(self) -> float | None:
        """Return on investment: the net over what they paid, in percent (one decimal); None
        when they paid nothing."""
        return round(100 * self.net / self.paid, 1) if self.paid else None

    def fmt(self, amount: int) -> str:
        return amount_format(amount, currency=self.currency, locale=self.locale)

    @property
    def net_text(self) -> str:
        """The net as the league's locale writes money, with a + when they are up."""
        return ("+" if self.net > 0 else "") + self.fmt(self.net)

    @property
    def itm_text(self) -> str:
        return DASH if self.itm_pct is None else f"{self.itm_pct:g}%"

    @property
    def roi_text(self) -> str:
        roi = self.roi_pct
        if roi is None:
            return DASH
        return ("+" if roi > 0 else "") + f"{roi:g}%"

    @property
    def bounties_text(self) -> str:
        return self.fmt(self.bounties)

    @property
    def bounty_back_text(self) -> str:
        return self.fmt(self.bounty_back)

    @property
    def paid_text(self) -> str:
        return self.fmt(self.paid)

    @property
    def payouts_text(self) -> str:
        return self.fmt(self.payouts)

    def add(self, night: NightMoneyResult) -> None:
        self.nights += 1
        self.paid += night.paid
        self.payouts += night.payout
        self.bounties += night.bounties
        self.bounty_back += night.bounty_back
        self.net += night.result
        self.in_the_money += night.payout > 0


@dataclass
class MoneyTable:
    """The money of a season's nights: one row per player who played one of them, and the
    nights themselves; ``nights`` is 0 when no night of the season had money."""

    currency: str
    locale: str
    rows: dict[int, MoneyRow] = field(default_factory=dict)  # by player id
    by_night: dict[int, list[NightMoneyResult]] = field(default_factory=dict)  # player id ->
    nights: int = 0
    other_currency: int = 0  # nights priced in another currency: left out

    def fmt(self, amount: int) -> str:
        return amount_format(amount, currency=self.currency, locale=self.locale)


def nights_money(
    league: League,
    nights: Q,
    *,
    settings: LeagueMoney | None = None,
    players: list[int] | None = None,
) -> MoneyTable:
    """The money results of the finished nights of ``league`` that ``nights`` selects (a
    filter on tournaments), in playing order, for every player or only ``players``. Five
    statements at most whatever the number of nights (the module's docstring); the league's
    settings are read with the nights' rules unless given. One statement when no night
    had money."""
    rules = list(
        NightMoney.objects.select_related(
            "tournament", "tournament__deal", "tournament__league__money"
        )
        .filter(
            tournament__in=Tournament.objects.filter(
                nights, league=league, status=TournamentStatus.FINISHED
            )
        )
        .order_by("tournament__date", "tournament_id")
    )
    if settings is None:
        settings = _settings_read_with(league, rules)
    table = MoneyTable(currency=settings.currency, locale=settings.locale)
    kept: list[NightMoney] = []
    for row in rules:
        if not _has_money(row):
            continue
        if row.currency != settings.currency:
            table.other_currency += 1
            continue
        kept.append(row)
    if not kept:
        return table
    read = _NightsRead.of([row.tournament_id for row in kept])
    wanted_players = set(players) if players is not None else None
    for row in kept:
        _night_add(table, row, read, locale=settings.locale, players=wanted_players)
    return table


def _settings_read_with(league: League, rules: list[NightMoney]) -> LeagueMoney:
    """The league's money settings, read with the nights' rules; the defaults when it has
    none."""
    try:
        return rules[0].tournament.league.money if rules else LeagueMoney(league=league)
    except LeagueMoney.DoesNotExist:
        return LeagueMoney(league=league)


def _has_money(row: NightMoney) -> bool:
    r = row.rules
    return bool(r.buy_in or r.fee or r.bounty or r.rebuys_on or r.addon_on)


@dataclass
class _NightsRead:
    """What the nights ``ids`` hold, by night id: their entries not undone, seats (by seat
    number), final places, the hands players went out in, and the pots of those hands in
    which somebody paying a bounty went out (statements 2 to 5)."""

    entries: dict[int, list[MoneyEntry]]
    seats: dict[int, list[int]]
    places: dict[int, dict[int, int]]
    out_hands: dict[int, dict[int, int]]
    pots: dict[int, list[PotTaken]]

    @classmethod
    def of(cls, ids: list[int]) -> _NightsRead:
        entries: dict[int, list[MoneyEntry]] = {tid: [] for tid in ids}
        for e in MoneyEntry.objects.filter(tournament_id__in=ids, undone_at__isnull=True).order_by(
            "id"
        ):
            entries[e.tournament_id].append(e)
        seats: dict[int, list[int]] = {tid: [] for tid in ids}
        for tid, pid in (
            Seat.objects.filter(tournament_id__in=ids)
            .order_by("tournament_id", "number")
            .values_list("tournament_id", "player_id")
        ):
            seats[tid].append(pid)
        places: dict[int, dict[int, int]] = {tid: {} for tid in ids}
        out_hands: dict[int, dict[int, int]] = {tid: {} for tid in ids}
        for tid, pid, place, out_hand in FinalStanding.objects.filter(
            tournament_id__in=ids
        ).values_list("tournament_id", "player_id", "place", "out_hand"):
            places[tid][pid] = place
            if out_hand is not None:
                out_hands[tid][pid] = out_hand
        pots = _bounty_pots(ids, entries, out_hands)
        return cls(entries=entries, seats=seats, places=places, out_hands=out_hands, pots=pots)


def _bounty_pots(
    ids: list[int], entries: dict[int, list[MoneyEntry]], out_hands: dict[int, dict[int, int]]
) -> dict[int, list[PotTaken]]:
    """The pots of the hands a player paying a bounty went out in, in one statement (none
    when nobody paid a bounty)."""
    wanted = Q()
    for tid in ids:
        bounty_payers = {e.player_id for e in entries[tid] if e.bounty}
        hands = {h for pid, h in out_hands[tid].items() if pid in bounty_payers}
        if hands:
            wanted |= Q(hand__tournament_id=tid, hand__number__in=sorted(hands))
    pots: dict[int, list[PotTaken]] = {tid: [] for tid in ids}
    if wanted:
        for p in Pot.objects.filter(wanted).select_related("hand"):
            pots[p.hand.tournament_id].append(
                PotTaken(p.hand_id, p.hand.number, p.index, p.eligible, p.award_chips)
            )
    return pots


def _night_add(
    table: MoneyTable,
    row: NightMoney,
    read: _NightsRead,
    *,
    locale: str,
    players: set[int] | None,
) -> None:
    """One night's results added to ``table``: its players' rows and nights (only
    ``players`` when given)."""
    tid = row.tournament_id
    try:
        deal = row.tournament.deal
    except Deal.DoesNotExist:
        deal = None
    seat_ids = read.seats[tid]
    summary = money_summary_of(
        money=row,
        locale=locale,
        deal=deal,
        entries=read.entries[tid],
        seat_ids=seat_ids,
        places={pid: read.places[tid][pid] for pid in seat_ids if pid in read.places[tid]},
        finished=True,
    )
    bounties = bounties_of(summary, out_hands=read.out_hands[tid], pots=read.pots[tid])
    table.nights += 1
    for pid, r in player_results_of(summary, bounties).items():
        if players is not None and pid not in players:
            continue
        night = NightMoneyResult(
            tournament_id=tid,
            name=row.tournament.name,
            date=row.tournament.date,
            paid=r.paid,
            payout=r.payout,
            bounties=r.bounties,
            bounty_back=r.bounty_back,
            result=r.result,
        )
        table.by_night.setdefault(pid, []).append(night)
        table.rows.setdefault(
            pid, MoneyRow(player_id=pid, currency=table.currency, locale=table.locale)
        ).add(night)


def league_money_table(league: League, season: Season | None = None) -> MoneyTable:
    """The money columns of the league table of ``season`` (all time when None): each
    player's net, nights in the money, what they paid (for the ROI) and bounties won, over
    the finished nights with money that count toward the standings (:func:`nights_money`)."""
    return nights_money(league, Q(id__in=counted_night_ids(league, season)))


def player_money(player: Player) -> MoneyTable:
    """A player's money night by night, over every finished night with money of their
    league that they played (friendly nights too: money changed hands all the same), in
    playing order (:func:`nights_money`)."""
    return nights_money(
        player.league,
        Q(seats__player=player),
        players=[player.pk],
    )
