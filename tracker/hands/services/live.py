"""The live logger's writes: a hand logged event by event at the table (a draft), then recorded.

A draft holds the table events accepted so far (tracker/engine/events.py, in their JSON
form), each marked ``auto`` when the machine did it by itself (its automations) and
``joined`` when it came in the same change as the one before. Every change takes the
stud state machine after them, applies the new events with the machine's checks, and saves
at once, in a transaction that locks the draft (once: the outbox, which locks it first,
passes ``locked=True``); ``version`` must match the one the client saw, so two phones on
one draft cannot overwrite each other (the second is told to reload). The machine a change moved on is kept for the next read or change of the draft
(tracker/hands/selectors/live.py), so a change late in a hand does not replay the hand.
Finishing records the hand as a full history through :func:`hand_record`, so settlement,
disputes, statistics and the replayer work for it as for any hand. A house game's draft
(``game``, on a dealer's choice night) deals the league's game at its latest version, keeps
that version, and is recorded as the same full history of PHH actions as any hand (the pay
``pN _pay``, an extra card one more deal) with ``game_version`` set (variant ``house``),
replayed by the machine that deals the definition.
"""

from __future__ import annotations

import functools
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from tracker.core import rows
from tracker.core.errors import Conflict
from tracker.core.permissions import Capability, require
from tracker.engine.errors import Code, DomainError
from tracker.engine.events import TableEvent
from tracker.engine.live import check_around
from tracker.engine.phh import history_entry
from tracker.engine.screen import change_steps, undo_steps
from tracker.games.models import LeagueGame, LeagueGameVersion
from tracker.hands.models import HOUSE_VARIANT, DraftChange, DraftHand, DraftStatus, Hand
from tracker.hands.selectors.live import (
    draft_events,
    draft_machine,
    draft_machine_keep,
    draft_walk,
)
from tracker.hands.services.recording import hand_record, next_hand_deal, next_hand_state
from tracker.leagues.models import League
from tracker.tournaments.models import LedgerEntry, LedgerKind, Tournament


@transaction.atomic
def draft_start(
    *,
    tournament: Tournament,
    by,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    game: str | None = None,
    game_version: int | None = None,
) -> DraftHand:
    """Start logging the next hand of ``tournament`` live (or return the one open).
    ``game`` (a house game's slug, on a dealer's choice night) deals the league's house
    game instead of ``variant``, at ``game_version`` (a phone offline holds the version it
    dealt; None: the latest); the draft keeps that version."""
    require(by, tournament.league, Capability.RECORD_HAND, "record hands")
    tournament = (
        Tournament.objects.select_for_update().select_related("league").get(pk=tournament.pk)
    )
    open_draft = DraftHand.objects.filter(tournament=tournament, status=DraftStatus.OPEN).first()
    if open_draft is not None:
        return open_draft
    state = next_hand_state(tournament)
    version = None
    if game:
        version = _house_version(tournament, game, game_version, variant=variant, options=options)
        variant, options = HOUSE_VARIANT, {}
        seats = state.next_positions()
        _house_players(version, len(seats))
    else:
        variant, options, seats = next_hand_deal(tournament, state, variant, options)
    stakes = state.next_stakes
    players = [s.player_id for s in seats]
    return DraftHand.objects.create(
        tournament=tournament,
        number=state.next_number,
        variant=variant,
        options=options,
        game_version=version,
        positions=players,
        starting_stacks=[state.stacks[pid] for pid in players],
        ante=stakes.ante,
        bring_in=stakes.bring_in,
        small_bet=stakes.small_bet,
        big_bet=stakes.big_bet,
        level=stakes.level,
        created_by=by if getattr(by, "is_authenticated", False) else None,
    )


def _house_version(
    tournament: Tournament,
    slug: str,
    number: int | None,
    *,
    variant: str | None,
    options: Mapping[str, Any] | None,
) -> LeagueGameVersion:
    """Version ``number`` (None: the latest) of the league's house game ``slug``, if the
    night deals it: a dealer's choice night, the game not archived, no variant nor
    announcements beside it; a version the game does not have is refused naming
    ``game_version``."""
    if tournament.default_variant:
        raise DomainError(
            f"{tournament.name} deals {tournament.default_variant} only: house games are dealt "
            "on a dealer's choice night",
            field="game",
        )
    if variant not in (None, "", HOUSE_VARIANT) or options:
        raise DomainError(
            "a house game is dealt by its definition: send no variant nor announcements with it",
            field="variant" if variant not in (None, "", HOUSE_VARIANT) else "options",
        )
    found = LeagueGame.objects.filter(
        league_id=tournament.league_id, slug=slug, archived_at__isnull=True
    ).first()
    if found is None:
        raise DomainError(
            f"{slug!r} is not a house game of {tournament.league.name} (or it is archived)",
            code=Code.INVALID_VARIANT,
            field="game",
        )
    versions = found.versions.order_by("-number")
    version = versions.first() if number is None else versions.filter(number=number).first()
    if version is None and number is not None:
        raise DomainError(
            f"{found.name} has no version {number}", code=Code.UNKNOWN_GAME, field="game_version"
        )
    if version is None:
        raise DomainError(f"{found.name} has no version yet", field="game")
    return version


def _house_players(version: LeagueGameVersion, players: int) -> None:
    """Refuse a house game its definition cannot deal to ``players``."""
    version.game_definition.refuse_players(players, field="game")


#: What a phone assumed of a hand it started offline, as the server checks it.
ASSUMED_FIELDS = (
    "variant", "options", "game_slug", "game_version", "positions", "stacks", "stakes", "level",
)  # fmt: skip


def _bought_since(draft: DraftHand, players: Sequence[int]) -> dict[int, list[str]]:
    """The rebuys and add-ons of ``players`` that play from ``draft``'s hand or the one
    before it (those a phone offline since may not know), in words, by player."""
    rows = LedgerEntry.objects.filter(
        tournament_id=draft.tournament_id,
        kind__in=(LedgerKind.REBUY, LedgerKind.ADDON),
        player_id__in=players,
        from_hand__gte=draft.number - 1,
        amount__gt=0,
    ).values_list("player_id", "kind")
    found: dict[int, list[str]] = {}
    for pid, kind in rows:
        found.setdefault(pid, []).append("a rebuy" if kind == LedgerKind.REBUY else "an add-on")
    return found


def _stacks_differ(draft: DraftHand, phone: Sequence[int], names: Mapping[int, str]) -> list[str]:
    """Each player whose stack the phone has otherwise, and why it may be (a rebuy or an
    add-on recorded on another screen): "Ann's stack is 2,000 here, 1,000 on the phone"."""
    differ = [
        (pid, here, there)
        for pid, here, there in zip(draft.positions, draft.starting_stacks, phone, strict=False)
        if here != there
    ]
    bought = _bought_since(draft, [pid for pid, _, _ in differ])
    found = []
    for pid, here, there in differ:
        line = f"{names.get(pid, f'player {pid}')}'s stack is {here:,} here, {there:,} on the phone"
        if pid in bought:
            line += f": {' and '.join(bought[pid])} was recorded"
        found.append(line)
    return found


def _differences(
    draft: DraftHand, assumed: Mapping[str, Any], names: Mapping[int, str]
) -> list[str]:
    """How the hand the server deals differs from the one the phone assumed, in words."""

    def who(ids) -> str:
        return ", ".join(names.get(pid, f"player {pid}") for pid in ids)

    stakes = {"ante": draft.ante, "bring_in": draft.bring_in,
              "small_bet": draft.small_bet, "big_bet": draft.big_bet}  # fmt: skip
    found = []
    dealt = draft.game_version
    if assumed.get("variant") != draft.variant:
        found.append(f"the game is {draft.variant} (this phone: {assumed.get('variant')})")
    elif dealt is not None and (assumed.get("game_slug"), assumed.get("game_version")) != (
        dealt.game.slug,
        dealt.number,
    ):
        found.append(
            f"the game is {dealt.game.name} version {dealt.number} (this phone: "
            f"{assumed.get('game_slug')} version {assumed.get('game_version')})"
        )
    elif dict(assumed.get("options") or {}) != dict(draft.options):
        found.append("the announcements differ")
    if list(assumed.get("positions") or []) != list(draft.positions):
        found.append(
            f"the seats dealt in are {who(draft.positions)} "
            f"(this phone: {who(assumed.get('positions') or [])})"
        )
    elif list(assumed.get("stacks") or []) != list(draft.starting_stacks):
        found.extend(_stacks_differ(draft, list(assumed.get("stacks") or []), names))
    if dict(assumed.get("stakes") or {}) != stakes or assumed.get("level") != draft.level:
        found.append(
            f"the stakes are level {draft.level} (this phone: level {assumed.get('level')})"
        )
    return found


@transaction.atomic
def draft_start_checked(
    *,
    tournament: Tournament,
    by,
    client_id: uuid.UUID,
    assumed: Mapping[str, Any],
) -> DraftHand:
    """A hand a phone started offline (the logger's outbox, op ``start``): the server deals
    the next hand itself and refuses the start unless it is the hand the phone assumed:
    its number, game, seats dealt in, starting stacks and stakes. A house game
    (``game_slug``, ``game_version``: the version the phone held) is dealt under that
    version, an older one than the latest too (the hand keeps it); a game the night does
    not offer is refused naming ``hand.game``, a version the game does not have
    ``hand.game_version``.

    When the server has that hand already (another screen started it, or recorded it),
    the phone's start is tied to it: its steps then go on from that draft's version 0, so
    what the other screen logged meanwhile is a conflict the scorekeeper settles."""
    require(by, tournament.league, Capability.RECORD_HAND, "record hands")
    tournament = (
        Tournament.objects.select_for_update().select_related("league").get(pk=tournament.pk)
    )
    number = assumed.get("number")
    names = dict(tournament.seats.values_list("player_id", "player__name"))
    same = (
        DraftHand.objects.filter(tournament=tournament, number=number)
        .exclude(status=DraftStatus.DISCARDED)
        .order_by("-pk")
        .first()
    )
    if same is None:
        open_draft = DraftHand.objects.filter(
            tournament=tournament, status=DraftStatus.OPEN
        ).first()
        if open_draft is not None:
            raise DomainError(
                f"hand {number} was started on this phone, but hand {open_draft.number} is "
                "open on another screen: record or discard it there first",
                code=Code.START_REFUSED,
                field="hand.number",
            )
        try:
            state = next_hand_state(tournament)
        except Conflict as exc:
            raise DomainError(exc.message, code=Code.START_REFUSED, field="hand.number") from None
        if number != state.next_number:
            raise DomainError(
                f"hand {number} was started on this phone, but the night's next hand is "
                f"{state.next_number}",
                code=Code.START_REFUSED,
                field="hand.number",
            )
        try:  # the game the phone chose, as the start form's would be checked
            same = draft_start(
                tournament=tournament,
                by=by,
                variant=assumed.get("variant"),
                options=assumed.get("options"),
                game=assumed.get("game_slug") or None,
                game_version=assumed.get("game_version"),
            )
        except DomainError as exc:
            raise DomainError(
                f"hand {number} was started on this phone with a game the night does not "
                f"offer: {exc.message}",
                code=Code.START_REFUSED,
                field=f"hand.{next(iter(exc.fields), 'variant')}",
            ) from None
    found = _differences(same, assumed, names)
    if found:
        raise DomainError(
            f"hand {number} as this phone started it does not hold: "
            + "; ".join(found)
            + "; reload to continue",
            code=Code.START_REFUSED,
            field="hand",
        )
    DraftChange.objects.create(draft=same, client_id=client_id, op="start", base=0, version=0)
    return same


# A change's reads and writes of the draft, written out: Django building the lock's queryset
# (the tournament joined), the change's insert and the draft's update cost more Python time
# than the database takes to run them, a change being a few small statements.
_DRAFT_FIELDS = rows.fields_named(DraftHand)
_TOURNAMENT_FIELDS = rows.fields_named(Tournament)
_LEAGUE_FIELDS = rows.fields_named(League)


_DRAFT_LOCKED_SQL = (
    f"SELECT {rows.select_list('d', _DRAFT_FIELDS)}, {rows.select_list('t', _TOURNAMENT_FIELDS)}, "
    f"{rows.select_list('lg', _LEAGUE_FIELDS)} FROM {rows.table(DraftHand)} d "
    f"JOIN {rows.table(Tournament)} t "
    f"ON t.{rows.column(Tournament, 'id')} = d.{rows.column(DraftHand, 'tournament')} "
    f"JOIN {rows.table(League)} lg "
    f"ON lg.{rows.column(League, 'id')} = t.{rows.column(Tournament, 'league')} "
    f"WHERE d.{rows.column(DraftHand, 'id')} = %s"
)


@functools.cache
def _converters() -> tuple[list, list, list]:
    """The fields' converters on the connection (worked out once, at the first change)."""
    return (
        rows.converters(_DRAFT_FIELDS),
        rows.converters(_TOURNAMENT_FIELDS),
        rows.converters(_LEAGUE_FIELDS),
    )


def _draft_locked(pk: int) -> DraftHand:
    """The draft ``pk`` read again under its row lock and its tournament's (``FOR UPDATE OF``
    both, the rows the queryset with the tournament joined locked), with the tournament and
    its league read in the same statement (the league not locked): the next change's
    permission check then reads no league."""
    sql = _DRAFT_LOCKED_SQL
    if connection.features.has_select_for_update:
        sql += (
            " FOR UPDATE OF d, t" if connection.features.has_select_for_update_of else " FOR UPDATE"
        )
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk])
        row = cursor.fetchone()
    if row is None:
        raise DraftHand.DoesNotExist("DraftHand matching query does not exist.")
    drafts, tournaments, leagues = _converters()
    n, m = len(_DRAFT_FIELDS), len(_DRAFT_FIELDS) + len(_TOURNAMENT_FIELDS)
    draft = rows.instance(DraftHand, _DRAFT_FIELDS, drafts, row[:n])
    tournament = rows.instance(Tournament, _TOURNAMENT_FIELDS, tournaments, row[n:m])
    tournament.league = rows.instance(League, _LEAGUE_FIELDS, leagues, row[m:])
    draft.tournament = tournament
    return draft


def _locked(draft: DraftHand, by, version: int, *, locked: bool) -> DraftHand:
    """The draft under its row lock, open and at ``version``. ``locked``: the caller read
    ``draft`` under that lock in this transaction already (the outbox, which locks it before
    it looks for a re-sent change), so it is not read again: one lock a change."""
    require(by, draft.tournament.league, Capability.RECORD_HAND, "record hands")
    if not locked:
        draft = _draft_locked(draft.pk)
    if draft.status != DraftStatus.OPEN:
        raise Conflict(
            f"hand {draft.number} was {draft.get_status_display().lower()} already",
            code=Code.DRAFT_CLOSED,
        )
    if version != draft.version:
        since = (
            f"{draft.version - version} step(s) since yours"
            if version < draft.version
            else "yours is not one it had"  # a version from the future: never a negative count
        )
        raise Conflict(
            f"hand {draft.number} changed on another screen ({since}): reload to see it, "
            "then go on",
            code=Code.STALE_DRAFT,
            field="version",
        )
    return draft


def _history(draft: DraftHand, op: str, client_id: uuid.UUID | None) -> None:
    """Keep the change about to be made (before ``draft.version`` grows): what the draft
    held before it, and the phone's client id that makes a re-send of it a no-op."""
    DraftChange.objects.create(
        draft=draft,
        client_id=client_id,
        op=op,
        base=draft.version,
        version=draft.version + 1,
        steps_before=list(draft.steps),
    )


_CHANGE_COLUMNS = ("draft", "client_id", "op", "base", "version", "steps_before", "outcome",
                   "created_at")  # fmt: skip
# The change kept with the steps the draft's row holds (the draft is locked: they are the
# steps it was read with), so they are not sent back to the database.
_CHANGE_INSERT_SQL = (
    f"INSERT INTO {rows.table(DraftChange)} "
    f"({', '.join(rows.column(DraftChange, name) for name in _CHANGE_COLUMNS)}) "
    f"SELECT {rows.column(DraftHand, 'id')}, %s, %s, %s, %s, "
    f"{rows.column(DraftHand, 'steps')}, %s, %s "
    f"FROM {rows.table(DraftHand)} WHERE {rows.column(DraftHand, 'id')} = %s"
)
_DRAFT_UPDATE_SQL = (
    f"UPDATE {rows.table(DraftHand)} SET {rows.column(DraftHand, 'steps')} = %s, "
    f"{rows.column(DraftHand, 'version')} = %s, {rows.column(DraftHand, 'updated_at')} = %s "
    f"WHERE {rows.column(DraftHand, 'id')} = %s"
)
# PostgreSQL: both in one statement. The insert's SELECT sees the row as it was before the
# update (a statement's parts share one snapshot). A change that only adds steps sends those
# (the stored array with them appended: the same value), not the hand's every step.
_SAVE_SQL = f"WITH kept AS ({_CHANGE_INSERT_SQL}) {_DRAFT_UPDATE_SQL}"
_SAVE_ADDED_SQL = _SAVE_SQL.replace(
    f"SET {rows.column(DraftHand, 'steps')} = %s",
    f"SET {rows.column(DraftHand, 'steps')} = {rows.column(DraftHand, 'steps')} || %s",
)


def _save(
    draft: DraftHand,
    steps: list[dict],
    *,
    op: str,
    client_id: uuid.UUID | None,
    added: list[dict] | None = None,
) -> DraftHand:
    """Keep the change (as :func:`_history` does) and write the draft's new ``steps``, one
    version on: one statement on PostgreSQL, two elsewhere. ``added``: the steps are the
    draft's with these after them (PostgreSQL then sends only these). The draft must be
    locked and at the version it was read with (:func:`_locked`)."""
    postgres = connection.vendor == "postgresql"
    appends = postgres and added is not None
    now = timezone.now()
    kept, field = DraftChange._meta.get_field, DraftHand._meta.get_field
    change = [
        kept("client_id").get_db_prep_save(client_id, connection),
        op,
        draft.version,
        draft.version + 1,
        DraftChange.Outcome.APPLIED.value,
        kept("created_at").get_db_prep_save(now, connection),
        draft.pk,
    ]
    update = [
        field("steps").get_db_prep_save(added if appends else steps, connection),
        draft.version + 1,
        field("updated_at").get_db_prep_save(now, connection),
        draft.pk,
    ]
    with connection.cursor() as cursor:
        if postgres:
            cursor.execute(_SAVE_ADDED_SQL if appends else _SAVE_SQL, change + update)
        else:
            cursor.execute(_CHANGE_INSERT_SQL, change)
            cursor.execute(_DRAFT_UPDATE_SQL, update)
    draft.steps = steps
    draft.version += 1
    draft.updated_at = now
    return draft


@transaction.atomic
def draft_step(
    *,
    draft: DraftHand,
    by,
    version: int,
    events: Sequence[TableEvent],
    client_id: uuid.UUID | None = None,
    locked: bool = False,
) -> DraftHand:
    """Log one or more events (e.g. a street's cards, one per seat) as one change: one
    undo takes the change back whole, with what the machine did by itself after it."""
    draft = _locked(draft, by, version, locked=locked)
    if not events:
        raise DomainError("a change logs at least one event: nothing was sent", field="events")
    machine = draft_machine(draft)
    hand = machine.hand
    done = [hand.apply(event, automate=False) for event in events]
    added = change_steps(done, hand.automate())
    draft = _save(draft, draft.steps + added, op="events", client_id=client_id, added=added)
    draft_machine_keep(draft, machine)
    return draft


@transaction.atomic
def draft_check_around(
    *,
    draft: DraftHand,
    by,
    version: int,
    client_id: uuid.UUID | None = None,
    locked: bool = False,
) -> DraftHand:
    """Everyone left to act on the street checks, in order, as one change (one undo
    takes every check back)."""
    draft = _locked(draft, by, version, locked=locked)
    machine = draft_machine(draft)
    hand = machine.hand
    done = check_around(hand)
    added = change_steps(done, hand.automate())
    draft = _save(draft, draft.steps + added, op="check_around", client_id=client_id, added=added)
    draft_machine_keep(draft, machine)
    return draft


@transaction.atomic
def draft_undo(
    *,
    draft: DraftHand,
    by,
    version: int,
    client_id: uuid.UUID | None = None,
    locked: bool = False,
) -> DraftHand:
    """Take back the last change: its events, and what the machine did by itself after them."""
    draft = _locked(draft, by, version, locked=locked)
    return _save(draft, undo_steps(draft.steps), op="undo", client_id=client_id)


@transaction.atomic
def draft_discard(
    *,
    draft: DraftHand,
    by,
    version: int,
    client_id: uuid.UUID | None = None,
    locked: bool = False,
) -> DraftHand:
    """Throw the draft away (nothing is recorded)."""
    draft = _locked(draft, by, version, locked=locked)
    _history(draft, "discard", client_id)
    draft.status = DraftStatus.DISCARDED
    draft.version += 1
    draft.save(update_fields=["status", "version"])
    return draft


@transaction.atomic
def draft_finish(
    *,
    draft: DraftHand,
    by,
    version: int,
    table_result: Mapping[str, Any] | None = None,
    client_id: uuid.UUID | None = None,
    locked: bool = False,
) -> Hand:
    """Record the logged hand as a full history (it must be over). Through the logger's
    outbox it carries a client id, so a re-sent "record" finds the hand already made."""
    draft = _locked(draft, by, version, locked=locked)
    hand = draft_walk(draft)
    hand.verify_complete_hand()
    if draft.game_version_id is not None:  # a house game: the version it was dealt under
        version = draft.game_version
        dealt: dict[str, Any] = {"game": version.game.slug, "game_version": version.number}
    else:
        dealt = {"variant": draft.variant, "options": draft.options}
    recorded = hand_record(
        tournament=draft.tournament,
        by=by,
        entry_mode="full",
        entry=history_entry(draft_events(draft), n=len(draft.positions)),
        table_result=table_result,
        number=draft.number,
        **dealt,
    )
    if recorded.positions != draft.positions or recorded.starting_stacks != draft.starting_stacks:
        raise Conflict(
            f"the stacks changed since hand {draft.number} was started (a ruling or a void "
            "on an earlier hand): discard this draft and log the hand again",
            code=Code.STALE_DRAFT,
        )
    _history(draft, "finish", client_id)
    draft.status = DraftStatus.RECORDED
    draft.hand = recorded
    draft.version += 1
    draft.save(update_fields=["status", "hand", "version"])
    return recorded
