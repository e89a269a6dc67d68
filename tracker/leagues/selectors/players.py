"""A player's page: hand totals, chips bought, seats, recent hands and nights."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Exists, OuterRef, QuerySet, Sum

from tracker.hands.models import HandSeat
from tracker.leagues.models import Player
from tracker.tournaments.models import (
    LedgerEntry,
    LedgerKind,
    Seat,
    Tournament,
)
from tracker.tournaments.selectors import BOUGHT_KINDS


@dataclass
class PlayerHandTotals:
    hands_played: int
    hands_won: int
    showdowns: int
    net: int


def player_hand_totals(player: Player) -> PlayerHandTotals:
    seats = HandSeat.objects.filter(player=player)
    net = (
        LedgerEntry.objects.filter(player=player)
        .exclude(kind__in=(LedgerKind.START, *BOUGHT_KINDS))
        .aggregate(s=Sum("amount"))["s"]
        or 0
    )
    return PlayerHandTotals(
        hands_played=seats.count(),
        hands_won=seats.filter(won__gt=0).count(),
        # Cards are stored for the players who reached a showdown (not for a walk).
        showdowns=seats.filter(folded_street__isnull=True).exclude(down=[]).count(),
        net=net,
    )


def player_chips_bought(player: Player) -> dict[int, int]:
    """The chips ``player`` bought with rebuys and add-ons (less those undone), by night id
    (one query): net chips leave them out."""
    return dict(
        LedgerEntry.objects.filter(player=player, kind__in=BOUGHT_KINDS)
        .order_by()
        .values("tournament_id")
        .annotate(s=Sum("amount"))
        .values_list("tournament_id", "s")
    )


def player_seats(player: Player) -> QuerySet[Seat]:
    """The player's seats, latest tournament first, with ``n_players`` (the field)."""
    return (
        Seat.objects.filter(player=player)
        .select_related("tournament")
        .annotate(n_players=Count("tournament__seats", distinct=True))
        .order_by("-tournament__date", "-tournament_id")
    )


def player_recent_hands(player: Player, limit: int = 15) -> list[HandSeat]:
    return list(
        HandSeat.objects.filter(player=player)
        .select_related("hand", "hand__tournament")
        .order_by("-hand__recorded_at", "-hand_id")[:limit]
    )


def player_tournaments(player: Player, limit: int | None = None) -> list[Tournament]:
    """Every tournament the player sat in (or the latest ``limit``), latest first (a player
    has one seat per tournament and belongs to one league)."""
    # The league's nights read backwards on the (league, date) index, each checked for the
    # player's seat, until ``limit`` are found: no sort of every night the player sat in.
    rows = (
        Tournament.objects.filter(league_id=player.league_id)
        .filter(Exists(Seat.objects.filter(tournament=OuterRef("pk"), player=player)))
        .order_by("-date", "-id")
    )
    return list(rows if limit is None else rows[:limit])
