"""Reads about money: a league's settings, a night's rules and entries, its pool and payouts."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Count, Max

from tracker.core.errors import NotFound
from tracker.engine import money as engine
from tracker.leagues.models import League
from tracker.money.formatting import amount_format
from tracker.money.models import Deal, EntryKind, LeagueMoney, MoneyEntry, NightMoney
from tracker.tournaments.models import FinalStanding, Tournament, TournamentStatus


def league_money(league: League) -> LeagueMoney:
    """The league's money settings: its row, or the defaults (unsaved) when it has none."""
    row = LeagueMoney.objects.filter(league=league).first()
    return row if row is not None else LeagueMoney(league=league)


def night_money(tournament: Tournament) -> NightMoney:
    """The night's money rules: its row, or the defaults (no money) for a night made before
    nights had money."""
    row = NightMoney.objects.filter(tournament=tournament).first()
    return row if row is not None else NightMoney(tournament=tournament)


def night_entries(tournament: Tournament, *, with_undone: bool = False) -> list[MoneyEntry]:
    """The night's entries in the order they were recorded (undone ones only if asked)."""
    rows = MoneyEntry.objects.filter(tournament=tournament).select_related("player")
    if not with_undone:
        rows = rows.filter(undone_at__isnull=True)
    return list(rows.order_by("id"))


@dataclass(frozen=True)
class PlayerMoney:
    """One player's entries of the night."""

    player_id: int
    bought_in: bool = False
    rebuys: int = 0
    addon: bool = False
    paid: int = 0  # everything they paid, fees and bounty included


@dataclass
class NightMoneySummary:
    """A night's money as it stands: rules, entries per player, pool and payouts."""

    money: NightMoney
    locale: str
    entries: list[MoneyEntry]
    players: dict[int, PlayerMoney]
    pool: engine.Pool
    entrants: int
    place_payouts: list[int]  # first place first
    # by player id (seat order), once the final standings are known (empty before)
    payouts: dict[int, int] = field(default_factory=dict)
    places: dict[int, int] = field(default_factory=dict)  # the final places they come from
    deal: Deal | None = None  # the deal that ended the night: its amounts are those payouts

    @property
    def rules(self) -> engine.NightRules:
        return self.money.rules

    @property
    def has_money(self) -> bool:
        r = self.rules
        return bool(r.buy_in or r.fee or r.bounty or r.rebuys_on or r.addon_on)

    def fmt(self, amount: int) -> str:
        return amount_format(amount, currency=self.money.currency, locale=self.locale)

    @property
    def paid_out(self) -> int:
        return sum(self.payouts.values())


def _night_money_and_locale(tournament: Tournament) -> tuple[NightMoney, str, Deal | None]:
    """The night's money rules, its league's locale and the deal that ended it (if one did),
    in one statement when the night has its rules (every night made since nights had
    money)."""
    row = (
        NightMoney.objects.select_related("tournament__league__money", "tournament__deal")
        .filter(tournament=tournament)
        .first()
    )
    if row is None:  # no rules, no entries, no prize money: nothing to deal
        return NightMoney(tournament=tournament), league_money(tournament.league).locale, None
    try:
        deal = row.tournament.deal
    except Deal.DoesNotExist:
        deal = None
    try:
        return row, row.tournament.league.money.locale, deal
    except LeagueMoney.DoesNotExist:
        return row, LeagueMoney().locale, deal


def night_money_summary(
    tournament: Tournament,
    *,
    seat_ids: list[int] | None = None,
    places: dict[int, int] | None = None,
) -> NightMoneySummary:
    """The night's money: its rules, the entries recorded (not undone), the pool they make,
    the payout of each place for the players seated, and, once the night is finished, each
    player's payout from its final standings.

    ``seat_ids`` (the players in seat order) and ``places`` (player id -> final place) when
    the caller has read them already (the pages read them in their snapshot; a finished
    night's standings are its final standings); otherwise they are read here. Two statements
    with both given: the rules with the locale, and the entries (none for a night without
    money)."""
    money, locale, deal = _night_money_and_locale(tournament)
    r = money.rules
    # a night without money has no entries (they are refused): nothing to read
    has_money = bool(r.buy_in or r.fee or r.bounty or r.rebuys_on or r.addon_on)
    entries = night_entries(tournament) if has_money else []
    if seat_ids is None:
        seat_ids = list(tournament.seats.order_by("number").values_list("player_id", flat=True))
    finished = tournament.status == TournamentStatus.FINISHED
    if finished and places is None:
        standing = dict(
            FinalStanding.objects.filter(tournament=tournament).values_list("player_id", "place")
        )
        places = {pid: standing[pid] for pid in seat_ids if pid in standing}
    return money_summary_of(
        money=money,
        locale=locale,
        deal=deal,
        entries=entries,
        seat_ids=seat_ids,
        places=places,
        finished=finished,
    )


def money_summary_of(
    *,
    money: NightMoney,
    locale: str,
    deal: Deal | None,
    entries: list[MoneyEntry],
    seat_ids: list[int],
    places: dict[int, int] | None,
    finished: bool,
) -> NightMoneySummary:
    """:func:`night_money_summary` of what was read already (no query): the night's rules,
    its league's locale, the deal that ended it, its entries not undone (in the order they
    were recorded), its players in seat order and, once ``finished``, their final places.
    The league table's money columns read many nights at once and sum them through it."""
    players: dict[int, PlayerMoney] = {pid: PlayerMoney(player_id=pid) for pid in seat_ids}
    for e in entries:
        p = players[e.player_id]
        players[e.player_id] = PlayerMoney(
            player_id=e.player_id,
            bought_in=p.bought_in or e.kind == EntryKind.BUY_IN,
            rebuys=p.rebuys + (e.kind == EntryKind.REBUY),
            addon=p.addon or e.kind == EntryKind.ADDON,
            paid=p.paid + e.paid,
        )
    pool = engine.Pool(
        paid_in=sum(e.paid for e in entries),
        fees=sum(e.fee for e in entries),
        bounties=sum(e.bounty for e in entries),
    )
    rules = money.rules
    by_place = engine.place_payouts(
        pool.prize_pool,
        rules.payout_template,
        entrants=len(seat_ids),
        unit=money.unit,
        custom=rules.payout_custom,
    )
    payouts: dict[int, int] = {}
    if finished and places:
        ordered = {pid: places[pid] for pid in seat_ids if pid in places}
        payouts = dict(engine.player_payouts(ordered, by_place, unit=money.unit))
    if finished and deal is not None:
        # the deal split the places still open among the players still in: its amounts
        # replace what those places pay (they add up to the same prize money)
        payouts.update({pid: amount for pid, amount in deal.by_player.items() if pid in payouts})
    return NightMoneySummary(
        money=money,
        locale=locale,
        entries=entries,
        players=players,
        pool=pool,
        entrants=len(seat_ids),
        place_payouts=by_place,
        payouts=payouts,
        places=dict(places or {}) if finished else {},
        deal=deal if finished else None,
    )


def visible_entry(tournament: Tournament, entry_id: int) -> MoneyEntry:
    """An entry of ``tournament`` (already read as visible to the caller), else NotFound."""
    entry = (
        MoneyEntry.objects.select_related("player", "tournament")
        .filter(tournament=tournament, pk=entry_id)
        .first()
    )
    if entry is None:
        raise NotFound("No such entry.")
    return entry


def night_money_version(tournament_id: int) -> tuple:
    """What of a night's money the table screen shows can have changed since: its entries
    (how many, the latest, the latest undo), in one query. Part of the screen's ETag
    (:func:`tracker.tournaments.selectors.table_screen_version`)."""
    totals = MoneyEntry.objects.filter(tournament_id=tournament_id).aggregate(
        n=Count("id"), last=Max("id"), undone=Max("undone_at")
    )
    return (totals["n"], totals["last"], totals["undone"])
