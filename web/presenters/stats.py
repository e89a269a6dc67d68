"""The statistics pages: page objects and charts over tracker/stats/selectors.py, and CSV text
(also for the API's CSV answers)."""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any
from urllib.parse import urlencode

from tracker.core.errors import NotFound
from tracker.core.permissions import Capabilities, capabilities
from tracker.engine.announcements import VARIANT_TITLES, VARIANTS
from tracker.engine.errors import DomainError
from tracker.engine.points import describe, normalize_formula, running_best_totals
from tracker.leagues.models import League, Player
from tracker.leagues.seasons import Season
from tracker.leagues.selectors.players import player_tournaments
from tracker.leagues.selectors.seasons import (
    ALL_TIME,
    CURRENT,
    SeasonNight,
    league_season,
    league_seasons,
    season_nights,
)
from tracker.leagues.selectors.table import league_results, league_table
from tracker.leagues.selectors.visibility import visible_league, visible_player, visible_tournament
from tracker.money.formatting import minor_digits
from tracker.money.standings import MoneyRow, MoneyTable, league_money_table
from tracker.stats.selectors import (
    HandPoint,
    Scope,
    Stats,
    house_game_rows,
    month_tallies,
    player_allins,
    player_hands,
    player_scope,
    scope_months,
    scope_tallies,
    stats_seasons,
    tally_stats,
    tally_table,
    tournament_tallies,
)
from tracker.tournaments.models import Tournament
from tracker.tournaments.selectors import stack_history
from web.presenters.charts import Series, line_chart

# A cell a spreadsheet would read as a formula (OWASP "CSV injection"): = + - @, tab, CR.
_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")


def csv_cell(value: Any) -> Any:
    """One CSV cell, safe to open in a spreadsheet.

    Text starting with = + - @, a tab or a carriage return gets a leading single quote, so
    it is shown as text and never run as a formula; numbers, and text that is a plain number
    (``-12``, ``-0.5``), are left alone. ``None`` is an empty cell.

    >>> [csv_cell(v) for v in ("=HYPERLINK(1)", "-12", -3, "@SUM(A1)", "Rob", None)]
    ["'=HYPERLINK(1)", '-12', -3, "'@SUM(A1)", 'Rob', '']
    """
    if value is None:
        return ""
    if not isinstance(value, str):
        return value
    if value.startswith(_FORMULA_START) and not _PLAIN_NUMBER.fullmatch(value):
        return "'" + value
    return value


def csv_text(rows: list[dict[str, Any]], columns: list[str] | None = None) -> str:
    """Rows of flat dicts as CSV text (a header line first), every cell through ``csv_cell``.

    The one CSV writer of the pages and the API (``?format=csv``)."""

    buffer = io.StringIO()
    if columns is None:
        columns = list(rows[0]) if rows else []
    writer = csv.DictWriter(buffer, fieldnames=columns, extrasaction="ignore", lineterminator="\n")
    writer.writerow({c: csv_cell(c) for c in columns})
    for row in rows:
        writer.writerow({k: csv_cell(v) for k, v in row.items()})
    return buffer.getvalue()


# --------------------------------------------------------------------------
# Pages


def _charts(series, *, title: str, x_label: str, signed: bool = True) -> dict[str, str]:
    """A chart drawn twice: narrow for a phone, wide for a big screen."""
    opts = {"x_label": x_label, "title": title, "include_zero": signed, "max_points": 300}
    return {
        "narrow": line_chart(series, width=340, height=250, **opts),
        "wide": line_chart(series, width=640, height=300, font_size=12, **opts),
    }


@dataclass
class PlayerStatsPage:
    player: Player
    league: League
    scope: Scope
    stats: Stats
    by_variant: list[Stats]
    tournaments: list[Tournament]
    allins: list[HandPoint]
    chips_chart: dict[str, str]
    luck_chart: dict[str, str]
    variants: list[tuple[str, str]]
    more_tournaments: bool = False  # the picker lists the latest PICKER_NIGHTS only

    @property
    def leagues_summed(self) -> int:
        return len(self.scope.players)

    @property
    def picker(self) -> list[tuple[int, str, bool]]:
        """The tournament picker's options: id, "name · date", whether chosen (worked out
        here once, not per option in the template)."""
        chosen = self.scope.tournament.pk if self.scope.tournament is not None else None
        return [
            (t.pk, f"{t.name} · {t.date.day} {t.date:%b %Y}", t.pk == chosen)
            for t in self.tournaments
        ]


#: Up to this many hands the chips chart goes hand by hand; past it, month by month (so
#: that the page reads a bounded number of rows, whatever the history).
CHART_HANDS = 300
#: The tournament picker lists the player's latest nights only (any night stays reachable
#: by its address, ``?tournament=ID``).
PICKER_NIGHTS = 60


def player_stats_page(
    user, pk: int, *, tournament: str | None = None, variant: str | None = None
) -> PlayerStatsPage:
    """The player's statistics in a scope (all time, one tournament, one game): a handful
    of queries, each reading a bounded number of rows whatever the number of hands (the
    running totals, at most CHART_HANDS hands or a row per month for the charts, the
    latest 25 all-ins)."""
    player = visible_player(user, pk)
    scope = player_scope(user, player, tournament=tournament, variant=variant)
    stats = tally_stats(scope_tallies(scope))
    by_variant = tally_table(scope_tallies(scope), "variant") if scope.variant is None else []
    if any(s.key == "house" for s in by_variant):  # each house game by its name
        at = next(k for k, s in enumerate(by_variant) if s.key == "house")
        by_variant[at : at + 1] = house_game_rows(scope)
    if stats.hands <= CHART_HANDS or scope.tournament is not None:
        chips_chart, luck_chart = _hand_charts(player_hands(scope))
    else:
        chips_chart, luck_chart = _month_charts(scope_months(scope))
    tournaments = player_tournaments(player, PICKER_NIGHTS + 1)
    more = len(tournaments) > PICKER_NIGHTS
    tournaments = tournaments[:PICKER_NIGHTS]
    if scope.tournament is not None and scope.tournament not in tournaments:
        tournaments.append(scope.tournament)
    return PlayerStatsPage(
        player=player,
        league=player.league,
        scope=scope,
        stats=stats,
        by_variant=by_variant,
        tournaments=tournaments,
        allins=player_allins(scope, 25),
        chips_chart=chips_chart,
        luck_chart=luck_chart,
        variants=[(v, VARIANT_TITLES.get(v, v)) for v in VARIANTS],
        more_tournaments=more,
    )


def _hand_charts(hands: list[HandPoint]) -> tuple[dict[str, str], dict[str, str]]:
    """Chips won and all-in luck, hand by hand."""
    running = 0
    luck = 0.0
    net_line: list[float] = [0]
    skill_line: list[float] = [0]
    luck_line: list[float] = [0]
    for h in hands:
        running += h.net
        if h.allin and h.luck is not None:
            luck += h.luck
            luck_line.append(round(luck, 1))
        net_line.append(running)
        skill_line.append(round(running - luck, 1))
    return _lines(net_line, skill_line, luck_line, running, luck, "hands played", "all-in hands")


def _month_charts(months) -> tuple[dict[str, str], dict[str, str]]:
    """The same lines month by month (a long history)."""
    running = 0
    luck = 0.0
    net_line: list[float] = [0]
    skill_line: list[float] = [0]
    luck_line: list[float] = [0]
    for m in months:
        running += m.net
        if m.allin_hands:
            luck += m.luck
            luck_line.append(round(luck, 1))
        net_line.append(running)
        skill_line.append(round(running - luck, 1))
    return _lines(
        net_line, skill_line, luck_line, running, luck, "months played", "months with all-ins"
    )


def _lines(net_line, skill_line, luck_line, running, luck, x_label, luck_x_label):
    chips_chart: dict[str, str] = {}
    if len(net_line) >= 3:
        chips_chart = _charts(
            [
                Series("chips won", net_line, note=f"{running:+,}"),
                Series("less all-in luck", skill_line, note=f"{running - luck:+,.0f}"),
            ],
            title="Chips won, " + ("hand by hand" if x_label.startswith("hands") else "by month"),
            x_label=x_label,
        )
    luck_chart: dict[str, str] = {}
    if len(luck_line) >= 3:
        luck_chart = _charts(
            [Series("actual - expected", luck_line, note=f"{luck:+,.0f}")],
            title="All-in luck",
            x_label=luck_x_label,
        )
    return chips_chart, luck_chart


@dataclass
class LeagueTablePage:
    league: League
    can: Capabilities  # what the viewer may do in the league
    standings: list[Any]
    formula: dict
    formula_text: str
    tournaments: int
    chart: dict[str, str]
    chart_note: str
    season: Season | None = None
    seasons: list[Season] = field(default_factory=list)
    nights: list[SeasonNight] = field(default_factory=list)  # every finished night of the season
    # the season's money (members only, and only when a night of it had money)
    money: MoneyTable | None = None

    @property
    def role(self) -> str | None:
        return self.can.role

    @property
    def rows(self) -> list[tuple[Any, MoneyRow | None]]:
        """Each standing with its money over the season (None without money)."""
        found = self.money.rows if self.money is not None else {}
        return [(r, found.get(r.player_id)) for r in self.standings]

    @property
    def nights_left_out(self) -> list[SeasonNight]:
        return [n for n in self.nights if not n.counts]

    @property
    def can_set_points(self) -> bool:
        return self.can.set_points


def league_points_history(results) -> tuple[list[Any], dict[int, list[float]]]:
    """Cumulative points of each player after each finished tournament, in playing order
    (counting only the best N so far when the league counts the best N)."""

    order: list[int] = []
    for r in results:
        if not order or order[-1] != r.tournament_id:
            order.append(r.tournament_id)
    index = {tid: k for k, tid in enumerate(order)}
    per_player: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for r in results:
        per_player[r.player_id].append((index[r.tournament_id], r.points))
    return order, per_player


def season_or_404(league: League, key: str | None) -> Season:
    """The season a page's ``?season=`` names (the current one when empty: the league table
    and the league statistics open on the same season); an unknown season is a page that
    does not exist."""
    try:
        return league_season(league, key, default=CURRENT)
    except DomainError as exc:
        raise NotFound(exc.message) from None


# A table is drawn with its points chart night by night up to a year of weekly nights; past
# that (all time, or a long season of many nights) it shows the running totals alone and
# lists only the nights left out, so a page never reads every night of a long history.
CHART_NIGHTS = 52


def league_table_page(user, slug: str, season: str | None = None) -> LeagueTablePage:
    """The league table of a season (the current one by default) with points, the points
    chart, and the season's finished nights that count and those that do not. The standings
    come from the league table's running totals (one query whatever the number of nights);
    the chart and the list of nights read the season's nights only up to
    :data:`CHART_NIGHTS` counted nights."""
    league = visible_league(user, slug)
    can = capabilities(user, league)
    chosen = season_or_404(league, season)
    spec = normalize_formula(league.points_formula or None)
    table = league_table(league, chosen)
    standings = table.rows
    chart: dict[str, str] = {}
    note = ""
    # A long season: no chart, and only the nights that do not count are listed.
    long_season = table.nights > CHART_NIGHTS
    if long_season:
        note = (
            f"{table.nights:,} nights count: the points chart is drawn up to "
            f"{CHART_NIGHTS} nights (pick a shorter season)."
        )
    else:
        results = league_results(league, chosen)
        order, per_player = league_points_history(results)
        if len(order) >= 2:
            names = {r.player_id: r.name for r in standings}
            top = [r.player_id for r in standings[:8]]
            series = []
            for pid in top:
                events = dict(per_player.get(pid, []))
                steps = [events.get(k) for k in range(len(order))]
                values: list[float] = [0.0, *running_best_totals(steps, spec["best"])]
                series.append(Series(names.get(pid, str(pid)), values, note=f"{values[-1]:g}"))
            chart = _charts(
                series, title="Points over the season", x_label="tournaments", signed=False
            )
            if len(standings) > 8:
                note = f"The top 8 of {len(standings)} players are drawn."
    return LeagueTablePage(
        league=league,
        can=can,
        standings=standings,
        formula=spec,
        formula_text=describe(spec),
        tournaments=table.nights,
        chart=chart,
        chart_note=note,
        season=chosen,
        seasons=league_seasons(league),
        nights=season_nights(league, chosen, left_out_only=long_season),
        money=visible_money_table(can, league, chosen),
    )


#: The league table CSV's money columns (members only, when the season had money).
MONEY_CSV_COLUMNS = [
    "currency",
    "money_nights",
    "money_net",
    "in_the_money",
    "in_the_money_pct",
    "paid",
    "roi_pct",
    "bounties",
]


def money_csv_cells(table: MoneyTable, row: MoneyRow | None) -> dict[str, Any]:
    """A standing's money cells in the CSV: amounts in major units of the currency as plain
    decimals (a spreadsheet sums them; the currency column names the currency)."""
    if row is None:
        return {"currency": table.currency, "money_nights": 0}
    major = minor_digits(table.currency)
    return {
        "currency": table.currency,
        "money_nights": row.nights,
        "money_net": f"{Decimal(row.net).scaleb(-major):.{major}f}",
        "in_the_money": row.in_the_money,
        "in_the_money_pct": row.itm_pct,
        "paid": f"{Decimal(row.paid).scaleb(-major):.{major}f}",
        "roi_pct": row.roi_pct,
        "bounties": f"{Decimal(row.bounties).scaleb(-major):.{major}f}",
    }


def visible_money_table(can: Capabilities, league: League, season: Season) -> MoneyTable | None:
    """The season's money columns for a viewer who may see the league's money (its members:
    the permissions table's ``view_money``), when a night of the season had money."""
    if not can.view_money:
        return None
    table = league_money_table(league, season)
    return table if table.nights else None


@dataclass
class StatsTablePage:
    league: League
    tournament: Tournament | None
    variant: str | None
    rows: list[Stats]
    total: Stats
    variants: list[tuple[str, str]]
    chart: dict[str, str] = field(default_factory=dict)
    season: Season | None = None  # one season of the league's length, or all time
    seasons: list[Season] = field(default_factory=list)  # the picker's, newest first

    def query(self, *, variant: str | None = "", season: str | None = "") -> str:
        """The query string of this page with ``variant`` or ``season`` changed."""
        params = {
            "variant": self.variant if variant == "" else variant,
            "season": (self.season.key if self.season else None) if season == "" else season,
        }
        text = urlencode({k: v for k, v in params.items() if v})
        return f"?{text}" if text else ""

    @property
    def variant_links(self) -> list[tuple[str, str, bool]]:
        every = [("Every game", self.query(variant=None), self.variant is None)]
        return every + [(t, self.query(variant=v), self.variant == v) for v, t in self.variants]

    @property
    def season_links(self) -> list[tuple[str, str, bool]]:
        """All time, then the seasons (the chosen one among them), newest first."""
        if not self.seasons:
            return []
        return [
            (s.label, self.query(season=s.key), self.season is not None and self.season == s)
            for s in [ALL_TIME, *self.seasons]
        ]


def league_stats_page(
    user, slug: str, *, variant: str | None = None, season: str | None = None
) -> StatsTablePage:
    """Every player of a league side by side, one season of the league's length -- the
    current one by default, as on the league table -- or all time (``?season=all``). Three
    queries: the league, the running totals (at most a row per player, variant and month)
    and the months they span, for the season links (the seasons holding hands, and the
    chosen one)."""
    league = visible_league(user, slug)
    return league_stats_of(league, variant=variant, season=season_or_404(league, season))


def league_stats_of(league: League, *, variant: str | None, season: Season) -> StatsTablePage:
    """:func:`league_stats_page` of a league and a season already resolved (the API
    resolves the season itself: an unknown one is a 400 there)."""
    chosen = season
    if variant and variant not in VARIANTS:
        raise NotFound(f"No such game: {variant!r}.")
    rows = tally_table(month_tallies(league=league, variant=variant or None, season=chosen))
    seasons = stats_seasons(league)
    if chosen.start is not None and chosen not in seasons:
        seasons = sorted([*seasons, chosen], key=lambda s: s.start, reverse=True)
    return StatsTablePage(
        league=league,
        tournament=None,
        variant=variant or None,
        rows=rows,
        total=_total(rows),
        variants=[(v, VARIANT_TITLES.get(v, v)) for v in VARIANTS],
        season=chosen,
        seasons=seasons,
    )


def tournament_stats_page(user, pk: int) -> StatsTablePage:
    """Every player of one tournament side by side, and the stacks over the hands."""
    tournament = visible_tournament(user, pk)
    rows = tally_table(tournament_tallies(tournament=tournament))
    history = stack_history(tournament)
    chart: dict[str, str] = {}
    if history and max(len(v) for v in history.values()) >= 2:
        names = {s.key: s.label for s in rows}
        for seat in tournament.seats.select_related("player"):
            names.setdefault(seat.player_id, seat.player.name)
        series = [
            Series(names.get(pid, str(pid)), values, note=f"{values[-1]:,}")
            for pid, values in history.items()
        ]
        title = "Stacks over the hands"
        chart = {
            "narrow": line_chart(series, width=340, height=250, x_label="hands", title=title),
            "wide": line_chart(
                series, width=640, height=300, x_label="hands", title=title, font_size=12
            ),
        }
    return StatsTablePage(
        league=tournament.league,
        tournament=tournament,
        variant=None,
        rows=rows,
        total=_total(rows),
        variants=[],
        chart=chart,
    )


def _total(rows: list[Stats]) -> Stats:
    total = Stats(label="Everyone")
    for s in rows:
        for name in (
            "hands",
            "full_hands",
            "live_hands",
            "showdowns",
            "allin_hands",
        ):
            setattr(total, name, getattr(total, name) + getattr(s, name))
    return total
