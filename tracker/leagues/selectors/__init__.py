"""Reads about leagues, one module per subject:

- ``visibility``: what a user may see (leagues, nights, players, hands) and the single
  objects of an address, NotFound when hidden;
- ``seasons``: the one season resolver, the league's seasons, the nights that count;
- ``table``: final places with points and the league table (from the stored totals);
- ``pages``: counts and totals for the home and league pages;
- ``players``: a player's page (hand totals, chips bought, seats, recent hands, nights);
- ``people``: members and roles, the league's accounts, the roster and invites;
- ``calendars``: the calendar feed links and the nights they list.

The package re-exports the public names of every module, so ``from tracker.leagues.selectors
import league_table`` keeps working; code in the project imports the subject module.
"""

from tracker.leagues.selectors.calendars import (
    calendar_feed_open,
    league_calendar_feed,
    league_calendar_feeds,
    league_nights,
)
from tracker.leagues.selectors.pages import (
    LEAGUE_PAGE_NIGHTS,
    league_tournament_count,
    league_tournaments,
    leagues_with_counts,
    roles_by_league,
    tournament_winners,
)
from tracker.leagues.selectors.people import (
    MemberRow,
    invite_by_token,
    invites_managed_by,
    league_account,
    league_accounts,
    league_invites,
    league_members,
    league_players_without_role,
    league_roster,
)
from tracker.leagues.selectors.players import (
    PlayerHandTotals,
    player_chips_bought,
    player_hand_totals,
    player_recent_hands,
    player_seats,
    player_tournaments,
)
from tracker.leagues.selectors.seasons import (
    ALL,
    ALL_TIME,
    CURRENT,
    SeasonNight,
    counted_night_ids,
    league_season,
    league_seasons,
    season_nights,
)
from tracker.leagues.selectors.table import (
    LeagueResult,
    LeagueRow,
    LeagueTable,
    league_results,
    league_standings,
    league_table,
)
from tracker.leagues.selectors.visibility import (
    leagues_visible_to,
    players_visible_to,
    tournaments_visible_to,
    visible_hand,
    visible_league,
    visible_player,
    visible_tournament,
)

__all__ = [
    "ALL",
    "ALL_TIME",
    "CURRENT",
    "LEAGUE_PAGE_NIGHTS",
    "LeagueResult",
    "LeagueRow",
    "LeagueTable",
    "MemberRow",
    "PlayerHandTotals",
    "SeasonNight",
    "calendar_feed_open",
    "counted_night_ids",
    "invite_by_token",
    "invites_managed_by",
    "league_account",
    "league_accounts",
    "league_calendar_feed",
    "league_calendar_feeds",
    "league_invites",
    "league_members",
    "league_nights",
    "league_players_without_role",
    "league_results",
    "league_roster",
    "league_season",
    "league_seasons",
    "league_standings",
    "league_table",
    "league_tournament_count",
    "league_tournaments",
    "leagues_visible_to",
    "leagues_with_counts",
    "player_chips_bought",
    "player_hand_totals",
    "player_recent_hands",
    "player_seats",
    "player_tournaments",
    "players_visible_to",
    "roles_by_league",
    "season_nights",
    "tournament_winners",
    "tournaments_visible_to",
    "visible_hand",
    "visible_league",
    "visible_player",
    "visible_tournament",
]
