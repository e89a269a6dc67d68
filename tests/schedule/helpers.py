"""Shared helpers of the scheduled nights' tests: a roster with verified addresses, and a
night scheduled ahead."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from tests.factories import add_member, make_league
from tracker.accounts.models import EmailAddress
from tracker.leagues.services import player_create, player_link
from tracker.schedule.services import night_schedule

SITE = "http://testserver/"


def soon(days: float = 3) -> dt.datetime:
    return timezone.now() + dt.timedelta(days=days)


def verified(user):
    address = f"{user.username}@example.org"
    EmailAddress.objects.create(
        user=user, address=address, canonical=address, verified_at=timezone.now()
    )
    return user


def make_club(names=("ann", "bob", "cat", "dan", "eve")):
    """A league whose roster is ``names``, each linked to an account with a verified
    address, and its admin."""
    league, admin = make_league()
    players = []
    for name in names:
        verified(add_member(league, name, "member"))  # a league account: linking needs one
        player = player_create(league=league, name=name.title(), by=admin)
        player_link(league=league, player=player, username=name, by=admin)
        players.append(player)
    return league, admin, players


def schedule(league, by, **kw):
    kw.setdefault("starts_at", soon())
    kw.setdefault("place", "Alex's kitchen")
    kw.setdefault("seats", 3)
    return night_schedule(league=league, by=by, base_url=SITE, **kw)
