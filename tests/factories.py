"""Small builders for tests: users, a league with roles, a tournament."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from tracker.models import Membership, Role
from tracker.services.leagues import league_create, player_create
from tracker.services.tournaments import tournament_create


def make_user(username: str, password: str = "pw-for-tests-only"):
    user = get_user_model().objects.create_user(username=username, password=password)
    return user


def make_league(*, slug: str = "friday", public: bool = True, admin=None, house_rules=None):
    admin = admin or make_user(f"{slug}-admin")
    league = league_create(
        name=slug.title(), slug=slug, is_public=public, created_by=admin, house_rules=house_rules
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
