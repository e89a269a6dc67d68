"""The audit log: every write, who made it, when, through which channel, from where.

``tracker.middleware.AuditContextMiddleware`` puts the request into a context
variable for the length of each request. Services call :func:`audit_record`
inside their own transaction, so an entry is stored exactly when the write is:
a refused or rolled-back write leaves no entry, and no write is stored without
one. The actor, channel, token and address are read from the request when the
entry is written (after DRF has authenticated it). Outside a request (the
worker, management commands) and inside :func:`system_actor` the channel is
``system`` and the actor ``system``, unless a service names the user it acts for.

The API token itself is never stored: ``token_id`` is a short fingerprint of it
(see :func:`token_fingerprint`), which the token endpoint also reports.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, NamedTuple

from django.db import models

from tracker.audit.models import AuditEntry
from tracker.core.bulk import rows_insert

SYSTEM = "system"
ANONYMOUS = "anonymous"


@dataclass(frozen=True)
class AuditContext:
    request: Any = None  # the Django HttpRequest, or None
    system: bool = False  # inside a background job: the actor is "system"


_context: ContextVar[AuditContext | None] = ContextVar("homegame_audit_context", default=None)


@contextmanager
def request_context(request) -> Iterator[None]:
    """Record writes made while handling ``request`` as made by its user (used by the middleware)."""
    token = _context.set(AuditContext(request=request))
    try:
        yield
    finally:
        _context.reset(token)


@contextmanager
def system_actor() -> Iterator[None]:
    """Writes made inside are the system's (background work such as settlement)."""
    token = _context.set(AuditContext(system=True))
    try:
        yield
    finally:
        _context.reset(token)


def token_fingerprint(key: str | None) -> str:
    """A short, one-way name for an API token: safe to store and to show."""
    if not key:
        return ""
    return "tok_" + hashlib.sha256(key.encode()).hexdigest()[:12]


def client_ip(request) -> str | None:
    """The client's address (tracker/core/ratelimit.py: ``TRUSTED_PROXY_COUNT`` proxies)."""
    from tracker.core.ratelimit import client_address, valid_address

    if getattr(request, "META", None) is None:
        return None
    return valid_address(client_address(request))


def _who(actor, ctx: AuditContext | None, channel: str | None):
    """(actor_id, actor name, channel, token fingerprint, ip) for the entry being written."""
    request = ctx.request if ctx is not None else None
    if ctx is None or ctx.system or request is None:
        if (
            actor is not None
            and getattr(actor, "is_authenticated", False)
            and not (ctx is not None and ctx.system)
        ):
            return actor.pk, actor.get_username(), channel or SYSTEM, "", None
        return None, SYSTEM, SYSTEM, "", None
    user = getattr(request, "user", None)
    auth = getattr(request, "auth", None)
    token_id = ""
    key = getattr(auth, "key", None)
    fingerprint = getattr(auth, "fingerprint", None)  # an API token (the key is not kept)
    if fingerprint or key:
        token_id = fingerprint or token_fingerprint(key)
        how = "token"
    elif user is not None and getattr(user, "is_authenticated", False):
        how = "session"
    else:
        how = ANONYMOUS
    who = actor if actor is not None and getattr(actor, "is_authenticated", False) else user
    if who is not None and getattr(who, "is_authenticated", False):
        actor_id, name = who.pk, who.get_username()
    else:
        actor_id, name = None, ANONYMOUS
    return actor_id, name, channel or how, token_id, client_ip(request)


def _is_league(obj) -> bool:
    meta = getattr(obj, "_meta", None)
    return meta is not None and meta.label == "tracker.League"


def _league_of(target):
    """The league a row belongs to (the league itself, or through its tournament or hand)."""
    if _is_league(target):
        return target
    for path in (("league",), ("tournament", "league"), ("hand", "tournament", "league")):
        obj = target
        try:
            for part in path:
                obj = getattr(obj, part)
        except AttributeError:
            continue
        if _is_league(obj):
            return obj
    return None


def _jsonable(datas: Sequence[Mapping | None]) -> list[dict]:
    """Each of ``datas`` as plain JSON (``{}`` for none), by one JSON text for them all:
    tuples become lists, and any value JSON has no type for (a time, a decimal, an id) is
    written as its ``str()``.

    >>> import datetime, decimal
    >>> _jsonable([{"at": datetime.date(2026, 12, 4), "pot": decimal.Decimal("1.50"),
    ...             "seats": (1, 2)}, None])
    [{'at': '2026-12-04', 'pot': '1.50', 'seats': [1, 2]}, {}]
    """
    return json.loads(json.dumps([dict(d) if d else {} for d in datas], default=str))


def audit_record(
    *,
    action: str,
    target: models.Model | None = None,
    data: Mapping[str, Any] | None = None,
    league=None,
    actor=None,
    channel: str | None = None,
) -> AuditEntry:
    """Store one audit entry. Call it inside the transaction of the write it records.

    ``action`` is ``noun.verb`` (``hand.record``, ``ruling.make``); ``target`` the row
    written; ``data`` a JSON summary. ``league`` defaults to the target's league.
    ``actor`` names the user acting when there is no request (a command); in a request
    the request's user is the actor unless it is anonymous (a password login).
    """
    who = _who(actor, _context.get(), channel)
    league = league if league is not None else (_league_of(target) if target else None)
    entry = _entry(action, target, data, league, who)
    entry.save(force_insert=True)
    return entry


def _entry(action: str, target, data, league, who) -> AuditEntry:
    """An audit row, not saved; ``who`` is what :func:`_who` answers."""
    return AuditEntry(**_entry_values(action, target, data, league, who))


def _entry_values(action: str, target, data, league, who) -> dict[str, Any]:
    """The fields of an audit row (attribute names to values)."""
    actor_id, name, how, token_id, ip = who
    return dict(
        action=action,
        actor_id=actor_id,
        actor=name[:150],
        channel=how,
        token_id=token_id,
        ip=ip,
        league_id=league.pk if league is not None else None,
        league_slug=league.slug if league is not None else "",
        target_type=_target_type(target),
        target_id=str(target.pk) if target is not None and target.pk is not None else "",
        target=_label(target)[:200] if target is not None else "",
        data=_jsonable([data])[0] if data else {},
    )


def audit_record_many(
    *,
    action: str,
    entries: Sequence[tuple[models.Model | AuditTarget, Mapping[str, Any] | None]],
    league,
    actor=None,
    channel: str | None = None,
) -> None:
    """Store one audit entry per ``(target, data)`` of ``entries``, all of one ``action`` by
    one actor in one ``league``, in one bulk write (e.g. the hands of an import batch), with
    no model instance per entry."""
    who = _who(actor, _context.get(), channel)
    rows = [_entry_values(action, t, None, league, who) for t, _ in entries]
    datas = _jsonable([data for _, data in entries])
    for row, data in zip(rows, datas, strict=True):
        row["data"] = data
    rows_insert(AuditEntry, rows)


class AuditTarget(NamedTuple):
    """A row an audit entry names, given by its parts instead of a model instance (the hands
    of an import batch, written as plain rows): the model's name, the row's id and how the
    log names it."""

    model_name: str
    pk: Any
    audit_label: str


def _target_type(target) -> str:
    if target is None:
        return ""
    if isinstance(target, AuditTarget):
        return target.model_name
    return target._meta.model_name


def _label(target) -> str:
    """How the log names a row: its ``audit_label`` when it has one, else ``str()``."""
    label = getattr(target, "audit_label", None)
    return label if isinstance(label, str) else str(target)
