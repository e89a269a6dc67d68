"""The live logger's outbox: the changes a phone made, sent in batches, applied exactly once.

Each change carries the phone's client id (a UUID) and ``base``, the draft's version the
phone made it against (a phone that logs three steps offline at version 7 sends bases 7, 8
and 9: every change adds one to the version). A batch is applied in the order of its hands'
numbers, then of its bases, whatever order it came in, each change in its own savepoint
(that of the live service that applies it):

- a client id already kept (:class:`~tracker.hands.models.DraftChange`) is not applied
  again: ``already`` (or ``dropped`` if the scorekeeper kept the other screen's version);
- ``base`` equal to the draft's version: the change is applied (``applied``);
- ``base`` ahead of it: an earlier change has not arrived yet; it waits (``waiting``), and
  is applied when the batch is sent again with the earlier one;
- ``base`` behind it, or the hand closed meanwhile: another screen moved the draft. The
  change and every later one of that draft are a ``conflict``; nothing of them is applied
  until :func:`outbox_resolve` is told which version to keep;
- a change the machine refuses is ``refused`` with its error (the later ones of that draft
  wait: they were made on top of it).

A hand the phone started itself, offline, comes as a change ``start`` (its client id names
the hand until the server has a draft for it: the hand's later changes carry it as
``start`` and no ``draft``), with the hand the phone assumed (number, game, seats dealt in,
stacks, stakes). The server deals the next hand and applies the start only if it is that
hand (:func:`~tracker.hands.services.live.draft_start_checked`); else the start and every
later change of that hand are ``refused``, with the reason. The changes of a batch go in
the order of the hands' numbers, then of their bases, so a hand's "record" comes before
the next hand's start whatever order they came in.

The client id is unique over every draft, and it is checked under the draft's row lock, so
the same outbox sent twice, or twice at once, records once.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from django.db import IntegrityError, transaction
from django.utils import timezone

from tracker.core.errors import Conflict, NotFound
from tracker.core.permissions import Capability, require
from tracker.engine.errors import Code, DomainError
from tracker.engine.events import TableEvent, event_from_json
from tracker.hands.models import DraftChange, DraftHand, DraftStatus, Hand
from tracker.hands.selectors.live import DraftState, draft_state
from tracker.hands.services.live import (
    draft_check_around,
    draft_discard,
    draft_finish,
    draft_start_checked,
    draft_step,
    draft_undo,
)
from tracker.tournaments.models import Tournament

#: The changes that are not events: the page's buttons of the same names.
CONTROL_OPS = ("check_around", "undo", "discard", "finish")

#: How a page's form reads into events / the table's result (web/presenters/live.py):
#: passed in, so the rules of the page's fields keep their one home.
FormEvents = Callable[[DraftState, Mapping[str, Any]], list[TableEvent]]
FormResult = Callable[[DraftState, Mapping[str, Any]], "dict[str, Any] | None"]

Status = Literal["applied", "already", "dropped", "waiting", "conflict", "refused"]


@dataclass(frozen=True)
class OutboxChange:
    """One change from a phone's outbox.

    ``op`` is ``"events"`` (``events`` in their JSON form, tracker/engine/events.py), one of
    :data:`CONTROL_OPS`, or a page's form op (``"act"``, ``"deal"``, ...) with the form's
    fields in ``form``; ``table_result`` goes with ``"finish"``."""

    client_id: uuid.UUID
    draft: int | None  # None: a hand the phone started, named by ``start``
    base: int
    op: str
    events: tuple[Mapping[str, Any], ...] = ()
    form: Mapping[str, Any] = field(default_factory=dict)
    table_result: Mapping[str, Any] | None = None
    start: uuid.UUID | None = None  # the client id of the phone's "start" of this hand
    hand: Mapping[str, Any] | None = None  # with "start": the hand the phone assumed

    @property
    def key(self) -> int | uuid.UUID:
        """The hand it belongs to: the draft, or the phone's start of it."""
        if self.draft is not None:
            return self.draft
        return self.client_id if self.op == "start" else self.start  # type: ignore[return-value]


@dataclass
class ChangeResult:
    client_id: uuid.UUID
    status: Status
    version: int | None = None  # the draft's version after it (applied)
    op: str = ""  # set for a "start"
    hand: int | None = None  # the hand recorded by it ("finish")
    error: DomainError | None = None
    draft: int | None = None  # the draft it went to (a "start": the hand's draft now)

    @property
    def started(self) -> bool:
        """A phone's start of a hand, kept: its answer names the hand's draft."""
        return self.op == "start" and self.draft is not None


@dataclass
class OutboxConflict:
    """Another screen moved the draft: the server's version, and the phone's changes from
    the first that conflicts (none of them applied)."""

    draft: DraftHand
    base: int  # the version the phone's changes start from
    pending: list[OutboxChange]

    @property
    def server_version(self) -> int:
        return self.draft.version


@dataclass
class OutboxResult:
    results: list[ChangeResult]
    conflicts: list[OutboxConflict]
    drafts: list[DraftHand]  # the drafts touched, as they stand now


def _started(tournament: Tournament, changes: Sequence[OutboxChange]) -> dict[uuid.UUID, int]:
    """The drafts the phone's starts named in ``changes`` went to, for the starts kept."""
    starts = {c.key for c in changes if c.draft is None}
    if not starts:
        return {}
    rows = DraftChange.objects.filter(
        client_id__in=starts, op="start", draft__tournament=tournament
    ).values_list("client_id", "draft_id")
    return dict(rows)


def _order(
    changes: Sequence[OutboxChange], tournament: Tournament
) -> tuple[list[OutboxChange], dict[uuid.UUID, int]]:
    """The changes in the order of their hands' numbers, then of their bases (a hand's
    start first), and the drafts of the phone's starts kept already."""
    started = _started(tournament, changes)

    def key(c: OutboxChange):
        k = c.key
        return started.get(k, k) if isinstance(k, uuid.UUID) else k

    pks = {key(c) for c in changes if isinstance(key(c), int)}
    numbers: dict[int, int] = {}
    if len({key(c) for c in changes}) > 1:  # one hand's changes need no numbers
        numbers = dict(
            DraftHand.objects.filter(tournament=tournament, pk__in=pks).values_list("pk", "number")
        )
    assumed = {c.client_id: c.hand.get("number") for c in changes if c.op == "start" and c.hand}

    def place(c: OutboxChange):
        k = key(c)
        base = -1 if c.op == "start" else c.base
        if isinstance(k, int):
            return (numbers.get(k, 0), 0, k, "", base)
        number = assumed.get(k)
        return (number if isinstance(number, int) else 2**31, 1, 0, str(k), base)

    return sorted(changes, key=place), started


def _locked_draft(tournament: Tournament, pk: int) -> DraftHand:
    draft = (
        DraftHand.objects.select_for_update()
        .select_related("tournament__league")
        .filter(pk=pk, tournament=tournament)
        .first()
    )
    if draft is None:
        raise NotFound(f"{tournament.name} has no live hand {pk}", field="draft")
    return draft


def _events(change: OutboxChange, draft: DraftHand, read_form: FormEvents | None):
    if change.op == "events":
        n = len(draft.positions)
        return [event_from_json(data, n=n) for data in change.events]
    if read_form is None:
        raise DomainError(f"{change.op!r} is not a change of the live logger", field="op")
    return read_form(draft_state(draft), change.form)


def _apply(
    change: OutboxChange,
    draft: DraftHand,
    *,
    by,
    version: int,
    read_form: FormEvents | None,
    read_result: FormResult | None,
) -> tuple[ChangeResult, DraftHand]:
    """Apply one change at ``version`` through the live services (they check it all) to
    ``draft``, read under its row lock (:func:`_locked_draft`: the services do not lock it
    again); the draft as it stands after it."""
    args = {
        "draft": draft, "by": by, "version": version, "client_id": change.client_id,
        "locked": True,
    }  # fmt: skip
    hand: Hand | None = None
    if change.op == "check_around":
        draft = draft_check_around(**args)
    elif change.op == "undo":
        draft = draft_undo(**args)
    elif change.op == "discard":
        draft = draft_discard(**args)
    elif change.op == "finish":
        result = change.table_result
        if result is None and change.form and read_result is not None:
            result = read_result(draft_state(draft), change.form)
        hand = draft_finish(**args, table_result=result)
        draft.refresh_from_db()
    else:
        draft = draft_step(**args, events=_events(change, draft, read_form))
    result = ChangeResult(
        change.client_id, "applied", version=draft.version, hand=getattr(hand, "pk", None)
    )
    return result, draft


def _kept(change: OutboxChange, tournament: Tournament) -> ChangeResult | None:
    """The answer for a change whose client id is kept already, if it is."""
    prior = DraftChange.objects.filter(client_id=change.client_id).select_related("draft").first()
    if prior is None:
        return None
    if prior.draft.tournament_id != tournament.pk:
        raise Conflict(
            f"client id {change.client_id} belongs to another night's hand: "
            "each change needs a new one",
            code=Code.CLIENT_ID_REUSED,
            field="id",
        )
    status: Status = "dropped" if prior.outcome == DraftChange.Outcome.DROPPED else "already"
    hand = prior.draft.hand_id if prior.op == "finish" else None
    return ChangeResult(
        change.client_id, status, version=prior.version, hand=hand, draft=prior.draft_id,
        op="start" if prior.op == "start" else "",
    )  # fmt: skip


def _start(
    change: OutboxChange, tournament: Tournament, *, by, started: dict[uuid.UUID, int]
) -> ChangeResult:
    """A hand the phone started: kept already, or checked and started (or refused)."""
    kept = _kept(change, tournament)
    if kept is not None:
        started[change.client_id] = kept.draft  # type: ignore[assignment]
        return kept
    try:
        draft = draft_start_checked(
            tournament=tournament, by=by, client_id=change.client_id, assumed=change.hand or {}
        )
    except IntegrityError:  # the same start kept meanwhile by another request
        return ChangeResult(change.client_id, "already")
    except DomainError as exc:
        return ChangeResult(change.client_id, "refused", error=exc)
    started[change.client_id] = draft.pk
    return ChangeResult(change.client_id, "applied", version=0, draft=draft.pk, op="start")


def _settle(
    changes: list[OutboxChange],
    tournament: Tournament,
    *,
    by,
    read_form: FormEvents | None,
    read_result: FormResult | None,
    rebase: int | None = None,
    started: dict[uuid.UUID, int] | None = None,
) -> OutboxResult:
    """Apply ``changes`` (in order) as the module's docstring says; with ``rebase``, the
    first is applied at that version and each later one at the next (keep mine)."""
    out = OutboxResult([], [], [])
    started = dict(started or {})
    refused_starts: dict[uuid.UUID, DomainError] = {}
    stopped: dict[int, DraftHand] = {}  # draft id -> the draft, once a change of it stopped
    touched: dict[int, DraftHand] = {}
    current: set[int] = set()  # drafts whose touched object is as the last change left it
    for k, change in enumerate(changes):
        if change.op == "start":
            if stopped and _kept(change, tournament) is None:
                # An earlier hand of the batch did not go through: this one waits for it.
                out.results.append(ChangeResult(change.client_id, "waiting"))
                continue
            result = _start(change, tournament, by=by, started=started)
            if result.error is not None:
                refused_starts[change.client_id] = result.error
            out.results.append(result)
            continue
        pk = change.draft if change.draft is not None else started.get(change.start)  # type: ignore[arg-type]
        if pk is None:
            error = refused_starts.get(change.start)  # type: ignore[arg-type]
            if error is not None:
                out.results.append(
                    ChangeResult(
                        change.client_id,
                        "refused",
                        error=DomainError(
                            f"not recorded: {error.message}", code=Code.START_REFUSED, field="start"
                        ),
                    )
                )
            else:  # its hand's start has not come, or waits
                out.results.append(ChangeResult(change.client_id, "waiting"))
            continue
        draft = _locked_draft(tournament, pk)  # first: a re-send waits for it
        touched[draft.pk] = draft
        current.discard(draft.pk)
        kept = _kept(change, tournament)
        if kept is not None:
            out.results.append(kept)
            continue
        if pk in stopped:
            conflict = next((c for c in out.conflicts if c.draft.pk == pk), None)
            if conflict is not None:
                conflict.pending.append(change)
                out.results.append(ChangeResult(change.client_id, "conflict"))
            else:
                out.results.append(ChangeResult(change.client_id, "waiting"))
            continue
        base = change.base if rebase is None else rebase + k
        if draft.status != DraftStatus.OPEN or base < draft.version:
            stopped[draft.pk] = draft
            out.conflicts.append(OutboxConflict(draft, change.base, [change]))
            out.results.append(ChangeResult(change.client_id, "conflict"))
            continue
        if base > draft.version:
            stopped[draft.pk] = draft
            out.results.append(ChangeResult(change.client_id, "waiting"))
            continue
        try:
            # Each live service is atomic itself (a savepoint here): a change it refuses
            # leaves nothing behind, and the batch goes on.
            result, after = _apply(
                change,
                draft,
                by=by,
                version=draft.version,
                read_form=read_form,
                read_result=read_result,
            )
        except IntegrityError:  # the same client id kept meanwhile by another request
            out.results.append(ChangeResult(change.client_id, "already"))
            continue
        except Conflict:
            raise
        except DomainError as exc:
            stopped[draft.pk] = draft
            out.results.append(ChangeResult(change.client_id, "refused", error=exc))
            continue
        out.results.append(result)
        touched[after.pk] = after
        current.add(after.pk)
    for pk, draft in touched.items():
        if pk not in current:
            draft.refresh_from_db()
    out.drafts = list(touched.values())
    return out


@transaction.atomic
def outbox_apply(
    *,
    tournament: Tournament,
    by,
    changes: Sequence[OutboxChange],
    read_form: FormEvents | None = None,
    read_result: FormResult | None = None,
) -> OutboxResult:
    """Apply a phone's outbox exactly once (the module's docstring has the rules)."""
    require(by, tournament.league, Capability.RECORD_HAND, "record hands")
    ordered, started = _order(changes, tournament)
    return _settle(
        ordered,
        tournament,
        by=by,
        read_form=read_form,
        read_result=read_result,
        started=started,
    )


def _steps_at(draft: DraftHand, version: int) -> list[dict]:
    """The draft's events as they stood at ``version`` (from the change made on it)."""
    if version == draft.version:
        return list(draft.steps)
    change = (
        DraftChange.objects.filter(draft=draft, base=version, outcome=DraftChange.Outcome.APPLIED)
        .order_by("-pk")
        .first()
    )
    if change is None:
        raise Conflict(
            f"hand {draft.number} as it stood at version {version} is not kept: "
            "keep the other screen's version and log your steps again",
            code=Code.VERSION_NOT_KEPT,
            field="base",
        )
    return list(change.steps_before)


@transaction.atomic
def outbox_resolve(
    *,
    tournament: Tournament,
    by,
    draft: int,
    keep: Literal["mine", "theirs"],
    server_version: int,
    changes: Sequence[OutboxChange],
    read_form: FormEvents | None = None,
    read_result: FormResult | None = None,
) -> OutboxResult:
    """Settle a conflict the way the scorekeeper chose.

    ``"theirs"``: the server's version stays; the phone's ``changes`` are kept as dropped
    (so a re-send of them is never applied). ``"mine"``: the draft goes back to the
    version the phone's changes were made on, as one change, then they are applied on it.
    ``server_version`` is the version the choice was offered for: if the draft moved again
    since, nothing is done and the choice is offered anew."""
    require(by, tournament.league, Capability.RECORD_HAND, "record hands")
    if keep not in ("mine", "theirs"):
        raise DomainError("must be 'mine' or 'theirs'", field="keep")
    locked = _locked_draft(tournament, draft)
    if locked.version != server_version:
        raise Conflict(
            f"hand {locked.number} changed again on another screen: choose again",
            code=Code.STALE_DRAFT,
            field="server_version",
        )
    ordered, started = _order(changes, tournament)
    mine = [c for c in ordered if (c.draft or started.get(c.key)) == locked.pk]  # type: ignore[arg-type]
    if len(mine) != len(changes):
        raise DomainError("every change resolved must be of this hand", field="changes")
    fresh = [c for c in mine if _kept(c, tournament) is None]
    if keep == "theirs":
        for change in fresh:
            DraftChange.objects.create(
                draft=locked,
                client_id=change.client_id,
                op=change.op,
                base=change.base,
                version=locked.version,
                outcome=DraftChange.Outcome.DROPPED,
            )
        out = OutboxResult(
            [_kept(c, tournament) for c in mine],  # type: ignore[misc]
            [],
            [locked],
        )
        return out
    if locked.status != DraftStatus.OPEN:
        raise Conflict(
            f"hand {locked.number} was {locked.get_status_display().lower()} on the other "
            "screen: keep its version",
            code=Code.DRAFT_CLOSED,
            field="keep",
        )
    if not fresh:
        return OutboxResult([_kept(c, tournament) for c in mine], [], [locked])  # type: ignore[misc]
    steps = _steps_at(locked, fresh[0].base)
    DraftChange.objects.create(
        draft=locked,
        op="replace",
        base=locked.version,
        version=locked.version + 1,
        steps_before=list(locked.steps),
    )
    locked.steps = steps
    locked.version += 1
    locked.updated_at = timezone.now()
    locked.save(update_fields=["steps", "version", "updated_at"])
    return _settle(
        fresh,
        tournament,
        by=by,
        read_form=read_form,
        read_result=read_result,
        rebase=locked.version,
        started=started,
    )
