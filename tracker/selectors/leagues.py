"""Reads about leagues: what a user may see."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from tracker.models import League, Player, Tournament


def leagues_visible_to(user) -> QuerySet[League]:
    """Public leagues, and the private ones the user is a member of."""
    if user is not None and user.is_authenticated:
        return League.objects.filter(Q(is_public=True) | Q(memberships__user=user)).distinct()
    return League.objects.filter(is_public=True)


def tournaments_visible_to(user) -> QuerySet[Tournament]:
    return Tournament.objects.filter(league__in=leagues_visible_to(user))


def players_visible_to(user) -> QuerySet[Player]:
    return Player.objects.filter(league__in=leagues_visible_to(user))
