"""Small builders for tests: users, a league with roles, a tournament, API clients."""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Sequence

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


def random_nights(
    *,
    league,
    by,
    rng: random.Random,
    names: Sequence[str],
    size: int | Sequence[int],
    dates: Sequence[dt.date],
    count: int | None = None,
    hand_limits: Sequence[int] = (),
    **kwargs,
) -> list:
    """Nights "Night 0", "Night 1", ... of ``league`` among a roster of players called
    ``names``, drawn by ``rng`` night after night: the players (``size`` of them, or a number
    drawn from ``size`` when it is a list), then the date, then the hand limit. Without
    ``count``, one night on each of ``dates`` in turn; with it, ``count`` nights on dates drawn
    from ``dates``. ``hand_limits``: the hand limit drawn from them (else the default);
    ``kwargs`` go to ``tournament_create`` (``starting_chips``, ...)."""
    roster = [player_create(league=league, name=n, by=by) for n in names]
    nights = []
    for k in range(len(dates) if count is None else count):
        players = rng.sample(roster, size if isinstance(size, int) else rng.choice(size))
        date = dates[k] if count is None else rng.choice(dates)
        if hand_limits:
            kwargs["hand_limit"] = rng.choice(hand_limits)
        nights.append(
            tournament_create(
                league=league,
                name=f"Night {k}",
                player_ids=[p.pk for p in players],
                by=by,
                date=date,
                **kwargs,
            )
        )
    return nights


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
