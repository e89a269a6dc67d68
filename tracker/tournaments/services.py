"""Tournaments: create a game night with its seats and starting chips; its final standings,
and the league table's running totals kept in step with them (``StandingTally``)."""

from __future__ import annotations

import datetime as dt
import random
import secrets
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from tracker.audit.services import audit_record
from tracker.core.jobs import enqueue_on_commit
from tracker.core.permissions import Capability, require
from tracker.core.totals import Changed, totals_kept
from tracker.engine import tournament as rules
from tracker.engine.announcements import check_variant, max_players, normalize_announcements
from tracker.engine.errors import DomainError
from tracker.hands.models import Hand
from tracker.leagues.models import League, Player
from tracker.tournaments.models import (
    FinalStanding,
    LedgerEntry,
    LedgerKind,
    Seat,
    StandingTally,
    TableLink,
    Tournament,
    TournamentStatus,
)
from tracker.tournaments.selectors import (
    StandingKey,
    standing_contributions,
    table_link_current,
    tournament_standings,
    tournament_state,
)
from tracker.tournaments.signals import final_standings_written

# What the database stores: every chip count of a tournament (8 stacks together) fits a
# 32-bit integer, and so do hand numbers (a night imported from a long archive).
MAX_CHIPS = 100_000_000
MAX_HANDS = 100_000
# How the players take their seats: in the order given, or drawn at random on the server.
SEATINGS = ("chosen", "random")


@dataclass(frozen=True, kw_only=True)
class TournamentSettings:
    """What a new game night is, as asked for (checked by :func:`tournament_create`).

    ``player_ids`` are seated clockwise in that order; ``seating="random"`` draws the seats
    instead (on the server); ``first_dealer`` (a player id among ``player_ids``; default the
    first seat) deals the first hand. Each player gets ``starting_chips`` in the ledger.
    ``default_variant`` empty means dealer's choice: every hand must then name its variant.
    ``counts_toward_standings`` off keeps the night out of the league's standings.
    """

    name: str
    player_ids: list[int]
    date: dt.date | None = None
    starting_chips: int = rules.STARTING_CHIPS
    hands_per_level: int = rules.HANDS_PER_LEVEL
    hand_limit: int = rules.HAND_LIMIT
    stakes_schedule: list | None = None
    default_variant: str = ""
    default_options: dict | None = None
    seating: str = "chosen"
    first_dealer: int | None = None
    counts_toward_standings: bool = True


def _checked_name(name: str) -> str:
    name = (name or "").strip()
    if not name:
        raise DomainError("a tournament needs a name", field="name")
    return name


def _checked_players(league: League, player_ids: list[int]) -> dict[int, Player]:
    """The players, by id: 2 to 8 of the league's, each once."""
    if not isinstance(player_ids, list) or not (
        rules.MIN_SEATS <= len(player_ids) <= rules.MAX_SEATS
    ):
        raise DomainError(
            f"a tournament seats {rules.MIN_SEATS} to {rules.MAX_SEATS} players",
            field="players",
        )
    if len(set(player_ids)) != len(player_ids):
        raise DomainError("a player may take only one seat", field="players")
    players = {p.id: p for p in Player.objects.filter(league=league, id__in=player_ids)}
    for i, pid in enumerate(player_ids):
        if pid not in players:
            raise DomainError(f"no player {pid} in {league.name}", field=f"players[{i}]")
    return players


def _check_seating(settings: TournamentSettings) -> None:
    """How the seats are taken, who deals first, whether the night counts."""
    if settings.seating not in SEATINGS:
        raise DomainError(
            f"seating is one of {', '.join(SEATINGS)}, not {settings.seating!r}",
            field="seating",
        )
    if settings.first_dealer is not None and settings.first_dealer not in settings.player_ids:
        raise DomainError("the first dealer must be one of the players", field="first_dealer")
    if not isinstance(settings.counts_toward_standings, bool):
        raise DomainError("must be true or false", field="counts_toward_standings")


def _check_sizes(settings: TournamentSettings) -> None:
    """The starting chips, the hands per level and the hand limit: whole numbers in range."""
    for field_name, value, low, high in (
        ("starting_chips", settings.starting_chips, 1, MAX_CHIPS),
        ("hands_per_level", settings.hands_per_level, 1, MAX_HANDS),
        ("hand_limit", settings.hand_limit, 1, MAX_HANDS),
    ):
        if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
            raise DomainError(f"must be a whole number from {low} to {high:,}", field=field_name)


def _checked_schedule(settings: TournamentSettings) -> list:
    """The stakes schedule: the house's, whole, unless one is given."""
    if settings.stakes_schedule is None:
        return [list(x) for x in rules.DEFAULT_SCHEDULE]
    # At most the levels the night reaches, each amount at most every chip of a full
    # table (the levels counted before any is read).
    return rules.check_schedule(
        settings.stakes_schedule,
        hand_limit=settings.hand_limit,
        hands_per_level=settings.hands_per_level,
        max_chips=min(rules.stake_limit(settings.starting_chips), MAX_CHIPS),
    )


def _checked_options(league: League, settings: TournamentSettings) -> dict:
    """The default variant's announcements (none without a default variant)."""
    variant, given = settings.default_variant, settings.default_options
    if not variant:
        if given:
            raise DomainError("announcements need a default variant", field="default_options")
        return {}
    check_variant(variant, field="default_variant")
    if len(settings.player_ids) > max_players(variant):
        raise DomainError(
            f"{variant} is dealt to at most {max_players(variant)} players",
            field="default_variant",
        )
    base = (league.house_rules or {}).get(variant, {})
    normalize_announcements(variant, {**base, **(given or {})}, field="default_options")
    return dict(given or {})


@transaction.atomic
def tournament_create(
    *,
    league: League,
    by,
    settings: TournamentSettings | None = None,
    rng: random.Random | None = None,
    **fields: Any,
) -> Tournament:
    """Create a tournament as ``settings`` say (a :class:`TournamentSettings`, or its fields
    as keywords), its seats and every player's starting chips. ``rng`` draws the seats of
    ``seating="random"`` (default the system's randomness); the tournament remembers that
    they were drawn.
    """
    require(by, league, Capability.RECORD_HAND, "create tournaments")
    if settings is None:
        settings = TournamentSettings(**fields)
    elif fields:
        raise TypeError("tournament_create takes TournamentSettings or its fields, not both")
    name = _checked_name(settings.name)
    players = _checked_players(league, settings.player_ids)
    _check_seating(settings)
    _check_sizes(settings)
    schedule = _checked_schedule(settings)
    options = _checked_options(league, settings)
    player_ids, seating, first_dealer = settings.player_ids, settings.seating, settings.first_dealer
    starting_chips, hands_per_level = settings.starting_chips, settings.hands_per_level
    hand_limit, default_variant = settings.hand_limit, settings.default_variant
    counts_toward_standings, date = settings.counts_toward_standings, settings.date

    if seating == "random":
        player_ids = list(player_ids)
        (rng or secrets.SystemRandom()).shuffle(player_ids)
    tournament = Tournament.objects.create(
        league=league,
        name=name,
        date=date or dt.date.today(),
        starting_chips=starting_chips,
        hands_per_level=hands_per_level,
        hand_limit=hand_limit,
        stakes_schedule=schedule,
        default_variant=default_variant or "",
        default_options=options,
        counts_toward_standings=counts_toward_standings,
        first_dealer_seat=player_ids.index(first_dealer) if first_dealer is not None else 0,
        seats_drawn=seating == "random",
        created_by=by if getattr(by, "is_authenticated", False) else None,
    )
    Seat.objects.bulk_create(
        [
            Seat(tournament=tournament, player=players[pid], number=i)
            for i, pid in enumerate(player_ids)
        ]
    )
    LedgerEntry.objects.bulk_create(
        [
            LedgerEntry(
                tournament=tournament,
                player=players[pid],
                kind=LedgerKind.START,
                amount=starting_chips,
            )
            for pid in player_ids
        ]
    )
    audit_record(
        action="tournament.create",
        target=tournament,
        league=league,
        actor=by,
        data={
            "name": tournament.name,
            "date": tournament.date,
            "players": player_ids,
            "starting_chips": starting_chips,
            "hands_per_level": hands_per_level,
            "hand_limit": hand_limit,
            "stakes_schedule": schedule,
            "default_variant": tournament.default_variant,
            "default_options": options,
            "seats_drawn": tournament.seats_drawn,
            "first_dealer_seat": tournament.first_dealer_seat,
            "counts_toward_standings": counts_toward_standings,
        },
    )
    return tournament


def tournament_finish_if_over(*, tournament: Tournament) -> None:
    """Mark a tournament finished, with its final standings, once it is over and settled."""
    if tournament.status == TournamentStatus.FINISHED:
        return
    state = tournament_state(tournament)
    if state.pending == 0 and state.blocked_by is None and state.over:
        tournament.status = TournamentStatus.FINISHED
        tournament.finished_at = timezone.now()
        tournament.save(update_fields=["status", "finished_at"])
        final_standings_write(tournament=tournament)
        tournament_finished_tell(tournament=tournament)


RESULTS_MAIL_TASK = "tracker.night_results_mail"


def tournament_finished_tell(*, tournament: Tournament) -> None:
    """A night just became final: once its transaction commits, the players are sent its
    results (``tracker.night_results_mail``; one mail each, however often this runs)."""
    enqueue_on_commit(RESULTS_MAIL_TASK, tournament.pk)


@transaction.atomic
def final_standings_write(*, tournament: Tournament, cause: str = "") -> None:
    """Store the final places of a finished tournament (again after a ruling moves chips),
    with how many players they place (``Tournament.entrants``), and keep the league table's
    running totals in step. Then tell whoever listens (``final_standings_written``, with
    ``cause``: why they were written again, e.g. a ruling)."""
    with totals_kept(tournaments=[tournament.pk]):
        FinalStanding.objects.filter(tournament=tournament).delete()
        written = FinalStanding.objects.bulk_create(
            [
                FinalStanding(
                    tournament=tournament,
                    player_id=row.player_id,
                    place=row.place,
                    chips=row.chips,
                    out_hand=row.out_hand,
                )
                for row in tournament_standings(tournament)
            ]
        )
        tournament.entrants = len(written)
        Tournament.objects.filter(pk=tournament.pk).update(entrants=tournament.entrants)
    final_standings_written.send(sender=Tournament, tournament=tournament, cause=cause)


@transaction.atomic
def tournament_counting_set(
    *,
    tournament: Tournament,
    counts_toward_standings: bool | None = None,
    date: dt.date | None = None,
) -> Tournament:
    """Change what decides where a night counts: its "counts toward the standings" switch
    and its date (the season it falls in, the month its hands count in); the running totals
    move with it.
    ``None`` leaves a field as it is. (The Django admin's tournament form saves through
    this.)"""
    if counts_toward_standings is not None and not isinstance(counts_toward_standings, bool):
        raise DomainError("must be true or false", field="counts_toward_standings")
    if date is not None and not isinstance(date, dt.date):
        raise DomainError("must be a date", field="date")
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    # A new date moves the night's hands to another month of the statistics' totals too.
    moved = date is not None and date != tournament.date
    hands = Hand.objects.filter(tournament=tournament).values_list("id", flat=True)
    with totals_kept(tournaments=[tournament.pk], hands=list(hands) if moved else ()):
        if counts_toward_standings is not None:
            tournament.counts_toward_standings = counts_toward_standings
        if date is not None:
            tournament.date = date
        tournament.save(update_fields=["counts_toward_standings", "date"])
    return tournament


# --------------------------------------------------------------------------
# The league table's running totals


_STANDING_KEY = ("league_id", "month", "player_id", "place", "entrants", "sharing")


class StandingTotals:
    """The league table's running totals as a keeper of ``tracker.core.totals``: what the
    final standings of the nights a write changes add (``standing_contributions``), before
    and after it."""

    name = "standings"

    def read(self, changed: Changed) -> dict[StandingKey, list[int]]:
        if not changed.tournaments:
            return {}
        return standing_contributions(tournament_ids=changed.tournaments)

    def apply(self, before: dict[StandingKey, list[int]], changed: Changed) -> None:
        if changed.tournaments:
            standings_tallies_apply(tournament_ids=list(changed.tournaments), before=before)


@transaction.atomic
def standings_tallies_apply(
    *, tournament_ids: list[int], before: dict[StandingKey, list[int]]
) -> None:
    """Bring the league table's running totals in step with the final standings of
    ``tournament_ids`` as they now stand. ``before`` is what those nights added before the
    change (``standing_contributions`` read in the same transaction, before it; empty for
    a night just finished): it is subtracted and what they add now is added. The rows
    touched are created if needed, locked in one order (no deadlock between two
    transactions) and updated; a row whose nights fall to 0 is deleted. The writes reach it
    through ``tracker.core.totals.totals_kept`` (:class:`StandingTotals`)."""
    deltas: dict[StandingKey, list[int]] = {}
    for sign, contributions in (
        (-1, before),
        (1, standing_contributions(tournament_ids=tournament_ids)),
    ):
        for key, (nights, net) in contributions.items():
            cell = deltas.setdefault(key, [0, 0])
            cell[0] += sign * nights
            cell[1] += sign * net
    deltas = {k: d for k, d in deltas.items() if d != [0, 0]}
    if not deltas:
        return
    keys = sorted(deltas)
    StandingTally.objects.bulk_create(
        [StandingTally(**dict(zip(_STANDING_KEY, k, strict=True))) for k in keys],
        ignore_conflicts=True,
    )
    match = Q()
    for k in keys:
        match |= Q(**dict(zip(_STANDING_KEY, k, strict=True)))
    rows = list(StandingTally.objects.select_for_update().filter(match).order_by("pk"))
    changed, empty = [], []
    for row in rows:
        nights, net = deltas[tuple(getattr(row, n) for n in _STANDING_KEY)]
        row.nights += nights
        row.net_chips += net
        (empty if row.nights <= 0 else changed).append(row)
    if empty:
        StandingTally.objects.filter(pk__in=[r.pk for r in empty]).delete()
    StandingTally.objects.bulk_update(changed, ["nights", "net_chips"])


@transaction.atomic
def standings_tallies_rebuild(*, league: League | None = None) -> int:
    """Recompute the league table's running totals, and each night's ``entrants``, from the
    final standings (of one league, or all); returns how many totals rows were written
    (``manage.py rebuild_stats``)."""
    nights = Tournament.objects.all()
    rows = StandingTally.objects.all()
    if league is not None:
        nights = nights.filter(league=league)
        rows = rows.filter(league=league)
    counted = (
        FinalStanding.objects.filter(tournament=OuterRef("pk"))
        .order_by()
        .values("tournament")
        .annotate(n=Count("id"))
        .values("n")
    )
    nights.update(entrants=Coalesce(Subquery(counted), 0))
    rows.delete()
    sums = standing_contributions(league_id=None if league is None else league.pk)
    StandingTally.objects.bulk_create(
        [
            StandingTally(
                **dict(zip(_STANDING_KEY, key, strict=True)), nights=nights, net_chips=net
            )
            for key, (nights, net) in sums.items()
        ],
        batch_size=1000,
    )
    return len(sums)


# --------------------------------------------------------------------------
# The table screen's read-only live view (docs/nights.md)


@transaction.atomic
def table_link_create(*, tournament: Tournament, by) -> TableLink:
    """The night's live view link (a scorekeeper or an admin): the one that works now if
    there is one, else a new one, which works for ``TableLink.LINK_HOURS`` hours unless an
    admin revokes it first."""
    require(by, tournament.league, Capability.SHARE_TABLE, "show a live view link")
    # One link at a time per night: two taps at once make one link, not two.
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    current = table_link_current(tournament)
    if current is not None:
        return current
    now = timezone.now()
    link = TableLink.objects.create(
        tournament=tournament,
        created_by=by,
        created_at=now,
        expires_at=now + dt.timedelta(hours=TableLink.LINK_HOURS),
    )
    audit_record(
        action="table_link.create",
        target=link,
        league=tournament.league,
        actor=by,
        data={"tournament": tournament.pk, "expires_at": link.expires_at},
    )
    return link


@transaction.atomic
def table_link_revoke(*, link: TableLink, by) -> TableLink:
    """Stop a live view link from working (admins only): it answers 404 from now on."""
    league = link.tournament.league
    require(by, league, Capability.REVOKE_TABLE_LINK, "revoke a live view link")
    link = TableLink.objects.select_for_update().get(pk=link.pk)
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.revoked_by = by
        link.save(update_fields=["revoked_at", "revoked_by"])
        audit_record(
            action="table_link.revoke",
            target=link,
            league=league,
            actor=by,
            data={"tournament": link.tournament_id},
        )
    return link
