"""Page objects of the home, league, player and tournament pages, over the selectors.

Every function that takes a user checks visibility first: a private league (and
everything in it) does not exist for a user who is not a member -- the functions
raise :class:`~tracker.core.errors.NotFound`, which the views turn into a 404.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from tracker.core.permissions import Capabilities, capabilities
from tracker.engine.announcements import VARIANT_TITLES
from tracker.engine.stakes import Stakes
from tracker.hands.models import Hand
from tracker.hands.selectors.live import open_draft
from tracker.hands.selectors.wording import announcement_text
from tracker.leagues.models import League, Player
from tracker.leagues.seasons import Season
from tracker.leagues.selectors.pages import (
    LEAGUE_PAGE_NIGHTS,
    league_tournament_count,
    league_tournaments,
    leagues_with_counts,
    roles_by_league,
    tournament_winners,
)
from tracker.leagues.selectors.people import league_roster
from tracker.leagues.selectors.players import (
    player_chips_bought,
    player_hand_totals,
    player_recent_hands,
    player_seats,
)
from tracker.leagues.selectors.seasons import league_season
from tracker.leagues.selectors.table import LeagueRow, league_table
from tracker.leagues.selectors.visibility import (
    tournaments_visible_to,
    visible_league,
    visible_player,
)
from tracker.money.formatting import minor_digits
from tracker.money.standings import MoneyRow, player_money
from tracker.rulings.selectors import (
    RULING_BADGES,
    hand_ruling_states,
    open_disputes_count,
    status_words,
)
from tracker.schedule.selectors import upcoming_nights
from tracker.tournaments.models import Tournament, TournamentStatus
from tracker.tournaments.selectors import (
    StandingRow,
    TournamentState,
    stack_history,
    tournament_hands,
    tournament_live,
    tournament_standings,
)
from web.presenters.charts import Series, line_chart
from web.presenters.deals import DealView, deal_view
from web.presenters.money import MoneyView, money_view
from web.presenters.results import ResultsView, results_view

# --------------------------------------------------------------------------
# Home


@dataclass
class LeagueCard:
    league: League
    roles: tuple[str, ...]  # the user's roles in the league (several possible)
    tournaments: int
    players: int
    running: int


def home_leagues(user) -> dict[str, list[LeagueCard]]:
    """The leagues the user is a member of ("mine") and the other public ones."""
    leagues = leagues_with_counts(user)
    roles = roles_by_league(user)
    mine, public = [], []
    for league in leagues:
        card = LeagueCard(
            league=league,
            roles=roles[league.pk].roles if league.pk in roles else (),
            tournaments=league.n_tournaments,
            players=league.n_players,
            running=league.n_running,
        )
        (mine if card.roles else public).append(card)
    return {"mine": mine, "public": public}


# --------------------------------------------------------------------------
# League


@dataclass
class TournamentRow:
    tournament: Tournament
    hands: int
    players: int
    leaders: list[str]  # the winner(s) when finished, the chip leader(s) while running
    min_players: int = 0  # the league's minimum for a night to count toward the standings

    @property
    def finished(self) -> bool:
        return self.tournament.status == TournamentStatus.FINISHED

    @property
    def not_counted(self) -> str:
        """Why the night does not count toward the standings ("" when it does)."""
        if not self.tournament.counts_toward_standings:
            return "friendly: not counted in the standings"
        if self.players < self.min_players:
            return f"not counted: fewer than {self.min_players} players"
        return ""


@dataclass
class LeaguePage:
    """The league's one standings concept is the league table's (finished nights, points by
    the league's formula): ``standings`` are its rows, ``finished`` the nights they count."""

    league: League
    can: Capabilities  # what the viewer may do in the league
    tournaments: list[TournamentRow]
    standings: list[LeagueRow]
    finished: int  # nights counted in ``season``
    season: Season  # the current season (the league table page picks earlier ones)
    players: list[Player]  # the roster, by name
    house_rules: list[tuple[str, list[tuple[str, str]]]]
    open_disputes: int = 0  # pots waiting for the authority ("N open" on the disputes link)
    nights_total: int = 0  # every night of the league (``tournaments`` are the latest)
    upcoming: list = field(default_factory=list)  # nights scheduled ahead (ScheduledNight)

    @property
    def role(self) -> str | None:
        return self.can.role

    @property
    def can_record(self) -> bool:
        return self.can.record_hand


def _winners(rows: list[StandingRow]) -> list[str]:
    return [r.name for r in rows if r.place == 1]


def league_page(user, slug: str) -> LeaguePage:
    league = visible_league(user, slug)
    can = capabilities(user, league)
    tournaments = league_tournaments(league, limit=LEAGUE_PAGE_NIGHTS)
    season = league_season(league)
    # The current season's standings from the league table's running totals (one query).
    table = league_table(league, season)
    winners = tournament_winners(
        [t.pk for t in tournaments if t.status == TournamentStatus.FINISHED]
    )
    rows = []
    for t in tournaments:
        if t.status == TournamentStatus.FINISHED:
            leaders = winners.get(t.pk, [])
        else:  # a running night's chip leaders (running nights are few)
            leaders = _winners(tournament_standings(t)) if t.n_hands else []
        rows.append(
            TournamentRow(
                tournament=t,
                hands=t.n_hands,
                players=t.n_players,
                leaders=leaders,
                min_players=league.min_players,
            )
        )
    house = [
        (
            VARIANT_TITLES.get(v, v),
            [(k.replace("_", " "), announcement_text(k, val)) for k, val in opts.items()],
        )
        for v, opts in sorted((league.house_rules or {}).items())
        if opts
    ]
    return LeaguePage(
        league=league,
        can=can,
        tournaments=rows,
        standings=table.rows,
        finished=table.nights,
        nights_total=league_tournament_count(league),
        season=season,
        players=league_roster(league),
        house_rules=house,
        open_disputes=open_disputes_count(league),
        upcoming=upcoming_nights(league),
    )


# --------------------------------------------------------------------------
# Player


@dataclass
class PlayerTournament:
    tournament: Tournament
    place: int | None
    chips: int
    net: int
    out_hand: int | None
    players: int
    money: int | None = None  # their money result of the night (members, nights with money)
    money_text: str = ""


@dataclass
class PlayerHand:
    hand: Hand
    contributed: int
    won: int | None
    folded_street: int | None

    @property
    def net(self) -> int | None:
        return None if self.won is None else self.won - self.contributed


@dataclass
class PlayerPage:
    player: Player
    league: League
    hands_played: int
    hands_won: int
    showdowns: int
    net: int
    wins: int
    tournaments: list[PlayerTournament]
    recent: list[PlayerHand]
    # their money over the league's nights (members only; None when no night had money)
    money: MoneyRow | None = None
    money_chart: dict[str, str] = field(default_factory=dict)


def player_money_view(player: Player) -> tuple[MoneyRow | None, dict, dict]:
    """A player's money totals, the chart of their cumulative net night by night (in major
    units of the league's currency) and their result by night id; (None, {}, {}) when
    none of their nights had money."""
    table = player_money(player)
    row = table.rows.get(player.pk)
    if row is None:
        return None, {}, {}
    nights = table.by_night.get(player.pk, [])
    scale = 10 ** minor_digits(table.currency)
    running = 0
    line: list[float] = [0]
    for n in nights:
        running += n.result
        line.append(running / scale)
    chart: dict[str, str] = {}
    if len(nights) >= 2:
        title = f"Money won, night by night ({table.currency})"
        series = [Series("net", line, note=row.net_text)]
        opts = {"x_label": "nights", "title": title, "include_zero": True}
        chart = {
            "narrow": line_chart(series, width=340, height=230, **opts),
            "wide": line_chart(series, width=640, height=280, font_size=12, **opts),
        }
    return row, chart, {n.tournament_id: n for n in nights}


def player_page(user, pk: int) -> PlayerPage:
    player = visible_player(user, pk)
    money, money_chart, by_night = (None, {}, {})
    if capabilities(user, player.league).view_money:
        money, money_chart, by_night = player_money_view(player)
    totals = player_hand_totals(player)
    rows = []
    wins = 0
    bought = player_chips_bought(player)
    for seat in player_seats(player):
        t = seat.tournament
        standings = {r.player_id: r for r in tournament_standings(t)}
        me = standings.get(player.pk)
        chips = me.chips if me else 0
        finished = t.status == TournamentStatus.FINISHED
        if finished and me and me.place == 1:
            wins += 1
        rows.append(
            PlayerTournament(
                tournament=t,
                place=me.place if me else None,
                chips=chips,
                net=chips - t.starting_chips - bought.get(t.pk, 0),
                out_hand=me.out_hand if me else None,
                players=seat.n_players,
            )
        )
        night = by_night.get(t.pk)
        if night is not None and money is not None:
            rows[-1].money = night.result
            rows[-1].money_text = ("+" if night.result > 0 else "") + money.fmt(night.result)
    recent = [
        PlayerHand(hand=s.hand, contributed=s.contributed, won=s.won, folded_street=s.folded_street)
        for s in player_recent_hands(player)
    ]
    return PlayerPage(
        player=player,
        league=player.league,
        hands_played=totals.hands_played,
        hands_won=totals.hands_won,
        showdowns=totals.showdowns,
        net=totals.net,
        wins=wins,
        tournaments=rows,
        recent=recent,
        money=money,
        money_chart=money_chart,
    )


# --------------------------------------------------------------------------
# Tournament


@dataclass
class HandRow:
    hand: Hand
    dealer: str
    pot: int
    winners: list[tuple[str, int]]  # (name, chips won) from the awards that stand
    disputed_pots: int
    ruling_state: str = ""  # "open", "ruled", "override" or "" (tracker/rulings/selectors.py)

    @property
    def status_label(self) -> str:
        return status_words(self.hand.status, self.ruling_state)[0]

    @property
    def status_help(self) -> str:
        return status_words(self.hand.status, self.ruling_state)[1]

    @property
    def ruling_badge(self) -> tuple[str, str] | None:
        """(label, help) of the badge beside the status: open or ruled."""
        return RULING_BADGES.get(self.ruling_state)

    @property
    def variant_title(self) -> str:
        return VARIANT_TITLES.get(self.hand.variant, self.hand.variant)


@dataclass
class StandingView:
    row: StandingRow
    projected: int | None  # chips counting hands not yet settled, when different

    @property
    def status(self) -> str:
        if self.row.is_out:
            return f"out in hand {self.row.out_hand}"
        return "in"


@dataclass
class TournamentPage:
    tournament: Tournament
    league: League
    can: Capabilities  # what the viewer may do in the league
    can_record: bool  # may record, and the tournament is not over
    state: TournamentState
    standings: list[StandingView]
    hands: list[HandRow]
    chart: dict[str, str]  # "narrow" and "wide" SVG, or empty before any hand is settled
    stakes: Stakes | None  # of the hand being played (or the last), with its level
    next_dealer: str | None
    counts: dict[str, int] = field(default_factory=dict)
    live_number: int | None = None  # the hand being logged live, if one is open
    money: MoneyView | None = None  # the night's money, for those who may see it
    results: ResultsView | None = None  # its results and settle-up, once it is over
    deal: DealView | None = None  # the deal on offer, or the one that ended the night


def _chart(tournament: Tournament, names: dict[int, str], order: list[int]) -> dict[str, str]:
    """The stacks chart in two sizes: one drawn for a phone, one for a wide screen."""
    history = stack_history(tournament)
    if not history or max(len(v) for v in history.values()) < 2:
        return {}
    series = []
    for pid in order:
        values = history.get(pid, [])
        series.append(Series(names.get(pid, str(pid)), values, note=f"{values[-1]:,}"))
    n = max(len(v) for v in history.values())
    per = tournament.hands_per_level
    markers = [(h, f"L{(h // per) + 1}") for h in range(per, n, per)]
    title = "Stacks over the hands"
    return {
        "narrow": line_chart(
            series, width=340, height=250, x_label="hands settled", title=title, markers=markers
        ),
        "wide": line_chart(
            series,
            width=600,
            height=300,
            x_label="hands settled",
            title=title,
            markers=markers,
            font_size=12,
        ),
    }


def tournament_page(user, pk: int) -> TournamentPage:
    live = tournament_live(pk, among=tournaments_visible_to(user))  # one snapshot
    tournament = live.tournament
    league = tournament.league
    can = capabilities(user, league)
    state, standings = live.state, live.standings
    names = {s.player_id: s.player.name for s in state.seats}
    seat_names = {s.number: s.player.name for s in state.seats}
    views = [
        StandingView(
            row=r,
            projected=state.stacks.get(r.player_id)
            if state.stacks.get(r.player_id) != r.chips
            else None,
        )
        for r in standings
    ]
    hands = tournament_hands(tournament)
    ruling_states = hand_ruling_states(hands)
    rows = []
    counts: dict[str, int] = defaultdict(int)
    for h in hands:
        counts[h.status] += 1
        won: dict[int, int] = defaultdict(int)
        pot_total = 0
        disputed = 0
        for pot in h.pots.all():
            pot_total += pot.amount
            disputed += pot.disputed
            for pid, chips in pot.award_chips.items():
                won[pid] += chips
        rows.append(
            HandRow(
                hand=h,
                dealer=seat_names.get(h.dealer_seat, f"seat {h.dealer_seat}"),
                pot=pot_total,
                winners=[(names.get(pid, str(pid)), c) for pid, c in won.items() if c],
                disputed_pots=disputed,
                ruling_state=ruling_states.get(h.pk, ""),
            )
        )
    if state.over or state.hands_recorded >= tournament.hand_limit:
        last = hands[0] if hands else None
        stakes = None if last is None else last.stakes
    else:
        stakes = state.next_stakes
    dealer = state.next_dealer
    money = money_view(tournament, can, names, state, standings)
    return TournamentPage(
        tournament=tournament,
        league=league,
        can=can,
        can_record=can.record_hand and not state.over,
        state=state,
        standings=views,
        hands=rows,
        chart=_chart(tournament, names, [s.player_id for s in state.seats]),
        stakes=stakes,
        next_dealer=seat_names.get(dealer) if dealer is not None else None,
        counts=dict(counts),
        live_number=_open_draft_number(tournament) if can.record_hand else None,
        money=money,
        results=(
            results_view(tournament, money.summary, names, can=can, user=user) if money else None
        ),
        deal=deal_view(tournament, can, state, money.summary if money else None, names),
    )


def _open_draft_number(tournament: Tournament) -> int | None:
    draft = open_draft(tournament)
    return draft.number if draft is not None else None
