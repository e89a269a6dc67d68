"""Builders for disputed hands."""

from __future__ import annotations

from tests.factories import (  # noqa: F401
    ACES,
    KINGS,
    add_member,
    api_client,
    make_league,
    make_tournament,
    showdown_entry,
)
from tracker.hands.services.recording import hand_record
from tracker.tournaments.selectors import tournament_state

# Kings and Little Ones: Kd and the 2c are wild (four fours); the other player has a pair.
WILD_FOURS = (["Kd", "4c", "2c"], ["4s", "7h", "9h", "Jd"])
PAIR_FIVES = (["3d", "5s", "Qd"], ["5h", "7c", "9c", "Tc"])


def showdown(tournament, hands, bets):
    """Players by position show ``hands`` after putting in ``bets``; the others fold."""
    return showdown_entry(tournament, hands, bets)


def positions(tournament) -> list[int]:
    return [s.player_id for s in tournament_state(tournament).next_positions()]


def league_with_roles(slug="friday", public=True):
    """A league with one user per role (and its creator, an admin)."""
    league, admin = make_league(slug=slug, public=public)
    users = {
        "admin": admin,
        "scorekeeper": add_member(league, f"{slug}-keeper", "scorekeeper"),
        "authority": add_member(league, f"{slug}-rob", "authority"),
        "member": add_member(league, f"{slug}-member", "member"),
    }
    return league, users


def disputed_hand(league, by, capture, *, variant="seven_card_stud", **tournament_kwargs):
    """A tournament whose first hand is disputed: the engine gives the pot to position 0
    (aces), the table gave it to position 1 (kings)."""
    tournament, players = make_tournament(
        league=league, by=by, default_variant=variant, **tournament_kwargs
    )
    order = positions(tournament)
    hands = [ACES, KINGS] if variant == "seven_card_stud" else [WILD_FOURS, PAIR_FIVES]
    with capture(execute=True):
        hand = hand_record(
            tournament=tournament,
            by=by,
            entry_mode="quick",
            entry=showdown(tournament, hands, 24 if variant == "seven_card_stud" else 64),
            table_result={"winners": [order[1]]},
        )
    hand.refresh_from_db()
    return tournament, hand, order
