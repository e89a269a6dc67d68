"""Small builders for tests: users, a league with roles, a tournament, API clients."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from tracker.accounts.services import api_token_create
from tracker.leagues.models import Membership, Role
from tracker.leagues.seasons import DEFAULT_MIN_PLAYERS
from tracker.leagues.services import league_create, player_create
from tracker.tournaments.services import tournament_create


def api_key(user, label: str = "tests") -> str:
    """The key of a new API token of ``user`` (tracker/accounts), as the profile page makes."""
    return api_token_create(user=user, label=label)[1]


def api_client(user=None) -> APIClient:
    """An API client, sending a new token of ``user``'s when given (anonymous otherwise)."""
    client = APIClient()
    if user is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Token {api_key(user)}")
    return client


def make_user(username: str, password: str = "pw-for-tests-only"):
    user = get_user_model().objects.create_user(username=username, password=password)
    return user


def make_league(
    *,
    slug: str = "friday",
    public: bool = True,
    admin=None,
    house_rules=None,
    min_players: int = DEFAULT_MIN_PLAYERS,
):
    """A league and its admin; ``min_players`` is the fewest players a night needs to count
    in the standings (the site's default unless given)."""
    admin = admin or make_user(f"{slug}-admin")
    league = league_create(
        name=slug.title(),
        slug=slug,
        is_public=public,
        created_by=admin,
        house_rules=house_rules,
        min_players=min_players,
    )
    return league, admin


def add_member(league, username: str, role: str):
    user = make_user(username)
    Membership.objects.create(league=league, user=user, role=role)
    return user


def make_tournament(*, league, by, names=("Ann", "Bob", "Cat"), **kwargs):
    players = [player_create(league=league, name=n, by=by) for n in names]
    kwargs.setdefault("name", "Game night")
    tournament = tournament_create(
        league=league, player_ids=[p.id for p in players], by=by, **kwargs
    )
    return tournament, players


ROLES = [r.value for r in Role]


# Quick entries for the next hand of a tournament (players by position from the dealer's left).

ACES = (["As", "Ah", "2c"], ["Ad", "3c", "4c", "9d"])  # three aces
KINGS = (["Ks", "Kh", "2d"], ["Kd", "3d", "4d", "5h"])  # three kings


def fold_seats(tournament, winner: int = 0, bring_in: bool = True) -> list[dict]:
    """Everyone antes; all but position ``winner`` fold on third street (the winner posts
    the bring-in unless ``bring_in`` is false)."""
    from tracker.tournaments.selectors import tournament_state

    state = tournament_state(tournament)
    stakes = state.next_stakes
    seats = []
    for k, seat in enumerate(state.next_positions()):
        if k == winner:
            put = stakes.ante + (stakes.bring_in if bring_in else 0)
            seats.append({"player": seat.player_id, "put_in": put})
        else:
            seats.append({"player": seat.player_id, "put_in": stakes.ante, "folded": "third"})
    return seats


def fold_entry(tournament, winner: int = 0, bring_in: bool = True) -> dict:
    return {"seats": fold_seats(tournament, winner, bring_in)}


def showdown_entry(tournament, hands, bets) -> dict:
    """The first players by position show ``hands`` [(down, up)] after putting in ``bets``
    (one amount for all, or one per shown hand); the others fold their ante."""
    from tracker.tournaments.selectors import tournament_state

    state = tournament_state(tournament)
    seats = []
    for k, seat in enumerate(state.next_positions()):
        if k < len(hands):
            down, up = hands[k]
            put = bets[k] if isinstance(bets, list | tuple) else bets
            seats.append(
                {"player": seat.player_id, "put_in": put, "down": list(down), "up": list(up)}
            )
        else:
            seats.append(
                {"player": seat.player_id, "put_in": state.next_stakes.ante, "folded": "third"}
            )
    return {"seats": seats}
